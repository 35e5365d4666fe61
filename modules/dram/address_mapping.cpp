#include "address_mapping.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <sstream>

namespace par::dram {

namespace {

constexpr std::array<Field, 5> kFields = {Field::Row, Field::Rank, Field::Bank, Field::Channel,
                                          Field::Column};

bool field_from(const std::string& name, Field& f) {
  for (Field candidate : kFields)
    if (name == to_string(candidate)) {
      f = candidate;
      return true;
    }
  return false;
}

std::string trim(const std::string& s) {
  std::size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b])) != 0) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1])) != 0) --e;
  return s.substr(b, e - b);
}

std::uint64_t mask(unsigned bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }

}  // namespace

const char* to_string(Field f) {
  switch (f) {
    case Field::Row: return "row";
    case Field::Rank: return "rank";
    case Field::Bank: return "bank";
    case Field::Channel: return "channel";
    case Field::Column: return "column";
  }
  return "?";
}

unsigned FieldBits::of(Field f) const {
  switch (f) {
    case Field::Row: return row;
    case Field::Rank: return rank;
    case Field::Bank: return bank;
    case Field::Channel: return channel;
    case Field::Column: return column;
  }
  return 0;
}

std::string AddressMapping::parse(const std::string& order, const FieldBits& bits,
                                  std::uint64_t burst_bytes) {
  struct Item {
    Field field;
    int bits;  // -1: the rest of the field
  };
  std::vector<Item> items;
  std::stringstream in(order);
  std::string token;
  while (std::getline(in, token, ',')) {
    token = trim(token);
    if (token.empty()) return "empty field in '" + order + "'";
    std::string name = token;
    int width = -1;
    if (const auto colon = token.find(':'); colon != std::string::npos) {
      name = trim(token.substr(0, colon));
      const std::string digits = trim(token.substr(colon + 1));
      if (digits.empty() || digits.size() > 2 ||
          digits.find_first_not_of("0123456789") != std::string::npos || std::stoi(digits) < 1)
        return "'" + token + "': the width after ':' must be a number of bits from 1 to 64";
      width = std::stoi(digits);
    }
    Field f{};
    if (!field_from(name, f))
      return "unknown field '" + name + "' (fields: row, rank, bank, channel, column)";
    items.push_back({f, width});
  }
  if (items.empty()) return "empty bit order";

  // Resolve widths per field: explicit parts, then at most one part taking the rest.
  std::array<int, kFields.size()> fixed{}, open_parts{};
  for (const Item& it : items) {
    const auto i = static_cast<std::size_t>(it.field);
    if (it.bits < 0)
      ++open_parts[i];
    else
      fixed[i] += it.bits;
  }
  for (Field f : kFields) {
    const auto i = static_cast<std::size_t>(f);
    const int need = static_cast<int>(bits.of(f));
    const std::string n = to_string(f);
    if (open_parts[i] > 1) return "'" + n + "' appears more than once without a width";
    if (open_parts[i] == 0 && fixed[i] == 0 && need > 0)
      return "'" + n + "' is missing (" + std::to_string(need) + " bits needed)";
    if (fixed[i] > need || (open_parts[i] == 0 && fixed[i] != need))
      return "'" + n + "' has " + std::to_string(fixed[i]) + " bits, needs " + std::to_string(need);
  }

  // Lay the parts out from bit 0 upwards (the string lists them most significant first). A field's
  // first-written part holds its high bits, so its parts are filled from the field's bit 0 upwards
  // in reverse string order too.
  std::vector<Part> parts;
  std::array<unsigned, kFields.size()> field_used{};
  unsigned shift = 0;
  for (auto it = items.rbegin(); it != items.rend(); ++it) {
    const auto i = static_cast<std::size_t>(it->field);
    const unsigned width = it->bits >= 0 ? static_cast<unsigned>(it->bits)
                                         : bits.of(it->field) - static_cast<unsigned>(fixed[i]);
    if (width == 0) continue;  // a field without bits (one channel, one rank)
    parts.push_back({it->field, width, shift, field_used[i]});
    field_used[i] += width;
    shift += width;
  }
  if (shift > 63) return "the mapping needs " + std::to_string(shift) + " address bits (at most 63)";

  unsigned burst_bits = 0;
  while ((1ull << burst_bits) < burst_bytes) ++burst_bits;
  unsigned low_column = 0;
  for (const Part& p : parts) {  // from bit 0 upwards
    if (p.field != Field::Column) break;
    low_column += p.bits;
  }
  if (low_column < burst_bits)
    return "the lowest " + std::to_string(burst_bits) + " address bits must be column bits (a " +
           std::to_string(burst_bytes) + "-byte burst is contiguous)";

  parts_.assign(parts.rbegin(), parts.rend());
  decode_.clear();
  for (const Part& p : parts_)
    decode_.push_back({static_cast<std::uint8_t>(p.field), static_cast<std::uint8_t>(p.address_shift),
                       static_cast<std::uint8_t>(p.field_shift), mask(p.bits)});
  address_bits_ = shift;
  low_column_bits_ = low_column;
  std::array<unsigned, kFields.size()> part_count{};
  for (const Part& p : parts_) ++part_count[static_cast<std::size_t>(p.field)];
  contiguous_ = std::all_of(part_count.begin(), part_count.end(), [](unsigned n) { return n <= 1; });
  for (std::size_t i = 0; i < kFields.size(); ++i) {
    field_shift_[i] = 0;
    field_mask_[i] = 0;
  }
  for (const Part& p : parts_) {
    field_shift_[static_cast<std::size_t>(p.field)] = p.address_shift;
    field_mask_[static_cast<std::size_t>(p.field)] = mask(p.bits);
  }
  return "";
}

Location AddressMapping::decode_parts(std::uint64_t address) const {
  // Each part is a shift and a mask into its field's slot (no branch on the
  // field, no mask computed per call).
  std::uint64_t field[kFields.size()] = {};
  for (const DecodeStep& d : decode_)
    field[d.field] |= ((address >> d.address_shift) & d.mask) << d.field_shift;
  Location loc;
  loc.row = field[static_cast<std::size_t>(Field::Row)];
  loc.rank = static_cast<unsigned>(field[static_cast<std::size_t>(Field::Rank)]);
  loc.bank = static_cast<unsigned>(field[static_cast<std::size_t>(Field::Bank)]);
  loc.channel = static_cast<unsigned>(field[static_cast<std::size_t>(Field::Channel)]);
  loc.column = field[static_cast<std::size_t>(Field::Column)];
  return loc;
}

std::uint64_t AddressMapping::encode(const Location& loc) const {
  std::uint64_t address = 0;
  for (const Part& p : parts_) {
    std::uint64_t v = 0;
    switch (p.field) {
      case Field::Row: v = loc.row; break;
      case Field::Rank: v = loc.rank; break;
      case Field::Bank: v = loc.bank; break;
      case Field::Channel: v = loc.channel; break;
      case Field::Column: v = loc.column; break;
    }
    address |= ((v >> p.field_shift) & mask(p.bits)) << p.address_shift;
  }
  return address;
}

std::string AddressMapping::describe() const {
  std::string s;
  for (const Part& p : parts_) {
    if (!s.empty()) s += ' ';
    s += to_string(p.field);
    const unsigned hi = p.address_shift + p.bits - 1;
    s += '[' + std::to_string(hi);
    if (p.bits > 1) s += ':' + std::to_string(p.address_shift);
    s += ']';
  }
  return s;
}

}  // namespace par::dram
