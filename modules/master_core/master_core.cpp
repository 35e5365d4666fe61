#include "master_core.hpp"

#include <algorithm>

#include "par/sckit/payload.hpp"
#include "par/sckit/time_units.hpp"

namespace par::master {

using sc_core::sc_time;

MasterCore::PortCounters::PortCounters(simkit::StatGroup& g)
    : transactions(g.counter("transactions", "transactions", "Transactions issued on the master's bus")),
      transaction_bytes(g.counter("transaction_bytes", "bytes", "Bytes read or written by those transactions")),
      host_busy_ns(g.real("host_busy_ns", "ns", "Time the host CPU spent computing (instructions, compute())")),
      interrupts(g.counter("interrupts", "interrupts", "Interrupt messages the CPU woke up for (on `irq`)")) {}

MasterCore::MasterCore(sc_core::sc_module_name name, const MasterConfig& cfg, const isa::Program& program)
    : sc_module(name),
      bus("bus"),
      irq("irq"),
      cfg_(checked(cfg)),
      program_(program),
      period_(sckit::clock_period(cfg_.clock_mhz)),
      stats_group_(this->name()),
      port_counters_(stats_group_),
      interpreter_counters_(stats_group_) {
  SC_HAS_PROCESS(MasterCore);
  SC_THREAD(run);
}

MasterCore::~MasterCore() = default;

void MasterCore::run() {
  std::string e = software_ != nullptr ? software_->run() : run_master();
  if (!e.empty()) error_ = std::string(name()) + ": " + e;
  wait_until(now());
  finished_ = true;
  finished_at_ = sc_core::sc_time_stamp();
  finished_event_.notify(sc_core::SC_ZERO_TIME);
}

std::string MasterCore::run_master() {
  if (program_.kind != isa::ProgramKind::Master)
    return "'" + program_.source_file + "' has no master program (.PAR file) and no host program was given";
  if (control_ == nullptr) return "no packet control for the .MASTER program's par and sync (set_packet_control)";
  interpreter_ = std::make_unique<MasterInterpreter>(program_, cfg_, port(), *control_, interpreter_counters_);
  return interpreter_->run();
}

// --- HostPort --------------------------------------------------------------------------------------

sc_time MasterCore::now() const { return std::max(local_, sc_core::sc_time_stamp()); }

void MasterCore::compute(std::uint64_t cycles) {
  const sc_time t = sc_time::from_value(period_.value() * cycles);
  local_ = now() + t;
  port_counters_.host_busy_ns += sckit::to_ns(t);
}

void MasterCore::wait_until(const sc_time& t) {
  local_ = std::max(now(), t);
  const sc_time stamp = sc_core::sc_time_stamp();
  if (local_ > stamp) sc_core::wait(local_ - stamp);
}

AccessResult MasterCore::transact(bool write, std::uint64_t address, std::uint8_t* data, unsigned length,
                                  const sc_time& issue) {
  // One payload serves every access: this thread issues them one call at a time.
  tlm::tlm_generic_payload& tx = payload_;
  sckit::prepare_request(tx, write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND, address, data, length);
  const sc_time stamp = sc_core::sc_time_stamp();
  sc_time delay = issue > stamp ? issue - stamp : sc_core::SC_ZERO_TIME;
  bus->b_transport(tx, delay);
  ++port_counters_.transactions;
  port_counters_.transaction_bytes += length;
  AccessResult r;
  r.ok = tx.is_response_ok();
  if (!r.ok) r.error = tx.get_response_string();
  // The base protocol lets a target wait inside the call for the access it models (an
  // approximately-timed model behind a simple socket): the time after the call plus the annotation.
  r.done = sc_core::sc_time_stamp() + delay;
  return r;
}

sckit::Interrupt MasterCore::wait_interrupt() {
  wait_until(now());
  const sckit::Interrupt m = irq.wait();
  local_ = sc_core::sc_time_stamp();
  ++port_counters_.interrupts;
  return m;
}

}  // namespace par::master
