// Prefetch requests in an L2 bank (modules/l2 README, "Prefetch requests"): what they fill and
// when, what they leave alone, and the counters of what became of each prefetched line. Plain
// model with a fake DRAM of 50 ns; bank at 1 GHz, hit 10 cycles.
#include <gtest/gtest.h>

#include <vector>

#include "bank_model.hpp"
#include "fake_next_level.hpp"
#include "l2_config.hpp"

namespace par::l2 {
namespace {

using testing::FakeNext;
using testing::kNs;

// One bank of `sets` sets x `ways` ways, 64-byte lines, `mshrs` MSHRs.
L2Config prefetch_bank(unsigned sets, unsigned ways, unsigned mshrs = 16) {
  L2Config c;
  c.banks = 1;
  c.ways = ways;
  c.bank_bytes = std::uint64_t{sets} * ways * 64;
  c.mshrs = mshrs;
  c.prefetch_stats = true;
  return c;
}

struct PrefetchRig {
  explicit PrefetchRig(const L2Config& c) : model(c, kNs, next, stats) {}
  Outcome read(std::uint64_t addr, ScTick at) {
    buf.assign(8, 0);
    Request r;
    r.addr = addr;
    r.len = 8;
    r.data = buf.data();
    r.at = at;
    return model.access(r);
  }
  std::uint64_t count(const char* name) { return static_cast<std::uint64_t>(stats.find(name)->number()); }
  simkit::StatGroup stats{"bank"};
  FakeNext next;
  BankModel model;
  std::vector<std::uint8_t> buf;
};

TEST(L2Prefetch, FillsTheLineWithoutCountingAnAccess) {
  PrefetchRig m(prefetch_bank(16, 4));
  const Outcome p = m.model.prefetch(0x48, 0);  // any byte of the line
  EXPECT_TRUE(p.ok);
  EXPECT_EQ(p.done, 50 * kNs);  // answered when the fill completes (no data returned)
  ASSERT_EQ(m.next.calls.size(), 1u);
  EXPECT_EQ(m.next.calls[0].addr, 0x40u);
  EXPECT_EQ(m.next.calls[0].len, 64u);
  EXPECT_TRUE(m.model.contains(0x40));
  EXPECT_EQ(m.count("accesses"), 0u);
  EXPECT_EQ(m.count("fills"), 0u);  // the demand counters see demand traffic only
  EXPECT_EQ(m.count("prefetch.requests"), 1u);
  EXPECT_EQ(m.count("prefetch.fills"), 1u);
  // A later read hits and gets the DRAM's bytes.
  EXPECT_EQ(m.read(0x48, 100 * kNs).done, 110 * kNs);
  EXPECT_EQ(m.buf[0], m.next.bytes[0x48]);
  EXPECT_EQ(m.count("hits"), 1u);
  EXPECT_EQ(m.count("prefetch.useful"), 1u);
  EXPECT_EQ(m.count("prefetch.late"), 0u);
  // Only the first use counts.
  m.read(0x50, 200 * kNs);
  EXPECT_EQ(m.count("prefetch.useful"), 1u);
  EXPECT_DOUBLE_EQ(m.stats.find("prefetch.accuracy")->number(), 1.0);
}

TEST(L2Prefetch, AnAccessBeforeTheFillCompletesIsLate) {
  PrefetchRig m(prefetch_bank(16, 4));
  m.model.prefetch(0x80, 0);
  EXPECT_EQ(m.read(0x80, 20 * kNs).done, 60 * kNs);  // merges into the prefetch's fill
  EXPECT_EQ(m.count("mshr_merges"), 1u);
  EXPECT_EQ(m.count("prefetch.useful"), 1u);
  EXPECT_EQ(m.count("prefetch.late"), 1u);
  EXPECT_EQ(m.next.calls.size(), 1u);
}

TEST(L2Prefetch, PresentOrInFlightLinesAreRedundant) {
  PrefetchRig m(prefetch_bank(16, 4));
  m.read(0x0, 0);
  m.model.prefetch(0x0, 10 * kNs);   // in flight
  m.model.prefetch(0x8, 100 * kNs);  // present
  EXPECT_EQ(m.count("prefetch.redundant"), 2u);
  EXPECT_EQ(m.count("prefetch.fills"), 0u);
  EXPECT_EQ(m.next.calls.size(), 1u);
  m.read(0x0, 200 * kNs);
  EXPECT_EQ(m.count("prefetch.useful"), 0u);  // not a prefetched line
}

TEST(L2Prefetch, EvictedBeforeUseIsCounted) {
  PrefetchRig m(prefetch_bank(1, 2));  // one set of two ways
  m.model.prefetch(0x000, 0);
  m.read(0x040, 100 * kNs);
  m.read(0x080, 200 * kNs);  // evicts the least recently used: the prefetched line
  EXPECT_FALSE(m.model.contains(0x000));
  EXPECT_EQ(m.count("prefetch.evicted_unused"), 1u);
  EXPECT_EQ(m.count("prefetch.useful"), 0u);
  // Prefetches evict too: 0x40 and 0x80 were demand lines (not counted), then the prefetched 0xc0.
  m.model.prefetch(0x0c0, 300 * kNs);
  m.model.prefetch(0x100, 400 * kNs);
  EXPECT_EQ(m.count("prefetch.evicted_unused"), 1u);
  m.model.prefetch(0x140, 500 * kNs);
  EXPECT_EQ(m.count("prefetch.evicted_unused"), 2u);
}

TEST(L2Prefetch, NeverWaitsForAnMshr) {
  PrefetchRig m(prefetch_bank(16, 4, 1));
  m.read(0x0, 0);  // holds the only MSHR until 50 ns
  const Outcome p = m.model.prefetch(0x40, 10 * kNs);
  EXPECT_TRUE(p.ok);
  EXPECT_EQ(m.count("prefetch.dropped"), 1u);
  EXPECT_FALSE(m.model.contains(0x40));
  EXPECT_EQ(m.count("mshr_full_stalls"), 0u);
  // ... and a demand miss after it is not delayed by it.
  EXPECT_EQ(m.read(0x80, 60 * kNs).done, 120 * kNs);
}

TEST(L2Prefetch, CountersStayOutOfTheTreeUnlessAsked) {
  L2Config c = prefetch_bank(16, 4);
  c.prefetch_stats = false;
  PrefetchRig m(c);
  m.model.prefetch(0x40, 0);
  EXPECT_EQ(m.stats.find("prefetch.requests"), nullptr);
  EXPECT_EQ(m.model.prefetch_counters().requests.value(), 1u);
  EXPECT_TRUE(m.model.contains(0x40));  // the request is served all the same
}

}  // namespace
}  // namespace par::l2
