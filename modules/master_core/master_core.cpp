#include "master_core.hpp"

#include <algorithm>

#include "par/sckit/payload.hpp"

namespace par::master {

using sc_core::sc_time;
using sc_core::SC_NS;

namespace {
double ns(const sc_time& t) { return t / sc_time(1, SC_NS); }
}  // namespace

MasterCore::PortCounters::PortCounters(simkit::StatGroup& g)
    : transactions(g.counter("transactions", "transactions", "Transactions issued on the master's bus")),
      transaction_bytes(g.counter("transaction_bytes", "bytes", "Bytes read or written by those transactions")),
      host_busy_ns(g.real("host_busy_ns", "ns", "Time the host CPU spent computing (instructions, compute())")) {}

MasterCore::MasterCore(sc_core::sc_module_name name, const MasterConfig& cfg, const isa::Program& program,
                       std::unique_ptr<runtime::HostProgram> host)
    : sc_module(name),
      bus("bus"),
      cfg_(checked(cfg)),
      program_(program),
      period_(1e3 / cfg_.clock_mhz, SC_NS),  // rounded to the time resolution
      stats_group_(this->name()),
      port_counters_(stats_group_),
      runtime_(*this, cfg_.runtime(), program_, stats_group_),
      interpreter_counters_(stats_group_),
      host_(std::move(host)) {
  runtime::HostPort& port = *this;  // a private base: converted here, inside the class
  if (!host_) interpreter_ = std::make_unique<MasterInterpreter>(program_, cfg_, port, runtime_, interpreter_counters_);
  SC_HAS_PROCESS(MasterCore);
  SC_THREAD(run);
}

MasterCore::~MasterCore() = default;

void MasterCore::run() {
  if (host_) run_host();
  else run_master();
  wait_until(now());
  finished_ = true;
  finished_at_ = sc_core::sc_time_stamp();
  finished_event_.notify(sc_core::SC_ZERO_TIME);
}

void MasterCore::run_host() {
  std::ostream& log = log_stream_ != nullptr ? *log_stream_ : static_cast<std::ostream&>(log_);
  const std::string prefix = std::string(name()) + ": ";
  try {
    const int rc = host_->run(runtime_, log);
    runtime_.wait();  // like the end of a master program: the host's packets have completed
    if (rc != 0) error_ = prefix + "host program '" + host_->name() + "' returned " + std::to_string(rc);
  } catch (const sc_core::sc_unwind_exception&) {
    throw;  // SystemC kills or resets the thread
  } catch (const runtime::RuntimeError& e) {
    error_ = prefix + e.what();
  } catch (const std::exception& e) {
    error_ = prefix + "host program '" + host_->name() + "' failed: " + e.what();
  }
}

void MasterCore::run_master() {
  const std::string prefix = std::string(name()) + ": ";
  if (program_.kind != isa::ProgramKind::Master) {
    error_ = prefix + "'" + program_.source_file + "' has no master program (.PAR file) and no host program was given";
    return;
  }
  const std::string e = interpreter_->run();
  if (!e.empty()) error_ = prefix + e;
}

// --- HostPort --------------------------------------------------------------------------------------

sc_time MasterCore::now() const { return std::max(local_, sc_core::sc_time_stamp()); }

void MasterCore::compute(std::uint64_t cycles) {
  const sc_time t = sc_time::from_value(period_.value() * cycles);
  local_ = now() + t;
  port_counters_.host_busy_ns += ns(t);
}

void MasterCore::wait_until(const sc_time& t) {
  local_ = std::max(now(), t);
  const sc_time stamp = sc_core::sc_time_stamp();
  if (local_ > stamp) sc_core::wait(local_ - stamp);
}

runtime::AccessResult MasterCore::transact(bool write, std::uint64_t address, std::uint8_t* data, unsigned length,
                                           const sc_time& issue) {
  // One payload serves every access: this thread issues them one call at a time.
  tlm::tlm_generic_payload& tx = payload_;
  sckit::prepare_request(tx, write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND, address, data, length);
  const sc_time stamp = sc_core::sc_time_stamp();
  sc_time delay = issue > stamp ? issue - stamp : sc_core::SC_ZERO_TIME;
  bus->b_transport(tx, delay);
  ++port_counters_.transactions;
  port_counters_.transaction_bytes += length;
  runtime::AccessResult r;
  r.ok = tx.is_response_ok();
  if (!r.ok) r.error = tx.get_response_string();
  r.done = sc_core::sc_time_stamp() + delay;  // the target may have waited inside the call
  return r;
}

}  // namespace par::master
