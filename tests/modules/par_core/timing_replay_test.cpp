// Round replay of the timing model (modules/par_core/timing_replay.hpp): a replayed round must
// give exactly the statistics of the round dispatched for real, on kernels whose rounds repeat
// (GS), whose rounds differ in their control flow, in the stores a load must wait for and in
// global-memory timing, and at every point the platform may sample them mid-packet.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "core_test_support.hpp"
#include "packet_engine.hpp"
#include "program_runner.hpp"

namespace par::core {
namespace {

using testing::expect_same_stats;
using testing::kernel;
using testing::kKernels;

// Threads loop (i0 >> 5) & 1 times over a multiply-add: at L = 1, T = 4, eight rounds in a row
// skip the loop, the next eight run it once, and so on. The first round of each run of eight
// starts from the state the previous run repeated, but makes other calls.
const char* kRoundDependentLoop = R"(.PAR
.ADDRESS main
.THREADS 96
.I1 out
.I2 1.5
.CODE
main:   srl     r3 = i0, 5
        and     r2 = r3, 1
        mul.d   r6 = i2, i2
        lt      p1 = r1, r2
        (p1) loop body
        sll     r4 = i0, 3
        st8     i1[r4] = r6 #
body:   add     r1 = r1, 1
        mac.d   r6 = r6, i2
        lt      p1 = r1, r2 #
.DATA 0x1000
out:    .zero 768
)";

// A store whose data comes late (a long division; a ROB and output buffers that let the next
// round start) and loads of the next round from the same
// addresses: the loads wait for the stores (per-thread result limits). Where bit 5 of i0 is set
// (eight rounds of four threads in a row at L = 1, T = 4), a load reads what the round before
// the previous one stored and waits less.
const char* kLoadAfterLateStore = R"(.PAR
.ADDRESS main
.THREADS 96
.I1 buf
.I2 3.0
.I3 56
.CODE
main:   sub     r1 = i0, 4
        srl     r7 = i0, 3
        and     r7 = r7, 4
        xor     r1 = r1, r7
        sll     r1 = r1, 3
        and     r1 = r1, i3
        sll     r4 = i0, 3
        and     r4 = r4, i3
        ld8     r2 = r1[i1]
        div.d   r3 = i2, r2
        st8     r4[i1] = r3 #
.DATA 0x1000
buf:    .f64 1, 2, 3, 4, 5, 6, 7, 8
)";

struct Pair {
  ProgramRun on, off;
};

Pair run_both(const isa::Program& program, const CoreConfig& cfg) {
  RunOptions off;
  off.timing_replay = false;
  Pair p{run_program(program, cfg), run_program(program, cfg, off)};
  EXPECT_TRUE(p.on.ok) << p.on.error;
  EXPECT_TRUE(p.off.ok) << p.off.error;
  EXPECT_EQ(p.off.replay.replayed, 0);
  EXPECT_EQ(p.off.replay.diverged, 0);
  return p;
}

TEST(TimingReplay, GsReplaysAlmostEveryRoundWithTheSameStatistics) {
  const isa::AssemblyResult r = isa::assemble_file(kernel("gs"));
  ASSERT_TRUE(r.ok()) << r.messages();
  const Pair p = run_both(*r.program, testing::config(1, 4));
  expect_same_stats(p.on.stats, p.off.stats, "gs");
  EXPECT_EQ(p.on.stats.rounds, 320);
  // Straight-line rounds from the same relative state: all but the first few are replayed.
  EXPECT_GE(p.on.replay.replayed, 310);
  EXPECT_EQ(p.on.replay.diverged, 0);
  EXPECT_EQ(p.on.stats.cycles, p.off.stats.cycles);
}

// A core's share of a launch on many cores may be one round: the round's record must outlive
// the packet, so that the next packets' rounds replay, with exactly the statistics of rounds
// dispatched for real.
TEST(TimingReplay, OneRoundPacketsReplayFromThePreviousPacket) {
  const isa::AssemblyResult r = isa::assemble_file(kernel("gs"));
  ASSERT_TRUE(r.ok()) << r.messages();
  const CoreConfig cfg = testing::config(4, 4);
  std::string error;
  auto loaded = LoadedProgram::load(*r.program, cfg, &error);
  ASSERT_NE(loaded, nullptr) << error;
  LocalMemory mem_on(cfg.local_mem_base, cfg.local_mem_size), mem_off(cfg.local_mem_base, cfg.local_mem_size);
  ASSERT_TRUE(load_data(*r.program, mem_on, &error)) << error;
  ASSERT_TRUE(load_data(*r.program, mem_off, &error)) << error;
  PacketEngine on("core0", cfg, *loaded, mem_on, nullptr, RunMode::Timing);
  PacketEngine off("core0", cfg, *loaded, mem_off, nullptr, RunMode::Timing);
  off.set_timing_replay(false);
  Packet p;
  p.start = r.program->start;
  std::copy(r.program->inherited.begin(), r.program->inherited.end(), p.inherited);
  // One round each (a full one, then partial ones), the same threads again and again.
  for (std::int64_t threads : {16, 16, 16, 10, 10, 10}) {
    p.threads = threads;
    CoreStats a, b;
    ASSERT_TRUE(on.run(p, a, &error)) << error;
    ASSERT_TRUE(off.run(p, b, &error)) << error;
    expect_same_stats(a, b, std::to_string(threads) + " threads");
    EXPECT_EQ(a.cycles, b.cycles);
  }
  // Every packet after the first replays its round (a narrower round of a straight-line kernel
  // makes the same calls: the lanes work side by side).
  EXPECT_EQ(on.replay_counts().replayed, 5);
  EXPECT_EQ(on.replay_counts().diverged, 0);
  EXPECT_EQ(off.replay_counts().replayed, 0);
  // A packet starts from the state reset() leaves, always the same: only the first packet's
  // round computes a fingerprint; the others find the record it was recorded in.
  EXPECT_EQ(on.replay_counts().fingerprints, 1);
}

TEST(TimingReplay, KernelsAtEveryFastShapeGiveTheSameStatistics) {
  std::int64_t replayed = 0;
  for (const char* k : kKernels) {
    const isa::AssemblyResult r = isa::assemble_file(kernel(k));
    ASSERT_TRUE(r.ok()) << r.messages();
    for (int lanes : {1, 2})
      for (int T : {1, 2, 4, 8}) {
        const Pair p = run_both(*r.program, testing::config(lanes, T));
        expect_same_stats(p.on.stats, p.off.stats, std::string(k) + " L=" + std::to_string(lanes) + " T=" + std::to_string(T));
        replayed += p.on.replay.replayed;
      }
  }
  EXPECT_GT(replayed, 0);
}

TEST(TimingReplay, RoundsWithDifferentLoopCountsFallBackExactly) {
  const isa::Program program = testing::assemble_or_fail(kRoundDependentLoop);
  for (int T : {1, 2, 4, 8}) {
    const Pair p = run_both(program, testing::config(1, T));
    const std::string what = "T=" + std::to_string(T);
    expect_same_stats(p.on.stats, p.off.stats, what);
    // The functional results do not depend on replay either.
    EXPECT_EQ(p.on.read_f64(0x1000, 96), p.off.read_f64(0x1000, 96)) << what;
    if (T == 4) {
      EXPECT_GT(p.on.replay.replayed, 0) << what;  // rounds of the same loop count repeat
      EXPECT_GT(p.on.replay.diverged, 0) << what;  // and rounds of another count diverge
    }
  }
}

TEST(TimingReplay, LoadsWaitingForLateStoresReplayOnlyTheSameWaits) {
  const isa::Program program = testing::assemble_or_fail(kLoadAfterLateStore);
  auto config = [](int T) {
    CoreConfig cfg = testing::config(1, T);
    cfg.fpu_div_latency = 30;
    cfg.rob_size = 32;
    cfg.output_buffers = 8;
    return cfg;
  };
  for (int T : {1, 2, 4, 8}) {
    const Pair p = run_both(program, config(T));
    expect_same_stats(p.on.stats, p.off.stats, "T=" + std::to_string(T));
  }
  const Pair p = run_both(program, config(4));
  EXPECT_GT(p.on.replay.replayed, 0);
  EXPECT_GT(p.on.replay.diverged, 0);
}

TEST(TimingReplay, ControlFlowProgramsGiveTheSameStatistics) {
  for (const char* name : {"platform_3_1_if_else", "platform_3_2_divergent_loop", "platform_3_3_break_continue",
                           "platform_3_4_called_block_break", "platform_3_5_tail_expand_loop",
                           "par_isa_10_2_counter_loop_break"}) {
    isa::Program program = testing::assemble_or_fail(testing::read_program(std::string(name) + ".par"), name);
    program.threads = 64;  // several rounds
    for (int T : {1, 4}) {
      const Pair p = run_both(program, testing::config(1, T));
      expect_same_stats(p.on.stats, p.off.stats, std::string(name) + " T=" + std::to_string(T));
    }
  }
}

TEST(TimingReplay, AStallListenerTurnsReplayOff) {
  struct Count : StallListener {
    std::int64_t cycles = 0;
    void stall(StallCause, Cycle from, Cycle to) override { cycles += to - from; }
  } listener;
  const isa::AssemblyResult r = isa::assemble_file(kernel("gs"));
  ASSERT_TRUE(r.ok()) << r.messages();
  RunOptions opt;
  opt.stall_listener = &listener;
  const ProgramRun traced = run_program(*r.program, testing::config(1, 4), opt);
  ASSERT_TRUE(traced.ok) << traced.error;
  EXPECT_EQ(traced.replay.replayed, 0);
  EXPECT_EQ(listener.cycles, traced.stats.stall_total());
  const ProgramRun plain = run_program(*r.program, testing::config(1, 4));
  expect_same_stats(plain.stats, traced.stats, "gs traced");
}

// A global memory whose latency depends on the address, and that samples the engine's running
// statistics every few cycles (as the platform's statistics sampling does).
class SamplingPort : public GlobalMemoryPort {
 public:
  PacketEngine* engine = nullptr;
  const CoreStats* running = nullptr;
  std::vector<std::int64_t> samples;
  bool transact(bool, std::uint64_t addr, std::uint8_t* data, unsigned len, const std::uint8_t*, Cycle cycle,
                Cycle& done, std::string&) override {
    for (unsigned i = 0; i < len; ++i) data[i] = static_cast<std::uint8_t>(addr + i);
    done = cycle + 20 + static_cast<Cycle>((addr >> 3) % 7);
    return true;
  }
  Cycle reached(Cycle cycle) override {
    const CoreStats s = engine->progress(*running, cycle);
    samples.insert(samples.end(), {cycle, s.stall_total(), s.rob_occupancy_sum, s.rob_max_occupancy,
                                   s.total_thread_instructions()});
    return cycle + 3;
  }
};

struct Sampled {
  CoreStats stats;
  std::vector<std::int64_t> samples;
  TimingModel::ReplayCounts replay;
};

Sampled run_sampled(const isa::Program& program, const CoreConfig& cfg, bool replay, int packets,
                    ExecListener* listener = nullptr) {
  std::string error;
  auto loaded = LoadedProgram::load(program, cfg, &error);
  EXPECT_NE(loaded, nullptr) << error;
  LocalMemory mem(cfg.local_mem_base, cfg.local_mem_size);
  EXPECT_TRUE(load_data(program, mem, &error)) << error;
  SamplingPort port;
  PacketEngine engine("core0", cfg, *loaded, mem, &port, RunMode::Timing);
  engine.set_timing_replay(replay);
  engine.set_exec_listener(listener);
  Sampled out;
  port.engine = &engine;
  port.running = &out.stats;
  for (int i = 0; i < packets; ++i) {
    Packet packet;
    packet.start = program.start;
    packet.threads = program.threads - 8 * i;  // later packets are shorter
    for (int k = 1; k < 16; ++k) packet.inherited[k] = program.inherited[static_cast<std::size_t>(k)];
    EXPECT_TRUE(engine.run(packet, out.stats, &error)) << error;
  }
  out.samples = port.samples;
  out.replay = engine.replay_counts();
  return out;
}

TEST(TimingReplay, StatisticsSampledMidRoundAndOverPacketsAreTheSame) {
  const isa::AssemblyResult r = isa::assemble_file(kernel("gs"));
  ASSERT_TRUE(r.ok()) << r.messages();
  const CoreConfig cfg = testing::config(1, 4);
  const Sampled on = run_sampled(*r.program, cfg, true, 3);
  const Sampled off = run_sampled(*r.program, cfg, false, 3);
  expect_same_stats(on.stats, off.stats, "gs, three packets");
  EXPECT_EQ(on.samples, off.samples);
  EXPECT_GT(on.samples.size(), 1000u);
  EXPECT_GT(on.replay.replayed, 900);
}

// Rounds alternating between one that uses the FPU once (too few instructions to rewrite its
// rings) and one that does not, then only the latter: a replayed round's end state is written
// lazily and skipped where the next replayed round's rewrites all of it. The state left must be
// exactly that of real dispatch, and so must every schedule and statistic.
TEST(TimingReplay, DeferredEndStatesLeaveTheStateOfRealDispatch) {
  CoreConfig cfg = testing::config(1, 4);
  cfg.fpu_latency = 12;
  std::string error;
  const auto lp = LoadedProgram::load(
      testing::assemble_or_fail(testing::packet(4) + "main: mul.d r1 = r2, r3\n add r4 = r4, 1 #\n"), cfg, &error);
  ASSERT_NE(lp, nullptr) << error;
  struct Outcome {
    std::vector<Cycle> schedules, state;
    std::vector<std::int64_t> stats;
    TimingModel::ReplayCounts counts;
  };
  auto run = [&](bool replay) {
    TimingModel m(cfg);
    m.reset();
    m.set_replay(replay);
    Outcome r;
    Cycle fetch = 0;
    for (int round = 0; round < 48; ++round) {
      m.start_round();
      const bool fpu = round % 2 == 0 && round < 40;
      for (int i = 0; i < (fpu ? 9 : 10); ++i) {
        const OpSchedule s = m.dispatch_single(lp->timing(fpu && i == 8 ? 0 : 1), fetch, nullptr, nullptr);
        r.schedules.insert(r.schedules.end(), {s.dispatch, s.issue, s.commit});
        fetch = s.dispatch + 1;
      }
    }
    for (int c = 0; c < kStallCauses; ++c) r.stats.push_back(m.stall_cycles(static_cast<StallCause>(c)));
    r.stats.insert(r.stats.end(), {m.rob_occupancy_sum(), m.rob_max_occupancy(), m.last_commit()});
    m.start_round();  // the last round ends
    r.state = m.shared_state();
    r.counts = m.replay_counts();
    return r;
  };
  const Outcome on = run(true), off = run(false);
  EXPECT_EQ(on.schedules, off.schedules);
  EXPECT_EQ(on.stats, off.stats);
  EXPECT_EQ(on.state, off.state);
  EXPECT_GT(on.counts.replayed, 36);
  EXPECT_EQ(off.counts.replayed, 0);
}

// The fetch loop's straight runs (DecodedOp::straight) tell the port the frontend's position
// after each instruction, as the general loop (taken for every instruction while an execution
// listener is attached) does.
TEST(TimingReplay, StraightRunsAreSampledAsTheGeneralLoop) {
  struct NoListener : ExecListener {
    void executed(const ExecStep&) override {}
  } listener;
  for (const char* name : {"gs", "hpf"}) {
    const isa::AssemblyResult r = isa::assemble_file(kernel(name));
    ASSERT_TRUE(r.ok()) << r.messages();
    const CoreConfig cfg = testing::config(1, 4);
    const Sampled straight = run_sampled(*r.program, cfg, true, 2);
    const Sampled general = run_sampled(*r.program, cfg, true, 2, &listener);
    expect_same_stats(straight.stats, general.stats, name);
    EXPECT_EQ(straight.samples, general.samples) << name;
    EXPECT_GT(straight.samples.size(), 1000u) << name;
  }
}

TEST(TimingReplay, RoundsWithGlobalAccessesAreNotReplayed) {
  // The data of the first loads lies outside the local memory (the port's latency varies with
  // the address); rounds that touch it run for real, the others may replay.
  const isa::AssemblyResult r = isa::assemble_file(kernel("gs"));
  ASSERT_TRUE(r.ok()) << r.messages();
  CoreConfig cfg = testing::config(1, 4);
  cfg.local_mem_base = 0x10000 + 8 * 32 * 20;  // the first rows of gs_r are global
  cfg.local_mem_size = 1 << 20;
  isa::Program program = *r.program;
  program.data.clear();  // the port supplies the global data; local data stays zero
  const Sampled on = run_sampled(program, cfg, true, 1);
  const Sampled off = run_sampled(program, cfg, false, 1);
  expect_same_stats(on.stats, off.stats, "gs, global rows");
  EXPECT_GT(on.stats.global_accesses, 0);
  EXPECT_EQ(on.samples, off.samples);
}

}  // namespace
}  // namespace par::core
