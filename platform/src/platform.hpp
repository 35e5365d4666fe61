// Builds a parsys platform from its configuration: instantiates the modules and binds their
// sockets. Platform::wire() (platform.cpp) is the one place that says which module talks to which.
#pragma once

#include <chrono>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "dram.hpp"
#include "host_program.hpp"
#include "host_runtime.hpp"
#include "ht_link.hpp"
#include "interconnect.hpp"
#include "l1_cache.hpp"
#include "l2.hpp"
#include "master_core.hpp"
#include "packet_launcher.hpp"
#include "par/isa/program.hpp"
#include "par/plugin/plugin_target.hpp"
#include "par/simkit/stats.hpp"
#include "par/tlmcheck/checked_bindings.hpp"
#include "par/trace/timeline.hpp"
#include "par/trace/transaction_tap.hpp"
#include "par/trace/vcd_writer.hpp"
#include "par_core.hpp"
#include "launch_time.hpp"
#include "platform_config.hpp"
#include "platform_stats.hpp"
#include "run_control.hpp"
#include "thread_scheduler.hpp"

namespace par::platform {

class Platform {
 public:
  // Builds the platform for `program`; check error() before simulating.
  Platform(const PlatformConfig& cfg, const isa::Program& program);
  ~Platform();

  const std::string& error() const { return error_; }
  bool ok() const { return error_.empty(); }

  // Loads the program's data, runs its packet to completion. Returns false with error() set when
  // the packet failed or could not be loaded, or the run stopped early (deadlock, Ctrl-C, host
  // time limit: stopped_early(); the statistics then cover the run so far).
  bool run(const RunLimits& limits = {});
  bool stopped_early() const { return stopped_early_; }
  bool interrupted() const { return interrupted_; }

  core::ParCore& core(int i) { return *cores_[static_cast<std::size_t>(i)]; }
  int core_count() const { return static_cast<int>(cores_.size()); }
  interconnect::Interconnect& bus() { return *bus_; }
  l1::L1Caches* l1() { return l1_.get(); }  // null unless l1.enabled
  l2::L2* l2() { return l2_.get(); }
  dram::Dram* dram() { return dram_.get(); }
  ht::HtLink* link() { return link_.get(); }
  master::MasterCore* master() { return master_.get(); }
  // The C++ host program's log (empty when the master core runs none).
  std::string host_log() const { return host_software_ ? host_software_->log_text() : ""; }
  dram::Dram* host_memory() { return host_mem_.get(); }
  sched::ThreadScheduler& scheduler() { return *scheduler_; }
  const tlmcheck::CheckedBindings<>& links() const { return *links_; }
  const isa::Program& program() const { return program_; }
  double host_seconds() const { return host_seconds_; }
  sc_core::sc_time simulated_time() const { return sim_time_; }

  // Reads memory as the program sees it: core 0's local memory, or global memory (debug
  // transport). Returns an error message or "".
  std::string read_memory(std::uint64_t addr, std::uint8_t* data, std::size_t len);
  // Whether read_memory() can read [addr, addr + len) (checked before simulating): an error or "".
  std::string check_memory_range(std::uint64_t addr, std::uint64_t len) const;

  // Warnings about the trace options (a signal pattern or category that matched nothing).
  std::vector<std::string> trace_warnings() const;
  // The command line and the effective configuration (INI text), written into the trace files'
  // metadata (timeline otherData "command" and "configuration", a VCD $comment).
  void set_run_info(std::string command, std::string configuration);
  // Per launch in the full system (empty in the direct setting); also in stats.json "launches".
  const std::vector<LaunchTimes>& launch_times() const { return launch_times_; }
  // The statistics tree (every module, the cores, the run) with per-launch and window samples.
  PlatformStats& stats() { return *stats_; }

 private:
  // Construction steps, in order; each returns false with error() set.
  bool check_program();         // the configuration and the program's kind; decodes the program
  bool open_traces();           // protocol checking, timeline, VCD, execution trace
  bool load_plugins();          // vendor models (before any payload exists)
  bool build_device_side();     // cores, L1s, interconnect, L2, DRAM, scheduler
  bool build_host_side();       // host interconnect, HT link, host memory, master core; or the launcher
  bool wire();                  // every binding and the interconnects' address maps
  bool load_program();          // the program's data into local memory; checks the global sections
  bool choose_host_software();  // what the master core runs
  void observe();               // tracing hooks and the statistics tree
  // Binds two sockets through links_ (a protocol checker when asked), and with a timeline through a tap.
  template <class Initiator, class Target>
  void bind(Initiator& initiator, Target& target);
  template <class Initiator, class Target>
  void bind_traced(Initiator& initiator, Target& target, const std::string& process, const std::string& thread,
                   const char* category);
  plugin::TargetSpec plugin_spec(const std::string& instance, const plugin::PluginConfig& model, std::uint64_t size,
                                 std::uint64_t base, double clock_mhz);
  interconnect::Region stream_region(std::size_t core) const;   // core i's stream window
  std::vector<interconnect::Region> device_regions() const;     // the host's view of the device

  std::string load_global_data();
  std::string status_text() const;   // for the progress line
  std::string pending_work() const;  // for the deadlock message: one line per busy module
  std::vector<simkit::StatGroup*> module_stats();
  void close_stats();  // final window sample, run totals, launch times
  bool run_to_end(const RunLimits& limits);  // run() before it records how the run ended
  // Records a run stopped by Ctrl-C or the host-time limit in error() and stats.json's "end".
  void record_stop(RunStop why, double max_host_seconds);
  // At a safe point of SystemC's thread: the statistics so far, for stuck_run().
  void publish_stats();
  // The watchdog's case, on its own thread while SystemC's may still run: what publish_stats()
  // left and atomics only, never the models or this object's other members.
  StuckRun stuck_run(RunStop why, const RunLimits& limits) const;
  std::string write_traces();  // the timeline and VCD files; an error message or ""
  sc_core::sc_time stats_window() const;  // run.stats_window_cycles as simulated time
  runtime::RuntimeConfig runtime_config() const;  // the host runtime's master.*, completed from the platform
  std::string device_diagnosis(std::uint64_t seq) const;  // why packet `seq` failed

  PlatformConfig cfg_;
  isa::Program program_;
  std::unique_ptr<core::LoadedProgram> loaded_;  // decoded for core.*
  // Per core: its options (core.* with core<i>.* over them; a ParCore keeps a reference, hence a
  // deque) and its decoded program (loaded_, or one of instance_programs_ for a core with options
  // of its own).
  std::deque<core::CoreConfig> core_cfgs_;
  std::vector<const core::LoadedProgram*> core_programs_;
  std::vector<std::unique_ptr<core::LoadedProgram>> instance_programs_;
  std::unique_ptr<tlmcheck::CheckedBindings<>> links_;
  // Tracing (trace.timeline / trace.vcd): null when off. Taps record transactions on bindings.
  std::unique_ptr<trace::Timeline> timeline_;
  std::unique_ptr<trace::VcdWriter> vcd_;
  std::unique_ptr<trace::ExecTrace> exec_trace_;
  std::vector<std::unique_ptr<trace::TransactionTap<>>> taps_;
  std::unique_ptr<interconnect::Interconnect> bus_;
  std::unique_ptr<l1::L1Caches> l1_;  // l1.enabled: between each core and bus_ (and its launches)
  std::unique_ptr<l2::L2> l2_;
  std::unique_ptr<dram::Dram> dram_;
  std::unique_ptr<interconnect::Interconnect> host_bus_;  // full system only
  std::unique_ptr<ht::HtLink> link_;
  std::unique_ptr<dram::Dram> host_mem_;
  // Vendor models loaded from shared libraries, instead of dram_ / host_mem_ (--X.model plugin:...).
  std::unique_ptr<plugin::PluginTarget> dram_plugin_, host_mem_plugin_;
  // L2 banks from a plug-in (--l2.bank.model): children of l2_, created by it through a factory.
  std::vector<std::shared_ptr<plugin::PluginLibrary>> l2_bank_libraries_;  // loaded first (load_plugins())
  std::vector<std::unique_ptr<plugin::PluginTarget>> l2_bank_plugins_;
  core::SlotStoragePools register_pools_;  // lent to the cores (declared first: outlives them)
  std::vector<std::unique_ptr<core::ParCore>> cores_;
  std::vector<std::unique_ptr<sc_core::sc_signal<bool>>> core_irqs_;  // core i's `irq` -> scheduler
  std::unique_ptr<sched::ThreadScheduler> scheduler_;
  std::unique_ptr<PacketLauncher> launcher_;     // direct: the idealised launcher
  std::unique_ptr<master::MasterCore> master_;   // full system: the host CPU
  std::unique_ptr<runtime::HostRuntime> host_runtime_;        // ... the runtime its software uses
  std::unique_ptr<runtime::HostProgramRunner> host_software_;  // ... a C++ host program, if one runs
  std::unique_ptr<StopOnEvent> host_done_;
  std::unique_ptr<PlatformStats> stats_;
  std::unique_ptr<LaunchSampler> launch_sampler_;
  std::vector<LaunchTimes> launch_times_;
  std::string error_;
  std::string run_command_, run_configuration_;  // set_run_info()
  double host_seconds_ = 0;
  std::chrono::steady_clock::time_point run_start_;  // for the progress line's ETA
  bool stopped_early_ = false, interrupted_ = false;
  sc_core::sc_time sim_time_;
};

}  // namespace par::platform
