// A core runs packet after packet on one PacketEngine: its timing model is reset, not rebuilt, and
// a round clears and computes only the slots that hold its threads. Neither may let one packet
// change the next: a packet after another must give exactly what it gives on a fresh engine.
#include <gtest/gtest.h>

#include "core_test_support.hpp"
#include "packet_engine.hpp"

namespace par::core {
namespace {

// Reads r1..r3 before writing them (a round starts them at 0), uses i1 (inherited), a
// predicated store and load (the pending-store path) and FPU latency, so stale registers,
// inherited values, scoreboard entries or stores of an earlier packet would change the results.
const char* kProgram =
    ".PAR\n.ADDRESS main\n.THREADS 1\n.CODE\n"
    "main: add r1 = r1, i0\n add r2 = r2, i1\n lt p12 = i0, 5\n sll r4 = i0, 3\n"
    " (p1) st8 r4[64] = r2\n (p1) ld8 r3 = r4[64]\n mul.d r5 = r3, r3\n add r6 = r5, r1 #\n";

struct Result {
  bool ok = false;
  CoreStats stats;
  std::vector<ThreadRegisters> regs;
};

Result run_packet(PacketEngine& engine, std::int64_t threads, std::uint64_t i1) {
  Packet p;
  p.threads = threads;
  p.inherited[1] = i1;
  engine.capture_registers(0, static_cast<std::uint64_t>(threads));
  Result r;
  std::string error;
  r.ok = engine.run(p, r.stats, &error);
  EXPECT_TRUE(r.ok) << error;
  r.regs = engine.captured_registers();
  return r;
}

void expect_same(const Result& a, const Result& b) {
  EXPECT_EQ(a.stats.cycles, b.stats.cycles);
  EXPECT_EQ(a.stats.fetched, b.stats.fetched);
  EXPECT_EQ(a.stats.stalls, b.stats.stalls);
  EXPECT_EQ(a.stats.rob_occupancy_sum, b.stats.rob_occupancy_sum);
  EXPECT_EQ(a.stats.rob_max_occupancy, b.stats.rob_max_occupancy);
  EXPECT_EQ(a.stats.total_thread_instructions(), b.stats.total_thread_instructions());
  ASSERT_EQ(a.regs.size(), b.regs.size());
  for (std::size_t t = 0; t < a.regs.size(); ++t) {
    EXPECT_EQ(a.regs[t].r, b.regs[t].r) << "thread " << t;
    EXPECT_EQ(a.regs[t].p, b.regs[t].p) << "thread " << t;
  }
}

void check(RunMode mode, int lanes, int threads_per_lane) {
  const CoreConfig cfg = testing::config(lanes, threads_per_lane);
  const isa::Program program = testing::assemble_or_fail(kProgram);
  std::string error;
  auto loaded = LoadedProgram::load(program, cfg, &error);
  ASSERT_NE(loaded, nullptr) << error;
  LocalMemory used_mem(0, 1 << 16), fresh_mem(0, 1 << 16);
  PacketEngine used("core0", cfg, *loaded, used_mem, nullptr, mode, 16);
  PacketEngine fresh("core0", cfg, *loaded, fresh_mem, nullptr, mode, 16);
  const int slots = mode == RunMode::Timing ? cfg.slots() : 16;
  // Full rounds and a partial one first, then a packet narrower than one round.
  const Result first = run_packet(used, 2 * slots + 3, 7);
  ASSERT_TRUE(first.ok);
  EXPECT_EQ(first.regs.size(), static_cast<std::size_t>(2 * slots + 3));
  const Result again = run_packet(used, 3, 11);
  const Result alone = run_packet(fresh, 3, 11);
  expect_same(again, alone);
  // The threads' own values: r1 = i0, r2 = i1, r3 = the stored r2 where i0 < 5.
  for (std::size_t t = 0; t < alone.regs.size(); ++t) {
    EXPECT_EQ(alone.regs[t].r[1], t);
    EXPECT_EQ(alone.regs[t].r[2], 11u);
    EXPECT_EQ(alone.regs[t].r[3], 11u);
  }
}

TEST(EngineReuse, TimingPacketAfterAWiderOneIsAsOnAFreshCore) { check(RunMode::Timing, 4, 4); }
TEST(EngineReuse, TimingOneLaneFastPath) { check(RunMode::Timing, 1, 4); }
TEST(EngineReuse, TimingOddThreadsPerLane) { check(RunMode::Timing, 2, 3); }
TEST(EngineReuse, FunctionalPacketAfterAWiderOne) { check(RunMode::Functional, 1, 1); }

}  // namespace
}  // namespace par::core
