// The checks a target makes of a payload before it serves it, in one place: each target states its
// rules (what it does with byte enables, a streaming width below the length, TLM_IGNORE_COMMAND,
// its address window, its word size) and check_access() gives the response status of the first
// rule the payload breaks, in a fixed order, or TLM_INCOMPLETE_RESPONSE when the target should
// serve it.
#pragma once

#include <cstdint>

#include <tlm>

namespace par::sckit {

struct AccessRules {
  enum class ByteEnables {
    Any,       // honoured as the payload gives them (the target copies under the pattern)
    NonEmpty,  // honoured; a pointer with byte_enable_length 0 is TLM_BYTE_ENABLE_ERROR_RESPONSE
    Refused,   // any byte-enable pointer is TLM_BYTE_ENABLE_ERROR_RESPONSE (register files)
  };
  enum class Ignore {
    Serve,       // TLM_IGNORE_COMMAND goes through the other checks and to the target
    OkFirst,     // TLM_IGNORE_COMMAND, and any access of length 0, is TLM_OK_RESPONSE before any check
    OkAfterShape,  // TLM_IGNORE_COMMAND is TLM_OK_RESPONSE once the byte enables, the streaming
                   // width and the address window are right
  };
  ByteEnables byte_enables = ByteEnables::Any;
  Ignore ignore = Ignore::Serve;
  // The answer to a streaming width below the length (a FIFO-like access, not memory).
  tlm::tlm_response_status narrow_stream = tlm::TLM_BURST_ERROR_RESPONSE;
  std::uint64_t size = 0;  // > 0: the window [0, size); an access reaching beyond it is an address error
  unsigned word = 0;       // > 0: address and length are non-zero multiples of it, else an address error
};

// Order: Ignore::OkFirst; byte enables Refused; streaming width; byte enables NonEmpty; window;
// Ignore::OkAfterShape; word.
inline tlm::tlm_response_status check_access(const tlm::tlm_generic_payload& tx, const AccessRules& rules) {
  using R = AccessRules;
  const std::uint64_t address = tx.get_address();
  const unsigned len = tx.get_data_length();
  const bool ignore = tx.get_command() == tlm::TLM_IGNORE_COMMAND;
  if (rules.ignore == R::Ignore::OkFirst && (ignore || len == 0)) return tlm::TLM_OK_RESPONSE;
  if (rules.byte_enables == R::ByteEnables::Refused && tx.get_byte_enable_ptr() != nullptr)
    return tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE;
  if (tx.get_streaming_width() < len) return rules.narrow_stream;
  if (rules.byte_enables == R::ByteEnables::NonEmpty && tx.get_byte_enable_ptr() != nullptr &&
      tx.get_byte_enable_length() == 0)
    return tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE;
  if (rules.size > 0 && (address > rules.size || len > rules.size - address)) return tlm::TLM_ADDRESS_ERROR_RESPONSE;
  if (rules.ignore == R::Ignore::OkAfterShape && ignore) return tlm::TLM_OK_RESPONSE;
  if (rules.word > 0 && (len == 0 || len % rules.word != 0 || address % rules.word != 0))
    return tlm::TLM_ADDRESS_ERROR_RESPONSE;
  return tlm::TLM_INCOMPLETE_RESPONSE;
}

}  // namespace par::sckit
