// Conditional stream GET/PUT (docs/isa.md §6.10): the routing network (compactor and barrel
// shifter) against the reference semantics for every mask of N = 1..8, the published test
// vector, empty/full, and the assembler's channel operand.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "par/isa/assembler.hpp"
#include "par/isa/stream.hpp"

namespace par::isa::stream {
namespace {

std::vector<std::uint8_t> bits_of(unsigned mask, int n) {
  std::vector<std::uint8_t> c(static_cast<std::size_t>(n));
  for (int p = 0; p < n; ++p) c[static_cast<std::size_t>(p)] = (mask >> p) & 1u;
  return c;
}

// The reference semantics, transcribed loop for loop: bank a mod N, row a div N, rank counted in
// PE order. Returns false where the reference raises (nothing changes then).
struct Reference {
  int n;
  std::vector<std::vector<std::uint64_t>> srf;  // [bank][row]
  std::uint64_t cur, fin;
  // One access: get copies SRF -> reg, put reg -> SRF, for the PEs with cond set.
  template <bool kPut>
  bool access(const std::vector<std::uint8_t>& cond, std::vector<std::uint64_t>& reg) {
    std::uint64_t k = 0;
    for (std::uint8_t c : cond) k += c;
    if (cur + k > fin) return false;
    std::uint64_t rank = 0;
    for (int pe = 0; pe < n; ++pe) {
      if (!cond[static_cast<std::size_t>(pe)]) continue;
      const std::uint64_t a = cur + rank;
      std::uint64_t& cell = srf[a % static_cast<std::uint64_t>(n)][a / static_cast<std::uint64_t>(n)];
      std::uint64_t& r = reg[static_cast<std::size_t>(pe)];
      if (kPut) cell = r;
      else r = cell;
      ++rank;
    }
    cur += k;
    return true;
  }
  bool get(const std::vector<std::uint8_t>& cond, std::vector<std::uint64_t>& reg) { return access<false>(cond, reg); }
  bool put(const std::vector<std::uint8_t>& cond, std::vector<std::uint64_t>& reg) { return access<true>(cond, reg); }
};

TEST(StreamRouting, CompactorRanksEveryMaskUpToEightPes) {
  for (int n = 1; n <= 8; ++n) {
    Router r(n);
    for (unsigned mask = 0; mask < (1u << n); ++mask) {
      const std::vector<std::uint8_t> cond = bits_of(mask, n);
      int count = 0;
      EXPECT_EQ(r.compact(cond.data()), __builtin_popcount(mask)) << "n " << n << " mask " << mask;
      for (int p = 0; p < n; ++p) {
        EXPECT_EQ(r.rank()[static_cast<std::size_t>(p)], count) << "n " << n << " mask " << mask << " pe " << p;
        count += cond[static_cast<std::size_t>(p)];
      }
    }
  }
}

TEST(StreamRouting, BarrelShifterMeetsTheHeadBankForEveryShift) {
  for (int n = 1; n <= 8; ++n) {
    Router r(n);
    for (std::uint64_t cur = 0; cur < 4u * static_cast<std::uint64_t>(n); ++cur) {
      r.rotate(cur);
      for (int rank = 0; rank < n; ++rank) {
        const std::uint64_t a = cur + static_cast<std::uint64_t>(rank);
        const int bank = r.port(rank);
        EXPECT_EQ(bank, static_cast<int>(a % static_cast<std::uint64_t>(n))) << "n " << n << " cur " << cur;
        EXPECT_EQ(r.row(bank), a / static_cast<std::uint64_t>(n)) << "n " << n << " cur " << cur;
      }
    }
  }
}

// Every mask of N = 1..8 PEs, at every head position of the first two rows plus one, for GET and
// PUT: the same registers, SRF contents and head as the reference, and the same refusals.
TEST(StreamRouting, GetAndPutMatchTheReferenceForEveryMask) {
  for (int n = 1; n <= 8; ++n) {
    const std::uint64_t rows = 4, cap = rows * static_cast<std::uint64_t>(n);
    Router router(n);
    for (std::uint64_t cur = 0; cur <= 2u * static_cast<std::uint64_t>(n); ++cur) {
      for (std::uint64_t fin : {cur + static_cast<std::uint64_t>(n) / 2, cap}) {
        for (unsigned mask = 0; mask < (1u << n); ++mask) {
          const std::vector<std::uint8_t> cond = bits_of(mask, n);
          Srf srf(n, cap);
          Reference ref{n, std::vector<std::vector<std::uint64_t>>(static_cast<std::size_t>(n)), cur, fin};
          for (std::uint64_t a = 0; a < cap; ++a) {
            srf.element(a) = 1000 + a;
            ref.srf[a % static_cast<std::uint64_t>(n)].resize(rows);
            ref.srf[a % static_cast<std::uint64_t>(n)][a / static_cast<std::uint64_t>(n)] = 1000 + a;
          }
          std::vector<std::uint64_t> reg(static_cast<std::size_t>(n)), ref_reg(static_cast<std::size_t>(n));
          for (int p = 0; p < n; ++p) reg[static_cast<std::size_t>(p)] = ref_reg[static_cast<std::size_t>(p)] = 7u + static_cast<unsigned>(p);
          Descriptor d{cur, fin};
          const bool ok = ref.get(cond, ref_reg);
          EXPECT_EQ(router.get(srf, d, cond.data(), reg.data()), ok ? Status::Ok : Status::Empty);
          EXPECT_EQ(reg, ref_reg) << "get n " << n << " cur " << cur << " mask " << mask;
          EXPECT_EQ(d.cur, ref.cur);
          for (int p = 0; p < n; ++p) reg[static_cast<std::size_t>(p)] = ref_reg[static_cast<std::size_t>(p)] = 50u + static_cast<unsigned>(p);
          const bool put_ok = ref.put(cond, ref_reg);
          EXPECT_EQ(router.put(srf, d, cond.data(), reg.data()), put_ok ? Status::Ok : Status::Full);
          EXPECT_EQ(d.cur, ref.cur);
          for (std::uint64_t a = 0; a < cap; ++a)
            ASSERT_EQ(srf.element(a), ref.srf[a % static_cast<std::uint64_t>(n)][a / static_cast<std::uint64_t>(n)])
                << "put n " << n << " cur " << cur << " mask " << mask << " element " << a;
        }
      }
    }
  }
}

// The published test vector: N = 4, elements 0..9, three GETs, then a fourth one that finds the
// channel empty (only element 9 is left) and changes nothing.
TEST(StreamRouting, PublishedTestVector) {
  Srf srf(4, 12);
  for (std::uint64_t a = 0; a < 10; ++a) srf.element(a) = a;
  Descriptor d{0, 10};
  Router r(4);
  const std::uint64_t kNone = 99;
  std::vector<std::uint64_t> reg(4, kNone);
  const std::uint8_t c1[] = {1, 1, 1, 1}, c2[] = {1, 0, 1, 0}, c3[] = {0, 1, 1, 1}, c4[] = {1, 1, 0, 0};
  ASSERT_EQ(r.get(srf, d, c1, reg.data()), Status::Ok);
  EXPECT_EQ(reg, (std::vector<std::uint64_t>{0, 1, 2, 3}));
  reg.assign(4, kNone);
  ASSERT_EQ(r.get(srf, d, c2, reg.data()), Status::Ok);
  EXPECT_EQ(reg, (std::vector<std::uint64_t>{4, kNone, 5, kNone}));
  reg.assign(4, kNone);
  ASSERT_EQ(r.get(srf, d, c3, reg.data()), Status::Ok);
  EXPECT_EQ(reg, (std::vector<std::uint64_t>{kNone, 6, 7, 8}));
  EXPECT_EQ(d.cur, 9u);
  reg.assign(4, kNone);
  EXPECT_EQ(r.get(srf, d, c4, reg.data()), Status::Empty);
  EXPECT_EQ(reg, std::vector<std::uint64_t>(4, kNone));
  EXPECT_EQ(d.cur, 9u);
  EXPECT_EQ(d.left(), 1u);
}

TEST(StreamAssembler, ChannelOperandErrors) {
  const std::string head = ".PAR\n.ADDRESS main\n.THREADS 1\n.CODE\n";
  auto errors = [&](const std::string& line) { return assemble(head + line + "\n", "k.par").messages(); };
  EXPECT_EQ(errors("main:   get r1 = s32 #"), "k.par:5:18: error: expected a stream channel s0..s31, got 's32'\n");
  EXPECT_EQ(errors("main:   get r1 = r2 #"), "k.par:5:18: error: expected a stream channel s0..s31, got 'r2'\n");
  EXPECT_EQ(errors("main:   put s01 = r2 #"), "k.par:5:13: error: expected a stream channel s0..s31, got 's01'\n");
  EXPECT_EQ(errors("main:   get i1 = s0 #"), "k.par:5:13: error: destination must be r0..r15, got 'i1'\n");
  EXPECT_EQ(errors("main:   put r1 = s0 #"), "k.par:5:13: error: expected a stream channel s0..s31, got 'r1'\n");
  EXPECT_EQ(errors("main:   get r1 #"), "k.par:5:9: error: 'get' expects rd = sN\n");
  EXPECT_TRUE(assemble(head + "main:   (p1) get r1 = S31\n        put s0 = i3 #\n", "k.par").ok());
}

}  // namespace
}  // namespace par::isa::stream
