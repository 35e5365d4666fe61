// ProtocolMonitor: reporting, payload attribute rules, b_transport, DMI and debug transport.
// The nb_transport phase rules are in nb_transport_rules.cpp.
#include "par/tlmcheck/protocol_monitor.hpp"

#include <limits>
#include <sstream>
#include <utility>

#include "monitor_text.hpp"

namespace par::tlmcheck {

using sc_core::sc_time;
using tlm::tlm_generic_payload;

std::string describe(tlm::tlm_command command, std::uint64_t address, unsigned length) {
  std::ostringstream os;
  os << command_name(command) << " of " << length << (length == 1 ? " byte" : " bytes") << " at "
     << hex(address);
  return os.str();
}

std::string describe(const tlm_generic_payload& tx) {
  return describe(tx.get_command(), tx.get_address(), tx.get_data_length());
}

ProtocolMonitor::ProtocolMonitor(std::string initiator, std::string target,
                                 const CheckerConfig& cfg, simkit::StatGroup& stats)
    : initiator_(std::move(initiator)),
      target_(std::move(target)),
      cfg_(checked(cfg)),
      max_delay_(cfg.max_delay_ns, sc_core::SC_NS),
      max_wait_(cfg.max_b_transport_wait_ns, sc_core::SC_NS),
      stats_(stats) {}

void ProtocolMonitor::report(Rule rule, const std::string& detail, const sc_time& now) {
  const RuleInfo& info = rule_info(rule);
  const std::string source = std::string(info.section) == "platform" ? std::string("the platform's rule, docs/architecture.md")
                                                                     : std::string("IEEE 1666-2011 ") + info.section;
  std::string message = "protocol violation between " + initiator_ + " and " + target_ + ": [" +
                        info.name + "] " + detail + " (rule: " + info.text + "; " + source + ") at " +
                        now.to_string();
  ++stats_.violations;
  ++violation_count_;
  if (violations_.size() < kMaxRecorded) violations_.push_back(Violation{rule, message, now});
  if (cfg_.stop_on_violation) SC_REPORT_ERROR(kMessageType, message.c_str());
}

// --- payload attributes ------------------------------------------------------------------------

std::string ProtocolMonitor::Via::text() const {
  if (updated_from == nullptr) return call;
  return std::string("the TLM_UPDATED return of ") + call + "(" + phase_name(*updated_from) + ")";
}

void ProtocolMonitor::check_request(const tlm_generic_payload& tx, const Via& via,
                                    const sc_time& now) {
  const tlm::tlm_command command = tx.get_command();
  const bool read_or_write = command == tlm::TLM_READ_COMMAND || command == tlm::TLM_WRITE_COMMAND;
  if (!read_or_write && command != tlm::TLM_IGNORE_COMMAND) {
    report(Rule::CommandValue,
           "initiator sent command " + std::to_string(static_cast<int>(command)) + " through " +
               via.text(),
           now);
  }
  if (read_or_write && tx.get_data_ptr() == nullptr) {
    report(Rule::DataPointer,
           "initiator sent a " + describe(tx) + " with a null data pointer through " + via.text(),
           now);
  }
  if (read_or_write && tx.get_data_length() == 0) {
    report(Rule::DataLength,
           "initiator sent a " + std::string(command_name(command)) + " with data length 0 at " +
               hex(tx.get_address()) + " through " + via.text(),
           now);
  }
  if (tx.get_byte_enable_ptr() != nullptr && tx.get_byte_enable_length() == 0) {
    report(Rule::ByteEnableLength,
           "initiator sent a " + describe(tx) +
               " with a byte-enable pointer and byte-enable length 0 through " + via.text(),
           now);
  }
  if (tx.get_streaming_width() == 0) {
    report(Rule::StreamingWidth,
           "initiator sent a " + describe(tx) + " with streaming width 0 through " + via.text(),
           now);
  }
  if (tx.is_dmi_allowed()) {
    report(
        Rule::DmiAllowedInit,
        "initiator sent a " + describe(tx) + " with the DMI allowed hint set through " + via.text(),
        now);
  }
  if (tx.get_response_status() != tlm::TLM_INCOMPLETE_RESPONSE) {
    report(Rule::ResponseStatusInit,
           "initiator sent a " + describe(tx) + " with response status " +
               status_name(tx.get_response_status()) + " through " + via.text(),
           now);
  }
}

void ProtocolMonitor::check_ref_count(const tlm_generic_payload& tx, const char* call,
                                      const sc_time& now) {
  if (tx.has_mm() && tx.get_ref_count() <= 0) {
    report(Rule::RefCount,
           std::string(call) + " of a " + describe(tx) +
               " with a memory manager and reference count " + std::to_string(tx.get_ref_count()),
           now);
  }
}

bool ProtocolMonitor::check_delay(const sc_time& delay, const char* what, const Via* via,
                                  const sc_time& now) {
  if (delay <= max_delay_) return true;
  report(Rule::NegativeDelay,
         std::string(what) + (via != nullptr ? " " + via->text() : std::string()) + " is " +
             delay.to_string() + ", above the bound of " + max_delay_.to_string() +
             " (protocol_check.max_delay_ns): a negative delay that wrapped around?",
         now);
  return false;
}

void ProtocolMonitor::check_response_status(const tlm_generic_payload& tx, const char* when,
                                            const Via* via, const sc_time& now) {
  const tlm::tlm_response_status s = tx.get_response_status();
  const bool valid = s >= tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE && s <= tlm::TLM_OK_RESPONSE;
  if (valid && s != tlm::TLM_INCOMPLETE_RESPONSE) return;
  const std::string head =
      std::string("target ") + when + (via != nullptr ? " through " + via->text() : std::string());
  if (s == tlm::TLM_INCOMPLETE_RESPONSE) {
    report(Rule::ResponseStatus, head + " with TLM_INCOMPLETE_RESPONSE (" + describe(tx) + ")",
           now);
  } else {
    report(Rule::ResponseStatus,
           head + " with response status " + std::to_string(static_cast<int>(s)) +
               ", which is no tlm_response_status (" + describe(tx) + ")",
           now);
  }
}

void ProtocolMonitor::check_unmodified(const AttributeSnapshot& entry,
                                       const tlm_generic_payload& tx, const char* during,
                                       const sc_time& now) {
  compare(entry, tx, cfg_.address_restored, [&](const AttributeChange& c) {
    report(c.rule,
           std::string("the ") + c.what + " of a " +
               describe(entry.command, entry.address, entry.length) + " changed from " +
               change_value(c, c.was) + " to " + change_value(c, c.now) + " " + during,
           now);
  });
}

// --- b_transport -------------------------------------------------------------------------------

ProtocolMonitor::BlockingCall ProtocolMonitor::b_transport_call(const tlm_generic_payload& tx,
                                                                const sc_time& delay,
                                                                const sc_time& now,
                                                                bool from_method_process) {
  ++stats_.b_transport;
  check_ref_count(tx, "b_transport", now);
  check_request(tx, Via{"b_transport"}, now);
  if (from_method_process) {
    report(Rule::BlockingFromMethod,
           "b_transport of a " + describe(tx) + " was called from a method process", now);
  }
  const bool delay_ok =
      check_delay(delay, "the delay annotated by the initiator on b_transport", nullptr, now);
  if (!sequences_.empty()) {
    if (const InFlight* entry = sequences_.find(&tx)) {
      report(Rule::MixedInterfaces,
             "b_transport of a " + describe(tx) + " while the payload is in an nb_transport " +
                 "sequence (phase " + phase_name(entry->phase) + ") on this binding",
             now);
    }
  }
  if (blocking_.contains(&tx)) {
    report(Rule::InFlightReuse,
           "b_transport of a " + describe(tx) +
               " while the same payload is already in b_transport on this binding",
           now);
  }
  blocking_.add(&tx);
  return BlockingCall{AttributeSnapshot::capture(tx, true), now, now + delay, delay_ok};
}

void ProtocolMonitor::b_transport_return(const tlm_generic_payload& tx, const sc_time& delay,
                                         const sc_time& now, const BlockingCall& call) {
  blocking_.remove(&tx);
  check_response_status(tx, "returned from b_transport", nullptr, now);
  check_unmodified(call.entry, tx, "during b_transport", now);
  if (max_wait_ > sc_time() && now - call.called > max_wait_) {
    report(Rule::BlockingWait,
           "b_transport of a " + describe(call.entry.command, call.entry.address, call.entry.length) +
               " waited " + (now - call.called).to_string() + " inside the call (from " + call.called.to_string() +
               " to " + now.to_string() + "), longer than protocol_check.max_b_transport_wait_ns = " +
               max_wait_.to_string(),
           now);
  }
  // A huge delay is reported once: where it appears (a wrapped delay also breaks the order).
  if (!call.delay_ok ||
      !check_delay(delay, "the delay returned by the target from b_transport", nullptr, now)) {
    return;
  }
  const sc_time completed = now + delay;
  if (completed < call.issued) {
    report(Rule::BlockingTimeOrder,
           "b_transport of a " +
               describe(call.entry.command, call.entry.address, call.entry.length) +
               " was called for " + call.issued.to_string() +
               " (sc_time_stamp() + delay) and returned " + completed.to_string() + " (" +
               now.to_string() + " + " + delay.to_string() + ")",
           now);
  }
}

// --- DMI ---------------------------------------------------------------------------------------

ProtocolMonitor::DmiCall ProtocolMonitor::get_direct_mem_ptr_call(const tlm_generic_payload& tx,
                                                                  const tlm::tlm_dmi& dmi,
                                                                  const SimMoment& at) {
  ++stats_.get_direct_mem_ptr;
  const tlm::tlm_command command = tx.get_command();
  if (command != tlm::TLM_READ_COMMAND && command != tlm::TLM_WRITE_COMMAND) {
    report(Rule::DmiCommand,
           "initiator asked for DMI at " + hex(tx.get_address()) + " with " + command_name(command),
           at.time);
  }
  const bool initial = dmi.get_dmi_ptr() == nullptr && dmi.is_none_allowed() &&
                       dmi.get_start_address() == 0 &&
                       dmi.get_end_address() == std::numeric_limits<sc_dt::uint64>::max() &&
                       dmi.get_read_latency() == sc_core::SC_ZERO_TIME &&
                       dmi.get_write_latency() == sc_core::SC_ZERO_TIME;
  if (!initial) {
    report(Rule::DmiDescriptorInit,
           "initiator asked for DMI at " + hex(tx.get_address()) + " with a descriptor " +
               dmi_text(dmi),
           at.time);
  }
  return DmiCall{command, tx.get_address(), at};
}

void ProtocolMonitor::get_direct_mem_ptr_return(const tlm::tlm_dmi& dmi, bool granted,
                                                const DmiCall& call, const SimMoment& at) {
  if (at != call.at) {
    report(Rule::DmiWait,
           "get_direct_mem_ptr for " + hex(call.address) + " was called at " +
               moment_text(call.at) + " and returned at " + moment_text(at),
           at.time);
  }
  const std::uint64_t start = dmi.get_start_address();
  const std::uint64_t end = dmi.get_end_address();
  if (start > end) {
    report(Rule::DmiRange,
           std::string("target ") + (granted ? "granted" : "denied") + " DMI for " +
               hex(call.address) + " with a region whose start is after its end: " + dmi_text(dmi),
           at.time);
  }
  if (!granted) return;
  if (dmi.get_dmi_ptr() == nullptr) {
    report(Rule::DmiPointer,
           "target granted DMI for " + hex(call.address) + " with a null pointer: " + dmi_text(dmi),
           at.time);
  }
  if (start <= end && (call.address < start || call.address > end)) {
    report(Rule::DmiRange,
           "target granted DMI for " + hex(call.address) +
               " with a region that does not contain it: " + dmi_text(dmi),
           at.time);
  }
  const bool allowed =
      call.command == tlm::TLM_WRITE_COMMAND ? dmi.is_write_allowed() : dmi.is_read_allowed();
  if ((call.command == tlm::TLM_READ_COMMAND || call.command == tlm::TLM_WRITE_COMMAND) &&
      !allowed) {
    report(Rule::DmiAccess,
           "target granted DMI for a " + std::string(command_name(call.command)) + " at " +
               hex(call.address) + " with " + access_name(dmi.get_granted_access()),
           at.time);
  }
}

void ProtocolMonitor::invalidate_direct_mem_ptr_call(std::uint64_t start, std::uint64_t end,
                                                     const sc_time& now) {
  ++stats_.invalidate_direct_mem_ptr;
  if (start > end) {
    report(Rule::DmiInvalidateRange,
           "target invalidated DMI for the range [" + hex(start) + ", " + hex(end) +
               "] whose start is after its end",
           now);
  }
}

// --- debug transport ---------------------------------------------------------------------------

ProtocolMonitor::DebugCall ProtocolMonitor::transport_dbg_call(const tlm_generic_payload& tx,
                                                               const SimMoment& at) {
  ++stats_.transport_dbg;
  if (tx.get_data_length() > 0 && tx.get_data_ptr() == nullptr) {
    report(Rule::DebugDataPointer,
           "initiator sent a debug " + describe(tx) + " with a null data pointer", at.time);
  }
  return DebugCall{AttributeSnapshot::capture(tx, false), at};
}

void ProtocolMonitor::transport_dbg_return(const tlm_generic_payload& tx, unsigned count,
                                           const DebugCall& call, const SimMoment& at) {
  const AttributeSnapshot& e = call.entry;
  if (at != call.at) {
    report(Rule::DebugWait,
           "transport_dbg of a " + describe(e.command, e.address, e.length) + " was called at " +
               moment_text(call.at) + " and returned at " + moment_text(at),
           at.time);
  }
  if (count > e.length) {
    report(Rule::DebugReturnCount,
           "target returned " + std::to_string(count) + " from transport_dbg of a " +
               describe(e.command, e.address, e.length),
           at.time);
  }
  check_unmodified(e, tx, "during transport_dbg", at.time);
}

}  // namespace par::tlmcheck
