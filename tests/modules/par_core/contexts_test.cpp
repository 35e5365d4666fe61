// Thread contexts (core.contexts, modules/par_core/README.md "Thread contexts"): the selection
// loop with one context schedules exactly like the plain core, several contexts with a single
// round schedule like one, results never depend on C, and the per-context idle breakdown
// partitions every FU's idle cycles.
#include <gtest/gtest.h>

#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "support/temp_dir.hpp"
#include "context_selector.hpp"
#include "core_test_support.hpp"

namespace par::core {
namespace {

using testing::kernel;
using testing::kKernels;

std::string isa_program(const std::string& name) {
  return std::string(PARSYS_SOURCE_DIR) + "/tests/ip/par_isa/programs/" + name + ".par";
}

isa::Program load(const std::string& path) {
  const isa::AssemblyResult r = isa::assemble_file(path);
  EXPECT_TRUE(r.ok()) << r.messages();
  return r.ok() ? *r.program : isa::Program{};
}

// The control-flow programs of the ISA tests (predicate waits at loop ends, expands, breaks).
const char* kControlFlow[] = {"platform_3_1_if_else", "platform_3_2_divergent_loop", "platform_3_3_break_continue",
                              "platform_3_4_called_block_break", "platform_3_5_tail_expand_loop",
                              "par_isa_10_2_counter_loop_break"};

// Rounds that end on a conditional loop's end (the frontend's last wait is for that loop's
// predicate) and on a disqualified expand.
const char* kLoopAtTheEnd = R"(.PAR
.ADDRESS main
.THREADS 12
.I1 out
.CODE
main:   and     r2 = i0, 3
        eq      p2 = r2, 1
        (p2) xp side
        mul.d   r3 = i1, i1
        lt      p1 = r1, r2
        (p1) loop body #
body:   add     r1 = r1, 1
        sll     r4 = i0, 3
        st8     i1[r4] = r1
        lt      p1 = r1, r2 #
side:   eq      p3 = r2, 7
        (p3) xp main #
.DATA 0x1000
out:    .zero 96
)";

std::vector<std::string> programs() {
  static std::string inline_program;
  if (inline_program.empty()) {
    inline_program = par::testing::temp_dir("contexts") + "/contexts_loop_at_the_end.par";
    std::ofstream(inline_program) << kLoopAtTheEnd;
  }
  std::vector<std::string> v;
  for (const char* k : kKernels) v.push_back(kernel(k));
  for (const char* p : kControlFlow) v.push_back(isa_program(p));
  v.push_back(inline_program);
  return v;
}

const std::vector<std::pair<const char*, std::function<void(CoreConfig&)>>>& rule_variants() {
  static const std::vector<std::pair<const char*, std::function<void(CoreConfig&)>>> v = {
      {"defaults", [](CoreConfig&) {}},
      {"queue_release=commit", [](CoreConfig& c) { c.queue_release = QueueRelease::Commit; }},
      {"commit_order=per_fu", [](CoreConfig& c) { c.commit_order = CommitOrder::PerFu; }},
      {"store_issue=all_operands", [](CoreConfig& c) { c.store_issue = StoreIssue::AllOperands; }},
      {"output_buffer_release=complete", [](CoreConfig& c) { c.output_buffer_release = OutputBufferRelease::Complete; }},
      {"rob_allocation=issue", [](CoreConfig& c) { c.rob_allocation = RobAllocation::Issue; }},
      {"commit_per_fu=2,frontend_latency=1", [](CoreConfig& c) { c.commit_per_fu = 2; c.frontend_latency = 1; }},
  };
  return v;
}

TEST(Contexts, SelectionLoopWithOneContextSchedulesLikeThePlainCore) {
  for (const std::string& path : programs()) {
    const isa::Program program = load(path);
    for (int T : {1, 2, 4, 8}) {
      for (const auto& [name, apply] : rule_variants()) {
        // Every rule variant at T = 1 and 4, the defaults at every T (the suite runs under ASan).
        if ((T == 2 || T == 8) && std::string(name) != "defaults") continue;
        CoreConfig cfg = testing::config(1, T);
        apply(cfg);
        const ProgramRun plain = run_program(program, cfg);
        RunOptions opt;
        opt.always_select_contexts = true;
        const ProgramRun selected = run_program(program, cfg, opt);
        ASSERT_TRUE(plain.ok && selected.ok) << path << ": " << plain.error << selected.error;
        const std::string what = path + " T=" + std::to_string(T) + " " + name;
        testing::expect_same_stats(plain.stats, selected.stats, what);
        EXPECT_TRUE(plain.stats.contexts.empty()) << what;
        ASSERT_EQ(selected.stats.contexts.size(), 1u) << what;
        EXPECT_EQ(selected.stats.contexts[0].slots, plain.stats.fetched) << what;
      }
    }
  }
}

TEST(Contexts, SeveralContextsWithOneRoundScheduleLikeOne) {
  // Only context 0 gets a round: the resources shared by contexts (ROB pool, output buffers and
  // queue entries freed out of order, commit ports) must then give the single stream's answers.
  for (const std::string& path : programs()) {
    isa::Program program = load(path);
    for (int T : {1, 4}) {
      for (const auto& [name, apply] : rule_variants()) {
        CoreConfig cfg = testing::config(1, T);
        apply(cfg);
        program.threads = T;
        const ProgramRun one = run_program(program, cfg);
        cfg.contexts = 4;
        const ProgramRun four = run_program(program, cfg);
        ASSERT_TRUE(one.ok && four.ok) << path << ": " << one.error << four.error;
        const std::string what = path + " T=" + std::to_string(T) + " " + name;
        testing::expect_same_stats(one.stats, four.stats, what);
        ASSERT_EQ(four.stats.contexts.size(), 4u);
        EXPECT_EQ(four.stats.contexts[0].rounds, 1) << what;
        EXPECT_EQ(four.stats.contexts[3].rounds, 0) << what;
      }
    }
  }
}

// Every thread's results (memory and final registers) are the same for any number of contexts
// and in functional mode, which ignores core.contexts.
TEST(Contexts, ResultsDoNotDependOnTheNumberOfContexts) {
  for (const std::string& path : programs()) {
    const isa::Program program = load(path);
    const auto [lo, hi] = program.data_extent();
    RunOptions opt;
    opt.capture_count = 64;
    RunOptions functional = opt;
    functional.mode = RunMode::Functional;
    const ProgramRun reference = run_program(program, testing::config(1, 1), functional);
    ASSERT_TRUE(reference.ok) << reference.error;
    const std::vector<std::uint64_t> mem = reference.read(lo, (hi - lo) / 8);
    // Contexts x lanes x threads per lane.
    const int shapes[][3] = {{1, 1, 4}, {2, 1, 1}, {3, 2, 2}, {4, 1, 4}, {2, 3, 1}};
    for (const auto& [C, L, T] : shapes) {
      CoreConfig cfg = testing::config(L, T);
      cfg.contexts = C;
      for (ContextReady rule : {ContextReady::Dispatch, ContextReady::Complete}) {
        cfg.context_ready = rule;
        const std::string what = path + " C=" + std::to_string(C) + " L=" + std::to_string(L) + " T=" +
                                 std::to_string(T) + " ready=" + to_string(rule);
        const ProgramRun r = run_program(program, cfg, opt);
        ASSERT_TRUE(r.ok) << what << ": " << r.error;
        EXPECT_EQ(r.read(lo, (hi - lo) / 8), mem) << what;
        ASSERT_EQ(r.registers.size(), reference.registers.size()) << what;
        for (std::size_t i = 0; i < r.registers.size(); ++i) {
          EXPECT_EQ(r.registers[i].thread, reference.registers[i].thread) << what;
          EXPECT_EQ(r.registers[i].r, reference.registers[i].r) << what << " thread " << r.registers[i].thread;
          EXPECT_EQ(r.registers[i].p, reference.registers[i].p) << what << " thread " << r.registers[i].thread;
        }
      }
      const ProgramRun f = run_program(program, cfg, functional);
      ASSERT_TRUE(f.ok) << f.error;
      EXPECT_EQ(f.read(lo, (hi - lo) / 8), mem) << path << " functional C=" << C;
      EXPECT_EQ(f.stats.fetched, reference.stats.fetched) << path << " functional C=" << C;
    }
  }
}

TEST(Contexts, IdleBreakdownPartitionsEveryFusIdleCycles) {
  // For every context and FU: memory_wait + fu_wait + other_unit + other + finished = the
  // cycles in which the FU accepted no thread = C - busy cycles (T per instruction).
  for (const char* k : kKernels) {
    for (int C : {1, 3, 8}) {
      CoreConfig cfg = testing::config(1, 4);
      cfg.contexts = C;
      cfg.context_ready = ContextReady::Operands;
      cfg.context_fu_wait = "fpu";
      cfg.fpu_latency = 12;
      const ProgramRun r = run_file(kernel(k), cfg);
      ASSERT_TRUE(r.ok) << r.error;
      ASSERT_EQ(r.stats.contexts.size(), static_cast<std::size_t>(C));
      std::int64_t slots = 0, rounds = 0;
      for (const ContextCounters& c : r.stats.contexts) {
        slots += c.slots;
        rounds += c.rounds;
        for (int u = 0; u < isa::kBackendUnits; ++u) {
          std::int64_t idle = 0;
          for (std::int64_t v : c.idle[static_cast<std::size_t>(u)]) idle += v;
          EXPECT_EQ(idle, r.stats.cycles - r.stats.instructions[static_cast<std::size_t>(u)] * 4)
              << k << " C=" << C << " unit " << u;
        }
      }
      EXPECT_EQ(slots, r.stats.fetched) << k << " C=" << C;
      EXPECT_EQ(rounds, r.stats.rounds) << k << " C=" << C;
    }
  }
}

TEST(Contexts, LatencyHidingGrowsWithContexts) {
  // SVA's FPU chain with a 53-cycle FPU whose pipeline has no hazard detection (the XD1000
  // rules): each context issues one FPU instruction per 56 cycles (T = 4 threads + 52), so
  // cycles fall about in proportion to C until the FPU is busy.
  CoreConfig cfg = testing::config(1, 4);
  cfg.fpu_latency = 53;
  cfg.output_buffers = 64;
  cfg.rob_size = 256;
  cfg.context_ready = ContextReady::Complete;
  cfg.context_fu_wait = "fpu";
  std::int64_t previous = 0;
  for (int C : {1, 2, 4, 8, 16}) {
    cfg.contexts = C;
    const ProgramRun r = run_file(kernel("sva"), cfg);
    ASSERT_TRUE(r.ok) << r.error;
    if (C > 1 && C <= 8) {
      EXPECT_LT(r.stats.cycles * 2, previous * 21 / 20) << "C=" << C;  // within 5% of half
    }
    previous = r.stats.cycles;
  }
  EXPECT_GT(cfg.contexts, 0);
  cfg.contexts = 16;
  const ProgramRun full = run_file(kernel("sva"), cfg);
  EXPECT_GT(full.stats.utilization(isa::Unit::Fpu), 0.95);
}

// The selector on its own: rotating priority, ties in priority order, lower bounds refined.
TEST(ContextSelector, RotatesPriorityAndBreaksTiesInPriorityOrder) {
  ContextSelector sel(4);
  std::vector<std::uint8_t> active = {1, 1, 1, 1};
  std::vector<std::int64_t> ready = {5, 3, 3, 3};
  std::vector<int> asked;
  auto exact = [&](int c) {
    asked.push_back(c);
    return ready[static_cast<std::size_t>(c)];
  };
  std::int64_t at = 0;
  // Context 0 has the highest priority, but 1, 2, 3 are ready earlier; 1 comes first among them.
  EXPECT_EQ(sel.select(0, active, exact, at), 1);
  EXPECT_EQ(at, 3);
  sel.selected(1);
  ready[1] = 3;
  // Now 2 has the highest priority, 1 the lowest: 2 and 3 and 1 tie at 3.
  EXPECT_EQ(sel.select(3, active, exact, at), 2);
  sel.selected(2);
  EXPECT_EQ(sel.select(3, active, exact, at), 3);
  sel.selected(3);
  // Priority 0, 1, 2, 3: 0 is ready at 5, 1 at 3.
  EXPECT_EQ(sel.select(3, active, exact, at), 1);
  EXPECT_EQ(at, 3);
  sel.selected(1);
  active[2] = active[3] = 0;
  ready[1] = 9;
  EXPECT_EQ(sel.select(4, active, exact, at), 0);
  EXPECT_EQ(at, 5);
  active.assign(4, 0);
  EXPECT_EQ(sel.select(4, active, exact, at), -1);
}

}  // namespace
}  // namespace par::core
