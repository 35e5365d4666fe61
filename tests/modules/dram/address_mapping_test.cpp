// Address mapping: bit orders, split fields, round trips, errors.
#include <gtest/gtest.h>

#include <random>

#include "address_mapping.hpp"

namespace par::dram {
namespace {

// LPDDR3-1866: 2 channels, 1 rank, 8 banks, 32768 rows of 4 KiB, 32-byte bursts.
FieldBits lpddr3() {
  FieldBits b;
  b.row = 15;
  b.rank = 0;
  b.bank = 3;
  b.channel = 1;
  b.column = 12;
  return b;
}

AddressMapping parse(const std::string& order) {
  AddressMapping m;
  const std::string e = m.parse(order, lpddr3(), 32);
  EXPECT_EQ(e, "") << order;
  return m;
}

TEST(AddressMapping, DefaultOrderInterleavesChannelsByPage) {
  const AddressMapping m = parse("row,rank,bank,channel,column");
  EXPECT_EQ(m.address_bits(), 31u);
  EXPECT_EQ(m.describe(), "row[30:16] bank[15:13] channel[12] column[11:0]");
  EXPECT_EQ(m.decode(0x0000), (Location{0, 0, 0, 0, 0}));
  EXPECT_EQ(m.decode(0x0fff), (Location{0, 0, 0, 0, 0xfff}));
  EXPECT_EQ(m.decode(0x1000), (Location{1, 0, 0, 0, 0}));
  EXPECT_EQ(m.decode(0x2000), (Location{0, 0, 1, 0, 0}));
  EXPECT_EQ(m.decode(0x10000), (Location{0, 0, 0, 1, 0}));
}

TEST(AddressMapping, ABitOrderChangeMovesAddressesBetweenBanks) {
  const AddressMapping a = parse("row,rank,bank,channel,column");
  const AddressMapping b = parse("row,rank,channel,bank,column");
  EXPECT_EQ(a.decode(0x1000).channel, 1u);
  EXPECT_EQ(b.decode(0x1000).channel, 0u);
  EXPECT_EQ(b.decode(0x1000).bank, 1u);
  const AddressMapping c = parse("bank,rank,row,channel,column");  // rows before banks
  EXPECT_EQ(c.decode(0x2000).bank, 0u);
  EXPECT_EQ(c.decode(0x2000).row, 1u);
}

TEST(AddressMapping, SplitFieldsInterleaveLines) {
  // 64-byte lines alternate channels: column[5:0] at the bottom, then the channel bit.
  const AddressMapping m = parse("row,rank,bank,column:6,channel,column:6");
  EXPECT_EQ(m.describe(), "row[30:16] bank[15:13] column[12:7] channel[6] column[5:0]");
  EXPECT_EQ(m.decode(0x40), (Location{1, 0, 0, 0, 0}));
  EXPECT_EQ(m.decode(0x80), (Location{0, 0, 0, 0, 0x40}));
  EXPECT_EQ(m.decode(0xc5), (Location{1, 0, 0, 0, 0x45}));
  // The same with the remaining width implied.
  const AddressMapping n = parse("row,rank,bank,column,channel,column:6");
  EXPECT_EQ(n.describe(), m.describe());
}

TEST(AddressMapping, EncodeIsTheInverseOfDecode) {
  std::mt19937_64 rng(7);
  for (const char* order : {"row,rank,bank,channel,column", "row,bank:1,column:6,channel,bank:2,column:6",
                            "channel,bank,row,column"}) {
    const AddressMapping m = parse(order);
    for (int i = 0; i < 1000; ++i) {
      const std::uint64_t a = rng() & ((1ull << 31) - 1);
      EXPECT_EQ(m.encode(m.decode(a)), a) << order;
    }
  }
}

// The controller decodes a transaction's later bursts only when they leave the low column bits
// of the last decoded address: addresses that differ only there must share channel, rank, bank and
// row, and one more bit must be able to change them.
TEST(AddressMapping, LowColumnBitsSelectOnlyTheColumn) {
  std::mt19937_64 rng(11);
  for (const auto& [order, bits] : {std::pair<const char*, unsigned>{"row,rank,bank,channel,column", 12},
                                    {"row,rank,bank,column:6,channel,column:6", 6},
                                    {"row,bank:1,column:5,channel,bank:2,column:7", 7}}) {
    const AddressMapping m = parse(order);
    EXPECT_EQ(m.low_column_bits(), bits) << order;
    for (int i = 0; i < 1000; ++i) {
      const std::uint64_t a = rng() & ((1ull << 31) - 1);
      const std::uint64_t b = (a & ~((1ull << bits) - 1)) | (rng() & ((1ull << bits) - 1));
      Location la = m.decode(a), lb = m.decode(b);
      la.column = lb.column = 0;
      EXPECT_EQ(la, lb) << order << " " << a << " " << b;
    }
    Location low = m.decode(0), next = m.decode(1ull << bits);
    low.column = next.column = 0;
    EXPECT_FALSE(low == next) << order;
  }
}

TEST(AddressMapping, Errors) {
  AddressMapping m;
  EXPECT_EQ(m.parse("row,rank,bank,channel,colum", lpddr3(), 32),
            "unknown field 'colum' (fields: row, rank, bank, channel, column)");
  EXPECT_EQ(m.parse("row,channel,column", lpddr3(), 32), "'bank' is missing (3 bits needed)");
  EXPECT_EQ(m.parse("row,bank:4,channel,column", lpddr3(), 32), "'bank' has 4 bits, needs 3");
  EXPECT_EQ(m.parse("row,column,bank,channel,column", lpddr3(), 32),
            "'column' appears more than once without a width");
  EXPECT_EQ(m.parse("row,bank,column:8,channel,column:4", lpddr3(), 32),
            "the lowest 5 address bits must be column bits (a 32-byte burst is contiguous)");
  EXPECT_EQ(m.parse("row,bank:x,channel,column", lpddr3(), 32),
            "'bank:x': the width after ':' must be a number of bits from 1 to 64");
  EXPECT_EQ(m.parse("row,,bank,channel,column", lpddr3(), 32),
            "empty field in 'row,,bank,channel,column'");
}

}  // namespace
}  // namespace par::dram
