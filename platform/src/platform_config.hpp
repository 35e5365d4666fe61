// Configuration of a whole parsys platform: each module's configuration struct plus run options.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core_config.hpp"
#include "dram_config.hpp"
#include "ht_config.hpp"
#include "interconnect.hpp"
#include "l1_config.hpp"
#include "l2_config.hpp"
#include "master_config.hpp"
#include "packet_engine.hpp"
#include "par/plugin/plugin_options.hpp"
#include "par/simkit/options.hpp"
#include "par/tlmcheck/checker_config.hpp"
#include "par/trace/trace_config.hpp"
#include "runtime_config.hpp"
#include "scheduler_config.hpp"

namespace par::platform {

// What serves the device addresses outside the cores' local memories.
enum class MemorySystem {
  Local,   // nothing: the 2011 single-core model (every access must hit local memory)
  Dram,    // device DRAM directly behind the interconnect
  L2Dram,  // banked L2 in front of device DRAM
  Host,    // host memory across the HT link (XD1000-like): no device DRAM
};

// Who writes the packets into the thread scheduler.
enum class HostModel {
  Direct,  // an idealised launcher on the device interconnect: no host, no link (the 2011 study)
  Master,  // the master core running host software across the HT link, with host memory
};

enum class Progress { Auto, On, Off };  // the progress line: on a terminal, always, never

struct RunConfig {
  core::RunMode mode = core::RunMode::Timing;
  double clock_mhz = 1000.0;     // PAR core clock; converts cycles to simulated time
  int functional_width = 1024;   // threads side by side in functional mode
  int repeat = 1;                // launches of the packet, back to back
  double quantum_ns = 1000;      // how far a core may run ahead of SystemC time
  double max_host_seconds = 0;   // stop the run after this much host time; 0 = no limit
  double stuck_grace_seconds = 3;  // after Ctrl-C or the limit, how long a model may take to return
  Progress progress = Progress::Auto;
  std::int64_t stats_window_cycles = 0;  // time-windowed statistics samples; 0 = none
  std::int64_t launch_stats = 10;        // launches whose whole statistics tree is kept (-1: all)
};

struct PlatformConfig {
  int cores = 1;
  MemorySystem memory = MemorySystem::Local;
  std::uint64_t global_base = 0;  // device DRAM's first byte address
  std::uint64_t scheduler_base = 0x1000000000;  // the thread scheduler's register window (device)
  // With core.stream.enabled: core i's stream window at stream_base + i * core::kStreamWindowStride.
  std::uint64_t stream_base = 0x200000000000;
  HostModel host = HostModel::Direct;
  std::string host_program;  // a C++ host program of sw/host; "" = the file's .MASTER or its packet
  // Host memory in the one physical address space that host and device share; every other
  // address the host uses goes across the link to the device.
  std::uint64_t host_mem_base = 0x800000000000;
  core::CoreConfig core;
  interconnect::InterconnectConfig bus;
  interconnect::InterconnectConfig host_bus;
  ht::HtConfig ht;
  dram::DramConfig host_mem;
  master::MasterConfig master;
  runtime::RuntimeConfig host_runtime;  // master.* of the host runtime; completed by the platform (runtime_config())
  l1::L1Config l1;  // a private L1 data cache per core (off by default)
  l2::L2Config l2;
  dram::DramConfig dram;
  plugin::PluginConfig dram_model;      // --dram.model builtin | plugin:LIB, --dram.plugin_args
  plugin::PluginConfig host_mem_model;  // the same for host memory
  plugin::PluginConfig l2_bank_model;   // the same for every L2 bank (--l2.bank.model)
  sched::SchedulerConfig scheduler;
  tlmcheck::CheckerConfig protocol_check;
  trace::TraceConfig trace;  // timeline (Chrome/Perfetto JSON) and VCD
  RunConfig run;
  // Per-instance options (core3.lanes over core.lanes, l2.bank2.model over l2.bank.model), as the
  // options registry read them (simkit::OptionRegistry::instance_values()). Instances are named
  // as their statistics groups: core<i>, l2.bank<b>.
  std::vector<simkit::InstanceValue> instances;

  PlatformConfig();
  std::vector<std::string> validate() const;
  bool full_system() const { return host == HostModel::Master; }
  // Core i's options: core.* with core<i>.* over them.
  core::CoreConfig core_config(int i) const;
  // L2 bank b's model: l2.bank.* with l2.bank<b>.* over them.
  plugin::PluginConfig l2_bank_model_config(unsigned b) const;
  // Whether `instance` ("core3") has values of its own.
  bool has_instance_values(const std::string& instance) const;
  // The host runtime's configuration with what the platform decides: the scheduler's address and
  // queue depth, the copy issue interval (master.cpi), and unless given the completion flag (the
  // last 64 bytes of host memory). The heap is completed by the platform (it depends on the program).
  runtime::RuntimeConfig runtime_config() const;
};

const char* to_string(MemorySystem m);

}  // namespace par::platform
