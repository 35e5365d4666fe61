// A small full system for end-to-end tests of the master core, without the platform:
//
//   master.bus -> host_bus --[device addresses]--> link.host_in ==HT==> link.dev_out -> dev_bus
//                        \--[host memory]--> host_mem                                    |
//   dev_bus: [0, dram)       -> dram (device DRAM, program data and heap)                 |
//            scheduler window -> sched.regs --> sched.cores -> core0, core1 (ParCore)     |
//            host memory      -> link.dev_in ==HT==> link.host_out -> host_bus -> host_mem
//   core*.mem, sched.notify   -> dev_bus;   core*.irq -> sched.core_irq
//   sched.irq -> link.dev_irq ==HT==> link.host_irq -> master.irq
//
// As the platform does, it builds the host runtime on the master core's port and hands it (or a
// host program running on it) to the master core.
//
// The program's data sections are placed in device DRAM (or, with data_in_host_memory, in host
// memory, as on the XD1000: the cores then read them across the link). Run one per process
// (run_isolated). The lead's platform assembly replaces this header.
#pragma once

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "host_program.hpp"
#include "host_runtime.hpp"
#include "ht_link.hpp"
#include "interconnect.hpp"
#include "master_core.hpp"
#include "memory.hpp"
#include "par/isa/program.hpp"
#include "par_core.hpp"
#include "thread_scheduler.hpp"

namespace par::master::testing {

struct MiniSystemConfig {
  static constexpr std::uint64_t kDramBytes = 4 << 20;
  static constexpr std::uint64_t kSchedulerBase = 0x0000001000000000ull;
  static constexpr std::uint64_t kHostBase = 0x0000800000000000ull;
  static constexpr std::uint64_t kHostBytes = 4 << 20;
  static constexpr std::uint64_t kLocalBase = 0x0000400000000000ull;

  int cores = 2;
  bool data_in_host_memory = false;  // program data at kHostBase + its address
  MasterConfig master;
  runtime::RuntimeConfig runtime;  // scheduler_base and queue_depth are set by the mini system
  sched::SchedulerConfig scheduler;
  ht::HtConfig ht;
  core::CoreConfig core;
  MiniSystemConfig() {
    runtime.heap_base = 0x200000;
    runtime.heap_bytes = 0x200000;
    runtime.flag_addr = kHostBase + 0x100;
    core.local_mem_base = kLocalBase;
    core.local_mem_size = 0x10000;
  }
};

class MiniSystem {
 public:
  MiniSystem(const isa::Program& program, const MiniSystemConfig& cfg, std::unique_ptr<runtime::HostProgram> host)
      : cfg_(cfg),
        program_(relocated(program, cfg)),
        host_bus_("host_bus", interconnect::InterconnectConfig{}),
        dev_bus_("dev_bus", interconnect::InterconnectConfig{}),
        link_("link", cfg_.ht),
        sched_("sched", cfg_.scheduler),
        dram_("dram", memory::MemoryConfig{MiniSystemConfig::kDramBytes, 20, 0}),
        host_mem_("host_mem", memory::MemoryConfig{MiniSystemConfig::kHostBytes, 50, 0}),
        master_("master", cfg_.master, program_),
        runtime_(master_.port(), runtime_config(cfg_), program_, master_.stats()) {
    std::string error;
    // The cores keep references to their configuration: give them the copy this object owns.
    loaded_ = core::LoadedProgram::load(program_, cfg_.core, &error);
    if (!loaded_) throw std::runtime_error(error);
    const sc_core::sc_time period(1, sc_core::SC_NS), quantum(1000, sc_core::SC_NS);
    // Host side.
    master_.bus.bind(host_bus_.in);
    link_.host_out.bind(host_bus_.in);
    host_bus_.out.bind(link_.host_in);
    host_bus_.out.bind(host_mem_.in);
    add(host_bus_, {"device", 0, MiniSystemConfig::kHostBase, 0, false});
    add(host_bus_, {"host", MiniSystemConfig::kHostBase, MiniSystemConfig::kHostBytes, 1, true});
    // Device side.
    link_.dev_out.bind(dev_bus_.in);
    dev_bus_.out.bind(dram_.in);
    dev_bus_.out.bind(sched_.regs);
    dev_bus_.out.bind(link_.dev_in);
    add(dev_bus_, {"dram", 0, MiniSystemConfig::kDramBytes, 0, true});
    add(dev_bus_, {"sched", MiniSystemConfig::kSchedulerBase, 0x1000, 1, true});
    add(dev_bus_, {"host", MiniSystemConfig::kHostBase, MiniSystemConfig::kHostBytes, 2, false});
    sched_.notify.bind(dev_bus_.in);
    for (int c = 0; c < cfg_.cores; ++c) {
      cores_.push_back(std::make_unique<core::ParCore>(("core" + std::to_string(c)).c_str(), cfg_.core, *loaded_,
                                                       core::RunMode::Timing, /*functional_width=*/1, period, quantum));
      lines_.push_back(std::make_unique<sc_core::sc_signal<bool>>(("core" + std::to_string(c) + "_irq").c_str()));
      cores_.back()->mem.bind(dev_bus_.in);
      cores_.back()->irq.bind(*lines_.back());
      sched_.cores.bind(cores_.back()->ctrl);
      sched_.core_irq.bind(*lines_.back());
    }
    // Completion interrupts cross the link to the master core.
    sched_.irq.bind(link_.dev_irq);
    link_.host_irq.bind(master_.irq);
    for (const isa::DataSection& d : program_.data) {
      std::uint8_t* dst = d.address >= MiniSystemConfig::kHostBase ? host_mem_.data() + (d.address - MiniSystemConfig::kHostBase)
                                                                    : dram_.data() + d.address;
      std::memcpy(dst, d.bytes.data(), d.bytes.size());
    }
    runtime_.set_diagnostics([this](std::uint64_t seq) { return diagnose(seq); });
    if (host) {
      software_ = std::make_unique<runtime::HostProgramRunner>(std::move(host), runtime_);
      master_.set_host_software(*software_);
    } else {
      master_.set_packet_control(runtime_);
    }
  }

  // Runs until nothing is left to do; returns the master's error ("" when it finished cleanly).
  std::string run() {
    sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
    sc_core::sc_start();
    if (!master_.finished()) return "the master did not finish";
    return master_.error();
  }

  // Memory as the program sees it (device DRAM or host memory).
  std::uint8_t* at(std::uint64_t address) {
    return address >= MiniSystemConfig::kHostBase ? host_mem_.data() + (address - MiniSystemConfig::kHostBase)
                                                  : dram_.data() + address;
  }
  std::uint64_t word(std::uint64_t address) {
    std::uint64_t v;
    std::memcpy(&v, at(address), 8);
    return v;
  }

  const isa::Program& program() const { return program_; }
  MasterCore& master() { return master_; }
  runtime::HostRuntime& runtime() { return runtime_; }
  const std::vector<runtime::LaunchRecord>& launches() const { return runtime_.launches(); }
  // What the host program wrote to its log ("" for a .MASTER program).
  std::string host_log() const { return software_ ? software_->log_text() : ""; }
  sched::ThreadScheduler& scheduler() { return sched_; }
  ht::HtLink& link() { return link_; }
  core::ParCore& core(int i) { return *cores_.at(static_cast<std::size_t>(i)); }

 private:
  static runtime::RuntimeConfig runtime_config(const MiniSystemConfig& cfg) {
    runtime::RuntimeConfig r = cfg.runtime;
    r.scheduler_base = MiniSystemConfig::kSchedulerBase;
    r.queue_depth = cfg.scheduler.queue_depth;
    r.issue_cycles = cfg.master.cpi;
    return r;
  }
  static isa::Program relocated(const isa::Program& program, const MiniSystemConfig& cfg) {
    if (!cfg.data_in_host_memory) return program;
    // Everything that names a data address moves by kHostBase: sections, labels, and the .I
    // values that hold a data label (the programs used here pass labels, never plain numbers that
    // happen to equal one).
    isa::Program p = program;
    const auto [lo, hi] = program.data_extent();
    for (isa::DataSection& d : p.data) d.address += MiniSystemConfig::kHostBase;
    for (auto& [name, addr] : p.data_labels) addr += MiniSystemConfig::kHostBase;
    for (std::size_t k = 1; k < 16; ++k)
      if (p.inherited[k] >= lo && p.inherited[k] <= hi) p.inherited[k] += MiniSystemConfig::kHostBase;
    return p;
  }
  static void add(interconnect::Interconnect& bus, const interconnect::Region& r) {
    const std::string e = bus.add_region(r);
    if (!e.empty()) throw std::runtime_error(e);
  }
  std::string diagnose(std::uint64_t seq) {
    const auto& records = sched_.packet_records();
    if (seq == 0 || seq > records.size()) return "";
    std::string why = records[seq - 1].error;
    for (auto& c : cores_)
      if (c->failed()) why += "; " + c->error();
    return why;
  }

  MiniSystemConfig cfg_;
  isa::Program program_;
  std::unique_ptr<core::LoadedProgram> loaded_;
  interconnect::Interconnect host_bus_, dev_bus_;
  ht::HtLink link_;
  sched::ThreadScheduler sched_;
  memory::Memory dram_, host_mem_;
  std::vector<std::unique_ptr<core::ParCore>> cores_;
  std::vector<std::unique_ptr<sc_core::sc_signal<bool>>> lines_;
  MasterCore master_;
  runtime::HostRuntime runtime_;
  std::unique_ptr<runtime::HostProgramRunner> software_;
};

}  // namespace par::master::testing
