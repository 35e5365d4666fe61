// Address mapping of the banked L2: which bank holds an address, and which set inside that bank.
// Plain C++ (no SystemC), shared by the bank-select router and the banks.
//
// The address is cut into chunks of `interleave` bytes (a line by default); consecutive chunks go
// to consecutive banks. With XOR hashing the bank index is the XOR of all log2(banks)-bit fields
// of the chunk number, so a stride of banks * interleave (which hits one bank with plain modulo
// interleaving) spreads over every bank. Inside a bank the set index comes from the chunk number
// with the bank bits removed, so every set of every bank is used. Tags hold the whole line
// number, so the mapping only affects placement, never correctness.
#pragma once

#include <cstdint>

#include "l2_config.hpp"

namespace par::l2 {

class L2Geometry {
 public:
  explicit L2Geometry(const L2Config& cfg);

  unsigned banks() const { return banks_; }
  unsigned line_bytes() const { return line_bytes_; }
  std::uint64_t sets() const { return sets_; }

  std::uint64_t line_of(std::uint64_t addr) const { return addr >> line_shift_; }
  std::uint64_t line_base(std::uint64_t line) const { return line << line_shift_; }
  unsigned offset_in_line(std::uint64_t addr) const {
    return static_cast<unsigned>(addr & (line_bytes_ - 1));
  }
  // Inline: every access asks both.
  unsigned bank_of(std::uint64_t addr) const {
    const std::uint64_t chunk = addr >> chunk_shift_;
    if (!xor_hash_) return static_cast<unsigned>(banks_pow2_ ? chunk & (banks_ - 1) : chunk % banks_);
    std::uint64_t bank = 0;
    for (std::uint64_t c = chunk; c != 0; c >>= bank_bits_) bank ^= c & (banks_ - 1);
    return static_cast<unsigned>(bank);
  }
  std::uint64_t set_of(std::uint64_t addr) const {
    const std::uint64_t chunk = addr >> chunk_shift_;
    // For both mappings, (chunk / banks) identifies a chunk uniquely among those of one bank.
    const std::uint64_t local_chunk = shift_local_ ? chunk >> bank_bits_ : chunk / banks_;
    const std::uint64_t line_in_chunk = line_of(addr) & (lines_per_chunk_ - 1);
    const std::uint64_t index = local_chunk * lines_per_chunk_ + line_in_chunk;
    return sets_pow2_ ? index & (sets_ - 1) : index % sets_;
  }

 private:
  unsigned banks_;
  unsigned line_bytes_;
  unsigned line_shift_;
  unsigned chunk_shift_;       // log2(interleave bytes)
  std::uint64_t lines_per_chunk_;
  std::uint64_t sets_;
  bool xor_hash_;
  unsigned bank_bits_;         // log2(banks) when xor_hash_ (banks is then a power of two)
  // Power-of-two counts (the usual case) map with masks and shifts instead of divisions.
  bool banks_pow2_, sets_pow2_;
  bool shift_local_;  // xor_hash_ || banks_pow2_: the local chunk is chunk >> bank_bits_
};

}  // namespace par::l2
