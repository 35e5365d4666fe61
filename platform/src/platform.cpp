#include "platform.hpp"

#include <cctype>
#include <chrono>
#include <iomanip>
#include <new>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>
#include <utility>

#include "par/plugin/crash_report.hpp"
#include "par/core/stream_registers.hpp"
#include "par/simkit/format.hpp"
#include "host_programs.hpp"
#include "packet_host_program.hpp"
#include "program_runner.hpp"
#include "run_watchdog.hpp"

namespace par::platform {

namespace {
// Physical addresses are 48 bits wide; the host's window onto the device ends there.
constexpr std::uint64_t kAddressSpaceEnd = 1ull << 48;

std::string at_simulated(double ns) { return " at " + simkit::format_fixed(ns * 1e-3, 3) + " us simulated"; }
std::string at_simulated_now() { return at_simulated(sc_core::sc_time_stamp().to_seconds() * 1e9); }

// How a run stopped by Ctrl-C or the host-time limit is told: the error line and stats.json's
// "end". `at` is " at X us simulated"; `stuck` names what did not return to the run loop (the
// watchdog's case), or is "".
struct StopText {
  std::string error, status, reason;
};
StopText stop_text(RunStop why, double max_host_seconds, const std::string& at, const std::string& stuck) {
  const std::string but = stuck.empty() ? "" : ", but " + stuck;
  if (why == RunStop::Interrupted)
    return {"interrupted" + at + but + "; the statistics cover the run so far", "interrupted", "Ctrl-C (SIGINT)" + at + but};
  const std::string e = "stopped after " + simkit::format_fixed(max_host_seconds, 1) +
                        " host seconds (--max-host-seconds)" + at + but + "; the statistics cover the run so far";
  return {e, "host_time_limit", e};
}
}  // namespace

// Construction in steps, each leaving error_ set when it fails (the platform is then unusable):
// the modules are built first, then wire() binds them, in one place.
Platform::Platform(const PlatformConfig& cfg, const isa::Program& program) : cfg_(cfg), program_(program) {
  (void)(check_program() && open_traces() && load_plugins() && build_device_side() && build_host_side() && wire() &&
         load_program() && choose_host_software());
  if (ok()) observe();
}

bool Platform::check_program() {
  for (const std::string& p : cfg_.validate()) error_ += (error_.empty() ? "" : "\n") + p;
  if (!error_.empty()) return false;
  if (program_.kind != isa::ProgramKind::Packet && !cfg_.full_system()) {
    error_ = "'" + program_.source_file +
             "' is a .MASTER program: it runs on the master core of the full system (platform.host = master, "
             "e.g. --config platform/configs/device-dram.ini)";
    return false;
  }
  loaded_ = core::LoadedProgram::load(program_, cfg_.core, &error_);
  if (!loaded_) return false;
  // A core with options of its own (core3.lanes) decodes the program for its own timing.
  for (int i = 0; i < cfg_.cores; ++i) {
    core_cfgs_.push_back(cfg_.core_config(i));
    const std::string name = "core" + std::to_string(i);
    if (!cfg_.has_instance_values(name)) {
      core_programs_.push_back(loaded_.get());
      continue;
    }
    instance_programs_.push_back(core::LoadedProgram::load(program_, core_cfgs_.back(), &error_));
    if (!instance_programs_.back()) {
      error_ = name + ": " + error_;
      return false;
    }
    core_programs_.push_back(instance_programs_.back().get());
  }
  return true;
}

bool Platform::open_traces() {
  // Every binding goes through links_, which inserts a protocol checker when asked to.
  links_ = std::make_unique<tlmcheck::CheckedBindings<>>(cfg_.protocol_check);
  timeline_ = trace::make_timeline(cfg_.trace);
  vcd_ = trace::make_vcd(cfg_.trace);
  exec_trace_ = trace::make_exec_trace(cfg_.trace, program_.code_labels, timeline_.get(), &error_);
  return error_.empty();
}

// The platform's arguments to a plug-in: the model's address range [0, size) (offsets from
// `base`) and clock.
plugin::TargetSpec Platform::plugin_spec(const std::string& instance, const plugin::PluginConfig& model,
                                         std::uint64_t size, std::uint64_t base, double clock_mhz) {
  plugin::TargetSpec spec;
  spec.instance = instance;
  spec.config = model;
  std::ostringstream mhz;
  mhz << std::setprecision(17) << clock_mhz;
  spec.platform_args = {{"size", std::to_string(size)}, {"base", std::to_string(base)}, {"clock_mhz", mhz.str()}};
  spec.connect = [this](plugin::PluginTarget::OutSocket& out, plugin::TargetSocket& target) {
    links_->bind(out, out.name(), target, target.get_base_export().name());
  };
  return spec;
}

// Plug-ins first: loading one registers TLM extension types, which must happen before any payload
// is constructed (cores, interconnects, launcher).
bool Platform::load_plugins() {
  const auto load = [this](const char* instance, const plugin::PluginConfig& model, const dram::DramConfig& replaced,
                           std::uint64_t base) {
    const dram::DramConfig d = replaced.resolved();  // size and clock still come from <instance>.*
    return plugin::make_target(plugin_spec(instance, model, d.capacity(), base, d.clock_mhz), error_);
  };
  if (cfg_.dram_model.is_plugin() && !(dram_plugin_ = load("dram", cfg_.dram_model, cfg_.dram, cfg_.global_base)))
    return false;
  if (cfg_.host_mem_model.is_plugin() &&
      !(host_mem_plugin_ = load("host_mem", cfg_.host_mem_model, cfg_.host_mem, cfg_.host_mem_base)))
    return false;
  // L2 bank models are built inside the L2 (so they are named l2.bank<i>); their library is loaded
  // now. A bad path is reported when the first bank is built.
  std::set<std::string> bank_libraries;
  for (unsigned b = 0; cfg_.l2_bank_model.is_plugin() && b < cfg_.l2.banks; ++b) {
    plugin::ModelOption m;
    std::string ignored;
    if (plugin::parse_model_option(cfg_.l2_bank_model_config(b).model, m, ignored) && bank_libraries.insert(m.path).second)
      l2_bank_libraries_.push_back(plugin::PluginLibrary::open(m.path, ignored));
  }
  return true;
}

// Device side: PAR cores, [private L1s,] the device interconnect, [L2 banks,] device DRAM, the
// thread scheduler. Built here, bound in wire().
bool Platform::build_device_side() {
  const sc_core::sc_time period(1e3 / cfg_.run.clock_mhz, sc_core::SC_NS);
  const sc_core::sc_time quantum(cfg_.run.quantum_ns, sc_core::SC_NS);
  bus_ = std::make_unique<interconnect::Interconnect>("bus", cfg_.bus);
  if (cfg_.l1.enabled) l1_ = std::make_unique<l1::L1Caches>("l1", cfg_.l1, static_cast<unsigned>(cfg_.cores), period);
  for (int i = 0; i < cfg_.cores; ++i) {
    try {
      const auto c = static_cast<std::size_t>(i);
      cores_.push_back(std::make_unique<core::ParCore>(("core" + std::to_string(i)).c_str(), core_cfgs_[c],
                                                       *core_programs_[c], cfg_.run.mode, cfg_.run.functional_width,
                                                       period, quantum));
      cores_.back()->share_registers(register_pools_);
    } catch (const std::bad_alloc&) {
      error_ = "core" + std::to_string(i) + ": the host cannot provide its " +
               simkit::format_bytes(cfg_.core.local_mem_size) + " of local memory (core.local_mem_size)";
      return false;
    }
  }
  if (cfg_.memory == MemorySystem::L2Dram) {
    // Plug-in L2 banks serve their lines themselves (the plug-in interface is a target only): no
    // DRAM behind them.
    const auto plugin_bank = [this](const char* name, unsigned index) -> l2::L2::BankSocket& {
      const std::string instance = "l2.bank" + std::to_string(index);
      plugin::TargetSpec spec = plugin_spec(name, cfg_.l2_bank_model_config(index), cfg_.dram.resolved().capacity(),
                                            cfg_.global_base, cfg_.l2.clock_mhz);
      spec.option_prefix = cfg_.has_instance_values(instance) ? instance : "l2.bank";
      spec.platform_args["bank"] = std::to_string(index);
      spec.platform_args["banks"] = std::to_string(cfg_.l2.banks);
      spec.platform_args["line_bytes"] = std::to_string(cfg_.l2.line_bytes);
      std::string why;
      std::unique_ptr<plugin::PluginTarget> bank = plugin::make_target(spec, why);
      if (!bank) throw std::runtime_error(why);  // caught around the L2's construction
      l2_bank_plugins_.push_back(std::move(bank));
      return l2_bank_plugins_.back()->in;
    };
    try {
      l2::L2Config l2_cfg = cfg_.l2;
      l2_cfg.prefetch_stats = cfg_.core.prefetch.enabled;  // the banks report what became of the prefetches
      l2_ = std::make_unique<l2::L2>("l2", l2_cfg, cfg_.l2_bank_model.is_plugin() ? plugin_bank : l2::L2::BankFactory());
    } catch (const std::runtime_error& e) {
      error_ = e.what();
      return false;
    }
  }
  const bool dram_behind = cfg_.memory == MemorySystem::Dram || (l2_ && l2_->builtin_banks());
  if (dram_behind && !dram_plugin_) dram_ = std::make_unique<dram::Dram>("dram", cfg_.dram);
  scheduler_ = std::make_unique<sched::ThreadScheduler>("scheduler", cfg_.scheduler);
  std::vector<std::uint64_t> core_slots;  // per-instance options may give cores different shapes
  for (std::size_t c = 0; c < cores_.size(); ++c) core_slots.push_back(static_cast<std::uint64_t>(core_cfgs_[c].slots()));
  scheduler_->set_core_slots(std::move(core_slots));
  return true;
}

// Host side: the full system's host interconnect, HT link, host memory and master core; in the
// stand-alone setting the idealised launcher of the program's packet.
bool Platform::build_host_side() {
  if (!cfg_.full_system()) {
    core::PacketDescriptor packet;
    packet.start = program_.start;
    packet.threads = program_.threads;
    for (int i = 1; i < 16; ++i) packet.inherited[i] = program_.inherited[static_cast<std::size_t>(i)];
    launcher_ = std::make_unique<PacketLauncher>("launcher", packet, cfg_.scheduler_base, cfg_.run.repeat);
    return true;
  }
  host_bus_ = std::make_unique<interconnect::Interconnect>("host_bus", cfg_.host_bus);
  link_ = std::make_unique<ht::HtLink>("link", cfg_.ht);
  if (!host_mem_plugin_) host_mem_ = std::make_unique<dram::Dram>("host_mem", cfg_.host_mem);
  try {
    master_ = std::make_unique<master::MasterCore>("master", cfg_.master, program_);
  } catch (const std::invalid_argument& e) {
    error_ = e.what();
    return false;
  }
  host_done_ = std::make_unique<StopOnEvent>("host_done", master_->finished_event());
  return true;
}

template <class Initiator, class Target>
void Platform::bind(Initiator& initiator, Target& target) {
  links_->bind(initiator, initiator.name(), target, target.name());
}

// With a timeline, a tap on the binding records every transaction on track process/thread.
template <class Initiator, class Target>
void Platform::bind_traced(Initiator& initiator, Target& target, const std::string& process, const std::string& thread,
                           const char* category) {
  if (!timeline_) return bind(initiator, target);
  std::string name = "tap_" + process + "_" + thread;
  for (char& ch : name)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  taps_.push_back(std::make_unique<trace::TransactionTap<>>(name.c_str(), timeline_.get(), process, thread, category));
  bind(initiator, taps_.back()->in);
  bind(taps_.back()->out, target);
}

// Every binding of the platform: which module talks to which. An interconnect's output port and
// the address ranges it serves are bound together (Interconnect::bind).
bool Platform::wire() {
  const auto direct = [this](auto& out, auto& target) { bind(out, target); };
  const auto traced = [this](const char* process, const char* category) {
    return [this, process, category](auto& out, auto& target) { bind_traced(out, target, process, "in", category); };
  };
  const auto map = [this](const std::string& overlap) {  // an address-map error: the first is kept
    if (error_.empty()) error_ = overlap;
  };
  const auto line = [this](const std::string& name) -> sc_core::sc_signal<bool>& {  // a completion line
    core_irqs_.push_back(std::make_unique<sc_core::sc_signal<bool>>(name.c_str()));
    return *core_irqs_.back();
  };

  // Device side: PAR cores -> [private L1s ->] device interconnect -> [L2 banks ->] device DRAM.
  for (std::size_t i = 0; i < cores_.size(); ++i) {
    if (!l1_) {
      bind(cores_[i]->mem, bus_->in);
      continue;
    }
    l1::L1Cache& l1 = l1_->cache(static_cast<unsigned>(i));
    bind(cores_[i]->mem, l1.in);
    bind(l1.out, bus_->in);
  }
  if (cfg_.memory == MemorySystem::Dram || cfg_.memory == MemorySystem::L2Dram) {
    const interconnect::Region dram_region{"dram", cfg_.global_base, cfg_.dram.resolved().capacity()};
    const auto wire_dram = [&](auto& dram_in) {
      if (!l2_) return map(bus_->bind(dram_in, {dram_region}, direct));
      for (unsigned b = 0; b < l2_->banks(); ++b)
        bind_traced(l2_->bank(b).mem, dram_in, "l2", "bank" + std::to_string(b) + " misses", "l2");
    };
    if (dram_plugin_) wire_dram(dram_plugin_->in);
    else if (dram_) wire_dram(dram_->in);  // (plug-in L2 banks serve their lines themselves: no DRAM)
    if (l2_) map(bus_->bind(l2_->in, {dram_region}, traced("l2", "l2")));
  }

  // The thread scheduler splits packets over the cores: it writes their control registers and
  // watches their completion lines (through the core's L1, which writes back and empties itself
  // before the scheduler sees the share end). Its registers sit on the interconnect, its
  // completion-flag writes go out through it; its completion interrupt goes to the host.
  for (std::size_t i = 0; i < cores_.size(); ++i) {
    core::ParCore& c = *cores_[i];
    bind(scheduler_->cores, c.ctrl);
    sc_core::sc_signal<bool>* done = &line(c.basename() + std::string("_irq"));
    c.irq.bind(*done);
    if (l1_) {
      l1::L1Cache& l1 = l1_->cache(static_cast<unsigned>(i));
      l1.core_done.bind(*done);
      l1.done.bind(*(done = &line(c.basename() + std::string("_l1_done"))));
    }
    scheduler_->core_irq.bind(*done);
  }
  for (std::size_t i = 0; i < cores_.size(); ++i)
    if (cores_[i]->streams() != nullptr)
      map(bus_->bind(*cores_[i]->streams(), {stream_region(i)}, direct));
  bind(scheduler_->notify, bus_->in);
  map(bus_->bind(scheduler_->regs, {{"scheduler", cfg_.scheduler_base, sched::kRegSpaceEnd}}, direct));

  if (launcher_) {  // stand-alone: the launcher writes the packet into the scheduler
    bind(launcher_->out, bus_->in);
    scheduler_->irq.bind(launcher_->irq);
  } else {
    // Full system: master core -> host interconnect -> host memory, and every other address across
    // the HT link to the device interconnect; device accesses to host memory (XD1000-like data,
    // completion flags) come back across the link.
    const std::uint64_t host_lo = cfg_.host_mem_base, host_bytes = cfg_.host_mem.resolved().capacity();
    const interconnect::Region host_region{"host_mem", host_lo, host_bytes};
    map(host_mem_plugin_ ? host_bus_->bind(host_mem_plugin_->in, {host_region}, direct)
                         : host_bus_->bind(host_mem_->in, {host_region}, direct));
    map(host_bus_->bind(link_->host_in, device_regions(), direct));
    map(bus_->bind(link_->dev_in, {{"host_mem", host_lo, host_bytes, 0, false}}, direct));
    bind(link_->dev_out, bus_->in);
    bind(link_->host_out, host_bus_->in);
    scheduler_->irq.bind(link_->dev_irq);
    bind_traced(master_->bus, host_bus_->in, "host", "ops", "host");
    link_->host_irq.bind(master_->irq);
  }
  return error_.empty();
}

interconnect::Region Platform::stream_region(std::size_t core) const {
  return {cores_[core]->basename() + std::string(".streams"), cfg_.stream_base + core * core::kStreamWindowStride,
          core::stream_window_bytes(static_cast<std::uint64_t>(cfg_.core.stream.srf_elements))};
}

// The host's view of the device: every address outside host memory, untranslated (one address space).
std::vector<interconnect::Region> Platform::device_regions() const {
  const std::uint64_t host_lo = cfg_.host_mem_base, host_hi = host_lo + cfg_.host_mem.resolved().capacity();
  std::vector<interconnect::Region> device;
  if (host_lo > 0) device.push_back({"device_low", 0, host_lo, 0, false});
  if (host_hi < kAddressSpaceEnd) device.push_back({"device_high", host_hi, kAddressSpaceEnd - host_hi, 0, false});
  return device;
}

// Data sections in the local window go to every core's local memory, the rest to global memory
// once the platform is elaborated (run()); each must fall in one of the two.
bool Platform::load_program() {
  for (auto& c : cores_) {
    isa::Program local_part = program_;
    local_part.data.clear();
    for (const isa::DataSection& d : program_.data)
      if (c->local_memory().contains(d.address, d.bytes.size())) local_part.data.push_back(d);
    if (!core::load_data(local_part, c->local_memory(), &error_)) return false;
  }
  for (const isa::DataSection& d : program_.data) {
    if (d.bytes.empty() || cores_[0]->local_memory().contains(d.address, d.bytes.size())) continue;
    const interconnect::Region* r = bus_->region_of(d.address);
    if (r == nullptr || r->name == "scheduler" || d.bytes.size() > r->size - (d.address - r->base)) {
      std::ostringstream os;
      os << "data section at 0x" << std::hex << d.address << std::dec << " (" << d.bytes.size()
         << " bytes) is neither in the local memory [0x" << std::hex << cfg_.core.local_mem_base << ", 0x"
         << cfg_.core.local_mem_base + cfg_.core.local_mem_size << ") nor in global memory";
      if (cfg_.memory == MemorySystem::Local) os << " (platform.memory = local)";
      error_ = os.str();
      return false;
    }
  }
  return true;
}

// The host software on the master core (full system): a C++ host program, the file's .MASTER
// program, or a driver that launches the file's packet.
bool Platform::choose_host_software() {
  if (!master_) return true;
  std::unique_ptr<runtime::HostProgram> host;
  if (!cfg_.host_program.empty()) {
    std::string why;
    if (!(host = host::make_host_program(cfg_.host_program, &why))) {
      error_ = "platform.host_program: " + why;
      return false;
    }
  } else if (program_.kind == isa::ProgramKind::Packet) {
    host = std::make_unique<PacketHostProgram>(program_, cfg_.run.repeat);
  }
  try {
    host_runtime_ = std::make_unique<runtime::HostRuntime>(master_->port(), runtime_config(), program_, master_->stats());
  } catch (const std::invalid_argument& e) {
    error_ = e.what();
    return false;
  }
  host_runtime_->set_diagnostics([this](std::uint64_t seq) { return device_diagnosis(seq); });
  if (host) {
    host_software_ = std::make_unique<runtime::HostProgramRunner>(std::move(host), *host_runtime_);
    master_->set_host_software(*host_software_);
  } else {
    master_->set_packet_control(*host_runtime_);
  }
  return true;
}

// The modules' tracing hooks (null = off) and the statistics tree.
void Platform::observe() {
  for (auto& c : cores_) {
    c->set_trace(timeline_.get(), vcd_.get());
    c->set_exec_trace(exec_trace_.get());
  }
  scheduler_->set_trace(timeline_.get(), vcd_.get());
  if (link_) link_->set_trace(timeline_.get(), vcd_.get());
  if (dram_) dram_->set_trace(timeline_.get(), vcd_.get());
  if (host_mem_) host_mem_->set_trace(timeline_.get(), vcd_.get());
  if (l2_ && l2_->builtin_banks())
    for (unsigned b = 0; b < l2_->banks(); ++b) l2_->bank(b).set_trace(vcd_.get());
  // Window samples hold each core's work up to the boundary, although the cores run ahead.
  if (cfg_.run.stats_window_cycles > 0)
    for (auto& c : cores_) c->set_sample_period(stats_window());

  std::vector<core::ParCore*> cores;
  for (const auto& c : cores_) cores.push_back(c.get());
  stats_ = std::make_unique<PlatformStats>(cfg_, cores, module_stats(),
                                           std::vector<std::string>{"master.host_busy_ns", "link.h2d.busy_ns", "link.d2h.busy_ns"});
  launch_sampler_ = std::make_unique<LaunchSampler>("launch_sampler", *stats_, *scheduler_);
}

Platform::~Platform() = default;

runtime::RuntimeConfig Platform::runtime_config() const {
  runtime::RuntimeConfig m = cfg_.runtime_config();
  // Unless given, the runtime's heap is the memory where the data lives, above the program's data.
  if (m.heap_bytes == 0 && cfg_.memory != MemorySystem::Local) {
    const bool in_host = cfg_.memory == MemorySystem::Host;
    const std::uint64_t base = in_host ? cfg_.host_mem_base : cfg_.global_base;
    const std::uint64_t bytes = in_host ? cfg_.host_mem.resolved().capacity() : cfg_.dram.resolved().capacity();
    std::uint64_t used = base;
    for (const isa::DataSection& d : program_.data)
      if (d.address >= base && d.address - base < bytes) used = std::max(used, d.address + d.bytes.size());
    m.heap_base = (used + 4095) / 4096 * 4096;
    m.heap_bytes = m.heap_base < base + bytes ? base + bytes - m.heap_base : 0;
  }
  return m;
}

std::string Platform::device_diagnosis(std::uint64_t seq) const {
  const auto& records = scheduler_->packet_records();
  if (seq == 0 || seq > records.size()) return "";
  std::string why = records[seq - 1].error;
  for (const auto& c : cores_)
    if (c->failed()) why += (why.empty() ? "" : "; ") + c->error();
  return why;
}

std::string Platform::load_global_data() {
  for (const isa::DataSection& d : program_.data) {
    if (d.bytes.empty() || cores_[0]->local_memory().contains(d.address, d.bytes.size())) continue;
    tlm::tlm_generic_payload tx;
    tx.set_command(tlm::TLM_WRITE_COMMAND);
    tx.set_address(d.address);
    tx.set_data_ptr(const_cast<unsigned char*>(d.bytes.data()));
    tx.set_data_length(static_cast<unsigned>(d.bytes.size()));
    tx.set_streaming_width(static_cast<unsigned>(d.bytes.size()));
    if (bus_->in.get_base_export()->transport_dbg(tx) != d.bytes.size()) {
      std::ostringstream os;
      os << "cannot load the data section at 0x" << std::hex << d.address << " into global memory";
      return os.str();
    }
  }
  return "";
}

std::string Platform::check_memory_range(std::uint64_t addr, std::uint64_t len) const {
  if (len == 0 || cores_[0]->local_memory().contains(addr, len)) return "";
  if (const interconnect::Region* r = bus_->region_of(addr); r != nullptr && len <= r->size - (addr - r->base))
    return "";
  std::ostringstream os;
  os << "0x" << std::hex << addr << std::dec << ":" << len << " is outside the local memory [0x" << std::hex
     << cfg_.core.local_mem_base << ", 0x" << cfg_.core.local_mem_base + cfg_.core.local_mem_size
     << ") and outside every global memory region";
  if (cfg_.memory == MemorySystem::Local) os << " (platform.memory = local)";
  return os.str();
}

std::string Platform::read_memory(std::uint64_t addr, std::uint8_t* data, std::size_t len) {
  if (const std::string e = check_memory_range(addr, len); !e.empty()) return e;
  // A run that stopped early may have left results in the L1s (a completed share leaves none).
  if (l1_) l1_->flush(false);
  if (cores_[0]->local_memory().contains(addr, len)) {
    cores_[0]->local_memory().read_block(addr, data, len);
    return "";
  }
  tlm::tlm_generic_payload tx;
  tx.set_command(tlm::TLM_READ_COMMAND);
  tx.set_address(addr);
  tx.set_data_ptr(data);
  tx.set_data_length(static_cast<unsigned>(len));
  tx.set_streaming_width(static_cast<unsigned>(len));
  if (bus_->in.get_base_export()->transport_dbg(tx) == len) return "";
  std::ostringstream os;
  os << "0x" << std::hex << addr << std::dec << ":" << len << " could not be read (the memory there answered "
     << "fewer bytes)";
  return os.str();
}

std::vector<simkit::StatGroup*> Platform::module_stats() {
  std::vector<simkit::StatGroup*> g{&bus_->stats(), &scheduler_->stats()};
  if (links_->enabled()) g.push_back(&links_->stats());
  if (l1_) g.push_back(&l1_->stats());
  if (l2_) g.push_back(&l2_->stats());
  if (dram_) g.push_back(&dram_->stats());
  if (host_bus_) g.push_back(&host_bus_->stats());
  if (link_) g.push_back(&link_->stats());
  if (host_mem_) g.push_back(&host_mem_->stats());
  if (master_) g.push_back(&master_->stats());
  if (dram_plugin_) g.push_back(&dram_plugin_->stats());
  if (host_mem_plugin_) g.push_back(&host_mem_plugin_->stats());
  for (auto& bank : l2_bank_plugins_) g.push_back(&bank->stats());
  return g;
}

std::string Platform::status_text() const {
  std::ostringstream os;
  os << simkit::format_fixed(sc_core::sc_time_stamp().to_seconds() * 1e6, 3) << " us simulated";
  std::int64_t threads = 0;
  for (const auto& c : cores_) threads += c->threads_started();
  const std::size_t launched = scheduler_->packet_records().size();
  std::size_t done = 0;
  for (const auto& rec : scheduler_->packet_records()) done += rec.done ? 1 : 0;
  os << ", " << done << "/" << launched << " packets done, " << threads << " threads started";
  // A packet run (no host software of its own) knows how much work there is: percentage and ETA.
  const double total = static_cast<double>(program_.threads) * cfg_.run.repeat;
  if (program_.kind == isa::ProgramKind::Packet && cfg_.host_program.empty() && program_.threads > 0 && threads > 0) {
    const double fraction = std::min(1.0, static_cast<double>(threads) / total);
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - run_start_).count();
    os << " (" << simkit::format_fixed(100.0 * fraction, 1) << "%, ETA "
       << simkit::format_fixed(elapsed * (1 - fraction) / fraction, 1) << " s)";
  }
  return os.str();
}

std::string Platform::pending_work() const {
  std::ostringstream os;
  for (const auto& rec : scheduler_->packet_records())
    if (!rec.done)
      os << "\n  scheduler: packet " << rec.seq << " (start " << rec.start << ", " << rec.threads << " threads) "
         << (rec.shares == 0 ? "waiting to be dispatched" : "waiting for its shares to complete");
  for (const auto& c : cores_) {
    const std::string w = c->pending_work();
    if (!w.empty()) os << "\n  " << c->name() << ": " << w;
  }
  if (launcher_ && !launcher_->done()) os << "\n  launcher: waiting for the packet's completion interrupt";
  if (master_ && !master_->finished()) {
    const auto& l = host_runtime_->launches();
    os << "\n  master: the host software has not ended";
    if (!l.empty() && !l.back().done) os << " (waiting for packet " << l.back().seq << ", " << l.back().kernel << ")";
  }
  return os.str();
}

void Platform::close_stats() {
  if (const std::string e = write_traces(); !e.empty() && error_.empty()) error_ = e;
  const double end_ns = sim_time_.to_default_time_units();
  const std::uint64_t done = launches_done(*scheduler_);
  // The last, partial window.
  if (cfg_.run.stats_window_cycles > 0 && (stats_->windows().empty() || stats_->windows().back().end_ns < end_ns))
    stats_->sample_window(sim_time_, done, true);
  stats_->finish(host_seconds_, end_ns, done);
  if (!master_) return;
  double previous_end = 0;
  std::vector<double> previous(3, 0.0);  // tracked totals: master.host_busy_ns, link.{h2d,d2h}.busy_ns
  for (StatsSample& sample : stats_->launches()) {
    const auto delta = [&](std::size_t i) { return sample.tracked.at(i) - previous[i]; };
    const sched::PacketRecord& p = scheduler_->packet_records().at(sample.seq - 1);
    const auto ns = [](const sc_core::sc_time& when) { return when.to_default_time_units(); };
    LaunchTimes t = attribute_launch(previous_end, sample.end_ns, ns(p.submitted), ns(p.started), ns(p.executed),
                                     delta(0), std::max(delta(1), delta(2)));
    previous_end = sample.end_ns;
    previous = sample.tracked;
    t.seq = sample.seq;
    if (sample.seq >= 1 && sample.seq <= host_runtime_->launches().size()) {
      const runtime::LaunchRecord& l = host_runtime_->launches()[sample.seq - 1];
      t.kernel = l.kernel;
      t.threads = l.threads;
    }
    sample.timing = {{"kernel", t.kernel},           {"threads", t.threads},
                     {"window_ns", t.window_ns()},   {"host_ns", t.host_ns},
                     {"link_ns", t.link_ns},         {"queueing_ns", t.queueing_ns},
                     {"device_ns", t.device_ns},     {"overlap_ns", t.overlap_ns},
                     {"device_span_ns", t.device_span_ns}, {"host_busy_ns", t.host_busy_ns},
                     {"link_busy_ns", t.link_busy_ns}};
    launch_times_.push_back(t);
  }
}

sc_core::sc_time Platform::stats_window() const {
  return sc_core::sc_time(1e3 / cfg_.run.clock_mhz, sc_core::SC_NS) * static_cast<double>(cfg_.run.stats_window_cycles);
}

namespace {
std::string us_text(trace::Ps t) { return simkit::format_fixed(static_cast<double>(t) * 1e-6, 3) + " us"; }
}  // namespace

std::vector<std::string> Platform::trace_warnings() const {
  std::vector<std::string> w;
  // A bound that was reached: the file records it too (otherData / $comment), but nobody reads
  // those first.
  if (timeline_ && timeline_->dropped() > 0) {
    std::string text = "timeline: " + std::to_string(timeline_->dropped()) + " events dropped (";
    bool first = true;
    for (const auto& [category, n] : timeline_->dropped_by_category()) {
      text += (first ? "" : ", ") + category + " " + std::to_string(n);
      first = false;
    }
    text += ")";
    if (timeline_->complete_until() != trace::kEndOfTime)
      text += "; trace.max_events = " + std::to_string(cfg_.trace.max_events) +
              " or a trace.category_max reached, the timeline is complete up to " +
              us_text(timeline_->complete_until()) + " simulated; raise the bound or narrow trace.categories, "
              "trace.from_ns/to_ns";
    w.push_back(text);
  }
  if (vcd_ && vcd_->dropped() > 0)
    w.push_back("vcd: trace.max_changes = " + std::to_string(vcd_->max_changes()) + " reached, " +
                std::to_string(vcd_->dropped()) + " value changes dropped; the waveform stops at " +
                us_text(vcd_->first_dropped_time()) + " simulated; raise trace.max_changes or narrow trace.signals");
  if (timeline_)
    for (const std::string& c : timeline_->unused_categories())
      w.push_back("trace.categories: no event of category '" + c + "' was recorded");
  if (vcd_)
    for (const std::string& p : vcd_->unmatched_patterns()) w.push_back("trace.signals: '" + p + "' matches no signal");
  if (exec_trace_ && exec_trace_->dropped() > 0)
    w.push_back("execution trace: trace.exec_max = " + std::to_string(exec_trace_->max_records()) + " records reached, " +
                std::to_string(exec_trace_->dropped()) + " more not written");
  return w;
}

void Platform::set_run_info(std::string command, std::string configuration) {
  run_command_ = std::move(command);
  run_configuration_ = std::move(configuration);
}

std::string Platform::write_traces() {
  std::string e;
  // What produced the trace, so that a file on its own says how to reproduce it.
  if (timeline_) {
    if (!run_command_.empty()) timeline_->set_info("command", run_command_);
    if (!run_configuration_.empty()) timeline_->set_info("configuration", run_configuration_);
  }
  if (vcd_ && (!run_command_.empty() || !run_configuration_.empty()))
    vcd_->set_info("command: " + run_command_ + "\nconfiguration:\n" + run_configuration_);
  if (timeline_ && !timeline_->write_json_file(cfg_.trace.timeline_file, &e)) return e;
  if (vcd_ && !vcd_->write_file(cfg_.trace.vcd_file, &e)) return e;
  if (exec_trace_ && !exec_trace_->finish()) return "cannot write '" + cfg_.trace.exec_file + "'";
  return "";
}

bool Platform::run(const RunLimits& limits) {
  if (!ok()) return false;
  const bool ok = run_to_end(limits);
  if (!ok && stats_->end_status() == "completed") stats_->set_end("failed", error_);
  return ok;
}

bool Platform::run_to_end(const RunLimits& limits) {
  // The end of the run is expected; do not report it as an event.
  sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  // A model error (a protocol violation, a SystemC error) stops the run and is kept for the
  // message, instead of an exception thrown across SystemC's coroutine stacks.
  install_model_error_recorder();
  const auto start = run_start_ = std::chrono::steady_clock::now();
  // Elaborate (multi-socket bindings complete here), then load global data by debug transport.
  RunStop stop = RunStop::Finished;
  try {
    // A model stuck inside a call (a plug-in that never returns, also while the data is loaded)
    // polls nothing: the watchdog then hands the caller's on_stuck the statistics published at
    // the last safe point (stuck_run). It is disarmed when this block is left.
    std::optional<RunWatchdog> watchdog;
    if (limits.on_stuck)
      watchdog.emplace(limits.max_host_seconds, limits.stuck_grace_seconds,
                       [this, &limits](RunStop why) { limits.on_stuck(stuck_run(why, limits)); });
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    error_ = load_global_data();
    if (!error_.empty()) return false;
    RunLimits run_limits = limits;
    run_limits.window = stats_window();
    run_limits.on_window = [this](sc_core::sc_time end) { stats_->sample_window(end, launches_done(*scheduler_)); };
    if (limits.on_stuck) {  // the watchdog's statistics, refreshed between slices
      run_limits.at_safe_point = [this] { publish_stats(); };
      publish_stats();
    }
    // Inside a packet that never returns to SystemC (functional mode) the cores poll the same
    // Ctrl-C flag and host-time limit themselves.
    RunStop requested = RunStop::Finished;
    for (auto& c : cores_)
      c->set_stop_check([&requested, &limits, start] {
        if (interrupt_requested()) requested = RunStop::Interrupted;
        else if (limits.max_host_seconds > 0 &&
                 std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > limits.max_host_seconds)
          requested = RunStop::HostTimeLimit;
        return requested != RunStop::Finished;
      });
    stop = run_simulation(run_limits, [this] { return status_text(); }, std::cerr);
    if (stop == RunStop::Finished) stop = requested;
  } catch (const sc_core::sc_report& r) {
    // A model error (a protocol violation, a SystemC error): the run cannot continue.
    error_ = r.get_msg();
    host_seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    sim_time_ = sc_core::sc_time_stamp();
    close_stats();
    stopped_early_ = true;
    return false;
  }
  host_seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (launcher_) sim_time_ = launcher_->done() ? launcher_->finished_at() : sc_core::sc_time_stamp();
  else sim_time_ = master_->finished() ? master_->finished_at() : sc_core::sc_time_stamp();
  if (!first_model_error().empty()) {
    error_ = first_model_error();
    sim_time_ = sc_core::sc_time_stamp();
    stopped_early_ = true;
    close_stats();
    return false;
  }
  close_stats();
  if (!error_.empty()) return false;  // a trace file could not be written
  stopped_early_ = stop != RunStop::Finished;
  // The host's view first: it names the packet and includes the core's explanation.
  if (master_ && !master_->ok()) {
    error_ = master_->error();
    return false;
  }
  for (auto& c : cores_)
    if (c->failed()) {
      error_ = c->error();
      return false;
    }
  const std::string at = at_simulated_now();
  switch (stop) {
    case RunStop::Finished: break;
    case RunStop::Starved:
      error_ = "deadlock: no module can make progress" + at + "; pending work:" + pending_work();
      stats_->set_end("deadlock", error_);
      return false;
    case RunStop::Interrupted:
    case RunStop::HostTimeLimit: record_stop(stop, limits.max_host_seconds); return false;
  }
  if (master_ && !master_->ok()) {
    error_ = master_->error();
    return false;
  }
  if (launcher_ && !launcher_->ok()) {
    error_ = scheduler_->error().empty() ? "the packet did not complete" : scheduler_->error();
    return false;
  }
  return true;
}

void Platform::record_stop(RunStop why, double max_host_seconds) {
  const StopText t = stop_text(why, max_host_seconds, at_simulated_now(), "");
  interrupted_ = why == RunStop::Interrupted;
  error_ = t.error;
  stats_->set_end(t.status, t.reason);
}

void Platform::publish_stats() {
  stats_->publish(sc_core::sc_time_stamp().to_default_time_units(), launches_done(*scheduler_));
}

// Runs on the watchdog's thread while SystemC's thread is inside a call that has not returned:
// that thread may still be running (a slow model, an endless loop), so nothing here reads the
// models, the trace buffers or this object's run state. The statistics are those SystemC's
// thread published at its last safe point (between two slices, under PlatformStats' lock); the
// plug-in being called is an atomic; the traces are not written.
StuckRun Platform::stuck_run(RunStop why, const RunLimits& limits) const {
  const char* plugin_call = plugin::plugin_call_in_progress();
  const std::string stuck = std::string(plugin_call != nullptr ? plugin_call : "a model of the simulation") +
                            " did not return within " + simkit::format_fixed(limits.stuck_grace_seconds, 1) +
                            " host seconds";
  const double at_ns = stats_->published_ns();
  const StopText t = stop_text(why, limits.max_host_seconds, at_simulated(at_ns), stuck);
  StuckRun r;
  r.why = why;
  r.message = t.error;
  try {
    r.stats = stats_->published_json(t.status, t.reason);
    std::ostringstream table;
    stats_->write_published_table(table, r.stats);
    r.table = table.str();
  } catch (const std::exception& e) {  // on this thread an exception would end the process unwritten
    r.stats = {{"end", {{"status", t.status}, {"reason", t.reason + "; statistics unavailable: " + e.what()}}}};
    r.table.clear();
  }
  return r;
}

}  // namespace par::platform
