// Control flow (docs/isa.md §7, docs/simt-control-flow.md §3): per-thread results of predicated
// if/else, nested and tail expands, counter and conditional loops, brk / brk 1 / brk 2, indirect
// expands, and packets whose thread count is not a multiple of L x T — for several lane/thread
// shapes and in functional mode.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "core_test_support.hpp"

namespace par::core {
namespace {

using testing::read_program;
using testing::Shape;

const Shape kShapes[] = {{1, 8, RunMode::Timing}, {1, 1, RunMode::Timing}, {2, 2, RunMode::Timing},
                         {4, 2, RunMode::Timing}, {3, 3, RunMode::Timing}, {1, 8, RunMode::Functional}};

std::string describe(const Shape& s) {
  return "L=" + std::to_string(s.lanes) + " T=" + std::to_string(s.threads_per_lane) +
         (s.mode == RunMode::Functional ? " functional" : " timing");
}

// Runs `source` in every shape and checks the int64 values at the data label `out_label`.
void expect_results(const std::string& source, const std::string& out_label,
                    const std::vector<std::int64_t>& expected) {
  const isa::Program program = testing::assemble_or_fail(source);
  ASSERT_TRUE(program.data_labels.count(out_label)) << out_label;
  const std::uint64_t out = program.data_labels.at(out_label);
  for (const Shape& s : kShapes) {
    RunOptions opt;
    opt.mode = s.mode;
    opt.functional_width = 5;  // deliberately not a divisor of the thread counts
    const ProgramRun run = run_program(program, testing::config(s.lanes, s.threads_per_lane), opt);
    ASSERT_TRUE(run.ok) << describe(s) << ": " << run.error;
    const std::vector<std::uint64_t> got = run.read(out, expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i)
      EXPECT_EQ(static_cast<std::int64_t>(got[i]), expected[i]) << describe(s) << " thread " << i;
  }
}

ProgramRun run_one_round(const std::string& source, int T = 8) {
  ProgramRun run = testing::run_source(source, testing::config(1, T));
  EXPECT_TRUE(run.ok) << run.error;
  return run;
}

std::int64_t alu_instructions(const ProgramRun& r) { return r.stats.instructions[static_cast<int>(isa::Unit::Alu)]; }
std::int64_t alu_thread_instructions(const ProgramRun& r) {
  return r.stats.thread_instructions[static_cast<int>(isa::Unit::Alu)];
}

TEST(ControlFlow, IfElseByPredication) {
  expect_results(read_program("platform_3_1_if_else.par"), "out", {0, 2, 4, 6, 104, 105, 106, 107});
}

// mac.d runs on the host's FMA instructions for all slots at once; a predicated one must leave
// the unqualified slots' rd alone (and a thread count that leaves slots empty too).
TEST(ControlFlow, PredicatedFusedMultiplyAddWritesOnlyQualifiedSlots) {
  const std::string src = testing::packet(7, ".I1 1\n.I2 out\n") + R"(
main:   and     r4 = i0, i1        // 1 in odd threads
        eq      p12 = r4, i1       // p1: odd, p2: even
        add     r5 = i0, i1
        cvt.d.l r1 = i0
        cvt.d.l r2 = r5
        mul     r6 = i1, 10
        cvt.d.l r3 = r6
        (p1) mac.d r3 = r1, r2     // odd: 10 + i * (i + 1); even: stays 10
        mac.d   r7 = r1, r1        // every thread: 0 + i * i
        cvt.l.d r3 = r3
        cvt.l.d r7 = r7
        sll     r8 = i0, 4
        st8     i2[r8] = r3
        add     r8 = r8, 8
        st8     i2[r8] = r7   #
.DATA 0x1000
out:    .zero 128
)";
  std::vector<std::int64_t> expected;
  for (std::int64_t i = 0; i < 7; ++i) {
    expected.push_back(i % 2 == 1 ? 10 + i * (i + 1) : 10);
    expected.push_back(i * i);
  }
  expect_results(src, "out", expected);
}

TEST(ControlFlow, EmptyThenSideCostsOneDisqualifiedExpandCycle) {
  std::string src = read_program("platform_3_1_if_else.par");
  const std::string from = ".I1 3";
  src.replace(src.find(from), from.size(), ".I1 7");
  expect_results(src, "out", {0, 2, 4, 6, 8, 10, 12, 14});
  const ProgramRun run = run_one_round(src);
  EXPECT_EQ(run.stats.stalls[static_cast<int>(StallCause::XpDisqualified)], 1);
  EXPECT_EQ(run.stats.control[static_cast<int>(ControlKind::Xp)], 2);
}

TEST(ControlFlow, DivergentConditionalLoop) {
  const std::string src = read_program("platform_3_2_divergent_loop.par");
  expect_results(src, "out", {1, 2, 4, 7, 11, 16, 22, 29});
  // One round of 8 threads: the body (2 ALU) runs 7 times with masks 0xfe..0x80 (28 slots).
  const ProgramRun run = run_one_round(src);
  EXPECT_EQ(alu_instructions(run), 2 + 1 + 2 * 7);
  EXPECT_EQ(alu_thread_instructions(run), 8 * 3 + 2 * 28);
}

TEST(ControlFlow, CounterLoopWithBreak) {
  const std::string src = read_program("par_isa_10_2_counter_loop_break.par");
  expect_results(src, "out", {0, 1, 3, 4, 4, 6});
  // Six threads in one round of 8 slots: the body runs 7 times, the 8th iteration is not fetched.
  const ProgramRun run = run_one_round(src);
  EXPECT_EQ(alu_instructions(run), 3 + 1 + 3 * 7);  // set x3, sll; mov/add/add per iteration
  // Masks per iteration 0x3f, 0x3e, 0x3c, 0x3c, 0x38, 0x20, 0x20: 6+5+4+4+3+1+1 slots.
  EXPECT_EQ(alu_thread_instructions(run), 6 * 4 + 3 * 24);
}

TEST(ControlFlow, BreakContinueAndEarlyExit) {
  expect_results(read_program("platform_3_3_break_continue.par"), "C", {40, 22, -110, -290, 52, -790, 0, 0});
}

TEST(ControlFlow, BreakAndContinueFromACalledBlock) {
  expect_results(read_program("platform_3_4_called_block_break.par"), "out", {303, 303, 303, 606});
}

TEST(ControlFlow, TailExpandInsideALoopBody) {
  expect_results(read_program("platform_3_5_tail_expand_loop.par"), "out", {400, 402, 404, 406});
}

const char* kCounterLoop = R"(.PAR
.ADDRESS main
.THREADS 5
.I1 out
.I2 %COUNT%
.CODE
main:   set   r1 = 7
        loop  i2, body
        sll   r2 = i0, 3
        st8   i1[r2] = r1   #
body:   add   r1 = r1, i0   #
.DATA 0x1000
out:    .zero 40
)";

std::string with_count(const char* src, const std::string& count) {
  std::string s = src;
  s.replace(s.find("%COUNT%"), 7, count);
  return s;
}

TEST(ControlFlow, CounterLoopRunsExactlyNTimes) {
  expect_results(with_count(kCounterLoop, "3"), "out", {7, 10, 13, 16, 19});
}

TEST(ControlFlow, CounterLoopWithZeroOrNegativeCountRunsNone) {
  expect_results(with_count(kCounterLoop, "0"), "out", {7, 7, 7, 7, 7});
  expect_results(with_count(kCounterLoop, "-4"), "out", {7, 7, 7, 7, 7});
  const ProgramRun run = run_one_round(with_count(kCounterLoop, "0"));
  EXPECT_EQ(alu_instructions(run), 2);  // set, sll: the body is never fetched
}

TEST(ControlFlow, NestedExpandsRestoreMasks) {
  // Outer: threads with bit 0 set; inner (inside outer): threads with bit 1 set as well.
  expect_results(R"(.PAR
.ADDRESS main
.THREADS 7
.I1 out
.CODE
main:   and   r1 = i0, 1
        eq    p12 = r1, 1
        (p1) xp odd
        add   r5 = r5, 200
        sll   r2 = i0, 3
        st8   i1[r2] = r5   #
odd:    add   r5 = r5, 10
        and   r3 = i0, 2
        eq    p34 = r3, 2
        (p3) xp both
        add   r5 = r5, 100  #
both:   add   r5 = r5, 1    #
.DATA 0x1000
out:    .zero 56
)",
                 "out", {200, 310, 200, 311, 200, 310, 200});
}

TEST(ControlFlow, IndirectExpandWithAgreeingTargets) {
  expect_results(R"(.PAR
.ADDRESS main
.THREADS 6
.I1 out
.I2 target
.CODE
main:   mov   r4 = i2
        lt    p1 = i0, 3
        (p1) xp r4
        sll   r2 = i0, 3
        st8   i1[r2] = r5   #
target: add   r5 = i0, 50   #
.DATA 0x1000
out:    .zero 48
)",
                 "out", {50, 51, 52, 0, 0, 0});
}

TEST(ControlFlow, BreakOutOfLoopWhenEveryThreadBreaks) {
  // All threads leave in the second iteration: the third is never fetched.
  const char* src = R"(.PAR
.ADDRESS main
.THREADS 4
.I1 out
.I2 10
.CODE
main:   loop  i2, body
        sll   r2 = i0, 3
        st8   i1[r2] = r1   #
body:   add   r1 = r1, 1
        eq    p1 = r1, 2
        (p1) brk 1    #
.DATA 0x1000
out:    .zero 32
)";
  expect_results(src, "out", {2, 2, 2, 2});
  const ProgramRun run = run_one_round(src, 4);
  EXPECT_EQ(alu_instructions(run), 1 + 2);
  EXPECT_EQ(run.stats.control[static_cast<int>(ControlKind::Brk)], 2);
}

TEST(ControlFlow, BrkAtTopLevelEndsTheThreadsForTheRound) {
  expect_results(R"(.PAR
.ADDRESS main
.THREADS 9
.I1 out
.CODE
main:   sll   r2 = i0, 3
        set   r1 = 5
        st8   i1[r2] = r1
        gt    p1 = i0, 4
        (p1) brk
        set   r1 = 9
        st8   i1[r2] = r1   #
.DATA 0x1000
out:    .zero 72
)",
                 "out", {9, 9, 9, 9, 9, 5, 5, 5, 5});
}

TEST(ControlFlow, ThreadCountNotAMultipleOfTheRoundMasksExtraSlots) {
  // 11 threads on L=2, T=4 (8 slots): the second round has 3 valid slots.
  const char* src = R"(.PAR
.ADDRESS main
.THREADS 11
.I1 out
.CODE
main:   sll   r2 = i0, 3
        mul   r1 = i0, i0
        st8   i1[r2] = r1   #
.DATA 0x1000
out:    .zero 96
)";
  ProgramRun run = testing::run_source(src, testing::config(2, 4));
  ASSERT_TRUE(run.ok) << run.error;
  EXPECT_EQ(run.stats.rounds, 2);
  EXPECT_EQ(run.stats.threads, 11);
  EXPECT_EQ(run.stats.thread_instructions[static_cast<int>(isa::Unit::Fpu)], 11);
  EXPECT_EQ(run.stats.instructions[static_cast<int>(isa::Unit::Fpu)], 2);
  const std::vector<std::uint64_t> out = run.read(0x1000, 12);
  for (std::uint64_t i = 0; i < 11; ++i) EXPECT_EQ(out[i], i * i);
  EXPECT_EQ(out[11], 0u);  // the masked-off slot wrote nothing
}

TEST(ControlFlow, FinalRegistersOfAThreadDoNotDependOnShapeOrMode) {
  const isa::Program program = testing::assemble_or_fail(read_program("platform_3_2_divergent_loop.par"));
  std::vector<ThreadRegisters> reference;
  for (const Shape& s : kShapes) {
    RunOptions opt;
    opt.mode = s.mode;
    opt.functional_width = 3;
    opt.capture_first = 2;
    opt.capture_count = 5;
    const ProgramRun run = run_program(program, testing::config(s.lanes, s.threads_per_lane), opt);
    ASSERT_TRUE(run.ok) << run.error;
    ASSERT_EQ(run.registers.size(), 5u) << describe(s);
    std::vector<ThreadRegisters> regs = run.registers;
    std::sort(regs.begin(), regs.end(), [](const auto& a, const auto& b) { return a.thread < b.thread; });
    if (reference.empty()) reference = regs;
    for (std::size_t i = 0; i < regs.size(); ++i) {
      EXPECT_EQ(regs[i].thread, 2 + i);
      EXPECT_EQ(regs[i].r, reference[i].r) << describe(s);
      EXPECT_EQ(regs[i].p, reference[i].p) << describe(s);
    }
  }
  EXPECT_EQ(reference[0].r[1], 4u);  // thread 2: c = 1 + 1 + 2
}

}  // namespace
}  // namespace par::core
