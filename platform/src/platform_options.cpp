#include "platform_options.hpp"

#include "core_options.hpp"
#include "dram_config.hpp"
#include "ht_config.hpp"
#include "interconnect.hpp"
#include "l1_config.hpp"
#include "l2_config.hpp"
#include "master_config.hpp"
#include "par/plugin/plugin_options.hpp"
#include "par/tlmcheck/checker_config.hpp"
#include "par/trace/trace_config.hpp"
#include "runtime_config.hpp"
#include "scheduler_config.hpp"

namespace par::platform {

void register_options(simkit::OptionRegistry& reg, PlatformConfig& cfg) {
  reg.add("platform.cores", cfg.cores, "PAR cores on the platform.").range(1, 1024);
  reg.add_enum("platform.memory", cfg.memory,
               "What serves device addresses outside the local memories: nothing (the 2011 model), "
               "device DRAM, banked L2 in front of device DRAM, or host memory across the HT link "
               "(XD1000-like; needs platform.host = master).",
               {{"local", MemorySystem::Local}, {"dram", MemorySystem::Dram}, {"l2_dram", MemorySystem::L2Dram},
                {"host", MemorySystem::Host}});
  reg.add("platform.global_base", cfg.global_base, "First byte address of device DRAM.").hex();
  reg.add("platform.scheduler_base", cfg.scheduler_base,
          "Device address of the thread scheduler's register window (0x148 bytes).").hex();
  reg.add("platform.stream_base", cfg.stream_base,
          "Device address of core 0's stream window (core.stream.enabled); core i's is 2^34 * i higher.").hex();
  reg.add_enum("platform.host", cfg.host,
               "Who launches packets: an idealised launcher on the device interconnect (direct, the 2011 "
               "study) or the master core running host software across the HT link (master, the full system).",
               {{"direct", HostModel::Direct}, {"master", HostModel::Master}});
  reg.add("platform.host_program", cfg.host_program,
          "C++ host program of sw/host run by the master core (--host); empty = the file's .MASTER "
          "program, or launch its packet run.repeat times.");
  reg.add("platform.host_mem_base", cfg.host_mem_base,
          "Address of host memory in the address space host and device share (full system).").hex();
  reg.add_enum("run.mode", cfg.run.mode, "Timing (cycle-level) or functional (no timing, as fast as possible).",
               {{"timing", core::RunMode::Timing}, {"functional", core::RunMode::Functional}});
  reg.add("run.clock_mhz", cfg.run.clock_mhz, "PAR core clock in MHz (converts cycles to simulated time).")
      .range(1e-3, 1e6);
  reg.add("run.functional_width", cfg.run.functional_width,
          "Threads executed side by side in functional mode (independent of L and T).").range(1, 1 << 20);
  reg.add("run.repeat", cfg.run.repeat, "Launch the packet this many times back to back (benchmarks).")
      .range(1, 1 << 30);
  reg.add("run.quantum_ns", cfg.run.quantum_ns,
          "How far a PAR core may run ahead of the SystemC time before synchronising (loosely timed).")
      .range(1e-3, 1e9);
  reg.add("run.max_host_seconds", cfg.run.max_host_seconds,
          "Stop the run after this much host time and report the statistics so far; 0 = no limit.")
      .range(0, 1e9);
  reg.add("run.stuck_grace_seconds", cfg.run.stuck_grace_seconds,
          "After Ctrl-C or run.max_host_seconds, how long the simulation may take to come back before parsys "
          "ends anyway (a model stuck in a call, e.g. a plug-in that never returns), writing the statistics so far.")
      .range(0.05, 3600);
  reg.add("run.stats_window_cycles", cfg.run.stats_window_cycles,
          "Add a statistics sample every this many PAR-core cycles to stats.json/stats.txt (--stats-window); 0 = none.")
      .range(0, std::int64_t{1} << 50);
  reg.add("run.launch_stats", cfg.run.launch_stats,
          "Keep the whole statistics tree of the first N launches in stats.json/stats.txt (-1 = every "
          "launch); later launches keep their times only. Bounds the output of many-launch runs "
          "(about 50 kB of JSON per launch).")
      .range(-1, std::int64_t{1} << 40);
  reg.add_enum("run.progress", cfg.run.progress,
               "Progress line on stderr: auto (when stderr is a terminal), on or off.",
               {{"auto", Progress::Auto}, {"on", Progress::On}, {"off", Progress::Off}});
  interconnect::register_options(reg, cfg.bus);
  interconnect::register_options(reg, cfg.host_bus, "host_bus", "Host interconnect");
  ht::register_options(reg, cfg.ht);
  master::register_options(reg, cfg.master);
  runtime::register_options(reg, cfg.host_runtime);
  dram::register_options(reg, cfg.host_mem, "host_mem");
  plugin::register_options(reg, cfg.host_mem_model, "host_mem");
  core::register_options(reg, cfg.core);
  reg.add_instances("core");  // core3.lanes: PlatformConfig::core_config()
  l1::register_options(reg, cfg.l1);
  l2::register_options(reg, cfg.l2);
  plugin::register_options(reg, cfg.l2_bank_model, "l2.bank");
  reg.add_instances("l2.bank");  // l2.bank2.model: PlatformConfig::l2_bank_model_config()
  dram::register_options(reg, cfg.dram);
  plugin::register_options(reg, cfg.dram_model, "dram");
  sched::register_options(reg, cfg.scheduler);
  tlmcheck::register_options(reg, cfg.protocol_check);
  trace::register_options(reg, cfg.trace);
}

}  // namespace par::platform
