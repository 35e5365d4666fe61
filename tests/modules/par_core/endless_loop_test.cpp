// Endless loops (README "Endless loops"): a loop whose iteration changes no architectural state and
// writes no memory is reported at once (long before core.max_cycles), in timing and functional
// mode and with thread contexts, naming the PC, source line, threads and open stack entries; a
// loop that stores, or that makes progress, is never cut short by the check.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "core_test_support.hpp"

namespace par::core {
namespace {

// A conditional loop on an always-true predicate whose body changes nothing (also used by the
// command-line test tests/platform/cli/exec_trace_hang_test.cpp).
std::string spin_program() {
  std::ifstream f(std::string(PARSYS_SOURCE_DIR) + "/tests/modules/par_core/programs/endless_spin.par");
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}
const std::string kSpin = spin_program();

// A spin on a local-memory flag that nothing writes.
const std::string kFlagSpin = testing::packet(4, ".I2 flag\n") +
                              "main:   ld8   r1 = i2[r0]\n"
                              "        eq    p1 = r1, 0\n"
                              "        (p1) loop body\n"
                              "        add   r2 = r2, 1    #\n"
                              "body:   ld8   r1 = i2[r0]\n"
                              "        eq    p1 = r1, 0    #\n"
                              ".DATA 0x1000\n"
                              "flag:   .zero 8\n";

ProgramRun run(const std::string& src, RunMode mode, CoreConfig cfg = testing::config(1, 8)) {
  RunOptions opt;
  opt.mode = mode;
  opt.functional_width = 16;
  return run_program(testing::assemble_or_fail(src), cfg, opt);
}

TEST(EndlessLoop, AlwaysTruePredicateIsReportedInBothModes) {
  for (RunMode mode : {RunMode::Timing, RunMode::Functional}) {
    const ProgramRun r = run(kSpin, mode);
    ASSERT_FALSE(r.ok);
    const std::string where = mode == RunMode::Timing ? "cycles" : "fetches";
    EXPECT_EQ(r.error.substr(0, r.error.find(" (" + where)),
              "core0: runtime error at pc 4 (test.par:9): endless loop: the state of every thread repeats after 2 "
              "instructions")
        << r.error;
    EXPECT_NE(r.error.find("that write no memory; threads 0-7 of round 0 loop here; open control-stack entries: "
                           "expand returning to pc 3 (test.par:8) with 8 threads; conditional loop on p1 (body at pc 4 "
                           "(test.par:9)) with 8 threads"),
              std::string::npos)
        << r.error;
    // Found within the first watch (far below core.max_cycles), with the work so far counted.
    EXPECT_LT(r.stats.fetched, 200000);
    EXPECT_GT(r.stats.fetched, 10000);
    EXPECT_GT(r.stats.cycles, mode == RunMode::Timing ? 65536 : -1);
  }
}

TEST(EndlessLoop, SpinOnALocalFlagNothingWrites) {
  for (RunMode mode : {RunMode::Timing, RunMode::Functional}) {
    const ProgramRun r = run(kFlagSpin, mode);
    ASSERT_FALSE(r.ok);
    EXPECT_NE(r.error.find("runtime error at pc 4 (test.par:10): endless loop:"), std::string::npos) << r.error;
    EXPECT_NE(r.error.find("threads 0-3 of round 0 loop here"), std::string::npos) << r.error;
  }
}

TEST(EndlessLoop, WithThreadContextsEveryContextMustRepeat) {
  CoreConfig cfg = testing::config(1, 2);
  cfg.contexts = 2;  // 8 threads: rounds of 2 on two contexts, every one of them stuck
  const ProgramRun r = run(kSpin, RunMode::Timing, cfg);
  ASSERT_FALSE(r.ok);
  EXPECT_NE(r.error.find("endless loop:"), std::string::npos) << r.error;
  // The check runs when context 1 (round 1, threads 2-3) is selected; context 0 is stuck as well.
  EXPECT_NE(r.error.find("threads 2-3 of round 1 loop here"), std::string::npos) << r.error;
}

// The same spin with a store in the body: not provably endless, so only the run limit stops it.
TEST(EndlessLoop, ALoopThatStoresIsLeftToTheRunLimit) {
  const std::string src = testing::packet(4, ".I2 flag\n") +
                          "main:   set   r1 = 1\n"
                          "        eq    p1 = r1, 1\n"
                          "        (p1) loop body\n"
                          "        add   r2 = r2, 1    #\n"
                          "body:   st8   i2[r0] = r0\n"
                          "        eq    p1 = r1, 1    #\n"
                          ".DATA 0x1000\n"
                          "flag:   .zero 8\n";
  for (RunMode mode : {RunMode::Timing, RunMode::Functional}) {
    CoreConfig cfg = testing::config(1, 4);
    cfg.max_cycles = 100000;
    const ProgramRun r = run(src, mode, cfg);
    ASSERT_FALSE(r.ok);
    EXPECT_NE(r.error.find("run limit exceeded: more than 100000"), std::string::npos) << r.error;
  }
}

// A long loop whose registers change every iteration runs to its end.
TEST(EndlessLoop, ALongLegitimateLoopRunsToTheEnd) {
  const std::string src = testing::packet(4, ".I1 200000\n.I2 out\n") +
                          "main:   set   r1 = 0\n"
                          "        loop  i1, body\n"
                          "        sll   r3 = i0, 3\n"
                          "        st8   i2[r3] = r1   #\n"
                          "body:   add   r1 = r1, 1    #\n"
                          ".DATA 0x1000\n"
                          "out:    .zero 32\n";
  for (RunMode mode : {RunMode::Timing, RunMode::Functional}) {
    const ProgramRun r = run(src, mode, testing::config(1, 4));
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(r.read(0x1000, 4), (std::vector<std::uint64_t>{200000, 200000, 200000, 200000}));
  }
}

// A nested loop whose inner counters come back to the same values each outer iteration, while the
// outer predicate stays true: found although the first return to the snapshot PC differs.
TEST(EndlessLoop, NestedLoopRepeatingAfterSeveralReturnsIsFound) {
  const std::string src = testing::packet(2, ".I1 5\n") +
                          "main:   set   r1 = 1\n"
                          "        eq    p1 = r1, 1\n"
                          "        (p1) loop outer\n"
                          "        add   r2 = r2, 1    #\n"
                          "outer:  set   r4 = 0\n"
                          "        loop  i1, inner\n"
                          "        eq    p1 = r1, 1    #\n"
                          "inner:  add   r4 = r4, 1    #\n";
  for (RunMode mode : {RunMode::Timing, RunMode::Functional}) {
    const ProgramRun r = run(src, mode, testing::config(1, 2));
    ASSERT_FALSE(r.ok);
    EXPECT_NE(r.error.find("endless loop:"), std::string::npos) << r.error;
  }
}

}  // namespace
}  // namespace par::core
