// Text pieces of violation messages (built only when a rule is broken).
#pragma once

#include <cstdint>
#include <string>
#include <systemc>
#include <tlm>

#include "par/tlmcheck/attribute_snapshot.hpp"

namespace par::tlmcheck {

struct SimMoment;

const char* command_name(tlm::tlm_command command);          // "read", "write", "ignore"
std::string status_name(tlm::tlm_response_status status);    // "TLM_OK_RESPONSE"
std::string phase_name(const tlm::tlm_phase& phase);         // "BEGIN_REQ", "phase 7"
const char* sync_name(tlm::tlm_sync_enum status);            // "TLM_ACCEPTED"
const char* access_name(tlm::tlm_dmi::dmi_access_e access);  // "read-only access"
std::string hex(std::uint64_t value);                        // "0x40"
std::string change_value(const AttributeChange& change, std::uint64_t value);
std::string dmi_text(const tlm::tlm_dmi& dmi);  // "[0x0, 0xff] read-write ptr ..."
std::string moment_text(const SimMoment& at);   // "10 ns (delta 3)"

}  // namespace par::tlmcheck
