// Core tracing without SystemC: the timing model reports exactly the stall cycles it counts (per
// cause, in frontend order), and CoreTrace turns them into one interval per run of consecutive
// stall cycles plus one busy interval per packet, at exact picosecond times.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "ip/trace/recorded_events.hpp"
#include "core_test_support.hpp"
#include "core_trace.hpp"
#include "program_runner.hpp"

namespace par::core {
namespace {

using trace::testing::on_track;
using trace::testing::recorded_events;
using trace::testing::RecordedEvent;

struct Piece {
  StallCause cause;
  Cycle from, to;
};

class RecordingListener : public StallListener {
 public:
  std::vector<Piece> pieces;
  void stall(StallCause cause, Cycle from, Cycle to) override { pieces.push_back({cause, from, to}); }
};

// Runs of touching pieces (what CoreTrace must merge).
std::vector<std::pair<Cycle, Cycle>> runs_of(const std::vector<Piece>& pieces) {
  std::vector<std::pair<Cycle, Cycle>> runs;
  for (const Piece& p : pieces) {
    if (!runs.empty() && p.from <= runs.back().second) runs.back().second = std::max(runs.back().second, p.to);
    else runs.emplace_back(p.from, p.to);
  }
  return runs;
}

ProgramRun run_sva(StallListener* listener) {
  RunOptions options;
  options.stall_listener = listener;
  return run_file(std::string(PARSYS_SOURCE_DIR) + "/sw/kernels/sva.par", CoreConfig{}, options);
}

TEST(CoreStallListener, SeesExactlyTheCountedStallCyclesInFrontendOrder) {
  RecordingListener listener;
  const ProgramRun run = run_sva(&listener);
  ASSERT_TRUE(run.ok) << run.error;
  ASSERT_FALSE(listener.pieces.empty());
  std::array<std::int64_t, kStallCauses> sum{};
  Cycle last_from = 0;
  for (const Piece& p : listener.pieces) {
    EXPECT_LT(p.from, p.to);
    EXPECT_GE(p.from, last_from);
    last_from = p.from;
    sum[static_cast<std::size_t>(p.cause)] += p.to - p.from;
  }
  EXPECT_EQ(sum, run.stats.stalls);
  // The same run without a listener has the same timing.
  const ProgramRun plain = run_sva(nullptr);
  EXPECT_EQ(plain.stats.cycles, run.stats.cycles);
  EXPECT_EQ(plain.stats.stalls, run.stats.stalls);
}

TEST(CoreTrace, OneStallIntervalPerRunOfConsecutiveStallCycles) {
  trace::Timeline tl;
  trace::VcdWriter vcd;
  CoreTrace t(&tl, &vcd, "core3");
  ASSERT_TRUE(t.enabled());
  t.begin_packet(1000, 500);  // cycle c at 1000 + 500 c ps
  t.stall(StallCause::RobFull, 5, 7);         // [5, 10): ROB 2 cycles, then queue 3: one run
  t.stall(StallCause::QueueFullAlu, 7, 10);
  t.stall(StallCause::PredicateWait, 11, 12); // a dispatch in cycle 10: a new run
  t.end_packet(20000, 64, 128, 7, true);

  const std::vector<RecordedEvent> all = recorded_events(tl);
  EXPECT_EQ(tl.recorded("core"), 3u);
  const std::vector<RecordedEvent> stalls = on_track(all, "core3/stall");
  ASSERT_EQ(stalls.size(), 2u);
  EXPECT_EQ(stalls[0].name, "queue_full.alu");
  EXPECT_EQ(stalls[0].cat, "core");
  EXPECT_EQ(stalls[0].begin_ps, 3500u);
  EXPECT_EQ(stalls[0].end_ps, 6000u);
  EXPECT_EQ(stalls[0].args.at("reason"), "queue_full.alu");
  EXPECT_EQ(stalls[0].args.at("cycles"), 5);
  EXPECT_EQ(stalls[1].name, "predicate_wait");
  EXPECT_EQ(stalls[1].begin_ps, 6500u);
  EXPECT_EQ(stalls[1].end_ps, 7000u);
  EXPECT_EQ(stalls[1].args.at("cycles"), 1);
  const std::vector<RecordedEvent> busy = on_track(all, "core3/busy");
  ASSERT_EQ(busy.size(), 1u);
  EXPECT_EQ(busy[0].name, "busy");
  EXPECT_EQ(busy[0].begin_ps, 1000u);
  EXPECT_EQ(busy[0].end_ps, 20000u);
  EXPECT_EQ(busy[0].args.at("threads"), 64);
  EXPECT_EQ(busy[0].args.at("first_thread"), 128);
  EXPECT_EQ(busy[0].args.at("pc"), 7);
  EXPECT_EQ(busy[0].args.at("ok"), true);

  EXPECT_EQ(vcd.declared(), (std::vector<std::string>{"core3.busy", "core3.stall"}));
  EXPECT_EQ(vcd.recorded(), 6u);  // busy 1/0, two stall runs 1/0
}

TEST(CoreTrace, NullPointersRecordNothing) {
  CoreTrace t(nullptr, nullptr, "core0");
  EXPECT_FALSE(t.enabled());
  t.begin_packet(0, 1000);
  t.stall(StallCause::RobFull, 1, 4);
  t.end_packet(9000, 4, 0, 0, true);  // no crash, nothing to record into
}

TEST(CoreTrace, RealRunGivesOneIntervalPerMergedRun) {
  RecordingListener pieces;
  ASSERT_TRUE(run_sva(&pieces).ok);
  const auto runs = runs_of(pieces.pieces);

  trace::Timeline tl;
  CoreTrace t(&tl, nullptr, "core0");
  t.begin_packet(0, 1000);
  const ProgramRun run = run_sva(&t);
  ASSERT_TRUE(run.ok) << run.error;
  t.end_packet(static_cast<trace::Ps>(run.stats.cycles) * 1000, run.stats.threads, 0, 0, true);

  const std::vector<RecordedEvent> stalls = on_track(recorded_events(tl), "core0/stall");
  ASSERT_EQ(stalls.size(), runs.size());
  std::int64_t cycles = 0, total = 0;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    EXPECT_EQ(stalls[i].begin_ps, static_cast<std::uint64_t>(runs[i].first) * 1000) << i;
    EXPECT_EQ(stalls[i].end_ps, static_cast<std::uint64_t>(runs[i].second) * 1000) << i;
    cycles += stalls[i].args.at("cycles").get<std::int64_t>();
  }
  for (std::int64_t s : run.stats.stalls) total += s;
  EXPECT_EQ(cycles, total);
  EXPECT_EQ(tl.recorded("core"), runs.size() + 1);
}

}  // namespace
}  // namespace par::core
