#include "platform_config.hpp"

#include <algorithm>
#include <sstream>
#include <stdexcept>

#include "core_options.hpp"
#include "par/core/stream_registers.hpp"
#include "par/sched/scheduler_registers.hpp"

namespace par::platform {

const char* to_string(MemorySystem m) {
  switch (m) {
    case MemorySystem::Local: return "local";
    case MemorySystem::Dram: return "dram";
    case MemorySystem::L2Dram: return "l2_dram";
    case MemorySystem::Host: return "host";
  }
  return "?";
}

const char* to_string(HostModel h) { return h == HostModel::Master ? "master" : "direct"; }

PlatformConfig::PlatformConfig() {
  // Host memory as shipped with the XD1000 (docs/link-and-memory.md §1.5).
  host_mem.preset = dram::Preset::Ddr_333;
  host_mem.option_prefix = "host_mem";
  // Host memory is a DRAM model here, so the link's constant SDRAM stage would count it twice.
  ht.lat.sdram_ns = 0;
}

namespace {

// One address window of the platform's map, named by the options that place it.
struct Window {
  const char* what;
  const char* options;
  std::uint64_t base, size;
};

std::string hex_range(const Window& w) {
  std::ostringstream os;
  os << "[0x" << std::hex << w.base << ", 0x" << w.base + w.size << ")";
  return os.str();
}

// Every pair of overlapping windows, and any window that wraps around the address space.
void check_address_map(const std::vector<Window>& windows, std::vector<std::string>& e) {
  for (std::size_t i = 0; i < windows.size(); ++i) {
    const Window& a = windows[i];
    if (a.base + a.size < a.base) {
      e.push_back(std::string(a.options) + ": " + a.what + " would wrap around the address space");
      continue;
    }
    for (std::size_t j = 0; j < i; ++j) {
      const Window& b = windows[j];
      if (a.base < b.base + b.size && b.base < a.base + a.size)
        e.push_back(std::string(a.options) + ": " + a.what + " " + hex_range(a) + " overlaps " + b.what + " " +
                    hex_range(b) + " (" + b.options + ")");
    }
  }
}

// Core options that shape the platform rather than one core: one local memory window and one set
// of stream windows in the address map, one prefetch setting for the L2's counters, one line for
// the L1 check.
const char* const kSharedCoreOptions[] = {"core.local_mem_base", "core.local_mem_size", "core.stream.enabled",
                                          "core.stream.srf_elements", "core.prefetch.enabled", "core.line_bytes"};

// Every per-instance value names an instance that exists, and may be given per instance.
void check_instances(const PlatformConfig& cfg, std::vector<std::string>& e) {
  for (const simkit::InstanceValue& v : cfg.instances) {
    const std::string what = v.name() + ": ";
    // `count` instances, named by `count_option`: is v one of them?
    const auto missing = [&](long long count, const char* count_option) {
      if (v.index() < count) return false;
      e.push_back(what + "there is no " + v.instance + " (" + count_option + " = " + std::to_string(count) + ": " +
                  v.type + "0.." + v.type + std::to_string(count - 1) + ")");
      return true;
    };
    if (v.type == "core") {
      if (!missing(cfg.cores, "platform.cores") &&
          std::find(std::begin(kSharedCoreOptions), std::end(kSharedCoreOptions), v.option) !=
              std::end(kSharedCoreOptions))
        e.push_back(what + "must be the same for every core (it shapes the platform, not one core); set " + v.option);
    } else if (v.type == "l2.bank") {
      if (cfg.memory != MemorySystem::L2Dram)
        e.push_back(what + "there is no L2 (platform.memory is '" + to_string(cfg.memory) + "')");
      else if (!missing(cfg.l2.banks, "l2.banks") &&
               cfg.l2_bank_model_config(static_cast<unsigned>(v.index())).is_plugin() != cfg.l2_bank_model.is_plugin())
        e.push_back(what + "the L2 banks are all built in or all plug-ins (l2.bank.model = '" +
                    cfg.l2_bank_model.model + "')");
    } else {
      e.push_back(what + "instances of '" + v.type + "' have no options of their own");
    }
  }
  for (int i = 0; i < cfg.cores; ++i) {
    const std::string instance = "core" + std::to_string(i);
    if (!cfg.has_instance_values(instance)) continue;
    for (const std::string& m : cfg.core_config(i).validate()) e.push_back(instance + ": " + m);
  }
  for (unsigned b = 0; cfg.memory == MemorySystem::L2Dram && b < cfg.l2.banks; ++b) {
    const std::string instance = "l2.bank" + std::to_string(b);
    if (cfg.has_instance_values(instance))
      for (const std::string& m : cfg.l2_bank_model_config(b).validate(instance)) e.push_back(m);
  }
}

// `cfg` with `instance`'s values over it; `bind` registers the instance's module's options on `cfg`.
template <class Config, class Bind>
Config with_instance_values(Config cfg, const std::vector<simkit::InstanceValue>& values, const std::string& instance,
                            Bind bind) {
  simkit::OptionRegistry reg;
  bind(reg, cfg);
  const std::vector<std::string> e = reg.assign_instance(values, instance);
  if (!e.empty()) throw std::logic_error(e.front());  // parse() checked every value
  return cfg;
}

}  // namespace

bool PlatformConfig::has_instance_values(const std::string& instance) const {
  return std::any_of(instances.begin(), instances.end(),
                     [&](const simkit::InstanceValue& v) { return v.instance == instance; });
}

core::CoreConfig PlatformConfig::core_config(int i) const {
  const std::string instance = "core" + std::to_string(i);
  if (!has_instance_values(instance)) return core;
  return with_instance_values(core, instances, instance,
                              [](simkit::OptionRegistry& reg, core::CoreConfig& c) { core::register_options(reg, c); });
}

plugin::PluginConfig PlatformConfig::l2_bank_model_config(unsigned b) const {
  const std::string instance = "l2.bank" + std::to_string(b);
  if (!has_instance_values(instance)) return l2_bank_model;
  return with_instance_values(l2_bank_model, instances, instance, [](simkit::OptionRegistry& reg, plugin::PluginConfig& c) {
    plugin::register_options(reg, c, "l2.bank");
  });
}

std::vector<std::string> PlatformConfig::validate() const {
  std::vector<std::string> e = core.validate();
  check_instances(*this, e);
  if (cores < 1 || cores > 1024) e.push_back("platform.cores: " + std::to_string(cores) + " is out of range 1..1024");
  if (!(run.clock_mhz > 0 && run.clock_mhz <= 1e6)) e.push_back("run.clock_mhz: must be in (0, 1e6]");
  if (run.repeat < 1) e.push_back("run.repeat: must be at least 1");
  if (!(run.quantum_ns > 0)) e.push_back("run.quantum_ns: must be positive");
  if (run.functional_width < 1 || run.functional_width > (1 << 20))
    e.push_back("run.functional_width: " + std::to_string(run.functional_width) + " is out of range 1..1048576");
  for (const std::string& m : bus.validate()) e.push_back(m);
  for (const std::string& m : scheduler.validate()) e.push_back(m);
  for (const std::string& m : protocol_check.validate()) e.push_back(m);
  for (const std::string& m : trace.validate()) e.push_back(m);
  if (memory == MemorySystem::L2Dram)
    for (const std::string& m : l2.validate()) e.push_back(m);
  // Prefetch requests are acted on by the L2 only; the private L1 would drop them.
  if (core.prefetch.enabled && memory != MemorySystem::L2Dram)
    e.push_back(std::string("core.prefetch.enabled: the packet prefetcher fills the L2, but platform.memory is '") +
                to_string(memory) + "' (use l2_dram)");
  if (core.prefetch.enabled && l1.enabled)
    e.push_back("core.prefetch.enabled: not with l1.enabled (the private L1 does not pass prefetch requests on)");
  if (l1.enabled) {
    for (const std::string& m : l1.validate()) e.push_back(m);
    if (memory == MemorySystem::Local)
      e.push_back("l1.enabled: the cores have no global memory to cache (platform.memory = local)");
    if (l1.line_bytes < core.line_bytes)
      e.push_back("l1.line_bytes: " + std::to_string(l1.line_bytes) + " is smaller than the core's line (core.line_bytes = " +
                  std::to_string(core.line_bytes) + "): one core transaction would span several L1 lines");
  }
  for (const std::string& m : dram_model.validate("dram")) e.push_back(m);
  for (const std::string& m : host_mem_model.validate("host_mem")) e.push_back(m);
  if (dram_model.is_plugin() && memory != MemorySystem::Dram && memory != MemorySystem::L2Dram)
    e.push_back(std::string("dram.model: a plug-in is given, but platform.memory is '") + to_string(memory) +
                "' (there is no device DRAM to replace)");
  for (const std::string& m : l2_bank_model.validate("l2.bank")) e.push_back(m);
  if (l2_bank_model.is_plugin() && memory != MemorySystem::L2Dram)
    e.push_back(std::string("l2.bank.model: a plug-in is given, but platform.memory is '") + to_string(memory) +
                "' (there is no L2 to put it in)");
  if (l2_bank_model.is_plugin() && dram_model.is_plugin())
    e.push_back("dram.model: the L2 banks are plug-ins (l2.bank.model), which serve their lines themselves: "
                "nothing would use the device DRAM");
  if (host_mem_model.is_plugin() && !full_system())
    e.push_back("host_mem.model: a plug-in is given, but platform.host is 'direct' (there is no host memory)");

  std::vector<Window> windows{
      {"the local memory window", "core.local_mem_base, core.local_mem_size", core.local_mem_base, core.local_mem_size},
      {"the scheduler registers", "platform.scheduler_base", scheduler_base, sched::kRegSpaceEnd}};
  if (core.stream.enabled)
    windows.push_back({"the stream windows", "platform.stream_base", stream_base,
                       static_cast<std::uint64_t>(cores - 1) * core::kStreamWindowStride +
                           core::stream_window_bytes(static_cast<std::uint64_t>(core.stream.srf_elements))});
  if (memory == MemorySystem::Dram || memory == MemorySystem::L2Dram) {
    const dram::DramConfig d = dram.resolved();
    const std::vector<std::string> de = d.validate();
    e.insert(e.end(), de.begin(), de.end());
    if (de.empty()) windows.push_back({"device DRAM", "platform.global_base", global_base, d.capacity()});
  }
  if (full_system()) {
    for (const std::string& m : host_bus.validate("host_bus")) e.push_back(m);
    for (const std::string& m : ht.validate()) e.push_back(m);
    for (const std::string& m : master.validate()) e.push_back(m);
    for (const std::string& m : runtime_config().validate()) e.push_back(m);
    if (host_runtime.wait == runtime::WaitMode::Flag && scheduler.overlap_packets)
      e.push_back("master.wait: flag waits need packets to complete in order (scheduler.overlap_packets = false)");
    const dram::DramConfig h = host_mem.resolved();
    const std::vector<std::string> he = h.validate();
    e.insert(e.end(), he.begin(), he.end());
    if (he.empty()) windows.push_back({"host memory", "platform.host_mem_base", host_mem_base, h.capacity()});
  } else {
    if (memory == MemorySystem::Host)
      e.push_back("platform.memory: host (data in host memory across the link) needs platform.host = master");
    if (!host_program.empty())
      e.push_back("platform.host_program: a host program needs platform.host = master (the full system)");
  }
  check_address_map(windows, e);
  return e;
}

runtime::RuntimeConfig PlatformConfig::runtime_config() const {
  runtime::RuntimeConfig r = host_runtime;
  r.scheduler_base = scheduler_base;  // one place says where the scheduler is
  r.queue_depth = scheduler.queue_depth;
  r.issue_cycles = master.cpi;
  r.stream_base = stream_base;
  r.stream_cores = core.stream.enabled ? static_cast<std::uint64_t>(cores) : 0;
  if (r.flag_addr == 0) r.flag_addr = host_mem_base + host_mem.resolved().capacity() - 64;
  return r;
}

}  // namespace par::platform
