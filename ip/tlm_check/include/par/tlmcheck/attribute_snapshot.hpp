// The generic-payload attributes an initiator sets and nobody downstream may change, captured
// when a transaction enters a checker and compared when it comes back (IEEE 1666-2011 §14.7).
// A fixed-size value: the write data and byte-enable arrays are kept as 64-bit hashes, so
// taking a snapshot never allocates (the b_transport fast path keeps it on the stack).
#pragma once

#include <cstdint>
#include <tlm>

#include "par/tlmcheck/rules.hpp"

namespace par::tlmcheck {

struct AttributeSnapshot {
  tlm::tlm_command command = tlm::TLM_IGNORE_COMMAND;
  std::uint64_t address = 0;
  const unsigned char* data = nullptr;
  unsigned length = 0;
  const unsigned char* byte_enable = nullptr;
  unsigned byte_enable_length = 0;
  unsigned streaming_width = 0;
  bool has_mm = false;
  bool hashed = false;                // write data and byte enables were hashed
  std::uint64_t write_data_hash = 0;  // of the data array, writes only
  std::uint64_t byte_enable_hash = 0;
  std::uint64_t extensions = 0;  // bit i: extension slot i was set (payloads without mm)

  // `hash_arrays`: also fingerprint the write data and byte enables (transport; debug accesses
  // skip it).
  static AttributeSnapshot capture(const tlm::tlm_generic_payload& tx, bool hash_arrays);
};

// One attribute that differs between a snapshot and the payload now.
struct AttributeChange {
  enum class Kind { Command, Number, Hex };  // how to print was/now
  Rule rule;
  const char* what;  // "address", "data length", ...
  std::uint64_t was;
  std::uint64_t now;
  Kind kind;
};

// Calls `on_change` for every attribute of `tx` that differs from `entry`; the address only when
// `check_address`. Returns the number of differences. Allocation-free when nothing differs.
template <class OnChange>
int compare(const AttributeSnapshot& entry, const tlm::tlm_generic_payload& tx, bool check_address,
            OnChange&& on_change);

// 64-bit fingerprint of a byte array (not cryptographic; catches any realistic modification).
std::uint64_t fingerprint(const unsigned char* bytes, unsigned length);
// Bit mask of the extension slots set on `tx` (slots 0..63; tlm_endian_context excluded, the
// endianness helpers attach it and leave it by design).
std::uint64_t extension_mask(const tlm::tlm_generic_payload& tx);

// ---------------------------------------------------------------------------------------------

template <class OnChange>
int compare(const AttributeSnapshot& entry, const tlm::tlm_generic_payload& tx, bool check_address,
            OnChange&& on_change) {
  using Kind = AttributeChange::Kind;
  int changes = 0;
  auto differ = [&](Rule rule, const char* what, std::uint64_t was, std::uint64_t now, Kind kind) {
    if (was == now) return;
    ++changes;
    on_change(AttributeChange{rule, what, was, now, kind});
  };
  auto bits = [](const void* p) {
    return static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(p));
  };
  differ(Rule::CommandModified, "command", static_cast<std::uint64_t>(entry.command),
         static_cast<std::uint64_t>(tx.get_command()), Kind::Command);
  if (check_address) {
    differ(Rule::AddressModified, "address", entry.address, tx.get_address(), Kind::Hex);
  }
  differ(Rule::DataPointerModified, "data pointer", bits(entry.data), bits(tx.get_data_ptr()),
         Kind::Hex);
  differ(Rule::DataLengthModified, "data length", entry.length, tx.get_data_length(), Kind::Number);
  differ(Rule::ByteEnableModified, "byte-enable pointer", bits(entry.byte_enable),
         bits(tx.get_byte_enable_ptr()), Kind::Hex);
  differ(Rule::ByteEnableModified, "byte-enable length", entry.byte_enable_length,
         tx.get_byte_enable_length(), Kind::Number);
  differ(Rule::StreamingWidthModified, "streaming width", entry.streaming_width,
         tx.get_streaming_width(), Kind::Number);
  // The arrays are only comparable while pointer and length are unchanged.
  const bool same_data = entry.data == tx.get_data_ptr() && entry.length == tx.get_data_length();
  if (entry.hashed && same_data && entry.command == tlm::TLM_WRITE_COMMAND &&
      entry.data != nullptr) {
    differ(Rule::WriteDataModified, "write data (fingerprint)", entry.write_data_hash,
           fingerprint(tx.get_data_ptr(), tx.get_data_length()), Kind::Hex);
  }
  const bool same_be = entry.byte_enable == tx.get_byte_enable_ptr() &&
                       entry.byte_enable_length == tx.get_byte_enable_length();
  if (entry.hashed && same_be && entry.byte_enable != nullptr) {
    differ(Rule::ByteEnableModified, "byte-enable array (fingerprint)", entry.byte_enable_hash,
           fingerprint(tx.get_byte_enable_ptr(), tx.get_byte_enable_length()), Kind::Hex);
  }
  if (!entry.has_mm) {
    const std::uint64_t added = extension_mask(tx) & ~entry.extensions;
    if (added != 0) {
      differ(Rule::ExtensionLeak, "set of extension slots (mask)", entry.extensions,
             entry.extensions | added, Kind::Hex);
    }
  }
  return changes;
}

}  // namespace par::tlmcheck
