// Golden micro-timings of thread contexts (modules/par_core/README.md "Thread contexts",
// docs/core-timing.md §11): exact execution times, stall cycles and per-context idle
// breakdowns with C = 2, 3 and 4, each derived by hand below. L = 1 and the default options
// unless stated; rounds are given to contexts 0, 1, ... at the start and then to whichever
// context ends its round first.
#include <gtest/gtest.h>

#include "core_test_support.hpp"

namespace par::core {
namespace {

using testing::packet;
using testing::run_source;
using testing::kMulAdd;
using testing::stall;

std::int64_t idle(const CoreStats& s, int context, isa::Unit u, IdleCause c) {
  return s.contexts[static_cast<std::size_t>(context)].idle[static_cast<std::size_t>(u)][static_cast<std::size_t>(c)];
}

CoreStats run(const std::string& body, int T, int N, CoreConfig cfg, const std::string& header = "") {
  cfg.threads_per_lane = T;
  const ProgramRun r = run_source(packet(N, header) + body, cfg);
  EXPECT_TRUE(r.ok) << r.error;
  return r.stats;
}

CoreConfig contexts(int C) {
  CoreConfig cfg;
  cfg.contexts = C;
  return cfg;
}

TEST(ContextTiming, TwoContextsHideTheFpuLatencyOfADependentChain) {
  // T = 1, N = 2: two rounds of mul.d -> add.d (FPU latency 4).
  // One context: mul0 0 (result 4); add0 fetched 1, issues 4, commits 8; mul1 fetched 2 issues 5
  // (add0 holds the FPU in 4), result 9; add1 waits for an FPU queue entry in 3 and 4 (mul1 and
  // add0 hold both until they issue), dispatched 5, issues 9, commits 13: 14 cycles.
  const CoreStats one = run(kMulAdd, 1, 2, CoreConfig{});
  EXPECT_EQ(one.cycles, 14);
  EXPECT_EQ(stall(one, StallCause::QueueFullFpu), 2);
  // Two contexts (context 0: round 0, context 1: round 1):
  //   slot 0: ctx0 mul0 issues 0, result 4, commits 4
  //   slot 1: ctx1 mul1 issues 1, result 5, commits 5
  //   slot 2: ctx0 add0 (dispatch rule: queue room suffices) issues 4, result 8, commits 8
  //   slot 3: ctx1 add1 issues 5 (FPU free after add0 in 4; r1 at 5), result 9, commits 9
  // Last commit 9: 10 cycles, no stall.
  const CoreStats two = run(kMulAdd, 1, 2, contexts(2));
  EXPECT_EQ(two.cycles, 10);
  EXPECT_EQ(two.stall_total(), 0);
  ASSERT_EQ(two.contexts.size(), 2u);
  EXPECT_EQ(two.contexts[0].slots, 2);
  EXPECT_EQ(two.contexts[1].slots, 2);
  // The FPU is busy in 0, 1, 4, 5 and idle in 2, 3, 6..9. Context 0's next instruction is mul0
  // in [0, 1) and add0 in [1, 3) (idle cycle 2: add0 is dispatched, not waiting: other); it has
  // no round left from 3 (idle 3, 6, 7, 8, 9: finished). Context 1: mul1 in [0, 2), add1 in
  // [2, 4) (idle 2, 3: other), finished from 4 (idle 6..9).
  EXPECT_EQ(idle(two, 0, isa::Unit::Fpu, IdleCause::Other), 1);
  EXPECT_EQ(idle(two, 0, isa::Unit::Fpu, IdleCause::Finished), 5);
  EXPECT_EQ(idle(two, 1, isa::Unit::Fpu, IdleCause::Other), 2);
  EXPECT_EQ(idle(two, 1, isa::Unit::Fpu, IdleCause::Finished), 4);
  // The ALU (never used) is idle in all 10 cycles: context 0's next instruction is an FPU one in
  // [0, 3), then it is finished.
  EXPECT_EQ(idle(two, 0, isa::Unit::Alu, IdleCause::OtherUnit), 3);
  EXPECT_EQ(idle(two, 0, isa::Unit::Alu, IdleCause::Finished), 7);
  EXPECT_EQ(idle(two, 1, isa::Unit::Alu, IdleCause::OtherUnit), 4);
}

TEST(ContextTiming, RotatingPriorityGivesEveryContextItsTurn) {
  // T = 4, N = 12, C = 3: each context runs one round of three independent adds; each add holds
  // the ALU for 4 cycles and the ALU queue has 2 entries (freed at issue), so after the first
  // three adds every context waits for a queue entry, and all three get one in the same cycle.
  //   slot 0: c0 a1 issues 0;   slot 1: c1 a1 issues 4;   slot 2: c2 a1 issues 8
  //   3, 4: no queue entry (the 2nd most recent ALU issue is 4: free from 5)
  //   slot 5: c0, c1, c2 all ready; c2 went last, so c0: a2 issues 12
  //   6..8 idle; slot 9: all ready, c0 went last: c1 (not c0 again) a2 issues 16
  //   10..12 idle; slot 13: c2 a2 issues 20; 14..16; slot 17: c0 a3 issues 24
  //   18..20; slot 21: c1 a3 issues 28; 22..24; slot 25: c2 a3 issues 32, last result 36
  // 37 cycles, 2 + 5 x 3 = 17 queue-full stall cycles. A fixed priority would have given slot 9
  // to c0 and ended context 0 first; with rotation the contexts end in slots 17, 21, 25.
  const char* body = "main: add r1 = i0, 1\n add r2 = i0, 2\n add r3 = i0, 3 #\n";
  const CoreStats s = run(body, 4, 12, contexts(3));
  EXPECT_EQ(s.cycles, 37);
  EXPECT_EQ(stall(s, StallCause::QueueFullAlu), 17);
  EXPECT_EQ(s.stall_total(), 17);
  // The compare unit is never used: a context's finished cycles there are 37 - (its last slot + 1).
  EXPECT_EQ(idle(s, 0, isa::Unit::Cmp, IdleCause::Finished), 37 - 18);
  EXPECT_EQ(idle(s, 1, isa::Unit::Cmp, IdleCause::Finished), 37 - 22);
  EXPECT_EQ(idle(s, 2, isa::Unit::Cmp, IdleCause::Finished), 37 - 26);
  for (int c = 0; c < 3; ++c) EXPECT_EQ(s.contexts[static_cast<std::size_t>(c)].slots, 3) << c;
}

TEST(ContextTiming, AContextWaitsOnMemoryWhileAnotherIssues) {
  // core.context_ready = operands: a context is selected only once its next instruction's thread-0
  // operands exist. T = 1, N = 2, local memory latency 8: ld8 r1 -> add r2 = r1.
  CoreConfig cfg = contexts(1);
  cfg.context_ready = ContextReady::Operands;
  cfg.dcache_latency = 8;
  const char* body = "main: ld8 r1 = i1[0]\n add r2 = r1, 1 #\n";
  const char* header = ".I1 0x100\n";
  // One context: ld0 0 (result 8); add0 waits for it in 1..7 (memory_wait 7), issues 8, commits
  // 9; ld1 fetched 9, result 17; add1 waits 10..16 (7), issues 17, commits 18: 19 cycles.
  const CoreStats one = run(body, 1, 2, cfg, header);
  EXPECT_EQ(one.cycles, 19);
  EXPECT_EQ(stall(one, StallCause::MemoryWait), 14);
  // Two contexts: ld0 in slot 0 (result 8); while context 0 waits for it, context 1 issues ld1
  // in slot 1 (result 9). Slots 2..7 are empty (context 0's add waits for memory until 8,
  // context 1's until 9): memory_wait 6. add0 issues 8, add1 9, commits 9 and 10: 11 cycles.
  cfg.contexts = 2;
  const CoreStats two = run(body, 1, 2, cfg, header);
  EXPECT_EQ(two.cycles, 11);
  EXPECT_EQ(stall(two, StallCause::MemoryWait), 6);
  EXPECT_EQ(two.stall_total(), 6);
  // ALU busy in 8 and 9, idle in 0..7 and 10. Context 0: ld0 next in [0, 1) (other_unit 1), add0
  // in [1, 9): waits for memory until 8 (memory_wait: 1..7), then finished from 9 (idle 10).
  EXPECT_EQ(idle(two, 0, isa::Unit::Alu, IdleCause::OtherUnit), 1);
  EXPECT_EQ(idle(two, 0, isa::Unit::Alu, IdleCause::MemoryWait), 7);
  EXPECT_EQ(idle(two, 0, isa::Unit::Alu, IdleCause::Finished), 1);
  // Context 1: ld1 next in [0, 2) (other_unit 2), add1 in [2, 10) waiting until 9 (memory_wait
  // 2..7; 8 is busy), finished from 10.
  EXPECT_EQ(idle(two, 1, isa::Unit::Alu, IdleCause::OtherUnit), 2);
  EXPECT_EQ(idle(two, 1, isa::Unit::Alu, IdleCause::MemoryWait), 6);
  EXPECT_EQ(idle(two, 1, isa::Unit::Alu, IdleCause::Finished), 1);
  EXPECT_EQ(idle(two, 1, isa::Unit::Alu, IdleCause::Other), 0);
}

// The XD1000 rules: no forwarding (core.context_ready = complete) and no hazard detection in the
// ALU (core.context_fu_wait = alu): a context's next ALU instruction waits until its previous one
// has completed. T = 2, ALU latency 5, four output buffers; each round is two independent adds.
CoreConfig xd1000_like(int C) {
  CoreConfig cfg = contexts(C);
  cfg.context_ready = ContextReady::Complete;
  cfg.context_fu_wait = "alu";
  cfg.alu_latency = 5;
  cfg.output_buffers = 4;
  return cfg;
}
const char* kTwoAdds = "main: add r1 = i0, 1\n add r2 = i0, 2 #\n";

TEST(ContextTiming, ContextsHideAPipelineWithoutHazardDetection) {
  // One context, N = 4 (two rounds): each add completes 6 cycles after it issues (threads in i
  // and i + 1, results 5 later), and the next waits for it: adds issue in cycles 0, 6, 12, 18;
  // the last completes 24: 25 cycles, 5 + 5 + 5 fu_wait stall cycles.
  const CoreStats one = run(kTwoAdds, 2, 4, xd1000_like(1));
  EXPECT_EQ(one.cycles, 25);
  EXPECT_EQ(stall(one, StallCause::FuWait), 15);
  // Two contexts:
  //   slot 0: c0 a1 issues 0 (threads 0, 1), completes 6;  slot 1: c1 a1 issues 2, completes 8
  //   2..5: c0 waits for its a1 until 6, c1 until 8 (fu_wait 4)
  //   slot 6: c0 a2 issues 6, completes 12;  7: c1 waits (fu_wait 1);  slot 8: c1 a2 issues 8,
  //   completes 14: 15 cycles.
  const CoreStats two = run(kTwoAdds, 2, 4, xd1000_like(2));
  EXPECT_EQ(two.cycles, 15);
  EXPECT_EQ(stall(two, StallCause::FuWait), 5);
  EXPECT_EQ(two.stall_total(), 5);
  // ALU busy in 0..3 and 6..9, idle in 4, 5 and 10..14. Context 0: a2 is its next instruction in
  // [1, 7) waiting for a1 until 6 (idle 4, 5: fu_wait), finished from 7 (10..14). Context 1: a2
  // next in [2, 9) waiting until 8 (idle 4, 5), finished from 9.
  for (int c = 0; c < 2; ++c) {
    EXPECT_EQ(idle(two, c, isa::Unit::Alu, IdleCause::FuWait), 2) << c;
    EXPECT_EQ(idle(two, c, isa::Unit::Alu, IdleCause::Finished), 5) << c;
    EXPECT_EQ(idle(two, c, isa::Unit::Alu, IdleCause::Other), 0) << c;
  }
}

TEST(ContextTiming, FourContextsKeepThePipelineBusy) {
  // C = 4, N = 8 (one round each), as above:
  //   slots 0..3: c0..c3 a1 issue at 0, 2, 4, 6 (the ALU takes one instruction per T = 2 cycles),
  //               complete 6, 8, 10, 12
  //   4, 5: no context ready (c0 waits for its a1 until 6, also for a queue entry until 5)
  //   slot 6: c0 a2 issues 8 (ALU free after c3's a1), completes 14
  //   7: wait; slot 8: c1 a2 issues 10; 9: wait; slot 10: c2 a2 issues 12; 11: wait;
  //   slot 12: c3 a2 issues 14, completes 20: 21 cycles, fu_wait 2 + 1 + 1 + 1.
  const CoreStats s = run(kTwoAdds, 2, 8, xd1000_like(4));
  EXPECT_EQ(s.cycles, 21);
  EXPECT_EQ(stall(s, StallCause::FuWait), 5);
  EXPECT_EQ(s.stall_total(), 5);
  // The ALU accepts a thread in every cycle from 0 to 15.
  EXPECT_EQ(s.instructions[static_cast<std::size_t>(isa::Unit::Alu)] * 2, 16);
  for (int c = 0; c < 4; ++c) {
    std::int64_t idle_sum = 0;
    for (std::int64_t v : s.contexts[static_cast<std::size_t>(c)].idle[0]) idle_sum += v;
    EXPECT_EQ(idle_sum, 21 - 16) << c;
    EXPECT_EQ(idle(s, c, isa::Unit::Alu, IdleCause::FuWait), 0) << c;  // never while the ALU idles
  }
}

}  // namespace
}  // namespace par::core
