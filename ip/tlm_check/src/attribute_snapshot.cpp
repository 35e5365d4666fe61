#include "par/tlmcheck/attribute_snapshot.hpp"

#include <cstring>

namespace par::tlmcheck {

std::uint64_t fingerprint(const unsigned char* bytes, unsigned length) {
  // FNV-1a over 8-byte words, then the tail byte by byte; the length is mixed in first so that
  // arrays that differ only by trailing zeros differ.
  constexpr std::uint64_t kPrime = 0x100000001b3ull;
  std::uint64_t h = 0xcbf29ce484222325ull ^ length;
  unsigned i = 0;
  for (; i + 8 <= length; i += 8) {
    std::uint64_t word = 0;
    std::memcpy(&word, bytes + i, 8);
    h = (h ^ word) * kPrime;
    h ^= h >> 29;
  }
  for (; i < length; ++i) h = (h ^ bytes[i]) * kPrime;
  return h;
}

std::uint64_t extension_mask(const tlm::tlm_generic_payload& tx) {
  const unsigned slots = tlm::max_num_extensions() < 64 ? tlm::max_num_extensions() : 64;
  std::uint64_t mask = 0;
  for (unsigned i = 0; i < slots; ++i) {
    if (i != tlm::tlm_endian_context::ID && tx.get_extension(i) != nullptr) mask |= 1ull << i;
  }
  return mask;
}

AttributeSnapshot AttributeSnapshot::capture(const tlm::tlm_generic_payload& tx, bool hash_arrays) {
  AttributeSnapshot s;
  s.command = tx.get_command();
  s.address = tx.get_address();
  s.data = tx.get_data_ptr();
  s.length = tx.get_data_length();
  s.byte_enable = tx.get_byte_enable_ptr();
  s.byte_enable_length = tx.get_byte_enable_length();
  s.streaming_width = tx.get_streaming_width();
  s.has_mm = tx.has_mm();
  s.hashed = hash_arrays;
  if (hash_arrays) {
    if (s.command == tlm::TLM_WRITE_COMMAND && s.data != nullptr) {
      s.write_data_hash = fingerprint(s.data, s.length);
    }
    if (s.byte_enable != nullptr)
      s.byte_enable_hash = fingerprint(s.byte_enable, s.byte_enable_length);
  }
  if (!s.has_mm) s.extensions = extension_mask(tx);
  return s;
}

}  // namespace par::tlmcheck
