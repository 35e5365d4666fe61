#include "monitor_text.hpp"

#include <sstream>

#include "par/tlmcheck/protocol_monitor.hpp"

namespace par::tlmcheck {

const char* command_name(tlm::tlm_command command) {
  switch (command) {
    case tlm::TLM_READ_COMMAND: return "read";
    case tlm::TLM_WRITE_COMMAND: return "write";
    case tlm::TLM_IGNORE_COMMAND: return "ignore command";
  }
  return "invalid command";
}

std::string status_name(tlm::tlm_response_status status) {
  switch (status) {
    case tlm::TLM_OK_RESPONSE: return "TLM_OK_RESPONSE";
    case tlm::TLM_INCOMPLETE_RESPONSE: return "TLM_INCOMPLETE_RESPONSE";
    case tlm::TLM_GENERIC_ERROR_RESPONSE: return "TLM_GENERIC_ERROR_RESPONSE";
    case tlm::TLM_ADDRESS_ERROR_RESPONSE: return "TLM_ADDRESS_ERROR_RESPONSE";
    case tlm::TLM_COMMAND_ERROR_RESPONSE: return "TLM_COMMAND_ERROR_RESPONSE";
    case tlm::TLM_BURST_ERROR_RESPONSE: return "TLM_BURST_ERROR_RESPONSE";
    case tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE: return "TLM_BYTE_ENABLE_ERROR_RESPONSE";
  }
  return std::to_string(static_cast<int>(status));
}

std::string phase_name(const tlm::tlm_phase& phase) {
  const unsigned id = phase;
  if (id >= tlm::BEGIN_REQ && id <= tlm::END_RESP) return phase.get_name();
  if (id == tlm::UNINITIALIZED_PHASE) return "UNINITIALIZED_PHASE";
  return "extended phase " + std::string(phase.get_name()) + " (" + std::to_string(id) + ")";
}

const char* sync_name(tlm::tlm_sync_enum status) {
  switch (status) {
    case tlm::TLM_ACCEPTED: return "TLM_ACCEPTED";
    case tlm::TLM_UPDATED: return "TLM_UPDATED";
    case tlm::TLM_COMPLETED: return "TLM_COMPLETED";
  }
  return "an invalid tlm_sync_enum";
}

const char* access_name(tlm::tlm_dmi::dmi_access_e access) {
  switch (access) {
    case tlm::tlm_dmi::DMI_ACCESS_NONE: return "no access";
    case tlm::tlm_dmi::DMI_ACCESS_READ: return "read-only access";
    case tlm::tlm_dmi::DMI_ACCESS_WRITE: return "write-only access";
    case tlm::tlm_dmi::DMI_ACCESS_READ_WRITE: return "read-write access";
  }
  return "invalid access";
}

std::string hex(std::uint64_t value) {
  std::ostringstream os;
  os << "0x" << std::hex << value;
  return os.str();
}

std::string change_value(const AttributeChange& change, std::uint64_t value) {
  switch (change.kind) {
    case AttributeChange::Kind::Command: return command_name(static_cast<tlm::tlm_command>(value));
    case AttributeChange::Kind::Hex: return hex(value);
    case AttributeChange::Kind::Number: break;
  }
  return std::to_string(value);
}

std::string dmi_text(const tlm::tlm_dmi& dmi) {
  std::ostringstream os;
  os << "[" << hex(dmi.get_start_address()) << ", " << hex(dmi.get_end_address()) << "] "
     << access_name(dmi.get_granted_access()) << ", pointer "
     << (dmi.get_dmi_ptr() == nullptr ? std::string("null")
                                      : hex(reinterpret_cast<std::uintptr_t>(dmi.get_dmi_ptr())))
     << ", latencies " << dmi.get_read_latency() << "/" << dmi.get_write_latency();
  return os.str();
}

std::string moment_text(const SimMoment& at) {
  return at.time.to_string() + " (delta " + std::to_string(at.delta) + ")";
}

}  // namespace par::tlmcheck
