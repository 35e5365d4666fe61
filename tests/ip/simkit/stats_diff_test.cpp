// Statistics: snapshots and per-launch differences.
#include <gtest/gtest.h>

#include <sstream>
#include <stdexcept>
#include <utility>
#include <vector>

#include "par/simkit/stats.hpp"

namespace par::simkit {
namespace {

struct Core {
  StatGroup stats{"platform.core0"};
  Counter& cycles = stats.counter("cycles", "cycles", "Simulated cycles");
  Counter& insts = stats.counter("thread_insts", "thread-instructions", "Executed");
  Real& host_s = stats.real("host_seconds", "s", "Host time");
  Distribution& latency =
      stats.distribution("latency", "cycles", "Load latency", Buckets::linear(0, 10, 2));
  Formula& ipc = stats.formula("ipc", "ratio", "Thread-instructions per cycle",
                               [](const StatView& s) { return s["thread_insts"] / s["cycles"]; });
  Formula& live = stats.formula("live_cycles", "cycles", "Read directly",
                                [this] { return static_cast<double>(cycles.value()); });
};

TEST(StatsDiff, CountersAndRealsSubtractFormulasReevaluate) {
  StatGroup root;
  Core core;
  root.attach(core.stats);

  // Launch 1: 100 cycles, 400 thread-instructions.
  const Json s0 = root.snapshot();
  core.cycles += 100;
  core.insts += 400;
  core.host_s += 0.5;
  core.latency.sample(4);
  core.latency.sample(25);
  const Json s1 = root.snapshot();
  // Launch 2: 300 cycles, 300 thread-instructions.
  core.cycles += 300;
  core.insts += 300;
  core.host_s += 0.25;
  core.latency.sample(12, 2);
  const Json s2 = root.snapshot();

  const Json launch1 = root.diff(s1, s0);
  const Json launch2 = root.diff(s2, s1);
  const Json& l2 = launch2["platform"]["core0"];
  EXPECT_EQ(l2["cycles"]["value"], 300);
  EXPECT_TRUE(l2["cycles"]["value"].is_number_unsigned());
  EXPECT_EQ(l2["thread_insts"]["value"], 300);
  EXPECT_DOUBLE_EQ(l2["host_seconds"]["value"].get<double>(), 0.25);
  EXPECT_EQ(l2["ipc"]["value"], 1.0);  // per launch, not cumulative (700/400)
  EXPECT_EQ(launch1["platform"]["core0"]["ipc"]["value"], 4.0);
  EXPECT_EQ(s2["platform"]["core0"]["ipc"]["value"], 1.75);  // total
  // A formula reading live state has no meaning for a difference.
  EXPECT_TRUE(l2["live_cycles"]["value"].is_null());
  EXPECT_EQ(s2["platform"]["core0"]["live_cycles"]["value"], 400.0);
  // Units and descriptions are kept, so a difference is a complete document.
  EXPECT_EQ(l2["cycles"]["unit"], "cycles");
  EXPECT_EQ(l2["ipc"]["desc"], "Thread-instructions per cycle");
  EXPECT_EQ(l2["ipc"]["kind"], "formula");
}

TEST(StatsDiff, DistributionsSubtractCountsAndKeepExtremesOnlyWhenKnown) {
  StatGroup root;
  Core core;
  root.attach(core.stats);
  const Json s0 = root.snapshot();
  core.latency.sample(4);
  core.latency.sample(25);
  const Json s1 = root.snapshot();
  core.latency.sample(12, 2);
  core.latency.sample(-3);
  const Json s2 = root.snapshot();

  const Json d1 = root.diff(s1, s0)["platform"]["core0"]["latency"];
  EXPECT_EQ(d1["count"], 2);
  EXPECT_EQ(d1["min"], 4.0);  // the earlier snapshot had no samples: exact
  EXPECT_EQ(d1["max"], 25.0);
  EXPECT_EQ(d1["value"], 14.5);

  const Json d2 = root.diff(s2, s1)["platform"]["core0"]["latency"];
  EXPECT_EQ(d2["count"], 3);
  EXPECT_EQ(d2["sum"], 21.0);
  EXPECT_EQ(d2["value"], 7.0);
  EXPECT_TRUE(d2["min"].is_null());
  EXPECT_TRUE(d2["max"].is_null());
  EXPECT_EQ(d2["underflow"], 1);
  EXPECT_EQ(d2["overflow"], 0);
  ASSERT_EQ(d2["buckets"].size(), 2u);
  EXPECT_EQ(d2["buckets"][0]["count"], 0);
  EXPECT_EQ(d2["buckets"][1]["count"], 2);
  EXPECT_EQ(d2["buckets"][1]["lo"], 10.0);

  // A launch without samples: mean undefined.
  const Json d3 = root.diff(s2, s2)["platform"]["core0"]["latency"];
  EXPECT_EQ(d3["count"], 0);
  EXPECT_TRUE(d3["value"].is_null());
}

TEST(StatsDiff, SnapshotsArePlainValuesIndependentOfLaterChanges) {
  StatGroup root;
  Core core;
  root.attach(core.stats);
  core.cycles += 7;
  const Json s = root.snapshot();
  const std::string text = s.dump();
  core.cycles += 1;
  EXPECT_EQ(s.dump(), text);
  EXPECT_EQ(Json::parse(text), s);
  // Snapshots survive a trip through text, e.g. a file written after each launch.
  EXPECT_EQ(root.diff(root.snapshot(), Json::parse(text))["platform"]["core0"]["cycles"]["value"],
            1);
}

TEST(StatsDiff, ResetBetweenSnapshotsGivesNegativeCounters) {
  StatGroup root;
  Core core;
  root.attach(core.stats);
  core.cycles += 10;
  const Json s0 = root.snapshot();
  root.reset();
  core.cycles += 4;
  const Json d = root.diff(root.snapshot(), s0);
  EXPECT_EQ(d["platform"]["core0"]["cycles"]["value"], -6);
}

TEST(StatsDiff, StatisticsAddedAfterASnapshotCountFromZero) {
  StatGroup root;
  Core core;
  root.attach(core.stats);
  const Json s0 = root.snapshot();
  StatGroup late("platform.core1");
  Counter& c = late.counter("cycles", "cycles", "late");
  root.attach(late);
  c += 9;
  const Json d = root.diff(root.snapshot(), s0);
  EXPECT_EQ(d["platform"]["core1"]["cycles"]["value"], 9);
  // And a group missing from the later snapshot is left out.
  EXPECT_FALSE(root.diff(s0, s0)["platform"].contains("core1"));
}

// A capture is the cheap, flat form of a snapshot: its difference is the same document, for
// counters, reals, both kinds of formula, distributions with and without earlier samples and a
// reset in between (negative counters).
TEST(StatsCapture, DifferenceOfCapturesEqualsDifferenceOfSnapshots) {
  StatGroup root;
  Core core;
  root.attach(core.stats);
  StatGroup& nested = root.group("run.totals");
  Counter& launches = nested.counter("launches", "packets", "Done");
  nested.formula("cycles_per_launch", "cycles", "Mean", [](const StatView& s) {
    return s["../platform.core0.cycles"] / s["launches"];
  });

  std::vector<std::pair<Json, StatSnapshot>> moments;
  auto take = [&] { moments.emplace_back(root.snapshot(), root.capture()); };
  take();
  core.cycles += 100;
  core.insts += 400;
  core.host_s += 0.5;
  core.latency.sample(4);
  core.latency.sample(25);
  ++launches;
  take();
  core.cycles += 7;
  core.latency.sample(-3, 2);
  core.latency.sample(12);
  ++launches;
  take();
  core.stats.reset();
  core.cycles += 1;
  take();
  for (std::size_t later = 1; later < moments.size(); ++later)
    for (std::size_t earlier = 0; earlier < later; ++earlier)
      EXPECT_EQ(root.diff(moments[later].second, moments[earlier].second),
                root.diff(moments[later].first, moments[earlier].first))
          << "captures " << earlier << " .. " << later;
  const Json last = root.diff(moments[3].second, moments[2].second);
  EXPECT_EQ(last["platform"]["core0"]["cycles"]["value"], -106);
  EXPECT_EQ(root.diff(moments[1].second, moments[0].second)["run"]["totals"]["cycles_per_launch"]["value"], 100.0);
}

// Modules may register statistics after the first capture (ports added at elaboration): they
// count from zero, and a capture taken before them leaves them out, as with snapshots.
TEST(StatsCapture, StatisticsRegisteredAfterACaptureCountFromZero) {
  StatGroup root;
  Core core;
  root.attach(core.stats);
  core.cycles += 3;
  const Json j0 = root.snapshot();
  const StatSnapshot c0 = root.capture();
  StatGroup late("platform.core1");
  Counter& late_cycles = late.counter("cycles", "cycles", "late");
  Distribution& late_latency = late.distribution("latency", "ns", "late", Buckets::log2(3));
  root.attach(late);
  Counter& extra = core.stats.counter("extra", "events", "Registered after the first capture");
  late_cycles += 9;
  late_latency.sample(2.5);
  extra += 4;
  core.cycles += 1;
  const Json j1 = root.snapshot();
  const StatSnapshot c1 = root.capture();
  Counter& later_still = core.stats.counter("later_still", "events", "Registered after both");
  later_still += 1;

  const Json d = root.diff(c1, c0);
  EXPECT_EQ(d, root.diff(j1, j0));
  EXPECT_EQ(d["platform"]["core1"]["cycles"]["value"], 9);
  EXPECT_EQ(d["platform"]["core1"]["latency"]["min"], 2.5);
  EXPECT_EQ(d["platform"]["core0"]["extra"]["value"], 4);
  EXPECT_EQ(d["platform"]["core0"]["cycles"]["value"], 1);
  EXPECT_FALSE(d["platform"]["core0"].contains("later_still"));
  // The other way round, what only the later capture has is left out.
  const Json backwards = root.diff(c0, c1);
  EXPECT_EQ(backwards, root.diff(j0, j1));
  EXPECT_FALSE(backwards["platform"].contains("core1"));
  EXPECT_EQ(backwards["platform"]["core0"]["cycles"]["value"], -1);
}

TEST(StatsCapture, ACaptureOfAnotherTreeIsAnError) {
  StatGroup root;
  Core core;
  root.attach(core.stats);
  StatGroup other;
  other.counter("one", "events", "A smaller tree");
  other.counter("two", "events", "A smaller tree");
  const StatSnapshot small = other.capture();
  EXPECT_EQ(small.size(), 3u);  // entry count + values
  EXPECT_THROW(root.diff(small, small), std::logic_error);
}

TEST(StatsDiff, TableOfADifference) {
  StatGroup root;
  Core core;
  root.attach(core.stats);
  core.cycles += 100;
  core.insts += 100;
  const Json s0 = root.snapshot();
  core.cycles += 50;
  core.insts += 200;
  std::ostringstream os;
  root.write_table(os, root.diff(root.snapshot(), s0));
  const std::string t = os.str();
  EXPECT_NE(t.find("platform.core0.cycles"), std::string::npos);
  EXPECT_NE(t.find(" 50  cycles"), std::string::npos) << t;
  EXPECT_NE(t.find("4.000  ratio"), std::string::npos) << t;
  const auto row = t.find("platform.core0.live_cycles");
  ASSERT_NE(row, std::string::npos);
  EXPECT_NE(t.substr(row, t.find('\n', row) - row).find(" n/a  cycles"), std::string::npos) << t;
}

}  // namespace
}  // namespace par::simkit

namespace par::simkit {
namespace {

// A formula in a subgroup reads its enclosing group's statistics through "../", live and in a
// difference of snapshots (core0.utilization.alu reads core0.cycles).
TEST(StatsFormula, ParentPathsReachTheEnclosingGroup) {
  StatGroup root;
  StatGroup core("core0");
  root.attach(core);
  Counter& cycles = core.counter("cycles", "cycles", "time");
  Counter& busy = core.group("busy").counter("alu", "cycles", "busy");
  core.group("utilization").formula("alu", "ratio", "busy / time",
                                    [](const StatView& s) { return s["../busy.alu"] / s["../cycles"]; });
  core.group("utilization").formula("orphan", "ratio", "no such parent statistic",
                                    [](const StatView& s) { return s["../../nothing"]; });
  cycles += 100;
  busy += 25;
  const Json before = root.snapshot();
  EXPECT_DOUBLE_EQ(before["core0"]["utilization"]["alu"]["value"].get<double>(), 0.25);
  EXPECT_TRUE(before["core0"]["utilization"]["orphan"]["value"].is_null());
  cycles += 100;
  busy += 75;
  const Json launch = root.diff(root.snapshot(), before);
  EXPECT_DOUBLE_EQ(launch["core0"]["utilization"]["alu"]["value"].get<double>(), 0.75);
}

}  // namespace
}  // namespace par::simkit

namespace par::simkit {
namespace {

// A sum over sibling groups ("../bank0.useful", as the L2's prefetch totals) read by another
// formula: from its own group, from the group above and through "../" from a sibling group. The
// sum is evaluated in its own place, so its "../" paths reach the banks, live, in a difference
// and through Formula::number.
TEST(StatsFormula, FormulasReadSumsThatReachOutOfTheirGroup) {
  StatGroup root;
  StatGroup l2("l2");
  root.attach(l2);
  Counter& useful0 = l2.group("bank0").counter("useful", "lines", "used");
  Counter& useful1 = l2.group("bank1").counter("useful", "lines", "used");
  Counter& fills = l2.group("bank1").counter("fills", "lines", "filled");
  StatGroup& prefetch = l2.group("prefetch");
  prefetch.sum("useful", "lines", "over the banks", {"../bank0.useful", "../bank1.useful"});
  prefetch.sum("fills", "lines", "over the banks", {"../bank1.fills"});
  prefetch.formula("accuracy", "ratio", "useful / fills", [](const StatView& s) { return s["useful"] / s["fills"]; });
  l2.formula("useful", "lines", "from the group above", [](const StatView& s) { return s["prefetch.useful"]; });
  l2.group("report").formula("useful", "lines", "through ../", [](const StatView& s) { return s["../prefetch.useful"]; });
  const Formula& deep = l2.group("report").group("deep").formula(
      "accuracy", "ratio", "through ../../", [](const StatView& s) { return s["../../prefetch.accuracy"]; });
  useful0 += 3;
  useful1 += 5;
  fills += 10;
  const Json before = root.snapshot();
  EXPECT_DOUBLE_EQ(before["l2"]["prefetch"]["useful"]["value"].get<double>(), 8);
  EXPECT_DOUBLE_EQ(before["l2"]["prefetch"]["accuracy"]["value"].get<double>(), 0.8);
  EXPECT_DOUBLE_EQ(before["l2"]["useful"]["value"].get<double>(), 8);
  EXPECT_DOUBLE_EQ(before["l2"]["report"]["useful"]["value"].get<double>(), 8);
  EXPECT_DOUBLE_EQ(before["l2"]["report"]["deep"]["accuracy"]["value"].get<double>(), 0.8);
  EXPECT_DOUBLE_EQ(deep.number(), 0.8);  // on its own, evaluated from the root of its tree
  useful0 += 1;
  fills += 10;
  const Json launch = root.diff(root.snapshot(), before);
  EXPECT_DOUBLE_EQ(launch["l2"]["report"]["useful"]["value"].get<double>(), 1);
  EXPECT_DOUBLE_EQ(launch["l2"]["report"]["deep"]["accuracy"]["value"].get<double>(), 0.1);
  EXPECT_DOUBLE_EQ(launch["l2"]["useful"]["value"].get<double>(), 1);
}

}  // namespace
}  // namespace par::simkit

namespace par::simkit {
namespace {

// The tree of a capture is the snapshot of its moment, whatever happened since; only live
// formulas (which read the present) are null. A watchdog thread writes such a tree while the
// statistics it came from go on changing.
TEST(StatsCapture, TheTreeOfACaptureIsTheSnapshotOfItsMoment) {
  StatGroup root;
  Core core;
  root.attach(core.stats);
  core.cycles += 100;
  core.insts += 250;
  core.host_s += 0.5;
  core.latency.sample(4);
  core.latency.sample(25);
  const StatSnapshot then = root.capture();
  Json expected = root.snapshot();
  core.cycles += 1000;
  core.latency.sample(1);
  const Json tree = root.to_json(then);
  EXPECT_TRUE(tree["platform"]["core0"]["live_cycles"]["value"].is_null());
  EXPECT_EQ(expected["platform"]["core0"]["live_cycles"]["value"], 100.0);
  expected["platform"]["core0"]["live_cycles"]["value"] = nullptr;
  EXPECT_EQ(tree, expected);
  EXPECT_EQ(tree["platform"]["core0"]["ipc"]["value"], 2.5);
  StatGroup other;
  other.counter("x", "things", "another tree");
  EXPECT_THROW(other.to_json(then), std::logic_error);
}

}  // namespace
}  // namespace par::simkit
