// A fresh base-protocol request in one call: command, address, data, length = streaming width,
// no byte enables, no DMI hint, response status incomplete. And one piece of a larger access as a
// request of its own (an access split at line or packet boundaries).
#pragma once

#include <cstdint>
#include <vector>

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

// `piece` becomes bytes [offset, offset + length) of `whole`: same command and gp option, the data
// at that offset (shared), length = streaming width, no DMI hint, status incomplete. The byte-enable
// pattern, which repeats every byte_enable_length bytes of `whole`, is copied into `enables` for
// the piece's bytes; absent or of length 0 (a protocol error for the target to report), it is
// passed on as it is. Extensions are not copied.
inline void prepare_piece(const tlm::tlm_generic_payload& whole, unsigned offset, unsigned length,
                          tlm::tlm_generic_payload& piece, std::vector<unsigned char>& enables) {
  piece.set_command(whole.get_command());
  piece.set_address(whole.get_address() + offset);
  piece.set_data_ptr(whole.get_data_ptr() + offset);
  piece.set_data_length(length);
  piece.set_streaming_width(length);
  piece.set_gp_option(whole.get_gp_option());
  piece.set_dmi_allowed(false);
  piece.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  const unsigned char* be = whole.get_byte_enable_ptr();
  const unsigned be_len = whole.get_byte_enable_length();
  if (be == nullptr || be_len == 0) {
    piece.set_byte_enable_ptr(whole.get_byte_enable_ptr());
    piece.set_byte_enable_length(be_len);
    return;
  }
  enables.resize(length);
  for (unsigned i = 0; i < length; ++i) enables[i] = be[(offset + i) % be_len];
  piece.set_byte_enable_ptr(enables.data());
  piece.set_byte_enable_length(length);
}

}  // namespace par::sckit
