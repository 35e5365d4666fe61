// Physical address -> (channel, rank, bank, row, column) by a configurable bit order.
//
// The order string lists the fields from the most significant address bit down to bit 0:
//
//   "row,rank,bank,channel,column"        (default) 4 KiB pages alternate channels
//   "row,rank,bank,column:6,channel,column:6"  64-byte lines alternate channels
//
// A field is one of row, rank, bank, channel, column. `name` takes all the bits the geometry
// gives that field (log2 of its count; column = log2(row bytes)); `name:N` takes N of them, so a
// field can be split into several parts: the part written first holds the field's high bits, and
// at most one part of a field may omit its width (it gets the remaining bits). A field with no
// bits (one rank, one channel) may be omitted. The lowest log2(burst bytes) address bits must be
// column bits: a burst is a contiguous block of the row.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace par::dram {

enum class Field { Row, Rank, Bank, Channel, Column };
const char* to_string(Field f);

struct Location {
  unsigned channel = 0;
  unsigned rank = 0;
  unsigned bank = 0;
  std::uint64_t row = 0;
  std::uint64_t column = 0;  // byte offset in the row
  bool operator==(const Location& o) const {
    return channel == o.channel && rank == o.rank && bank == o.bank && row == o.row &&
           column == o.column;
  }
};

// Bits of each field, from the geometry (all counts are powers of two).
struct FieldBits {
  unsigned row = 0, rank = 0, bank = 0, channel = 0, column = 0;
  unsigned of(Field f) const;
  unsigned total() const { return row + rank + bank + channel + column; }
};

class AddressMapping {
 public:
  struct Part {
    Field field;
    unsigned bits;
    unsigned address_shift;  // lowest address bit of the part
    unsigned field_shift;    // lowest bit of the field it provides
  };

  AddressMapping() = default;

  // Parses `order` for the geometry. Returns "" on success, else a message without the option
  // name ("'bank' is missing (3 bits needed)"). `burst_bytes` (a power of two) sets how many low
  // bits must be column bits.
  std::string parse(const std::string& order, const FieldBits& bits, std::uint64_t burst_bytes);

  // Inline: it runs for every burst. A mapping whose fields are each one contiguous part (the
  // usual case) is a shift and a mask per field.
  Location decode(std::uint64_t address) const {
    if (!contiguous_) return decode_parts(address);
    Location loc;
    loc.row = field(address, Field::Row);
    loc.rank = static_cast<unsigned>(field(address, Field::Rank));
    loc.bank = static_cast<unsigned>(field(address, Field::Bank));
    loc.channel = static_cast<unsigned>(field(address, Field::Channel));
    loc.column = field(address, Field::Column);
    return loc;
  }
  std::uint64_t encode(const Location& loc) const;
  unsigned address_bits() const { return address_bits_; }
  // The lowest address bits that are column bits only (at least a burst's): two addresses that
  // differ only there have the same channel, rank, bank and row.
  unsigned low_column_bits() const { return low_column_bits_; }
  const std::vector<Part>& parts() const { return parts_; }  // most significant first
  // "row[30:16] bank[15:13] channel[12] column[11:0]" (fields without bits left out).
  std::string describe() const;

 private:
  struct DecodeStep {  // a part as decode() applies it
    std::uint8_t field;  // index of the field (Field's order)
    std::uint8_t address_shift;
    std::uint8_t field_shift;
    std::uint64_t mask;  // the part's bits, shifted down to bit 0
  };
  Location decode_parts(std::uint64_t address) const;  // any mapping
  std::uint64_t field(std::uint64_t address, Field f) const {
    const auto i = static_cast<std::size_t>(f);
    return (address >> field_shift_[i]) & field_mask_[i];
  }

  std::vector<Part> parts_;
  std::vector<DecodeStep> decode_;
  // When every field is at most one part: its lowest address bit and its mask (0 without bits).
  bool contiguous_ = false;
  unsigned field_shift_[5] = {};
  std::uint64_t field_mask_[5] = {};
  unsigned address_bits_ = 0;
  unsigned low_column_bits_ = 0;
};

}  // namespace par::dram
