#include "par/tlmcheck/rules.hpp"

#include <array>

namespace par::tlmcheck {

namespace {

// In the order of the Rule enumerators (tests/ip/tlm_check/rules_test.cpp pins every name).
constexpr std::array<RuleInfo, kRuleCount> kRules = {{
    {"gp.command", "14.9",
     "the command must be TLM_READ_COMMAND, TLM_WRITE_COMMAND or TLM_IGNORE_COMMAND"},
    {"gp.data_ptr", "14.11", "a read or write must carry a non-null data pointer"},
    {"gp.data_length", "14.12", "a read or write must have a data length greater than 0"},
    {"gp.byte_enable_length", "14.14",
     "the byte-enable length must be greater than 0 when the byte-enable pointer is set"},
    {"gp.streaming_width", "14.15", "the streaming width must be greater than 0"},
    {"gp.dmi_allowed", "14.16", "the initiator must send the payload with the DMI hint false"},
    {"gp.response_status_init", "14.17",
     "the initiator must send the payload with TLM_INCOMPLETE_RESPONSE"},
    {"gp.ref_count", "14.5",
     "a payload with a memory manager must have a reference count above 0 while in flight"},
    {"gp.response_status", "14.17", "a target must set the response status"},
    {"gp.command_modified", "14.7", "the command must not be modified after the initiator sent it"},
    {"gp.address_modified", "14.7, 14.10",
     "a target must not modify the address; an interconnect that translates it must restore it "
     "before it returns"},
    {"gp.data_ptr_modified", "14.7",
     "the data pointer must not be modified after the initiator sent it"},
    {"gp.data_length_modified", "14.7",
     "the data length must not be modified after the initiator sent it"},
    {"gp.byte_enable_modified", "14.7",
     "the byte-enable pointer, length and array must not be modified after the initiator sent "
     "them"},
    {"gp.streaming_width_modified", "14.7",
     "the streaming width must not be modified after the initiator sent it"},
    {"gp.write_data_modified", "14.7, 14.11",
     "the data array of a write must not be modified on the target side"},
    {"gp.extension_leak", "14.5",
     "an extension added to a payload without memory manager must be removed before returning"},
    {"tx.in_flight_reuse", "14.5",
     "a transaction object must not be sent again while it is still in flight on the binding"},
    {"tx.mixed_interfaces", "15.2.10",
     "a payload must not be in b_transport and in an nb_transport phase sequence at the same "
     "time"},
    {"b.method_process", "11.1.1.4",
     "b_transport may call wait, so it must be called from a thread process"},
    {"timing.negative_delay", "11.1.3",
     "a timing annotation must never be negative (sc_time is unsigned: a negative delay wraps "
     "to a huge one)"},
    {"timing.b_transport_order", "11.1.3",
     "b_transport must not return an earlier time (sc_time_stamp() + delay) than it was called "
     "with"},
    {"timing.b_transport_wait", "platform",
     "b_transport must not wait longer than the access it models (bound: "
     "protocol_check.max_b_transport_wait_ns); long work is started by a write that returns and "
     "signals its end"},
    {"timing.nb_transport_order", "15.2.7",
     "the phases of a transaction must not go back in time (sc_time_stamp() + delay)"},
    {"nb.memory_manager", "14.5", "a payload sent through nb_transport must have a memory manager"},
    {"nb.unknown_phase", "15.2.3",
     "only the four base-protocol phases may be sent (no uninitialized or extended phase)"},
    {"nb.phase_direction", "15.2.3",
     "BEGIN_REQ and END_RESP go from initiator to target, END_REQ and BEGIN_RESP from target to "
     "initiator"},
    {"nb.phase_sequence", "15.2.4",
     "phases follow BEGIN_REQ -> END_REQ -> BEGIN_RESP -> END_RESP (BEGIN_RESP may imply "
     "END_REQ)"},
    {"nb.request_exclusion", "15.2.6",
     "only one request may be in the request phase on a binding: wait for END_REQ or BEGIN_RESP"},
    {"nb.response_exclusion", "15.2.6",
     "only one response may be in the response phase on a binding: wait for END_RESP"},
    {"nb.accepted_modified", "11.1.2",
     "a callee that returns TLM_ACCEPTED must not change the phase or the delay"},
    {"dmi.command", "11.2.5",
     "get_direct_mem_ptr must carry TLM_READ_COMMAND or TLM_WRITE_COMMAND"},
    {"dmi.descriptor_init", "11.2.5",
     "the initiator must pass the DMI descriptor in its initial state (tlm_dmi::init())"},
    {"dmi.pointer", "11.2.5", "a granted DMI region must have a non-null pointer"},
    {"dmi.range", "11.2.5",
     "a DMI region must be well formed (start <= end) and, when granted, contain the requested "
     "address"},
    {"dmi.access", "11.2.5", "granted DMI access must include the requested read or write access"},
    {"dmi.wait", "11.2", "get_direct_mem_ptr must not call wait"},
    {"dmi.invalidate_range", "11.2",
     "invalidate_direct_mem_ptr must give a well-formed range (start <= end)"},
    {"dbg.data_ptr", "11.3.4",
     "a debug access with a data length must carry a non-null data pointer"},
    {"dbg.return_count", "11.3.4", "transport_dbg must return at most the data length"},
    {"dbg.wait", "11.3.4", "transport_dbg must not call wait (it takes no simulated time)"},
}};

std::vector<Rule> make_all() {
  std::vector<Rule> v;
  for (std::size_t i = 0; i < kRuleCount; ++i) v.push_back(static_cast<Rule>(i));
  return v;
}

}  // namespace

const RuleInfo& rule_info(Rule rule) { return kRules[static_cast<std::size_t>(rule)]; }

const std::vector<Rule>& all_rules() {
  static const std::vector<Rule> rules = make_all();
  return rules;
}

}  // namespace par::tlmcheck
