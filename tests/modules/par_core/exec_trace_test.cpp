// The execution trace (core side: PacketEngine -> CoreExecTrace -> trace::ExecTrace text): the
// active masks of the SIMT control-flow scenarios of docs/simt-control-flow.md §3, exactly as the
// page states them, in timing mode (one lane, T = 8, and L = 2, T = 4) and in functional mode;
// the filters and the bound.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "core_exec_trace.hpp"
#include "core_test_support.hpp"

namespace par::core {
namespace {

using testing::read_program;
using testing::Shape;

struct Line {
  std::uint64_t cycle = 0, round = 0, pc = 0, depth = 0;
  int context = 0, active = 0;
  std::string core, mask, source, instruction;
};

struct Traced {
  isa::Program program;
  std::vector<Line> lines;
  std::string text;
  std::uint64_t dropped = 0;
  ProgramRun run;
  std::uint64_t pc(const std::string& label) const { return program.code_labels.at(label); }
  // The masks of the instructions at `label`, in execution order.
  std::vector<std::string> masks_at(const std::string& label) const {
    std::vector<std::string> m;
    for (const Line& l : lines)
      if (l.pc == pc(label)) m.push_back(l.mask);
    return m;
  }
};

std::vector<Line> parse(const std::string& text) {
  std::vector<Line> lines;
  std::istringstream in(text);
  std::string s;
  while (std::getline(in, s)) {
    if (s.empty() || s[0] == '#') continue;
    std::istringstream ls(s);
    Line l;
    std::string ctx, bar;
    ls >> l.cycle >> l.core >> l.context >> l.round >> l.pc >> l.depth >> l.active >> l.mask >> l.source >> bar;
    std::getline(ls, l.instruction);
    if (!l.instruction.empty() && l.instruction[0] == ' ') l.instruction.erase(0, 1);
    EXPECT_EQ(bar, "|") << s;
    lines.push_back(l);
  }
  return lines;
}

Traced trace_run(const std::string& source, CoreConfig cfg, RunMode mode = RunMode::Timing,
                 trace::ExecFilter filter = {}, std::uint64_t max_records = 100000) {
  Traced t;
  t.program = testing::assemble_or_fail(source, "scenario.par");
  std::string error;
  const auto loaded = LoadedProgram::load(t.program, cfg, &error);
  EXPECT_TRUE(loaded) << error;
  std::ostringstream text;
  {
    trace::ExecTrace exec(text, nullptr, max_records, filter);
    CoreExecTrace bridge(exec, "core0", *loaded);
    bridge.begin_packet(0, 0, 1000);
    RunOptions opt;
    opt.mode = mode;
    opt.functional_width = 8;
    opt.exec_listener = &bridge;
    t.run = run_program(t.program, cfg, opt);
    EXPECT_TRUE(t.run.ok) << t.run.error;
    exec.finish();
    t.dropped = exec.dropped();
  }
  t.text = text.str();
  t.lines = parse(t.text);
  return t;
}

const Shape kTraceShapes[] = {{1, 8, RunMode::Timing}, {2, 4, RunMode::Timing}, {1, 8, RunMode::Functional}};

TEST(ExecTrace, IfElseMasks) {  // §3.1
  for (const Shape& s : kTraceShapes) {
    const Traced t = trace_run(read_program("platform_3_1_if_else.par"), testing::config(s.lanes, s.threads_per_lane), s.mode);
    EXPECT_EQ(t.masks_at("then"), std::vector<std::string>{"0xf0"});
    EXPECT_EQ(t.masks_at("else"), std::vector<std::string>{"0x0f"});
    EXPECT_EQ(t.masks_at("main"), std::vector<std::string>{"0xff"});
    // compare, xp then, 'then' (depth 1, inside its expand), xp else, 'else', then sll / st8 with
    // every thread at depth 0.
    ASSERT_EQ(t.lines.size(), 7u) << t.text;
    EXPECT_EQ(t.lines[2].pc, t.pc("then")) << t.text;
    EXPECT_EQ(t.lines[2].depth, 1u);
    EXPECT_EQ(t.lines[2].active, 4);
    EXPECT_EQ(t.lines[2].source, "scenario.par:13");
    EXPECT_EQ(t.lines[2].instruction, "add r1 = i0, 100 #");
    EXPECT_EQ(t.lines[3].instruction, "(p2) xp else");
    EXPECT_EQ(t.lines[3].depth, 0u);
    EXPECT_EQ(t.lines[4].pc, t.pc("else"));
    EXPECT_EQ(t.lines[6].mask, "0xff");
    EXPECT_EQ(t.lines[6].depth, 0u);
  }
}

TEST(ExecTrace, DivergentLoopMasks) {  // §3.2
  for (const Shape& s : kTraceShapes) {
    const Traced t = trace_run(read_program("platform_3_2_divergent_loop.par"), testing::config(s.lanes, s.threads_per_lane), s.mode);
    EXPECT_EQ(t.masks_at("body"), (std::vector<std::string>{"0xfe", "0xfc", "0xf8", "0xf0", "0xe0", "0xc0", "0x80"}));
    // After the loop the mask is every thread again.
    EXPECT_EQ(t.lines.back().mask, "0xff");
    EXPECT_EQ(t.lines.back().depth, 0u);
  }
}

TEST(ExecTrace, BreakContinueMasks) {  // §3.3
  for (const Shape& s : kTraceShapes) {
    const Traced t = trace_run(read_program("platform_3_3_break_continue.par"), testing::config(s.lanes, s.threads_per_lane), s.mode);
    EXPECT_EQ(t.masks_at("search"), std::vector<std::string>{"0x2d"});
    // Two of the six iterations: 0x2d, then only thread 0.
    EXPECT_EQ(t.masks_at("jloop"), (std::vector<std::string>{"0x2d", "0x01"}));
    // brk removed threads 6 and 7: the instruction after it runs with 0x3f, as does the rest of
    // 'main' after 'search' returned.
    EXPECT_EQ(t.lines[2].mask, "0x3f");
    EXPECT_EQ(t.lines.back().mask, "0x3f");
    EXPECT_EQ(t.lines.back().depth, 0u);
  }
}

TEST(ExecTrace, CalledBlockBreakMasks) {  // §3.4
  for (const Shape& s : kTraceShapes) {
    const Traced t = trace_run(read_program("platform_3_4_called_block_break.par"), testing::config(s.lanes, s.threads_per_lane), s.mode);
    // Four threads on eight slots: two hex digits.
    EXPECT_EQ(t.masks_at("body"), (std::vector<std::string>{"0x0f", "0x0f", "0x0f", "0x0f", "0x0b", "0x0b"}));
    for (const Line& l : t.lines) {
      if (l.pc != t.pc("work")) continue;
      // The loop's return entry, the loop and the expand.
      EXPECT_EQ(l.depth, 3u);
    }
  }
}

TEST(ExecTrace, TailExpandLoopMasks) {  // §3.5
  for (const Shape& s : kTraceShapes) {
    const Traced t = trace_run(read_program("platform_3_5_tail_expand_loop.par"), testing::config(s.lanes, s.threads_per_lane), s.mode);
    EXPECT_EQ(t.masks_at("body"), (std::vector<std::string>{"0x0f", "0x0f", "0x0f", "0x0f"}));
    EXPECT_EQ(t.masks_at("even"), (std::vector<std::string>{"0x0f", "0x0f"}));
  }
}

TEST(ExecTrace, CyclesAreIssueCyclesInTimingMode) {
  const Traced t = trace_run(read_program("platform_3_1_if_else.par"), testing::config(1, 8));
  ASSERT_FALSE(t.lines.empty());
  EXPECT_EQ(t.lines[0].cycle, 0u);
  for (std::size_t i = 1; i < t.lines.size(); ++i) EXPECT_GT(t.lines[i].cycle, t.lines[i - 1].cycle) << t.text;
  // The last issue lies before the packet's end.
  EXPECT_LT(static_cast<std::int64_t>(t.lines.back().cycle), t.run.stats.cycles);
  // Functional mode: the fetch index.
  const Traced f = trace_run(read_program("platform_3_1_if_else.par"), testing::config(1, 8), RunMode::Functional);
  for (std::size_t i = 0; i < f.lines.size(); ++i) EXPECT_EQ(f.lines[i].cycle, i);
}

TEST(ExecTrace, Filters) {
  const std::string src = read_program("platform_3_2_divergent_loop.par");
  trace::ExecFilter pcs;
  const Traced all = trace_run(src, testing::config(1, 8));
  pcs.pc_first = pcs.pc_last = all.pc("body");
  const Traced body = trace_run(src, testing::config(1, 8), RunMode::Timing, pcs);
  EXPECT_EQ(body.lines.size(), 7u);

  trace::ExecFilter threads;  // thread 2 takes part in two iterations and the code outside the loop
  threads.thread_first = 2;
  threads.thread_count = 1;
  const Traced t2 = trace_run(src, testing::config(1, 8), RunMode::Timing, threads);
  std::size_t in_body = 0;
  for (const Line& l : t2.lines) in_body += l.pc >= all.pc("body");
  EXPECT_EQ(in_body, 2u * 3u);
  EXPECT_EQ(t2.lines.size(), all.lines.size() - 5u * 3u);

  trace::ExecFilter window;  // cycles [c1, c2) of the full trace
  window.cycle_from = all.lines[3].cycle;
  window.cycle_to = all.lines[6].cycle;
  const Traced w = trace_run(src, testing::config(1, 8), RunMode::Timing, window);
  ASSERT_EQ(w.lines.size(), 3u);
  EXPECT_EQ(w.lines[0].cycle, all.lines[3].cycle);
}

TEST(ExecTrace, BoundIsReported) {
  const Traced t = trace_run(read_program("platform_3_2_divergent_loop.par"), testing::config(1, 8), RunMode::Timing, {}, 5);
  EXPECT_EQ(t.lines.size(), 5u);
  EXPECT_EQ(t.dropped, 6u + 7u * 3u - 5u);
  EXPECT_NE(t.text.find("# 5 records; trace.exec_max = 5 reached, 22 more not written\n"), std::string::npos) << t.text;
}

}  // namespace
}  // namespace par::core
