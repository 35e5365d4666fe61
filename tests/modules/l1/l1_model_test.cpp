// The L1's plain C++ parts without SystemC: configuration and the model's timing and data rules
// (hits, misses, MSHR merges and limit, both write policies with and without write-allocate,
// per-byte dirty writebacks, flushes), with a fake next level of 50 ns. Clock 1 GHz; unless a test
// says otherwise: 1 KiB, 2 ways, 64-byte lines (8 sets), hit 4, miss 2, refill 2 cycles.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "modules/l2/fake_next_level.hpp"
#include "l1_config.hpp"
#include "l1_model.hpp"
#include "par/simkit/options.hpp"

namespace par::l1 {
namespace {

using l2::testing::FakeNext;
using l2::testing::kNs;

// ---------------------------------------------------------------------------------------------
// Configuration

std::vector<std::string> errors_of(void (*edit)(L1Config&)) {
  L1Config c;
  edit(c);
  return c.validate();
}

TEST(L1Config, DefaultsAreAValidHwachaLikeCacheThatIsOff) {
  const L1Config c;
  EXPECT_TRUE(c.validate().empty());
  EXPECT_FALSE(c.enabled);
  EXPECT_EQ(c.size_bytes, 16384u);
  EXPECT_EQ(c.ways, 4u);
  EXPECT_EQ(c.line_bytes, 64u);
  EXPECT_EQ(c.hit_latency, 4u);
  EXPECT_EQ(c.sets(), 64u);
  EXPECT_EQ(c.write_policy, WritePolicy::WriteBack);
}

TEST(L1Config, ValidationMessages) {
  using V = std::vector<std::string>;
  EXPECT_EQ(errors_of([](L1Config& c) { c.size_bytes = 2u << 20; }),
            V{"l1.size_bytes: 2097152 is larger than the largest L1 allowed (1048576 bytes; a larger cache belongs "
              "in the L2)"});
  EXPECT_EQ(errors_of([](L1Config& c) { c.line_bytes = 48; }), V{"l1.line_bytes: 48 is not a power of two"});
  EXPECT_EQ(errors_of([](L1Config& c) { c.line_bytes = 4; }), V{"l1.line_bytes: 4 is out of range 8..4096"});
  EXPECT_EQ(errors_of([](L1Config& c) { c.ways = 3; }),
            V{"l1.size_bytes: 16384 is not a multiple of l1.ways * l1.line_bytes = 192 (the ways do not divide the "
              "lines into whole sets)"});
  EXPECT_EQ(errors_of([](L1Config& c) { c.ways = 0; }), V{"l1.ways: 0 is out of range 1..64"});
  EXPECT_EQ(errors_of([](L1Config& c) { c.size_bytes = 0; }), V{"l1.size_bytes: 0 is out of range 1..1048576"});
  EXPECT_EQ(errors_of([](L1Config& c) { c.mshrs = 0; }), V{"l1.mshrs: 0 is out of range 1..1024"});
  EXPECT_EQ(errors_of([](L1Config& c) { c.hit_latency = 0; }), V{"l1.hit_latency: 0 is out of range 1..100000"});
  EXPECT_EQ(errors_of([](L1Config& c) {
              c.mshrs = 0;
              c.line_bytes = 48;
            }).size(),
            2u);
  L1Config bad;
  bad.ways = 0;
  EXPECT_THROW(checked(bad), std::invalid_argument);
}

TEST(L1Config, EveryFieldIsAnOption) {
  simkit::OptionRegistry reg;
  L1Config c;
  register_options(reg, c);
  for (const char* name : {"enabled", "size_bytes", "ways", "line_bytes", "hit_latency", "miss_cycles",
                           "refill_cycles", "mshrs", "write_policy", "write_allocate", "write_validate"})
    EXPECT_NE(reg.find(std::string("l1.") + name), nullptr) << name;
  const auto r = reg.parse(std::vector<std::string>{"--l1.enabled", "--l1.write_policy", "write_through",
                                                    "--l1.size_bytes", "8KiB"});
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(c.enabled);
  EXPECT_EQ(c.write_policy, WritePolicy::WriteThrough);
  EXPECT_EQ(c.size_bytes, 8192u);
}

// ---------------------------------------------------------------------------------------------
// The model

L1Config small(unsigned mshrs = 8) {
  L1Config c;
  c.size_bytes = 1024;
  c.ways = 2;
  c.mshrs = mshrs;
  c.hit_latency = 4;
  c.miss_cycles = 2;
  c.refill_cycles = 2;
  return c;
}

struct Rig {
  explicit Rig(const L1Config& c, FakeNext* shared = nullptr)
      : next(shared != nullptr ? *shared : own), stats(group), model(c, kNs, next, stats) {}
  cachekit::Outcome access(bool write, std::uint64_t addr, ScTick at, unsigned len = 8, std::uint8_t fill = 0) {
    buf.assign(len, fill);
    cachekit::Request r;
    r.write = write;
    r.addr = addr;
    r.len = len;
    r.data = buf.data();
    r.at = at;
    return model.access(r);
  }
  cachekit::Outcome rd(std::uint64_t addr, ScTick at, unsigned len = 8) { return access(false, addr, at, len); }
  cachekit::Outcome wr(std::uint64_t addr, ScTick at, std::uint8_t value, unsigned len = 8) {
    return access(true, addr, at, len, value);
  }
  std::uint64_t stat(const char* name) { return static_cast<std::uint64_t>(group.find(name)->number()); }

  FakeNext own;
  FakeNext& next;
  simkit::StatGroup group{"l1"};
  L1Stats stats;
  L1Model model;
  std::vector<std::uint8_t> buf;
};

TEST(L1Model, MissTakesMissCyclesNextLevelAndRefillAHitTheHitLatency) {
  Rig m(small());
  EXPECT_EQ(m.rd(0x100, 0).done, 54 * kNs);  // fill leaves at 2, back at 52, in the core at 54
  ASSERT_EQ(m.next.calls.size(), 1u);
  EXPECT_EQ(m.next.calls[0].start, 2 * kNs);
  EXPECT_EQ(m.next.calls[0].addr, 0x100u);
  EXPECT_EQ(m.next.calls[0].len, 64u);  // a whole line
  EXPECT_EQ(m.buf[0], static_cast<std::uint8_t>(0x100 * 7 + 3));
  EXPECT_EQ(m.rd(0x138, 100 * kNs).done, 104 * kNs);  // same line: a hit
  EXPECT_EQ(m.stat("hits"), 1u);
  EXPECT_EQ(m.stat("misses"), 1u);
  EXPECT_EQ(m.stat("fills"), 1u);
  EXPECT_EQ(m.group.find("latency")->number(), (54.0 + 4.0) / 2);
}

TEST(L1Model, AnAccessToALineInFlightMergesIntoItsFill) {
  Rig m(small());
  m.rd(0x100, 0);
  EXPECT_EQ(m.rd(0x108, 10 * kNs).done, 54 * kNs);  // waits for the same fill
  EXPECT_EQ(m.rd(0x110, 51 * kNs).done, 55 * kNs);  // start + hit is later than fill + refill
  EXPECT_EQ(m.stat("mshr_merges"), 2u);
  EXPECT_EQ(m.next.calls.size(), 1u);
}

TEST(L1Model, OneAccessPerCycle) {
  Rig m(small());
  m.rd(0x100, 0);
  m.rd(0x100, 100 * kNs);
  EXPECT_EQ(m.rd(0x100, 100 * kNs).done, 105 * kNs);  // the second of the cycle starts one later
  EXPECT_EQ(m.stat("port_conflicts"), 1u);
  EXPECT_EQ(m.stat("port_conflict_cycles"), 1u);
}

TEST(L1Model, MissesBeyondTheMshrsWaitForTheFirstFill) {
  Rig m(small(2));
  EXPECT_EQ(m.rd(0x000, 0).done, 54 * kNs);
  EXPECT_EQ(m.rd(0x040, 0).done, 55 * kNs);   // port: starts at 1
  EXPECT_EQ(m.rd(0x080, 0).done, 106 * kNs);  // starts at 2, MSHRs busy until 52: leaves at 54
  EXPECT_EQ(m.next.calls[2].start, 54 * kNs);
  EXPECT_EQ(m.stat("mshr_full_stalls"), 1u);
  EXPECT_EQ(m.stat("mshr_stall_cycles"), 50u);
  EXPECT_EQ(m.rd(0x0c0, 0).done, 107 * kNs);  // the second MSHR frees at 53
}

TEST(L1Model, WriteBackKeepsWritesAndWritesBackOnlyTheDirtyBytes) {
  Rig m(small());
  EXPECT_EQ(m.wr(0x44, 0, 0xaa, 4).done, 54 * kNs);  // a partial write miss fetches its line
  EXPECT_TRUE(m.model.is_dirty(0x40));
  ASSERT_EQ(m.next.calls.size(), 1u);  // the fill only
  EXPECT_NE(m.next.bytes[0x44], 0xaa);
  // Lines 0x240 and 0x440 go to the same set (8 sets of 2 ways): the second evicts 0x40.
  m.rd(0x240, 100 * kNs);
  m.rd(0x440, 200 * kNs);
  ASSERT_EQ(m.next.calls.size(), 4u);
  EXPECT_TRUE(m.next.calls[3].write);
  EXPECT_EQ(m.next.calls[3].addr, 0x44u);  // only the four written bytes
  EXPECT_EQ(m.next.calls[3].len, 4u);
  EXPECT_EQ(m.next.calls[3].start, 202 * kNs);  // with the fill, when it leaves
  EXPECT_EQ(m.next.bytes[0x44], 0xaa);
  EXPECT_EQ(m.next.bytes[0x47], 0xaa);
  EXPECT_EQ(m.next.bytes[0x48], static_cast<std::uint8_t>(0x48 * 7 + 3));
  EXPECT_FALSE(m.model.contains(0x40));
  EXPECT_EQ(m.stat("evictions"), 1u);
  EXPECT_EQ(m.stat("writebacks"), 1u);
}

TEST(L1Model, TwoCachesWritingDifferentBytesOfOneLineKeepBoth) {
  FakeNext memory;
  Rig a(small(), &memory), b(small(), &memory);
  a.wr(0x40, 0, 0x11);
  b.wr(0x48, 0, 0x22);
  a.model.flush(100 * kNs, true);
  b.model.flush(100 * kNs, true);
  EXPECT_EQ(memory.bytes[0x40], 0x11);
  EXPECT_EQ(memory.bytes[0x48], 0x22);  // a whole-line writeback of a would have restored it
  EXPECT_EQ(memory.bytes[0x50], static_cast<std::uint8_t>(0x50 * 7 + 3));
}

TEST(L1Model, WriteThroughSendsEveryWriteAndKeepsNothingDirty) {
  L1Config c = small();
  c.write_policy = WritePolicy::WriteThrough;
  Rig m(c);
  m.rd(0x40, 0);
  EXPECT_EQ(m.wr(0x48, 100 * kNs, 0x5a).done, 150 * kNs);  // a hit, done when the next level is
  ASSERT_EQ(m.next.calls.size(), 2u);
  EXPECT_TRUE(m.next.calls[1].write);
  EXPECT_EQ(m.next.calls[1].start, 100 * kNs);
  EXPECT_EQ(m.next.bytes[0x48], 0x5a);
  EXPECT_FALSE(m.model.is_dirty(0x40));
  EXPECT_EQ(m.rd(0x48, 200 * kNs).done, 204 * kNs);
  EXPECT_EQ(m.buf[0], 0x5a);
  EXPECT_EQ(m.model.flush(300 * kNs, true), 300 * kNs);  // nothing to write back
  EXPECT_EQ(m.next.calls.size(), 2u);
  EXPECT_EQ(m.stat("write_throughs"), 1u);
}

TEST(L1Model, WithoutWriteAllocateAWriteMissGoesToTheNextLevelOnly) {
  for (WritePolicy p : {WritePolicy::WriteBack, WritePolicy::WriteThrough}) {
    L1Config c = small();
    c.write_policy = p;
    c.write_allocate = false;
    Rig m(c);
    EXPECT_EQ(m.wr(0x80, 0, 0x33).done, 52 * kNs) << to_string(p);  // after the miss cycles
    EXPECT_FALSE(m.model.contains(0x80));
    EXPECT_EQ(m.next.bytes[0x80], 0x33);
    EXPECT_EQ(m.stat("write_arounds"), 1u);
    EXPECT_EQ(m.stat("fills"), 0u);
    EXPECT_EQ(m.rd(0x80, 100 * kNs).done, 154 * kNs);  // a miss that brings the new data
    EXPECT_EQ(m.buf[0], 0x33);
  }
}

TEST(L1Model, AWholeLineWriteMissNeedsNoFill) {
  Rig m(small());
  EXPECT_EQ(m.wr(0xc0, 0, 0x77, 64).done, 4 * kNs);
  EXPECT_TRUE(m.next.calls.empty());
  EXPECT_EQ(m.stat("write_validates"), 1u);
  EXPECT_EQ(m.model.flush(10 * kNs, false), 60 * kNs);  // one 64-byte write from 10
  ASSERT_EQ(m.next.calls.size(), 1u);
  EXPECT_EQ(m.next.calls[0].len, 64u);
  EXPECT_EQ(m.next.bytes[0xff], 0x77);
  EXPECT_TRUE(m.model.contains(0xc0));  // flushed, not dropped
  EXPECT_FALSE(m.model.is_dirty(0xc0));
  EXPECT_EQ(m.stat("flush_writebacks"), 1u);
}

TEST(L1Model, FlushWritesBackEveryDirtyLineOnePerCycleAndDrops) {
  Rig m(small());
  m.wr(0x000, 0, 1, 64);
  m.wr(0x040, 0, 2, 64);
  m.rd(0x080, 0);
  EXPECT_EQ(m.model.flush(100 * kNs, true), 151 * kNs);  // second writeback at 101
  EXPECT_FALSE(m.model.contains(0x000));
  EXPECT_FALSE(m.model.contains(0x080));
  EXPECT_EQ(m.next.bytes[0x000], 1);
  EXPECT_EQ(m.next.bytes[0x040], 2);
  EXPECT_EQ(m.stat("flushes"), 1u);
  EXPECT_EQ(m.stat("flush_writebacks"), 2u);
}

TEST(L1Model, AFailedFillAllocatesNothing) {
  Rig m(small());
  const cachekit::Outcome o = m.rd(1u << 20, 0);  // beyond the fake's 64 KiB
  EXPECT_FALSE(o.ok);
  EXPECT_FALSE(m.model.contains(1u << 20));
  EXPECT_EQ(m.stat("errors"), 1u);
}

TEST(L1Model, DebugAccessesSeeAndUpdateTheCachedData) {
  Rig m(small());
  m.wr(0x40, 0, 0x99);
  std::uint8_t v = 0;
  cachekit::Request r;
  r.addr = 0x40;
  r.len = 1;
  r.data = &v;
  EXPECT_TRUE(m.model.debug(r));
  EXPECT_EQ(v, 0x99);  // the L1's copy, not the next level's
  v = 0x42;
  r.write = true;
  r.addr = 0x41;
  EXPECT_TRUE(m.model.debug(r));
  m.model.flush_dbg(true);
  EXPECT_EQ(m.next.bytes[0x40], 0x99);
  EXPECT_EQ(m.next.bytes[0x41], 0x42);
  EXPECT_FALSE(m.model.contains(0x40));
}

}  // namespace
}  // namespace par::l1
