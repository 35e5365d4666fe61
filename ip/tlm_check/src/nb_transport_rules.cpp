// ProtocolMonitor: the base-protocol phase rules of nb_transport (IEEE 1666-2011 §15.2).
//
// Each payload in an nb_transport sequence on the binding has an InFlight entry holding its last
// phase. A phase can arrive four ways: as the phase argument of an nb_transport_fw call
// (initiator -> target) or of an nb_transport_bw call (target -> initiator), or as the phase
// returned with TLM_UPDATED by the other side. Both ways of one direction go through the same
// function (initiator_phase / target_phase), so the sequence rules are written once.
#include <string>

#include "monitor_text.hpp"
#include "par/tlmcheck/protocol_monitor.hpp"

namespace par::tlmcheck {

using sc_core::sc_time;
using tlm::tlm_generic_payload;
using tlm::tlm_phase;

namespace {

bool is_base_phase(const tlm_phase& phase) {
  const unsigned id = phase;
  return id >= tlm::BEGIN_REQ && id <= tlm::END_RESP;
}

}  // namespace

ProtocolMonitor::NbCall ProtocolMonitor::nb_transport_fw_call(const tlm_generic_payload& tx,
                                                              const tlm_phase& phase,
                                                              const sc_time& delay,
                                                              const sc_time& now) {
  ++stats_.nb_transport_fw;
  check_ref_count(tx, "nb_transport_fw", now);
  check_delay(delay, "the delay annotated on nb_transport_fw", nullptr, now);
  initiator_phase(tx, phase, now + delay, Via{"nb_transport_fw"}, now);
  return NbCall{phase, delay};
}

ProtocolMonitor::NbCall ProtocolMonitor::nb_transport_bw_call(const tlm_generic_payload& tx,
                                                              const tlm_phase& phase,
                                                              const sc_time& delay,
                                                              const sc_time& now) {
  ++stats_.nb_transport_bw;
  check_ref_count(tx, "nb_transport_bw", now);
  check_delay(delay, "the delay annotated on nb_transport_bw", nullptr, now);
  target_phase(tx, phase, now + delay, Via{"nb_transport_bw"}, now);
  return NbCall{phase, delay};
}

void ProtocolMonitor::nb_transport_fw_return(const tlm_generic_payload& tx, const NbCall& call,
                                             tlm::tlm_sync_enum status, const tlm_phase& phase,
                                             const sc_time& delay, const sc_time& now) {
  nb_return(tx, call, status, phase, delay, now, true);
}

void ProtocolMonitor::nb_transport_bw_return(const tlm_generic_payload& tx, const NbCall& call,
                                             tlm::tlm_sync_enum status, const tlm_phase& phase,
                                             const sc_time& delay, const sc_time& now) {
  nb_return(tx, call, status, phase, delay, now, false);
}

void ProtocolMonitor::nb_return(const tlm_generic_payload& tx, const NbCall& call,
                                tlm::tlm_sync_enum status, const tlm_phase& phase,
                                const sc_time& delay, const sc_time& now, bool callee_is_target) {
  if (!is_base_phase(call.phase)) return;  // already reported as nb.unknown_phase
  const char* callee = callee_is_target ? "target" : "initiator";
  // The phase returned with TLM_UPDATED arrives through the return of this call.
  const Via returned{callee_is_target ? "nb_transport_fw" : "nb_transport_bw", &call.phase};
  auto call_text = [&] { return std::string(returned.call) + "(" + phase_name(call.phase) + ")"; };
  switch (status) {
    case tlm::TLM_ACCEPTED:
      if (phase != call.phase || delay != call.delay) {
        report(Rule::AcceptedModified,
               std::string(callee) + " returned TLM_ACCEPTED from " + call_text() +
                   " but changed the phase to " + phase_name(phase) + " and the delay from " +
                   call.delay.to_string() + " to " + delay.to_string() + " (" + describe(tx) + ")",
               now);
      }
      return;
    case tlm::TLM_UPDATED:
      check_delay(delay, "the delay of", &returned, now);
      if (phase == call.phase) {
        report(Rule::PhaseSequence,
               std::string(callee) + " returned TLM_UPDATED from " + call_text() +
                   " without moving to a new phase (" + describe(tx) + ")",
               now);
        return;
      }
      if (callee_is_target) {
        target_phase(tx, phase, now + delay, returned, now);
      } else {
        initiator_phase(tx, phase, now + delay, returned, now);
      }
      return;
    case tlm::TLM_COMPLETED:
      if (delay > max_delay_) {
        check_delay(delay, ("the delay returned with TLM_COMPLETED from " + call_text()).c_str(),
                    nullptr, now);
      }
      completed(tx, call.phase, callee_is_target, now + delay, now);
      return;
  }
}

void ProtocolMonitor::initiator_phase(const tlm_generic_payload& tx, const tlm_phase& phase,
                                      const sc_time& at, const Via& via, const sc_time& now) {
  if (!is_base_phase(phase)) {
    report(Rule::UnknownPhase,
           "initiator sent " + phase_name(phase) + " through " + via.text() + " (" + describe(tx) +
               ")",
           now);
    return;
  }
  InFlight* entry = sequences_.find(&tx);
  const unsigned id = phase;
  if (id == tlm::END_REQ || id == tlm::BEGIN_RESP) {
    report(Rule::PhaseDirection,
           "initiator sent " + phase_name(phase) + " through " + via.text() +
               ": only the target sends it (" + describe(tx) + ")",
           now);
    return;
  }
  if (id == tlm::END_RESP) {
    if (entry == nullptr || entry->phase != tlm::BEGIN_RESP) {
      report(Rule::PhaseSequence,
             "initiator sent END_RESP through " + via.text() +
                 " for a transaction that is in phase " +
                 phase_name(entry == nullptr ? tlm::UNINITIALIZED_PHASE : entry->phase) +
                 " on this binding, not BEGIN_RESP (" + describe(tx) + ")",
             now);
    } else {
      advance(*entry, tx, phase, at, now);
      check_unmodified(entry->request, tx, "by END_RESP", now);
    }
    end_sequence(tx, entry);
    return;
  }
  // BEGIN_REQ: a new transaction on this binding.
  ++stats_.nb_transactions;
  if (blocking_.contains(&tx)) {
    report(Rule::MixedInterfaces,
           "initiator sent BEGIN_REQ through " + via.text() + " for a " + describe(tx) +
               " while the same payload is in b_transport on this binding",
           now);
  }
  if (entry != nullptr && entry->phase != tlm::UNINITIALIZED_PHASE) {
    report(Rule::InFlightReuse,
           "initiator sent BEGIN_REQ through " + via.text() + " for a " + describe(tx) +
               " while the same payload is still in phase " + phase_name(entry->phase) +
               " on this binding",
           now);
  }
  if (request_in_progress_ != nullptr && request_in_progress_ != &tx) {
    report(Rule::RequestExclusion,
           "initiator sent BEGIN_REQ for a " + describe(tx) + " while the request of a " +
               describe(*request_in_progress_) +
               " is still in the request phase (no END_REQ or BEGIN_RESP yet)",
           now);
  }
  if (!tx.has_mm()) {
    report(Rule::MemoryManager,
           "initiator sent BEGIN_REQ through " + via.text() + " for a " + describe(tx) +
               " that has no memory manager",
           now);
  }
  check_request(tx, via, now);
  InFlight& e = sequences_.acquire(&tx);
  e.phase = tlm::BEGIN_REQ;
  e.phase_time = at;
  e.request = AttributeSnapshot::capture(tx, true);
  request_in_progress_ = &tx;
}

void ProtocolMonitor::target_phase(const tlm_generic_payload& tx, const tlm_phase& phase,
                                   const sc_time& at, const Via& via, const sc_time& now) {
  if (!is_base_phase(phase)) {
    report(
        Rule::UnknownPhase,
        "target sent " + phase_name(phase) + " through " + via.text() + " (" + describe(tx) + ")",
        now);
    return;
  }
  InFlight* entry = sequences_.find(&tx);
  const tlm::tlm_phase_enum current = entry == nullptr ? tlm::UNINITIALIZED_PHASE : entry->phase;
  const unsigned id = phase;
  if (id == tlm::BEGIN_REQ || id == tlm::END_RESP) {
    report(Rule::PhaseDirection,
           "target sent " + phase_name(phase) + " through " + via.text() +
               ": only the initiator sends it (" + describe(tx) + ")",
           now);
    return;
  }
  if (id == tlm::END_REQ) {
    if (current != tlm::BEGIN_REQ) {
      report(Rule::PhaseSequence,
             "target sent END_REQ through " + via.text() + " for a transaction in phase " +
                 phase_name(current) + " on this binding, not BEGIN_REQ (" + describe(tx) + ")",
             now);
      return;
    }
    advance(*entry, tx, phase, at, now);
    check_unmodified(entry->request, tx, "by END_REQ", now);
    entry->phase = tlm::END_REQ;
    if (request_in_progress_ == &tx) request_in_progress_ = nullptr;
    return;
  }
  // BEGIN_RESP
  if (current != tlm::BEGIN_REQ && current != tlm::END_REQ) {
    report(Rule::PhaseSequence,
           "target sent BEGIN_RESP through " + via.text() + " for a transaction in phase " +
               phase_name(current) + " on this binding, not BEGIN_REQ or END_REQ (" + describe(tx) +
               ")",
           now);
    return;
  }
  if (request_in_progress_ == &tx) request_in_progress_ = nullptr;  // BEGIN_RESP implies END_REQ
  if (response_in_progress_ != nullptr && response_in_progress_ != &tx) {
    report(Rule::ResponseExclusion,
           "target sent BEGIN_RESP for a " + describe(tx) + " while the response of a " +
               describe(*response_in_progress_) +
               " is still in the response phase (no END_RESP yet)",
           now);
  }
  check_response_status(tx, "sent BEGIN_RESP", &via, now);
  advance(*entry, tx, phase, at, now);
  check_unmodified(entry->request, tx, "by BEGIN_RESP", now);
  entry->phase = tlm::BEGIN_RESP;
  response_in_progress_ = &tx;
}

void ProtocolMonitor::completed(const tlm_generic_payload& tx, const tlm_phase& sent,
                                bool by_target, const sc_time& at, const sc_time& now) {
  InFlight* entry = sequences_.find(&tx);
  if (by_target && static_cast<unsigned>(sent) == tlm::BEGIN_REQ && entry != nullptr &&
      entry->phase == tlm::BEGIN_REQ) {
    // The target completed the whole transaction in one call: the response is in the payload.
    check_response_status(tx, "returned TLM_COMPLETED to BEGIN_REQ", nullptr, now);
    advance(*entry, tx, tlm::BEGIN_RESP, at, now);
    check_unmodified(entry->request, tx, "by the TLM_COMPLETED return", now);
  }
  end_sequence(tx, entry);
}

void ProtocolMonitor::advance(InFlight& entry, const tlm_generic_payload& tx,
                              const tlm_phase& phase, const sc_time& at, const sc_time& now) {
  if (at < entry.phase_time) {
    report(Rule::NbTimeOrder,
           phase_name(phase) + " of a " + describe(tx) + " takes effect at " + at.to_string() +
               " (sc_time_stamp() + delay), before the previous phase " + phase_name(entry.phase) +
               " at " + entry.phase_time.to_string(),
           now);
  }
  entry.phase_time = at;
}

void ProtocolMonitor::end_sequence(const tlm_generic_payload& tx, InFlight* entry) {
  if (request_in_progress_ == &tx) request_in_progress_ = nullptr;
  if (response_in_progress_ == &tx) response_in_progress_ = nullptr;
  if (entry == nullptr) return;
  entry->phase = tlm::UNINITIALIZED_PHASE;
  sequences_.release_if_idle(&tx);
}

}  // namespace par::tlmcheck
