// A core runs packet after packet on one PacketEngine: its timing model is reset, not rebuilt, and
// a round clears and computes only the slots that hold its threads. Neither may let one packet
// change the next: a packet after another must give exactly what it gives on a fresh engine.
//
// Cores of one shape lend each other their register storage (slot_storage_pool.hpp): a packet runs
// in whatever block it is given, so it must give exactly what it gives in the core's own storage,
// whatever packets (other widths, other inherited values) used the block before, and packets that
// overlap on the host (a core synchronising in the middle of its packet while another core runs)
// must hold different blocks.
#include <gtest/gtest.h>

#include <functional>
#include <limits>
#include <utility>

#include "core_test_support.hpp"
#include "packet_engine.hpp"
#include "slot_storage_pool.hpp"

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

// The port of a core on the platform: when the frontend reaches cycle `at` the core synchronises
// with the SystemC time, and another core runs meanwhile (here: `meanwhile`, once).
struct SynchronisingPort : GlobalMemoryPort {
  Cycle at = 3;
  std::function<void()> meanwhile;
  bool transact(bool, std::uint64_t, std::uint8_t*, unsigned, const std::uint8_t*, Cycle, Cycle&,
                std::string& error) override {
    error = "no global memory";
    return false;
  }
  Cycle reached(Cycle cycle) override {
    if (cycle < at) return at;
    if (meanwhile) std::exchange(meanwhile, nullptr)();
    return std::numeric_limits<Cycle>::max();
  }
};

struct Core {
  Core(const CoreConfig& cfg, const LoadedProgram& program, RunMode mode, SlotStoragePool* pool)
      : mem(0, 1 << 16), engine("core0", cfg, program, mem, &port, mode, 16) {
    engine.set_slot_storage_pool(pool);
  }
  LocalMemory mem;
  SynchronisingPort port;
  PacketEngine engine;
};

class RegisterPool : public ::testing::TestWithParam<RunMode> {
 protected:
  void SetUp() override {
    std::string error;
    loaded_ = LoadedProgram::load(testing::assemble_or_fail(kProgram), cfg_, &error);
    ASSERT_NE(loaded_, nullptr) << error;
  }
  int slots() const { return GetParam() == RunMode::Timing ? cfg_.slots() : 16; }
  CoreConfig cfg_ = testing::config(4, 4);
  std::unique_ptr<LoadedProgram> loaded_;
};
// Only timing mode synchronises inside a packet.
class RegisterPoolTiming : public RegisterPool {};

TEST_P(RegisterPool, CoresOneAfterTheOtherShareOneBlockAndGiveWhatTheirOwnStorageGives) {
  SlotStoragePool pool(slots());
  Core a(cfg_, *loaded_, GetParam(), &pool), b(cfg_, *loaded_, GetParam(), &pool);
  Core own_a(cfg_, *loaded_, GetParam(), nullptr), own_b(cfg_, *loaded_, GetParam(), nullptr);
  // Wide and narrow packets, equal and different inherited values, alternating between the cores;
  // the third finds in the block the values of the second, not those of its core's last packet.
  const struct {
    bool on_a;
    std::int64_t threads;
    std::uint64_t i1;
  } packets[] = {{true, 2 * slots() + 3, 7}, {false, 3, 11}, {true, 5, 7}, {false, slots(), 11}, {true, 2, 11}};
  for (const auto& p : packets) {
    const Result shared = run_packet(p.on_a ? a.engine : b.engine, p.threads, p.i1);
    const Result own = run_packet(p.on_a ? own_a.engine : own_b.engine, p.threads, p.i1);
    {
      SCOPED_TRACE(std::to_string(p.threads) + " threads, i1 = " + std::to_string(p.i1));
      expect_same(shared, own);
    }
    ASSERT_EQ(shared.regs.size(), static_cast<std::size_t>(p.threads));
    for (std::size_t t = 0; t < shared.regs.size(); ++t) EXPECT_EQ(shared.regs[t].r[2], p.i1) << "thread " << t;
  }
  EXPECT_EQ(pool.blocks(), 1u);
}

TEST_P(RegisterPoolTiming, PacketsThatOverlapOnTheHostHoldDifferentBlocks) {
  SlotStoragePool pool(slots());
  Core a(cfg_, *loaded_, GetParam(), &pool), b(cfg_, *loaded_, GetParam(), &pool);
  Core own_a(cfg_, *loaded_, GetParam(), nullptr), own_b(cfg_, *loaded_, GetParam(), nullptr);
  Result inside, own_inside;
  a.port.meanwhile = [&] { inside = run_packet(b.engine, slots() + 1, 5); };
  own_a.port.meanwhile = [&] { own_inside = run_packet(own_b.engine, slots() + 1, 5); };
  const Result outside = run_packet(a.engine, 2 * slots(), 9);
  const Result own_outside = run_packet(own_a.engine, 2 * slots(), 9);
  ASSERT_FALSE(inside.regs.empty()) << "b's packet did not run inside a's";
  {
    SCOPED_TRACE("the packet run while the other was synchronising");
    expect_same(inside, own_inside);
  }
  {
    SCOPED_TRACE("the packet that synchronised");
    expect_same(outside, own_outside);
  }
  EXPECT_EQ(pool.blocks(), 2u);
  // Both blocks are back: two more packets one after the other make none.
  run_packet(b.engine, 3, 1);
  run_packet(a.engine, 3, 2);
  EXPECT_EQ(pool.blocks(), 2u);
}

INSTANTIATE_TEST_SUITE_P(Modes, RegisterPool, ::testing::Values(RunMode::Timing, RunMode::Functional),
                         [](const auto& p) { return p.param == RunMode::Timing ? "Timing" : "Functional"; });
INSTANTIATE_TEST_SUITE_P(Timing, RegisterPoolTiming, ::testing::Values(RunMode::Timing));

TEST(RegisterPoolContexts, EachContextTakesABlock) {
  CoreConfig cfg = testing::config(2, 2);
  cfg.contexts = 2;
  std::string error;
  auto loaded = LoadedProgram::load(testing::assemble_or_fail(kProgram), cfg, &error);
  ASSERT_NE(loaded, nullptr) << error;
  SlotStoragePool pool(cfg.slots());
  Core shared(cfg, *loaded, RunMode::Timing, &pool), own(cfg, *loaded, RunMode::Timing, nullptr);
  for (std::uint64_t i1 : {3u, 4u}) {
    SCOPED_TRACE("i1 = " + std::to_string(i1));
    expect_same(run_packet(shared.engine, 5 * cfg.slots() + 1, i1), run_packet(own.engine, 5 * cfg.slots() + 1, i1));
  }
  EXPECT_EQ(pool.blocks(), 2u);
}

// A round start clears only the registers that some round since their last clearing may have
// written (SlotStorage::nonzero): in a lent block those include the registers of another program.
const char* kWritesR5 =
    ".PAR\n.ADDRESS main\n.THREADS 1\n.CODE\nmain: add r5 = i0, 1\n add r7 = r5, r5 #\n";
const char* kReadsR5 =
    ".PAR\n.ADDRESS main\n.THREADS 1\n.CODE\nmain: add r1 = r5, 1\n add r5 = r5, i0 #\n";
const char* kOnlyReadsR5 = ".PAR\n.ADDRESS main\n.THREADS 1\n.CODE\nmain: add r1 = r5, 1 #\n";

TEST(RoundStart, TheProgramsWrittenRegistersAreKnown) {
  const CoreConfig cfg = testing::config(1, 4);
  std::string error;
  auto writes = LoadedProgram::load(testing::assemble_or_fail(kWritesR5), cfg, &error);
  ASSERT_NE(writes, nullptr) << error;
  EXPECT_EQ(writes->writes(), (1u << 5) | (1u << 7));
  auto reads = LoadedProgram::load(testing::assemble_or_fail(kOnlyReadsR5), cfg, &error);
  ASSERT_NE(reads, nullptr) << error;
  EXPECT_EQ(reads->writes(), 1u << 1);
}

TEST_P(RegisterPool, AnotherProgramsRegistersAreClearedInALentBlock) {
  std::string error;
  auto writer = LoadedProgram::load(testing::assemble_or_fail(kWritesR5), cfg_, &error);
  auto reader = LoadedProgram::load(testing::assemble_or_fail(kOnlyReadsR5), cfg_, &error);
  ASSERT_NE(writer, nullptr) << error;
  ASSERT_NE(reader, nullptr) << error;
  SlotStoragePool pool(slots());
  Core w(cfg_, *writer, GetParam(), &pool), r(cfg_, *reader, GetParam(), &pool);
  // Full and partial rounds of the writer, each followed by a narrow packet of the reader (which
  // clears only its slots) and a wide one: the reader's r5 must read 0 in every thread.
  for (std::int64_t threads : {std::int64_t{2} * slots() + 3, std::int64_t{slots()}, std::int64_t{3}}) {
    run_packet(w.engine, threads, 1);
    for (std::int64_t reader_threads : {std::int64_t{3}, std::int64_t{slots()} + 2}) {
      const Result read = run_packet(r.engine, reader_threads, 1);
      ASSERT_EQ(read.regs.size(), static_cast<std::size_t>(reader_threads));
      for (std::size_t t = 0; t < read.regs.size(); ++t) {
        EXPECT_EQ(read.regs[t].r[5], 0u) << threads << " writer threads, " << reader_threads << " reader threads, thread " << t;
        EXPECT_EQ(read.regs[t].r[1], 1u) << threads << " writer threads, " << reader_threads << " reader threads, thread " << t;
      }
    }
  }
  EXPECT_EQ(pool.blocks(), 1u);
}

TEST_P(RegisterPool, ARegisterReadBeforeItIsWrittenStartsEveryRoundAtZero) {
  // r5 is read, then written: every round (full or partial, after wider and narrower packets)
  // must find it cleared although the program writes it.
  std::string error;
  auto loaded = LoadedProgram::load(testing::assemble_or_fail(kReadsR5), cfg_, &error);
  ASSERT_NE(loaded, nullptr) << error;
  SlotStoragePool pool(slots());
  Core c(cfg_, *loaded, GetParam(), &pool);
  for (std::int64_t threads : {std::int64_t{2} * slots() + 3, std::int64_t{5}, std::int64_t{slots()} + 1}) {
    const Result res = run_packet(c.engine, threads, 1);
    ASSERT_EQ(res.regs.size(), static_cast<std::size_t>(threads));
    for (std::size_t t = 0; t < res.regs.size(); ++t) {
      EXPECT_EQ(res.regs[t].r[1], 1u) << threads << " threads, thread " << t;
      EXPECT_EQ(res.regs[t].r[5], t) << threads << " threads, thread " << t;
    }
  }
}

TEST(RegisterPoolShape, APoolOfAnotherSlotCountIsRefused) {
  const CoreConfig cfg = testing::config(4, 4);
  std::string error;
  auto loaded = LoadedProgram::load(testing::assemble_or_fail(kProgram), cfg, &error);
  ASSERT_NE(loaded, nullptr) << error;
  LocalMemory mem(0, 1 << 16);
  PacketEngine engine("core3", cfg, *loaded, mem, nullptr, RunMode::Timing);
  SlotStoragePool pool(8);
  try {
    engine.set_slot_storage_pool(&pool);
    FAIL() << "accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "core3: a register pool of 8 slots for contexts of 16");
  }
}


}  // namespace
}  // namespace par::core
