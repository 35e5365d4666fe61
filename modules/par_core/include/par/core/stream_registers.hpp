// Address map of a PAR core's stream window (core.stream.enabled; README.md "Stream unit"): how
// the host fills and drains the core's channels with ordinary bus transactions. The hardware/
// software contract of the stream unit: the platform maps the window, the host runtime uses it.
// No SystemC dependency.
//
//   window of core i at platform.stream_base + i * kStreamWindowStride
//   [0x000, 0x200)          channel descriptors: 16 bytes per channel, CUR at +0, FIN at +8
//   [0x1000, + 8 * SRF)     SRF elements, element a at 0x1000 + 8 * a (64-bit little-endian)
//
// Accesses are whole 8-byte words (any number of them per transaction), only while the core runs
// no packet; otherwise TLM_COMMAND_ERROR_RESPONSE. A descriptor write that leaves FIN < CUR or
// FIN past the SRF, an unknown channel or an element past the SRF get TLM_ADDRESS_ERROR_RESPONSE.
#pragma once

#include <cstdint>

namespace par::core {

inline constexpr std::uint64_t kStreamChannelBytes = 16;
inline constexpr std::uint64_t kStreamCur = 0;  // within a channel's 16 bytes
inline constexpr std::uint64_t kStreamFin = 8;
inline constexpr std::uint64_t kStreamSrfBase = 0x1000;
inline constexpr std::uint64_t kStreamWindowStride = std::uint64_t{1} << 34;  // room for 2^30 elements

inline constexpr std::uint64_t stream_channel_reg(int channel, std::uint64_t field) {
  return static_cast<std::uint64_t>(channel) * kStreamChannelBytes + field;
}
inline constexpr std::uint64_t stream_element_reg(std::uint64_t element) { return kStreamSrfBase + 8 * element; }
inline constexpr std::uint64_t stream_window_bytes(std::uint64_t srf_elements) { return stream_element_reg(srf_elements); }

}  // namespace par::core
