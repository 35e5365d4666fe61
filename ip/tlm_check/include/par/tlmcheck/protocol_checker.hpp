// A TLM-2.0 base-protocol checker for one socket binding (README.md): a pass-through SC_MODULE
// that forwards every interface call unchanged in both directions -- b_transport,
// nb_transport_fw/bw, get_direct_mem_ptr, invalidate_direct_mem_ptr, transport_dbg -- and checks
// each call and return with a ProtocolMonitor.
//
//   // was: core.mem.bind(bus.in);
//   ProtocolChecker<> check("check_core0_mem", "core0.mem", "bus.in", cfg);
//   core.mem.bind(check.in);
//   check.out.bind(bus.in);          // or: check.connect(core.mem, bus.in);
//
// `in` takes any initiator socket of the base protocol (simple, multi-passthrough: one binding),
// `out` binds to any target socket (simple, passthrough, multi-passthrough). The checker adds no
// delay, never waits and creates no process, so timing and data are exactly those of the direct
// binding.
#pragma once

#include <cstdint>
#include <string>
#include <systemc>
#include <tlm>
#include <utility>

#include "par/simkit/stats.hpp"
#include "par/tlmcheck/checker_config.hpp"
#include "par/tlmcheck/protocol_monitor.hpp"

namespace par::tlmcheck {

template <unsigned int BUSWIDTH = 32>
class ProtocolChecker : public sc_core::sc_module,
                        // Public so that SystemC's port binding can cast to them; the methods
                        // themselves are private (reached through the sockets only).
                        public tlm::tlm_fw_transport_if<>,
                        public tlm::tlm_bw_transport_if<> {
 public:
  tlm::tlm_target_socket<BUSWIDTH> in;      // the initiator side binds here
  tlm::tlm_initiator_socket<BUSWIDTH> out;  // binds to the target side

  // `initiator` / `target` name the two sockets the checker sits between; every violation
  // message names both. With `parent_stats`, the counters are a child group named after the
  // checker's base name; otherwise a group named after its full SystemC name (attach stats()).
  // Throws std::invalid_argument for an invalid `cfg`.
  ProtocolChecker(sc_core::sc_module_name name, std::string initiator, std::string target,
                  const CheckerConfig& cfg = CheckerConfig(),
                  simkit::StatGroup* parent_stats = nullptr)
      : sc_module(name),
        in("in"),
        out("out"),
        stats_(parent_stats != nullptr ? basename() : this->name()),
        monitor_(std::move(initiator), std::move(target), cfg, stats_) {
    if (parent_stats != nullptr) parent_stats->attach(stats_);
    in.bind(static_cast<tlm::tlm_fw_transport_if<>&>(*this));
    out.bind(static_cast<tlm::tlm_bw_transport_if<>&>(*this));
  }

  // Inserts the checker between `initiator` and `target`: initiator.bind(in); out.bind(target).
  template <class InitiatorSocket, class TargetSocket>
  void connect(InitiatorSocket& initiator, TargetSocket& target) {
    initiator.bind(in);
    out.bind(target);
  }

  const std::vector<Violation>& violations() const { return monitor_.violations(); }
  std::uint64_t violation_count() const { return monitor_.violation_count(); }
  const ProtocolMonitor& monitor() const { return monitor_; }
  simkit::StatGroup& stats() { return stats_; }
  const simkit::StatGroup& stats() const { return stats_; }

 private:
  static SimMoment moment() {
    return SimMoment{sc_core::sc_time_stamp(), sc_core::sc_delta_count()};
  }
  static bool in_method_process() {
    return sc_core::sc_get_current_process_handle().proc_kind() == sc_core::SC_METHOD_PROC_;
  }

  // Forward path (from `in`).
  void b_transport(tlm::tlm_generic_payload& tx, sc_core::sc_time& delay) override {
    const auto call =
        monitor_.b_transport_call(tx, delay, sc_core::sc_time_stamp(), in_method_process());
    out->b_transport(tx, delay);
    monitor_.b_transport_return(tx, delay, sc_core::sc_time_stamp(), call);
  }
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& tx, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay) override {
    const auto call = monitor_.nb_transport_fw_call(tx, phase, delay, sc_core::sc_time_stamp());
    const tlm::tlm_sync_enum status = out->nb_transport_fw(tx, phase, delay);
    monitor_.nb_transport_fw_return(tx, call, status, phase, delay, sc_core::sc_time_stamp());
    return status;
  }
  bool get_direct_mem_ptr(tlm::tlm_generic_payload& tx, tlm::tlm_dmi& dmi) override {
    const auto call = monitor_.get_direct_mem_ptr_call(tx, dmi, moment());
    const bool granted = out->get_direct_mem_ptr(tx, dmi);
    monitor_.get_direct_mem_ptr_return(dmi, granted, call, moment());
    return granted;
  }
  unsigned int transport_dbg(tlm::tlm_generic_payload& tx) override {
    const auto call = monitor_.transport_dbg_call(tx, moment());
    const unsigned int count = out->transport_dbg(tx);
    monitor_.transport_dbg_return(tx, count, call, moment());
    return count;
  }

  // Backward path (from `out`).
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& tx, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay) override {
    const auto call = monitor_.nb_transport_bw_call(tx, phase, delay, sc_core::sc_time_stamp());
    const tlm::tlm_sync_enum status = in->nb_transport_bw(tx, phase, delay);
    monitor_.nb_transport_bw_return(tx, call, status, phase, delay, sc_core::sc_time_stamp());
    return status;
  }
  void invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end) override {
    monitor_.invalidate_direct_mem_ptr_call(start, end, sc_core::sc_time_stamp());
    in->invalidate_direct_mem_ptr(start, end);
  }

  simkit::StatGroup stats_;
  ProtocolMonitor monitor_;
};

}  // namespace par::tlmcheck
