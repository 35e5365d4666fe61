// Copying and clearing the bytes of one memory transaction. Nearly every transaction on the
// platform is one 64-byte line: that length becomes a constant-size copy the compiler expands
// inline (a few vector moves), where a call with a run-time length goes through the library's
// dispatch. Any other length takes the general call.
#pragma once

#include <cstdint>
#include <cstring>

namespace par::simkit {

inline constexpr std::uint64_t kUsualLineBytes = 64;

inline void copy_line_bytes(std::uint8_t* dst, const std::uint8_t* src, std::uint64_t len) {
  if (len == kUsualLineBytes)
    std::memcpy(dst, src, kUsualLineBytes);
  else
    std::memcpy(dst, src, len);
}

inline void zero_line_bytes(std::uint8_t* dst, std::uint64_t len) {
  if (len == kUsualLineBytes)
    std::memset(dst, 0, kUsualLineBytes);
  else
    std::memset(dst, 0, len);
}

}  // namespace par::simkit
