// The golden micro-timings of docs/core-timing.md §7: exact execution times and stall counts.
#include <gtest/gtest.h>

#include "core_test_support.hpp"

namespace par::core {
namespace {

using testing::config;
using testing::packet;
using testing::run_source;
using testing::kMulAdd;
using testing::stall;

std::int64_t cycles_of(const std::string& body, int T, int N, CoreConfig cfg = CoreConfig{},
                       const std::string& header = "", CoreStats* stats = nullptr) {
  cfg.threads_per_lane = T;
  ProgramRun run = run_source(packet(N, header) + body, cfg);
  EXPECT_TRUE(run.ok) << run.error;
  if (stats) *stats = run.stats;
  return run.stats.cycles;
}

const char* kAdd = "main: add r1 = i0, 1 #\n";
const char* kFourAdds =
    "main: add r1 = i0, 1\n add r2 = i0, 2\n add r3 = i0, 3\n add r4 = i0, 4 #\n";
const char* kStoreLoad = "main: mul.d r1 = i1, i1\n st8 i2[0] = r1\n ld8 r2 = i3[0] #\n";
const char* kTwoAddrs = ".I2 0x100\n.I3 0x200\n";

TEST(MicroTiming, SingleAddOneThread) { EXPECT_EQ(cycles_of(kAdd, 1, 1), 2); }
TEST(MicroTiming, SingleAddFourThreads) { EXPECT_EQ(cycles_of(kAdd, 4, 4), 5); }
TEST(MicroTiming, DependentFpuOneThread) { EXPECT_EQ(cycles_of(kMulAdd, 1, 1), 9); }
TEST(MicroTiming, DependentFpuFourThreads) { EXPECT_EQ(cycles_of(kMulAdd, 4, 4), 12); }

TEST(MicroTiming, QueueFullStallsDispatch) {
  CoreStats s;
  EXPECT_EQ(cycles_of(kFourAdds, 4, 4, CoreConfig{}, "", &s), 17);
  EXPECT_EQ(s.stall_total(), 2);
  EXPECT_EQ(stall(s, StallCause::QueueFullAlu), 2);
}

TEST(MicroTiming, QueueReleasedAtCommitStallsLonger) {
  CoreConfig cfg;
  cfg.queue_release = QueueRelease::Commit;
  CoreStats s;
  EXPECT_EQ(cycles_of(kFourAdds, 4, 4, cfg, "", &s), 17);
  EXPECT_EQ(stall(s, StallCause::QueueFullAlu), 6);
}

TEST(MicroTiming, LoadForwardsPerThread) {
  EXPECT_EQ(cycles_of("main: ld8 r1 = i1[0]\n add r2 = r1, 1 #\n", 2, 2, CoreConfig{}, ".I1 0x100\n"), 4);
}

TEST(MicroTiming, CounterLoopIterationEndsAreFree) {
  EXPECT_EQ(cycles_of("main: loop i1, L\n add r2 = r1, 0 #\nL: add r1 = r1, 1 #\n", 1, 1,
                      CoreConfig{}, ".I1 3\n"),
            6);
}

TEST(MicroTiming, ExpandWaitsForCommittedPredicate) {
  CoreStats s;
  EXPECT_EQ(cycles_of("main: eq p1 = i0, 0\n (p1) xp B\n add r2 = r1, 1 #\nB: add r1 = i0, 5 #\n",
                      1, 1, CoreConfig{}, "", &s),
            6);
  EXPECT_EQ(stall(s, StallCause::PredicateWait), 1);
  EXPECT_EQ(stall(s, StallCause::XpDisqualified), 0);
}

TEST(MicroTiming, DisqualifiedExpandCostsOneCycle) {
  CoreStats s;
  EXPECT_EQ(cycles_of("main: eq p1 = i0, 7\n (p1) xp B\n add r2 = r1, 1 #\nB: add r1 = i0, 5 #\n",
                      1, 1, CoreConfig{}, "", &s),
            6);
  EXPECT_EQ(stall(s, StallCause::PredicateWait), 1);
  EXPECT_EQ(stall(s, StallCause::XpDisqualified), 1);
}

TEST(MicroTiming, StoreIssuesOnItsAddress) {
  EXPECT_EQ(cycles_of(kStoreLoad, 1, 1, CoreConfig{}, kTwoAddrs), 6);
  EXPECT_EQ(cycles_of(kStoreLoad, 4, 4, CoreConfig{}, kTwoAddrs), 10);
}

TEST(MicroTiming, StoreWaitingForAllOperands) {
  CoreConfig cfg;
  cfg.store_issue = StoreIssue::AllOperands;
  EXPECT_EQ(cycles_of(kStoreLoad, 1, 1, cfg, kTwoAddrs), 7);
  EXPECT_EQ(cycles_of(kStoreLoad, 4, 4, cfg, kTwoAddrs), 13);
}

TEST(MicroTiming, LoadAfterOverlappingStoreWaitsForItsData) {
  // Same as micro-test 10 but the load reads the stored address: its value needs the store's
  // data (mul result at 4) plus the 1-cycle local memory, so it completes at 5, not 3.
  EXPECT_EQ(cycles_of("main: mul.d r1 = i1, i1\n st8 i2[0] = r1\n ld8 r2 = i2[0] #\n", 1, 1,
                      CoreConfig{}, kTwoAddrs),
            6);
  ProgramRun run = run_source(
      packet(1, ".I1 0x4000000000000000\n.I2 0x100\n") +
          "main: mul.d r1 = i1, i1\n st8 i2[0] = r1\n ld8 r2 = i2[0]\n add r3 = r2, 0 #\n",
      config(1, 1));
  ASSERT_TRUE(run.ok) << run.error;
  // The add depends on the load: load result no earlier than 4 + 1 = 5, add commits at 6.
  EXPECT_EQ(run.stats.cycles, 7);
}

TEST(MicroTiming, CyclesPerRoundDoNotDependOnLanes) {
  const char* body = "main: sll r1 = i0, 3\n ld8 r2 = r1[0]\n mul.d r3 = r2, r2\n add.d r4 = r3, r2\n st8 r1[i1] = r4 #\n";
  for (int T : {1, 2, 4, 8}) {
    std::int64_t reference = -1;
    for (int L : {1, 2, 16, 64}) {
      CoreConfig cfg = config(L, T);
      ProgramRun run = run_source(packet(L * T * 8, ".I1 0x10000\n") + body, cfg);
      ASSERT_TRUE(run.ok) << run.error;
      if (reference < 0) reference = run.stats.cycles;
      EXPECT_EQ(run.stats.cycles, reference) << "T=" << T << " L=" << L;
      EXPECT_EQ(run.stats.rounds, 8);
    }
  }
}

}  // namespace
}  // namespace par::core
