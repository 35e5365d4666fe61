// The master core as a SystemC module (docs/architecture.md "Blocks and sockets"; README.md): the host
// CPU. It runs either a C++ host program (runtime::HostProgram, against the host runtime) or the
// .MASTER program of the loaded .par file (MasterInterpreter), in one SC_THREAD. Every access
// goes out through `bus` as a timed TLM transaction; the lead binds it to the host interconnect,
// whose address map sends device addresses over the HT link and host addresses to host memory.
//
// Timing is loosely timed: the thread keeps a local time ahead of the SystemC time (compute,
// instruction costs) and synchronises with wait() at its transactions and waits.
#pragma once

#include <memory>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "host_port.hpp"
#include "host_program.hpp"
#include "host_runtime.hpp"
#include "master_config.hpp"
#include "master_interpreter.hpp"
#include "par/isa/program.hpp"
#include "par/simkit/stats.hpp"

namespace par::master {

using runtime::LaunchRecord;

class MasterCore : public sc_core::sc_module, private runtime::HostPort {
 public:
  tlm_utils::simple_initiator_socket<MasterCore> bus;

  // Runs `host` if it is not null, else the .MASTER code of `program` (copied). Throws
  // std::invalid_argument if cfg is invalid.
  MasterCore(sc_core::sc_module_name name, const MasterConfig& cfg, const isa::Program& program,
             std::unique_ptr<runtime::HostProgram> host);
  ~MasterCore() override;

  // The program (and its implicit final wait) has ended, successfully or not.
  bool finished() const { return finished_; }
  const sc_core::sc_event& finished_event() const { return finished_event_; }
  sc_core::sc_time finished_at() const { return finished_at_; }
  bool ok() const { return error_.empty(); }
  // "" or e.g. "master: packet 3 (sva, 1280 threads) failed: <why>",
  // "master: runtime error at pc 12 (rb_gs.par:40): misaligned 8-byte load at 0x1004".
  const std::string& error() const { return error_; }

  simkit::StatGroup& stats() { return stats_group_; }
  const simkit::StatGroup& stats() const { return stats_group_; }
  // One record per launched packet, index = sequence number - 1.
  const std::vector<LaunchRecord>& launches() const { return runtime_.launches(); }
  // The .MASTER program's final registers; nullptr when a host program ran.
  const MasterRegisters* final_registers() const { return interpreter_ ? &interpreter_->registers() : nullptr; }

  // How a failed packet is explained (the platform reads the scheduler's and cores' records).
  void set_device_diagnostics(runtime::DeviceDiagnostics d) { runtime_.set_diagnostics(std::move(d)); }
  // Where a host program's log goes; by default it is kept and returned by log_text().
  void set_log(std::ostream* os) { log_stream_ = os; }
  std::string log_text() const { return log_.str(); }
  const MasterConfig& config() const { return cfg_; }
  runtime::HostRuntime& host_runtime() { return runtime_; }

 private:
  struct PortCounters {
    explicit PortCounters(simkit::StatGroup& g);
    simkit::Counter& transactions;
    simkit::Counter& transaction_bytes;
    simkit::Real& host_busy_ns;
  };

  void run();
  void run_host();
  void run_master();

  // HostPort
  sc_core::sc_time now() const override;
  sc_core::sc_time clock_period() const override { return period_; }
  void compute(std::uint64_t cycles) override;
  void wait_until(const sc_core::sc_time& t) override;
  runtime::AccessResult transact(bool write, std::uint64_t address, std::uint8_t* data, unsigned length,
                                 const sc_core::sc_time& issue) override;

  const MasterConfig cfg_;
  const isa::Program program_;
  const sc_core::sc_time period_;
  simkit::StatGroup stats_group_;
  PortCounters port_counters_;
  runtime::HostRuntime runtime_;
  InterpreterCounters interpreter_counters_;
  std::unique_ptr<MasterInterpreter> interpreter_;
  std::unique_ptr<runtime::HostProgram> host_;
  sc_core::sc_time local_;
  tlm::tlm_generic_payload payload_;
  std::ostringstream log_;
  std::ostream* log_stream_ = nullptr;
  bool finished_ = false;
  sc_core::sc_time finished_at_;
  sc_core::sc_event finished_event_;
  std::string error_;
};

}  // namespace par::master
