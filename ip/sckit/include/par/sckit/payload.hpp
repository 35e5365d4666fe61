// A fresh base-protocol request in one call: command, address, data, length = streaming width,
// no byte enables, no DMI hint, response status incomplete.
#pragma once

#include <cstdint>

#include <tlm>

namespace par::sckit {

inline void prepare_request(tlm::tlm_generic_payload& tx, tlm::tlm_command command, std::uint64_t address,
                            unsigned char* data, unsigned length) {
  tx.set_command(command);
  tx.set_address(address);
  tx.set_data_ptr(data);
  tx.set_data_length(length);
  tx.set_streaming_width(length);
  tx.set_byte_enable_ptr(nullptr);
  tx.set_byte_enable_length(0);
  tx.set_dmi_allowed(false);
  tx.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
}

}  // namespace par::sckit
