// The L2's plain C++ parts without SystemC: configuration, address mapping, tags/LRU, MSHRs, the
// bank port and the bank model's timing rules, with a fake next level of fixed latency.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <vector>

#include "bank_model.hpp"
#include "fake_next_level.hpp"
#include "l2_config.hpp"
#include "l2_geometry.hpp"
#include "par/cachekit/mshr_file.hpp"
#include "par/simkit/options.hpp"
#include "par/cachekit/port_calendar.hpp"
#include "par/cachekit/tag_array.hpp"

namespace par::l2 {
namespace {

using testing::FakeNext;
using testing::kNs;

// ---------------------------------------------------------------------------------------------
// Configuration

std::vector<std::string> errors_of(void (*edit)(L2Config&)) {
  L2Config c;
  edit(c);
  return c.validate();
}

TEST(L2Config, DefaultsFollowThePlatformReference) {
  const L2Config c;
  EXPECT_TRUE(c.validate().empty());
  EXPECT_EQ(c.banks, 4u);
  EXPECT_EQ(c.bank_bytes, 64u * 1024);
  EXPECT_EQ(c.ways, 8u);
  EXPECT_EQ(c.line_bytes, 64u);
  EXPECT_EQ(c.interleave(), 64u);
  EXPECT_EQ(c.mshrs, 16u);
  EXPECT_EQ(c.hit_latency, 10u);
  EXPECT_EQ(c.clock_mhz, 1000.0);
  EXPECT_TRUE(c.write_allocate);
  EXPECT_EQ(c.sets(), 128u);
}

TEST(L2Config, ValidationMessages) {
  using V = std::vector<std::string>;
  EXPECT_EQ(errors_of([](L2Config& c) { c.ways = 0; }), V{"l2.ways: 0 is out of range 1..64"});
  EXPECT_EQ(errors_of([](L2Config& c) { c.banks = 65; }), V{"l2.banks: 65 is out of range 1..64"});
  EXPECT_EQ(errors_of([](L2Config& c) { c.line_bytes = 48; }),
            V{"l2.line_bytes: 48 is not a power of two"});
  EXPECT_EQ(errors_of([](L2Config& c) { c.interleave_bytes = 32; }),
            V{"l2.interleave_bytes: 32 is smaller than a line (l2.line_bytes = 64)"});
  EXPECT_EQ(errors_of([](L2Config& c) { c.interleave_bytes = 192; }),
            V{"l2.interleave_bytes: 192 is not a power of two"});
  EXPECT_EQ(errors_of([](L2Config& c) { c.bank_bytes = 1000; }),
            V{"l2.bank_bytes: 1000 is not a multiple of l2.ways * l2.line_bytes = 512"});
  EXPECT_EQ(errors_of([](L2Config& c) { c.bank_bytes = 0; }),
            V{"l2.bank_bytes: 0 is out of range 1..1073741824"});
  EXPECT_EQ(errors_of([](L2Config& c) {
              c.banks = 3;
              c.xor_hash = true;
            }),
            V{"l2.banks: 3 is not a power of two (required by l2.xor_hash)"});
  EXPECT_EQ(errors_of([](L2Config& c) { c.mshrs = 0; }), V{"l2.mshrs: 0 is out of range 1..1024"});
  EXPECT_EQ(errors_of([](L2Config& c) { c.clock_mhz = 0; }),
            V{"l2.clock_mhz: 0 is out of range (0, 1000000]"});
  // Several problems are all reported.
  EXPECT_EQ(errors_of([](L2Config& c) {
              c.ways = 0;
              c.mshrs = 0;
            }).size(),
            2u);
  // Three banks are fine without hashing (modulo interleaving).
  EXPECT_TRUE(errors_of([](L2Config& c) { c.banks = 3; }).empty());
  L2Config bad;
  bad.ways = 0;
  EXPECT_THROW(checked(bad), std::invalid_argument);
}

TEST(L2Config, EveryFieldIsAnOption) {
  L2Config c;
  simkit::OptionRegistry reg;
  register_options(reg, c);
  const char* argv[] = {"parsys",          "--l2.banks",       "8",    "--l2.bank_bytes",
                        "32K",             "--l2.xor_hash",    "--l2.hit_latency", "12",
                        "--l2.clock_mhz",  "933",              "--l2.interleave_bytes", "256",
                        "--l2.write_allocate", "off",          "--l2.ways", "4",
                        "--l2.line_bytes", "128",              "--l2.mshrs", "32",
                        "--l2.write_validate", "no"};
  const auto r = reg.parse(static_cast<int>(std::size(argv)), const_cast<char**>(argv));
  ASSERT_TRUE(r.ok()) << r.errors.front();
  EXPECT_EQ(c.banks, 8u);
  EXPECT_EQ(c.bank_bytes, 32u * 1024);
  EXPECT_TRUE(c.xor_hash);
  EXPECT_EQ(c.hit_latency, 12u);
  EXPECT_EQ(c.clock_mhz, 933.0);
  EXPECT_EQ(c.interleave_bytes, 256u);
  EXPECT_FALSE(c.write_allocate);
  EXPECT_EQ(c.ways, 4u);
  EXPECT_EQ(c.line_bytes, 128u);
  EXPECT_EQ(c.mshrs, 32u);
  EXPECT_FALSE(c.write_validate);
  EXPECT_TRUE(c.validate().empty());
  const char* bad[] = {"parsys", "--l2.ways", "0"};
  const auto e = reg.parse(3, const_cast<char**>(bad));
  ASSERT_EQ(e.errors.size(), 1u);
  EXPECT_EQ(e.errors[0], "--l2.ways: '0' is out of range [1, 64]");
}

// ---------------------------------------------------------------------------------------------
// Address mapping

TEST(L2Geometry, ConsecutiveLinesGoToConsecutiveBanks) {
  const L2Geometry g{L2Config{}};
  for (std::uint64_t k = 0; k < 64; ++k) {
    EXPECT_EQ(g.bank_of(k * 64), k % 4);
    EXPECT_EQ(g.bank_of(k * 64 + 63), k % 4);
    // The bank bits are not part of the set index: a bank's lines use consecutive sets.
    EXPECT_EQ(g.set_of(k * 64), (k / 4) % 128);
  }
}

TEST(L2Geometry, InterleaveGranularity) {
  L2Config c;
  c.interleave_bytes = 128;
  const L2Geometry g{c};
  EXPECT_EQ(g.bank_of(0), 0u);
  EXPECT_EQ(g.bank_of(64), 0u);
  EXPECT_EQ(g.bank_of(128), 1u);
  EXPECT_EQ(g.bank_of(192), 1u);
  EXPECT_EQ(g.bank_of(512), 0u);
  EXPECT_EQ(g.set_of(0), 0u);
  EXPECT_EQ(g.set_of(64), 1u);
  EXPECT_EQ(g.set_of(512), 2u);
}

TEST(L2Geometry, XorHashingSpreadsABankStride) {
  L2Config c;
  std::vector<int> plain(4), hashed(4);
  const L2Geometry g{c};
  c.xor_hash = true;
  const L2Geometry h{c};
  for (std::uint64_t k = 0; k < 16; ++k) {
    ++plain[g.bank_of(k * 256)];   // stride = banks * line: one bank without hashing
    ++hashed[h.bank_of(k * 256)];
  }
  EXPECT_EQ(plain, (std::vector<int>{16, 0, 0, 0}));
  EXPECT_EQ(hashed, (std::vector<int>{4, 4, 4, 4}));
  // Sequential lines still visit every bank.
  std::vector<int> seq(4);
  for (std::uint64_t k = 0; k < 16; ++k) ++seq[h.bank_of(k * 64)];
  EXPECT_EQ(seq, (std::vector<int>{4, 4, 4, 4}));
}

// ---------------------------------------------------------------------------------------------
// Tags, MSHRs, port

TEST(TagArray, LruVictimSkipsLinesInFlight) {
  TagArray t(1, 4, 64);
  for (int w = 0; w < 4; ++w) {
    EXPECT_EQ(t.victim(0, 0), w);  // invalid ways first
    t.install(0, w, 100 + w, 0, false);
  }
  t.touch(0, t.find(0, 100));
  EXPECT_EQ(t.victim(0, 0), t.find(0, 101));  // least recently used
  t.at(0, t.find(0, 101)).ready = 500;         // its fill is in flight until 500
  EXPECT_EQ(t.victim(0, 100), t.find(0, 102));
  EXPECT_EQ(t.victim(0, 500), t.find(0, 101));  // landed by then
  for (int w = 0; w < 4; ++w) t.at(0, w).ready = 900 - 100 * static_cast<ScTick>(w);
  EXPECT_EQ(t.victim(0, 0), 3);  // all in flight: the one that lands first
  EXPECT_EQ(t.find(0, 999), TagArray::kNone);
}

// victim() and find() against a reference that stamps every use and scans every way (the rule as documented: the first invalid
// way, else the least recently used way not in flight, else the first to land), for widths kept
// as a per-set recency order (up to 16 ways) and wider ones: random installs, uses, fills in
// flight and invalidations.
TEST(TagArray, VictimFollowsRecencyLikeStampsAtEveryWidth) {
  for (unsigned ways : {1u, 2u, 3u, 4u, 8u, 15u, 16u, 17u, 32u, 64u}) {
    constexpr std::uint64_t kSets = 3;
    TagArray t(kSets, ways, 4);
    std::vector<std::uint64_t> stamp(kSets * ways, 0);
    std::uint64_t clock = 0;
    std::uint64_t x = 12345 + ways;
    std::uint64_t next_line = 1;
    for (int step = 0; step < 4000; ++step) {
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      const std::uint64_t set = (x >> 33) % kSets;
      const ScTick now = (x >> 20) % 64;
      int expected = TagArray::kNone;
      std::uint64_t best = 0;
      for (unsigned w = 0; w < ways && expected == TagArray::kNone; ++w)
        if (!t.at(set, static_cast<int>(w)).valid) expected = static_cast<int>(w);
      if (expected == TagArray::kNone) {
        for (unsigned w = 0; w < ways; ++w) {
          const Way& y = t.at(set, static_cast<int>(w));
          if (y.ready <= now && (expected == TagArray::kNone || stamp[set * ways + w] < best)) {
            expected = static_cast<int>(w);
            best = stamp[set * ways + w];
          }
        }
      }
      if (expected == TagArray::kNone) {
        expected = 0;
        for (unsigned w = 1; w < ways; ++w)
          if (t.at(set, static_cast<int>(w)).ready < t.at(set, expected).ready) expected = static_cast<int>(w);
      }
      const int v = t.victim(set, now);
      ASSERT_EQ(v, expected) << ways << " ways, step " << step;
      // find() against a scan, for a line that may or may not be in the set.
      const std::uint64_t probe = 1 + (x >> 24) % next_line;
      int holder = TagArray::kNone;
      for (unsigned w = 0; w < ways && holder == TagArray::kNone; ++w)
        if (t.at(set, static_cast<int>(w)).valid && t.at(set, static_cast<int>(w)).line == probe) holder = static_cast<int>(w);
      ASSERT_EQ(t.find(set, probe), holder) << ways << " ways, step " << step;
      const std::uint64_t op = (x >> 50) % 8;
      if (op < 4) {  // a miss fills the victim, in flight for a while
        t.install(set, v, next_line++, now + (x >> 40) % 48, false);
        stamp[set * ways + static_cast<unsigned>(v)] = ++clock;
      } else if (op < 7) {  // a hit on some valid way
        const int w = static_cast<int>((x >> 44) % ways);
        if (t.at(set, w).valid) {
          t.touch(set, w);
          stamp[set * ways + static_cast<unsigned>(w)] = ++clock;
        }
      } else if ((x >> 56) % 8 == 0) {  // now and then a way is dropped
        t.invalidate(set * ways + (x >> 44) % ways);
      }
    }
  }
}

TEST(MshrFile, EntriesAreBusyUntilTheirFillCompletes) {
  MshrFile m(2);
  EXPECT_EQ(m.free_at(0), 0u);
  m.allocate(7, 0, 50);
  m.allocate(8, 0, 60);
  EXPECT_EQ(m.busy(10), 2u);
  EXPECT_EQ(m.free_at(10), 50u);
  EXPECT_TRUE(m.in_flight(7, 10));
  EXPECT_FALSE(m.in_flight(7, 50));
  EXPECT_EQ(m.free_at(55), 55u);
  m.allocate(9, 55, 90);
  EXPECT_EQ(m.free_at(56), 60u);
}

// free_at() and the entry allocate() reuses against a scan of every entry (the file keeps the
// entry free longest instead of searching): random fills, some completing at the same time.
TEST(MshrFile, ReusesTheEntryFreeLongestLikeAScan) {
  constexpr unsigned kEntries = 5;
  MshrFile m(kEntries);
  struct Ref {
    std::uint64_t line;
    ScTick ready;
  };
  std::vector<Ref> ref(kEntries, Ref{0, 0});
  std::uint64_t x = 99;
  ScTick t = 0;
  for (std::uint64_t line = 1; line <= 3000; ++line) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    t += (x >> 59) % 4;  // often the same time
    ScTick free = ref[0].ready;
    for (const Ref& e : ref) free = std::min(free, e.ready);
    free = std::max(free, t);
    ASSERT_EQ(m.free_at(t), free) << "line " << line;
    std::size_t best = 0;  // the smallest ready, the first on a tie
    for (std::size_t i = 1; i < ref.size(); ++i)
      if (ref[i].ready < ref[best].ready) best = i;
    const std::uint64_t replaced = ref[best].line;
    const ScTick ready = free + 10 * ((x >> 40) % 3);  // equal completions too
    m.allocate(line, free, ready);
    ref[best] = Ref{line, ready};
    if (ready > free) {
      EXPECT_TRUE(m.in_flight(line, free));
    }
    if (replaced != 0) {
      EXPECT_FALSE(m.in_flight(replaced, 0)) << "line " << line << " should have reused the entry of " << replaced;
    }
    t = free;
  }
}

TEST(TickDivider, EqualsTheDivisionForEveryDividend) {
  const std::uint64_t max = ~std::uint64_t{0};
  for (std::uint64_t d : {std::uint64_t{1}, std::uint64_t{2}, std::uint64_t{3}, std::uint64_t{7}, std::uint64_t{64},
                          std::uint64_t{1000}, std::uint64_t{1001}, std::uint64_t{3333}, std::uint64_t{1} << 40,
                          (std::uint64_t{1} << 40) + 1, max / 3, max - 1, max}) {
    const TickDivider div(d);
    EXPECT_EQ(div.divisor(), d);
    const std::uint64_t limit = max / d;
    std::vector<std::uint64_t> ns = {0, 1, d - 1, d, d + 1, 2 * d - 1, 2 * d, limit - 1, limit, limit + 1, max - 1, max};
    for (std::uint64_t k = 1; k < 2000; ++k) ns.push_back(k * 7919 % (d + 5) + k * d);
    for (std::uint64_t q : {limit / 2, limit / 3, limit - 12345}) ns.push_back(q * d + d - 1);
    for (std::uint64_t n : ns) ASSERT_EQ(div(n), n / d) << n << " / " << d;
  }
  EXPECT_EQ(cycles_ceil(0, TickDivider(1000)), 0u);
  EXPECT_EQ(cycles_ceil(1, TickDivider(1000)), 1u);
  EXPECT_EQ(cycles_ceil(1000, TickDivider(1000)), 1u);
  EXPECT_EQ(cycles_ceil(1001, TickDivider(1000)), 2u);
}

TEST(PortCalendar, OneAccessPerCycleAndOutOfOrderArrivals) {
  PortCalendar p(1000);
  EXPECT_EQ(p.reserve(0), 0u);
  EXPECT_EQ(p.reserve(0), 1000u);     // same cycle: next slot
  EXPECT_EQ(p.reserve(500), 2000u);   // slots 0 and 1 taken
  EXPECT_EQ(p.reserve(5000), 5000u);
  EXPECT_EQ(p.reserve(3000), 3000u);  // earlier arrival after a later one still finds its slot
  EXPECT_EQ(p.reserve(2500), 4000u);  // slots 2 and 3 taken
  EXPECT_EQ(p.reserve(7300), 7300u);  // mid-cycle arrivals are not rounded
  EXPECT_EQ(p.reserve(7900), 8000u);
}

TEST(PortCalendar, ForgetsOldHistory) {
  PortCalendar p(1);
  for (ScTick t = 0; t < 10 * PortCalendar::kHorizon; ++t) p.reserve(t);
  EXPECT_LE(p.reserved(), 2 * PortCalendar::kHorizon + 1);
}

// ---------------------------------------------------------------------------------------------
// Bank model with a fake DRAM

L2Config one_bank(std::uint64_t bank_bytes = 4096, unsigned ways = 4) {
  L2Config c;
  c.banks = 1;
  c.bank_bytes = bank_bytes;
  c.ways = ways;
  return c;
}

struct ModelRig {
  explicit ModelRig(const L2Config& c, std::size_t size = 1 << 16)
      : next(size), model(c, kNs, next, stats) {}
  Outcome rd(std::uint64_t addr, ScTick at, unsigned len = 8) {
    buf.assign(len, 0);
    Request r;
    r.addr = addr;
    r.len = len;
    r.data = buf.data();
    r.at = at;
    return model.access(r);
  }
  Outcome wr(std::uint64_t addr, ScTick at, std::vector<std::uint8_t> data) {
    buf = std::move(data);
    Request r;
    r.write = true;
    r.addr = addr;
    r.len = static_cast<unsigned>(buf.size());
    r.data = buf.data();
    r.at = at;
    return model.access(r);
  }
  std::uint64_t stat(const char* name) {
    return static_cast<std::uint64_t>(stats.find(name)->number());
  }
  simkit::StatGroup stats{"bank"};
  FakeNext next;
  BankModel model;
  std::vector<std::uint8_t> buf;
};

TEST(BankModel, MissThenHitLatencies) {
  ModelRig m(one_bank());
  EXPECT_EQ(m.rd(0x40, 0).done, 60 * kNs);  // memory 50 + hit 10
  EXPECT_EQ(m.buf[0], m.next.bytes[0x40]);
  EXPECT_EQ(m.rd(0x48, 100 * kNs).done, 110 * kNs);
  EXPECT_EQ(m.stat("misses"), 1u);
  EXPECT_EQ(m.stat("hits"), 1u);
  EXPECT_EQ(m.stat("fills"), 1u);
  ASSERT_EQ(m.next.calls.size(), 1u);
  EXPECT_EQ(m.next.calls[0].addr, 0x40u);  // the whole line
  EXPECT_EQ(m.next.calls[0].len, 64u);
  EXPECT_DOUBLE_EQ(m.stats.find("hit_rate")->number(), 0.5);
}

TEST(BankModel, SecondAccessToALineInFlightMerges) {
  ModelRig m(one_bank());
  EXPECT_EQ(m.rd(0x0, 0).done, 60 * kNs);
  EXPECT_EQ(m.rd(0x8, 5 * kNs).done, 60 * kNs);   // completes with the fill
  EXPECT_EQ(m.rd(0x10, 50 * kNs).done, 60 * kNs); // fill landed: a hit
  EXPECT_EQ(m.stat("mshr_merges"), 1u);
  EXPECT_EQ(m.stat("hits"), 1u);
  EXPECT_EQ(m.next.calls.size(), 1u);
  // Out of time order: a request earlier than the miss that brought the line in merges too.
  EXPECT_EQ(m.rd(0x200, 100 * kNs).done, 160 * kNs);
  EXPECT_EQ(m.rd(0x208, 20 * kNs).done, 160 * kNs);
  EXPECT_EQ(m.stat("mshr_merges"), 2u);
}

TEST(BankModel, AllMshrsBusyStallsUntilTheFirstFrees) {
  L2Config c = one_bank();
  c.mshrs = 2;
  ModelRig m(c);
  EXPECT_EQ(m.rd(0x000, 0).done, 60 * kNs);
  EXPECT_EQ(m.rd(0x040, 1 * kNs).done, 61 * kNs);
  EXPECT_EQ(m.rd(0x080, 2 * kNs).done, 110 * kNs);  // waits from 2 to 50 for an MSHR
  EXPECT_EQ(m.next.calls[2].start, 50 * kNs);
  EXPECT_EQ(m.stat("mshr_full_stalls"), 1u);
  EXPECT_EQ(m.stat("mshr_stall_cycles"), 48u);
  // Merges and hits need no MSHR.
  EXPECT_EQ(m.rd(0x008, 3 * kNs).done, 60 * kNs);
  EXPECT_EQ(m.stat("mshr_full_stalls"), 1u);
}

TEST(BankModel, AMissWaitsWhenEveryWayOfItsSetIsInFlight) {
  ModelRig m(one_bank(64, 1));  // one set, one way
  EXPECT_EQ(m.rd(0x000, 0).done, 60 * kNs);
  EXPECT_EQ(m.rd(0x040, 1 * kNs).done, 110 * kNs);  // waits for line 0's fill to land
  EXPECT_EQ(m.stat("set_stalls"), 1u);
  EXPECT_EQ(m.stat("set_stall_cycles"), 49u);
  EXPECT_FALSE(m.model.contains(0x000));
  EXPECT_TRUE(m.model.contains(0x040));
}

TEST(BankModel, OneAccessPerCycle) {
  ModelRig m(one_bank());
  m.rd(0x0, 0);
  EXPECT_EQ(m.rd(0x0, 100 * kNs).done, 110 * kNs);
  EXPECT_EQ(m.rd(0x8, 100 * kNs).done, 111 * kNs);
  EXPECT_EQ(m.rd(0x10, 100 * kNs).done, 112 * kNs);
  EXPECT_EQ(m.stat("bank_conflicts"), 2u);
  EXPECT_EQ(m.stat("bank_conflict_cycles"), 3u);  // 1 + 2
  // An earlier arrival that is handled later still uses its own free cycle.
  EXPECT_EQ(m.rd(0x0, 200 * kNs).done, 210 * kNs);
  EXPECT_EQ(m.rd(0x0, 150 * kNs).done, 160 * kNs);
  EXPECT_EQ(m.stat("bank_conflicts"), 2u);
}

TEST(BankModel, DirtyVictimIsWrittenBackAfterTheFillRequest) {
  ModelRig m(one_bank(64, 1));
  m.wr(0x10, 0, {1, 2, 3, 4});
  EXPECT_TRUE(m.model.is_dirty(0x10));
  EXPECT_EQ(m.rd(0x40, 100 * kNs).done, 160 * kNs);  // the writeback does not delay the miss
  ASSERT_EQ(m.next.calls.size(), 3u);
  EXPECT_FALSE(m.next.calls[1].write);
  EXPECT_EQ(m.next.calls[1].addr, 0x40u);
  EXPECT_TRUE(m.next.calls[2].write);
  EXPECT_EQ(m.next.calls[2].addr, 0x00u);
  EXPECT_EQ(m.next.calls[2].len, 64u);
  EXPECT_EQ(m.next.calls[2].start, 100 * kNs);
  EXPECT_EQ(m.next.bytes[0x10], 1);
  EXPECT_EQ(m.next.bytes[0x13], 4);
  EXPECT_EQ(m.stat("writebacks"), 1u);
}

TEST(BankModel, FullLineWriteMissNeedsNoFill) {
  ModelRig m(one_bank());
  EXPECT_EQ(m.wr(0x80, 0, std::vector<std::uint8_t>(64, 9)).done, 10 * kNs);
  EXPECT_TRUE(m.next.calls.empty());
  EXPECT_EQ(m.stat("write_validates"), 1u);
  EXPECT_EQ(m.stat("misses"), 1u);
  EXPECT_EQ(m.rd(0x80, 20 * kNs).done, 30 * kNs);
  EXPECT_EQ(m.buf[0], 9);

  L2Config c = one_bank();
  c.write_validate = false;
  ModelRig f(c);
  EXPECT_EQ(f.wr(0x80, 0, std::vector<std::uint8_t>(64, 9)).done, 60 * kNs);
  EXPECT_EQ(f.next.calls.size(), 1u);
}

TEST(BankModel, WithoutWriteAllocateWriteMissesGoToMemory) {
  L2Config c = one_bank();
  c.write_allocate = false;
  ModelRig m(c);
  EXPECT_EQ(m.wr(0x100, 0, {5, 6}).done, 50 * kNs);
  EXPECT_FALSE(m.model.contains(0x100));
  EXPECT_EQ(m.next.bytes[0x100], 5);
  EXPECT_EQ(m.stat("write_arounds"), 1u);
  // A write hit stays in the cache.
  m.rd(0x100, 100 * kNs);
  EXPECT_EQ(m.wr(0x100, 200 * kNs, {7}).done, 210 * kNs);
  EXPECT_TRUE(m.model.is_dirty(0x100));
}

TEST(BankModel, ErrorsFromMemoryAllocateNothing) {
  ModelRig m(one_bank(), 256);
  const Outcome o = m.rd(0x400, 0);
  EXPECT_FALSE(o.ok);
  EXPECT_FALSE(m.model.contains(0x400));
  EXPECT_EQ(m.stat("errors"), 1u);
  EXPECT_EQ(m.model.mshrs().busy(0), 0u);
}

TEST(BankModel, ByteEnablesSelectTheWrittenBytes) {
  ModelRig m(one_bank());
  m.rd(0x0, 0);
  std::vector<std::uint8_t> data(8, 0xee);
  const std::uint8_t be[2] = {0xff, 0x00};  // pattern repeats: even bytes only
  Request r;
  r.write = true;
  r.addr = 0;
  r.len = 8;
  r.data = data.data();
  r.be = ByteEnables{be, 2, 0};
  r.at = 100 * kNs;
  m.model.access(r);
  m.rd(0x0, 200 * kNs);
  for (unsigned i = 0; i < 8; ++i) {
    EXPECT_EQ(m.buf[i], i % 2 == 0 ? 0xee : m.next.bytes[i]) << i;
  }
}

TEST(BankModel, FlushWritesBackDirtyLinesOnePerCycle) {
  ModelRig m(one_bank());
  m.wr(0x000, 0, {1});
  m.wr(0x040, 0, {2});
  m.rd(0x080, 0);
  m.next.calls.clear();
  EXPECT_EQ(m.model.flush(200 * kNs, false), 251 * kNs);
  ASSERT_EQ(m.next.calls.size(), 2u);
  EXPECT_EQ(m.next.calls[0].start, 200 * kNs);
  EXPECT_EQ(m.next.calls[1].start, 201 * kNs);
  EXPECT_EQ(m.next.bytes[0x000], 1);
  EXPECT_EQ(m.next.bytes[0x040], 2);
  EXPECT_FALSE(m.model.is_dirty(0x000));
  EXPECT_TRUE(m.model.contains(0x000));
  EXPECT_EQ(m.model.flush(300 * kNs, true), 300 * kNs);  // nothing dirty; drops the lines
  EXPECT_FALSE(m.model.contains(0x080));
  EXPECT_EQ(m.stat("flush_writebacks"), 2u);
}

TEST(BankModel, DebugAccessesSeeDirtyLinesAndAllocateNothing) {
  ModelRig m(one_bank());
  m.wr(0x0, 0, {0x55});
  std::uint8_t v = 0;
  Request r;
  r.addr = 0;
  r.len = 1;
  r.data = &v;
  ASSERT_TRUE(m.model.debug(r));
  EXPECT_EQ(v, 0x55);                 // the cached (dirty) value
  EXPECT_NE(m.next.bytes[0], 0x55);   // memory is stale until a writeback
  r.addr = 0x1000;                    // not cached: read from memory
  ASSERT_TRUE(m.model.debug(r));
  EXPECT_EQ(v, m.next.bytes[0x1000]);
  EXPECT_FALSE(m.model.contains(0x1000));
  v = 0x77;
  r.write = true;
  ASSERT_TRUE(m.model.debug(r));      // not cached: written to memory
  EXPECT_EQ(m.next.bytes[0x1000], 0x77);
  r.addr = 0x1;                       // cached: written in place, dirty
  ASSERT_TRUE(m.model.debug(r));
  m.model.flush_dbg(false);
  EXPECT_EQ(m.next.bytes[0], 0x55);
  EXPECT_EQ(m.next.bytes[1], 0x77);
  EXPECT_EQ(m.stats.find("accesses")->number(), 1.0);  // debug accesses are not counted
}

TEST(BankModel, LruReplacementOrder) {
  ModelRig m(one_bank(256, 4));  // one set of four ways
  ScTick t = 0;
  for (std::uint64_t line = 0; line < 4; ++line) m.rd(line * 64, t += 100 * kNs);
  m.rd(0, t += 100 * kNs);                 // line 0 becomes most recently used
  m.rd(4 * 64, t += 100 * kNs);            // evicts line 1
  EXPECT_FALSE(m.model.contains(1 * 64));
  m.rd(5 * 64, t += 100 * kNs);            // evicts line 2
  EXPECT_FALSE(m.model.contains(2 * 64));
  for (std::uint64_t line : {0, 3, 4, 5}) EXPECT_TRUE(m.model.contains(line * 64)) << line;
  EXPECT_EQ(m.stat("hits"), 1u);
  EXPECT_EQ(m.stat("misses"), 6u);
}

}  // namespace
}  // namespace par::l2
