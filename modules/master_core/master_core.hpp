// The master core as a SystemC module (docs/architecture.md "Blocks and sockets"; README.md): the
// host CPU. In one SC_THREAD it runs either the host software the platform hands it (a C++ host
// program wrapped as HostSoftware) or the .MASTER program of the loaded .par file
// (MasterInterpreter), whose `par` and `sync` go through the PacketControl the platform hands it
// (the host runtime). Every access goes out through `bus` as a timed TLM transaction; completion
// interrupts arrive on `irq`.
//
// Timing is loosely timed: the thread keeps a local time ahead of the SystemC time (compute,
// instruction costs) and synchronises with wait() at its transactions and waits.
#pragma once

#include <memory>
#include <string>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "master_config.hpp"
#include "master_interpreter.hpp"
#include "par/isa/program.hpp"
#include "par/master/host_port.hpp"
#include "par/master/host_software.hpp"
#include "par/master/packet_control.hpp"
#include "par/sckit/interrupt.hpp"
#include "par/simkit/stats.hpp"

namespace par::master {

class MasterCore : public sc_core::sc_module, private HostPort {
 public:
  tlm_utils::simple_initiator_socket<MasterCore> bus;
  // Interrupt messages to the CPU (the thread scheduler's completion interrupts, through the link).
  sckit::InterruptIn irq;

  // The program (copied) gives the .MASTER code; what runs is chosen by the setters below before
  // the simulation starts. Throws std::invalid_argument if cfg is invalid.
  MasterCore(sc_core::sc_module_name name, const MasterConfig& cfg, const isa::Program& program);
  ~MasterCore() override;

  // What software sees of this core (the host runtime is built on it).
  HostPort& port() { return *this; }
  // Run `software` (not owned) instead of the file's .MASTER program.
  void set_host_software(HostSoftware& software) { software_ = &software; }
  // Where the .MASTER program's `par` and `sync` go (not owned); needed unless host software runs.
  void set_packet_control(PacketControl& control) { control_ = &control; }

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
  // The .MASTER program's final registers; nullptr when host software ran.
  const MasterRegisters* final_registers() const { return interpreter_ ? &interpreter_->registers() : nullptr; }
  const MasterConfig& config() const { return cfg_; }

 private:
  struct PortCounters {
    explicit PortCounters(simkit::StatGroup& g);
    simkit::Counter& transactions;
    simkit::Counter& transaction_bytes;
    simkit::Real& host_busy_ns;
    simkit::Counter& interrupts;
  };

  void run();
  std::string run_master();

  // HostPort
  sc_core::sc_time now() const override;
  sc_core::sc_time clock_period() const override { return period_; }
  void compute(std::uint64_t cycles) override;
  void wait_until(const sc_core::sc_time& t) override;
  AccessResult transact(bool write, std::uint64_t address, std::uint8_t* data, unsigned length,
                        const sc_core::sc_time& issue) override;
  sckit::Interrupt wait_interrupt() override;

  const MasterConfig cfg_;
  const isa::Program program_;
  const sc_core::sc_time period_;
  simkit::StatGroup stats_group_;
  PortCounters port_counters_;
  InterpreterCounters interpreter_counters_;
  HostSoftware* software_ = nullptr;
  PacketControl* control_ = nullptr;
  std::unique_ptr<MasterInterpreter> interpreter_;
  sc_core::sc_time local_;
  tlm::tlm_generic_payload payload_;
  bool finished_ = false;
  sc_core::sc_time finished_at_;
  sc_core::sc_event finished_event_;
  std::string error_;
};

}  // namespace par::master
