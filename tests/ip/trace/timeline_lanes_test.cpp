// Timeline lanes: overlapping intervals on one track are split over extra thread rows so that
// every row is properly nested (what Chrome and Perfetto need to draw "X" events correctly).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "par/trace/timeline.hpp"
#include "trace_test_util.hpp"

namespace par::trace {
namespace {

using testing::events_of;
using testing::json;
using testing::Names;
using testing::parse;
using testing::ns;

Ps to_ps(const json& us) { return static_cast<Ps>(std::llround(us.get<double>() * 1e6)); }

// (tid -> names of its X events in file order)
std::map<std::string, std::vector<std::string>> rows(const json& doc) {
  const Names names(doc);
  std::map<std::string, std::vector<std::string>> out;
  for (const json& e : events_of(doc, "X")) out[names.track_of(e)].push_back(e.at("name"));
  return out;
}

// Number of X events on a row that are not properly nested in what came before on it.
int misnested(const json& doc) {
  std::map<int, std::vector<std::pair<Ps, Ps>>> by_tid;
  for (const json& e : events_of(doc, "X")) {
    const Ps b = to_ps(e.at("ts"));
    by_tid[e.at("tid")].emplace_back(b, b + to_ps(e.at("dur")));
  }
  int bad = 0;
  for (auto& [tid, spans] : by_tid) {
    std::sort(spans.begin(), spans.end(), [](const auto& a, const auto& b) {
      return a.first != b.first ? a.first < b.first : a.second > b.second;
    });
    std::vector<Ps> open;
    for (const auto& [b, e] : spans) {
      while (!open.empty() && open.back() <= b) open.pop_back();
      if (!open.empty() && e > open.back()) ++bad;
      open.push_back(e);
    }
  }
  return bad;
}

TEST(TimelineLanes, ProperlyNestedIntervalsStayOnOneRow) {
  Timeline tl;
  const TrackId t = tl.track("host", "ops");
  tl.interval(t, "launch", "host", ns(0), ns(100));
  tl.interval(t, "copy in", "host", ns(0), ns(30));
  tl.interval(t, "run", "host", ns(30), ns(90));
  tl.interval(t, "poll", "host", ns(40), ns(50));
  tl.interval(t, "copy out", "host", ns(90), ns(100));
  tl.interval(t, "next", "host", ns(100), ns(120));  // touches, does not overlap
  const json doc = parse(tl);
  EXPECT_EQ(rows(doc), (std::map<std::string, std::vector<std::string>>{
                           {"host/ops", {"launch", "copy in", "run", "poll", "copy out", "next"}}}));
  EXPECT_EQ(Names(doc).thread.size(), 1u);
  EXPECT_EQ(misnested(doc), 0);
}

TEST(TimelineLanes, PartlyOverlappingIntervalsGetExtraRows) {
  Timeline tl;
  const TrackId ch0 = tl.track("dram", "ch0");
  const TrackId ch1 = tl.track("dram", "ch1");
  tl.interval(ch0, "A", "dram", ns(0), ns(10));
  tl.interval(ch0, "B", "dram", ns(5), ns(15));   // overlaps A partly: second row
  tl.interval(ch0, "C", "dram", ns(12), ns(20));  // after A on the first row
  tl.interval(ch0, "D", "dram", ns(6), ns(8));    // inside A
  tl.interval(ch1, "E", "dram", ns(0), ns(10));
  tl.instant(ch0, "refresh", "dram", ns(7));
  tl.counter(ch0, "queue", ns(7), 2);
  const json doc = parse(tl);
  EXPECT_EQ(rows(doc), (std::map<std::string, std::vector<std::string>>{
                           {"dram/ch0", {"A", "D", "C"}},
                           {"dram/ch0 #2", {"B"}},
                           {"dram/ch1", {"E"}}}));
  // Rows of a track are adjacent and in order; instants and counters use the first row.
  const Names names(doc);
  std::vector<std::string> threads;
  for (const auto& [key, name] : names.thread) threads.push_back(name);
  EXPECT_EQ(threads, (std::vector<std::string>{"ch0", "ch0 #2", "ch1"}));
  EXPECT_EQ(names.track_of(events_of(doc, "i").at(0)), "dram/ch0");
  EXPECT_EQ(names.track_of(events_of(doc, "C").at(0)), "dram/ch0");
  EXPECT_EQ(misnested(doc), 0);
  EXPECT_EQ(doc.at("otherData").at("trace").at("lanes_overflowed"), 0);
}

TEST(TimelineLanes, ManyOutstandingTransactionsAreAllKeptAndNested) {
  Timeline tl;
  const TrackId t = tl.track("dram", "ch0");
  std::uint64_t x = 12345;
  const auto next = [&x] {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    return x >> 33;
  };
  std::vector<std::pair<Ps, int>> edges;  // for the largest number of simultaneous intervals
  for (int k = 0; k < 3000; ++k) {
    const Ps b = next() % 1'000'000;
    const Ps e = b + next() % 5000;
    tl.interval(t, "rd", "dram", b, e);
    if (e > b) {
      edges.emplace_back(b, +1);
      edges.emplace_back(e, -1);
    }
  }
  std::sort(edges.begin(), edges.end());  // -1 before +1 at equal times: [b, e) half open
  int depth = 0, max_depth = 0;
  for (const auto& [when, step] : edges) max_depth = std::max(max_depth, depth += step);

  const json doc = parse(tl);
  EXPECT_EQ(events_of(doc, "X").size(), 3000u);
  EXPECT_EQ(misnested(doc), 0);
  const auto threads = Names(doc).thread.size();
  EXPECT_GT(threads, 1u);
  // First fit opens a row only when every row has an interval open at that begin.
  EXPECT_LE(threads, static_cast<std::size_t>(std::max(max_depth, 1)));
}

TEST(TimelineLanes, RowsAreCappedAndTheOverflowIsReported) {
  Timeline tl;
  const TrackId t = tl.track("dram", "ch0");
  // 300 staggered intervals, each overlapping every other one partly: one row each.
  for (Ps k = 0; k < 300; ++k) tl.interval(t, "rd", "dram", ns(k), ns(1000 + k));
  const json doc = parse(tl);
  EXPECT_EQ(Names(doc).thread.size(), 256u);
  EXPECT_EQ(events_of(doc, "X").size(), 300u);
  EXPECT_EQ(doc.at("otherData").at("trace").at("lanes_overflowed"), 44);
}

}  // namespace
}  // namespace par::trace
