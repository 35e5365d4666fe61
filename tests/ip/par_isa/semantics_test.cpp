// Semantics of the value and compare operations (docs/isa.md §6), checked on one slot.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

#include "par/isa/semantics.hpp"

namespace {

using par::isa::Instruction;
using par::isa::Opcode;
namespace sem = par::isa::sem;

struct Out {
  std::uint64_t value = 0;
  bool flag = false;
};

Out run(Opcode op, std::uint64_t a, std::uint64_t b, std::uint64_t c = 0, std::int64_t k = 0) {
  Instruction in;
  in.op = op;
  in.imm = k;
  Out o;
  EXPECT_TRUE(sem::execute_value(in, a, b, c, o.value, o.flag));
  return o;
}

constexpr std::uint64_t kMin = 0x8000000000000000ull;
constexpr std::uint64_t kMax = 0x7FFFFFFFFFFFFFFFull;

TEST(Semantics, AddSetsOverflowAndCarry) {
  EXPECT_EQ(run(Opcode::Add, kMax, 1).value, kMin);
  EXPECT_TRUE(run(Opcode::Add, kMax, 1).flag);
  EXPECT_FALSE(run(Opcode::Add, 1, 2).flag);
  EXPECT_TRUE(run(Opcode::Addu, ~0ull, 1).flag);
  EXPECT_FALSE(run(Opcode::Addu, kMax, 1).flag);
}

TEST(Semantics, SubtractFromReversesOperands) {
  EXPECT_EQ(run(Opcode::Subf, 3, 10).value, 7u);
  EXPECT_TRUE(run(Opcode::Subfu, 10, 3).flag);  // 3 - 10 borrows
  EXPECT_FALSE(run(Opcode::Subfu, 3, 10).flag);
  EXPECT_TRUE(run(Opcode::Subf, 1, kMin).flag);  // INT64_MIN - 1 overflows
}

TEST(Semantics, AddxAddsCarryIn) {
  const Out o = run(Opcode::Addx, ~0ull, 0, 1);
  EXPECT_EQ(o.value, 0u);
  EXPECT_TRUE(o.flag);
}

TEST(Semantics, ShiftsUseLowSixBits) {
  EXPECT_EQ(run(Opcode::Sll, 1, 65).value, 2u);
  EXPECT_EQ(run(Opcode::Sra, kMin, 63).value, ~0ull);
  EXPECT_EQ(run(Opcode::Ror, 1, 1).value, kMin);
  EXPECT_EQ(run(Opcode::Ror, 5, 0).value, 5u);
}

TEST(Semantics, ExtendFromBitN) {
  EXPECT_EQ(run(Opcode::Ext, 0x80, 0, 0, 7).value, 0xFFFFFFFFFFFFFF80ull);
  EXPECT_EQ(run(Opcode::Extu, 0xFFFFFFFF12345678ull, 0, 0, 31).value, 0x12345678u);
  EXPECT_EQ(run(Opcode::Ext, 0xABCD, 0, 0, 63).value, 0xABCDu);
}

TEST(Semantics, MinMaxSetP7) {
  EXPECT_EQ(run(Opcode::Min, ~0ull, 1).value, ~0ull);
  EXPECT_TRUE(run(Opcode::Min, ~0ull, 1).flag);
  EXPECT_EQ(run(Opcode::Minu, ~0ull, 1).value, 1u);
  EXPECT_FALSE(run(Opcode::Max, 4, 4).flag);
}

TEST(Semantics, AbsPopcClzSla) {
  EXPECT_EQ(run(Opcode::Abs, kMin, 0).value, kMin);
  EXPECT_EQ(run(Opcode::Abs, static_cast<std::uint64_t>(-5), 0).value, 5u);
  EXPECT_EQ(run(Opcode::Popc, 0xF0F0, 0).value, 8u);
  EXPECT_EQ(run(Opcode::Clz, 0, 0).value, 64u);
  EXPECT_EQ(run(Opcode::Clz, 1, 0).value, 63u);
  EXPECT_EQ(run(Opcode::Sla, 100, 3, 0, 3).value, 124u);
}

TEST(Semantics, SetAndShiftLeftInsertBuildConstants) {
  std::uint64_t r = run(Opcode::Set, 0, 0, 0, 0x4004).value;
  for (int i = 0; i < 3; ++i) r = run(Opcode::Sli, 0, 0, r, 0).value;
  EXPECT_EQ(r, 0x4004000000000000ull);
  EXPECT_EQ(run(Opcode::Set, 0, 0, 0, -2).value, 0xFFFFFFFFFFFFFFFEull);
}

TEST(Semantics, DivisionNeverTraps) {
  EXPECT_EQ(run(Opcode::Div, 7, 0).value, 0u);
  EXPECT_EQ(run(Opcode::Rem, 7, 0).value, 7u);
  EXPECT_EQ(run(Opcode::Div, kMin, ~0ull).value, kMin);
  EXPECT_EQ(run(Opcode::Rem, kMin, ~0ull).value, 0u);
  EXPECT_EQ(run(Opcode::Div, static_cast<std::uint64_t>(-7), 2).value, static_cast<std::uint64_t>(-3));
  EXPECT_EQ(run(Opcode::Rem, static_cast<std::uint64_t>(-7), 2).value, static_cast<std::uint64_t>(-1));
  EXPECT_EQ(run(Opcode::Remu, 7, 0).value, 7u);
}

TEST(Semantics, MultiplyHighAndMac) {
  EXPECT_EQ(run(Opcode::Mulhu, ~0ull, ~0ull).value, ~0ull - 1);
  EXPECT_EQ(run(Opcode::Mulh, ~0ull, ~0ull).value, 0u);  // (-1) * (-1) = 1
  // mac uses the signed low 32-bit halves.
  EXPECT_EQ(run(Opcode::Mac, 0x1FFFFFFFFull, 2, 10).value, 8u);  // 10 + (-1 * 2)
  EXPECT_EQ(run(Opcode::Macu, 0x1FFFFFFFFull, 2, 10).value, 10u + 0x1FFFFFFFEull);
}

TEST(Semantics, FloatingPointCanonicalNan) {
  const std::uint64_t inf = sem::from_f64(std::numeric_limits<double>::infinity());
  EXPECT_EQ(run(Opcode::SubD, inf, inf).value, sem::kCanonicalNan64);
  EXPECT_EQ(run(Opcode::SqrtD, sem::from_f64(-1.0), 0).value, sem::kCanonicalNan64);
  const std::uint64_t neg_nan = 0xFFF8000000000001ull;
  EXPECT_EQ(run(Opcode::NegD, neg_nan, 0).value, 0x7FF8000000000001ull);  // sign flip only
  EXPECT_EQ(run(Opcode::DivF, 0, 0).value, sem::kCanonicalNan32);
}

TEST(Semantics, FusedMultiplyAdd) {
  // fma(a, b, c) differs from a*b+c when the product is inexact.
  const double a = 1.0 + 0x1p-30, b = 1.0 - 0x1p-30, c = -1.0;
  EXPECT_EQ(sem::as_f64(run(Opcode::MacD, sem::from_f64(a), sem::from_f64(b), sem::from_f64(c)).value),
            -0x1p-60);
}

TEST(Semantics, MinMaxSignedZeroAndNan) {
  const std::uint64_t pz = sem::from_f64(0.0), nz = sem::from_f64(-0.0);
  EXPECT_EQ(run(Opcode::MinD, pz, nz).value, nz);
  EXPECT_EQ(run(Opcode::MaxD, nz, pz).value, pz);
  const std::uint64_t two = sem::from_f64(2.0);
  EXPECT_EQ(run(Opcode::MinD, sem::kCanonicalNan64 | 1, two).value, two);
  EXPECT_EQ(run(Opcode::MaxD, two, 0x7FF0000000000001ull).value, two);
  EXPECT_EQ(run(Opcode::MinD, 0x7FF0000000000001ull, 0x7FF0000000000002ull).value, sem::kCanonicalNan64);
}

TEST(Semantics, ConversionsSaturateAndTruncate) {
  EXPECT_EQ(run(Opcode::CvtLD, sem::from_f64(-2.7), 0).value, static_cast<std::uint64_t>(-2));
  EXPECT_EQ(run(Opcode::CvtLD, sem::from_f64(1e300), 0).value, kMax);
  EXPECT_EQ(run(Opcode::CvtLD, sem::from_f64(-1e300), 0).value, kMin);
  EXPECT_EQ(run(Opcode::CvtLD, sem::kCanonicalNan64, 0).value, 0u);
  EXPECT_EQ(run(Opcode::CvtLF, sem::from_f32(3.9f), 0).value, 3u);
  EXPECT_EQ(sem::as_f64(run(Opcode::CvtDL, static_cast<std::uint64_t>(-3), 0).value), -3.0);
}

TEST(Semantics, SinglePrecisionIgnoresAndClearsUpperHalf) {
  const std::uint64_t one = sem::from_f32(1.0f) | 0xDEADBEEF00000000ull;
  const std::uint64_t r = run(Opcode::AddF, one, one).value;
  EXPECT_EQ(r >> 32, 0u);
  EXPECT_EQ(sem::as_f32(r), 2.0f);
  EXPECT_EQ(run(Opcode::NegF, one, 0).value, sem::from_f32(-1.0f));
}

bool cmp(Opcode op, std::uint64_t a, std::uint64_t b) {
  Instruction in;
  in.op = op;
  bool c = false;
  EXPECT_TRUE(sem::execute_compare(in, a, b, c));
  return c;
}

TEST(Semantics, Compares) {
  EXPECT_TRUE(cmp(Opcode::Lt, ~0ull, 0));
  EXPECT_FALSE(cmp(Opcode::Ltu, ~0ull, 0));
  EXPECT_TRUE(cmp(Opcode::EqW, 0x100000005ull, 5));
  EXPECT_TRUE(cmp(Opcode::LtW, 0xFFFFFFFFull, 0));  // -1 < 0 on the low word
  EXPECT_TRUE(cmp(Opcode::Bit, 6, 2));
  EXPECT_FALSE(cmp(Opcode::EqD, sem::kCanonicalNan64, sem::kCanonicalNan64));
  EXPECT_TRUE(cmp(Opcode::EqD, sem::from_f64(0.0), sem::from_f64(-0.0)));
  EXPECT_TRUE(cmp(Opcode::NanD, sem::from_f64(1.0), sem::kCanonicalNan64));
  EXPECT_TRUE(cmp(Opcode::PAndc, 1, 0));
  EXPECT_FALSE(cmp(Opcode::PAndc, 1, 1));
}

TEST(Semantics, LoadExtension) {
  EXPECT_EQ(sem::extend_load(Opcode::Ld1, 0x80), 0xFFFFFFFFFFFFFF80ull);
  EXPECT_EQ(sem::extend_load(Opcode::Ld2u, 0x8000), 0x8000u);
  EXPECT_EQ(sem::extend_load(Opcode::Ld4, 0xFFFFFFFFull), ~0ull);
}

TEST(Operands, RolesFollowShapes) {
  Instruction st;
  st.op = Opcode::St8;
  st.ra = 19;  // i3
  st.rb = 1;
  st.rd = 5;
  const auto o = par::isa::operands(st);
  ASSERT_EQ(o.num_src, 3);
  EXPECT_EQ(o.store_data_src, 2);
  EXPECT_EQ(o.src[2], 5);
  EXPECT_EQ(o.num_dst, 0);

  Instruction add;
  add.op = Opcode::Add;
  add.rd = 1;
  add.ra = 2;
  add.imm_form = true;
  const auto a = par::isa::operands(add);
  EXPECT_EQ(a.num_src, 1);
  ASSERT_EQ(a.num_dst, 2);
  EXPECT_EQ(a.dst[1], par::isa::pred_reg(7));

  Instruction cmpi;
  cmpi.op = Opcode::Eq;
  cmpi.pt = 0;
  cmpi.pf = 3;
  cmpi.imm_form = true;
  const auto c = par::isa::operands(cmpi);
  ASSERT_EQ(c.num_dst, 1);  // writes to p0 are dropped
  EXPECT_EQ(c.dst[0], par::isa::pred_reg(3));
}

}  // namespace
