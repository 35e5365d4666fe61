// Timeline bounds: max_events, per-category caps, dropped counts (accessors and otherData), and
// the time window (including counters carried into it).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "par/trace/timeline.hpp"
#include "trace_test_util.hpp"

namespace par::trace {
namespace {

using testing::events_of;
using testing::json;
using testing::parse;
using testing::ns;

std::size_t non_metadata(const json& doc) {
  return doc.at("traceEvents").size() - events_of(doc, "M").size();
}

TEST(TimelineBounds, MaxEventsKeepsTheFirstAndCountsTheRestPerCategory) {
  TimelineLimits lim;
  lim.max_events = 10;
  Timeline tl(lim);
  const TrackId core = tl.track("core0", "busy");
  const TrackId dram = tl.track("dram", "ch0");
  for (Ps k = 0; k < 12; ++k) tl.interval(core, "busy", "core", ns(k * 10), ns(k * 10 + 5));
  tl.instant(dram, "refresh", "dram", ns(1));
  tl.counter(dram, "queue", ns(2), 1);
  tl.interval(dram, "rd", "dram", ns(3), ns(4));
  EXPECT_EQ(tl.recorded(), 10u);
  EXPECT_EQ(tl.recorded("core"), 10u);
  EXPECT_EQ(tl.recorded("dram"), 0u);
  EXPECT_EQ(tl.dropped(), 5u);
  EXPECT_EQ(tl.dropped("core"), 2u);
  EXPECT_EQ(tl.dropped("dram"), 2u);
  EXPECT_EQ(tl.dropped("counter"), 1u);
  EXPECT_EQ(tl.dropped("unknown"), 0u);
  EXPECT_EQ(tl.dropped_by_category(),
            (std::vector<std::pair<std::string, std::uint64_t>>{{"core", 2}, {"counter", 1}, {"dram", 2}}));

  // The earliest dropped event: the dram instant at 1 ns; everything before it is in the file.
  EXPECT_EQ(tl.complete_until(), ns(1));
  const json doc = parse(tl);
  EXPECT_EQ(non_metadata(doc), 11u);  // the kept events and the marker
  const std::vector<json> marks = events_of(doc, "i");
  ASSERT_EQ(marks.size(), 1u);
  EXPECT_EQ(marks[0].at("s"), "g");
  EXPECT_EQ(marks[0].at("cat"), "trace");
  EXPECT_EQ(marks[0].at("ts"), 0.001);
  EXPECT_EQ(marks[0].at("name"), "trace incomplete from here: 5 events dropped (trace.max_events / trace.category_max)");
  EXPECT_EQ(marks[0].at("args").at("events_dropped"), 5);
  const json& t = doc.at("otherData").at("trace");
  EXPECT_EQ(t.at("complete_until_us"), 0.001);
  EXPECT_EQ(t.at("last_event_us"), 0.095);  // the tenth core interval, 90..95 ns
  EXPECT_EQ(t.at("events_recorded"), 10);
  EXPECT_EQ(t.at("events_dropped"), 5);
  EXPECT_EQ(t.at("max_events"), 10);
  EXPECT_EQ(t.at("dropped_by_category"), json::parse(R"({"core":2,"counter":1,"dram":2})"));
  // The tracks still exist, even the one whose events were all dropped.
  EXPECT_EQ(events_of(doc, "M").size(), 2u * 2 + 2u * 2);
}

TEST(TimelineBounds, AnUnboundedTraceIsCompleteToTheEnd) {
  Timeline tl;
  tl.interval(tl.track("core0", "busy"), "busy", "core", ns(1), ns(2));
  EXPECT_EQ(tl.complete_until(), kEndOfTime);
  const json doc = parse(tl);
  EXPECT_TRUE(doc.at("otherData").at("trace").at("complete_until_us").is_null());
  EXPECT_TRUE(events_of(doc, "i").empty());
}

// Counters under counter_interval: one sample per series and interval bucket, at the bucket's
// first sample, with the value of its latest sample in time (call order does not matter); a
// bucket's first sample equal to the series' latest value is merged.
TEST(TimelineBounds, CountersKeepOneSamplePerIntervalAndOnlyChanges) {
  TimelineLimits lim;
  lim.counter_interval = ns(100);
  Timeline tl(lim);
  const TrackId link = tl.track("link", "h2d");
  const TrackId d2h = tl.track("link", "d2h");
  const double values[] = {1, 1, 2, 3, 2, 5, 5, 7, 4, 7, 7};
  const Ps times[] = {0, 10, 20, 30, 40, 150, 160, 170, 400, 120, 520};
  for (int k = 0; k < 11; ++k) tl.counter(link, "queue", ns(times[k]), values[k]);
  tl.counter(d2h, "queue", ns(10), 3);  // another series: its own buckets
  // Bucket 0: 1 @0 updated to 2 (the value @40); bucket 1: 5 @150 updated to 7 (@170; the 7 @120
  // that comes late is older); bucket 4: 4 @400; 7 @520 starts bucket 5.
  std::vector<std::pair<double, double>> got;  // (ts us, value) of link/h2d
  for (const json& e : events_of(parse(tl), "C"))
    if (e.at("name") == "h2d/queue") got.emplace_back(e.at("ts").get<double>(), e.at("args").at("value").get<double>());
  EXPECT_EQ(got, (std::vector<std::pair<double, double>>{{0, 2}, {0.15, 7}, {0.4, 4}, {0.52, 7}}));
  EXPECT_EQ(tl.recorded("counter"), 5u);
  EXPECT_EQ(tl.counter_samples_merged(), 7u);
  // Equal to the latest value: merged, no new bucket.
  tl.counter(link, "queue", ns(700), 7);
  EXPECT_EQ(tl.recorded("counter"), 5u);
  EXPECT_EQ(tl.counter_samples_merged(), 8u);
  const json other = parse(tl).at("otherData").at("trace");
  EXPECT_EQ(other.at("counter_interval_us"), 0.1);
  EXPECT_EQ(other.at("counter_samples_merged"), 8);
}

TEST(TimelineBounds, CategoryCapsLimitOneCategoryOnly) {
  TimelineLimits lim;
  lim.category_max = {{"dram", 2}, {"l2", 0}};
  Timeline tl(lim);
  const TrackId dram = tl.track("dram", "ch0");
  const TrackId core = tl.track("core0", "busy");
  const CategoryId l2 = tl.category("l2");
  for (Ps k = 0; k < 5; ++k) {
    tl.interval(dram, "rd", "dram", ns(k), ns(k + 1));
    tl.interval(core, "busy", "core", ns(k), ns(k + 1));
    tl.instant(core, tl.name("hit"), l2, ns(k));
  }
  EXPECT_EQ(tl.recorded("dram"), 2u);
  EXPECT_EQ(tl.recorded("core"), 5u);
  EXPECT_EQ(tl.recorded("l2"), 0u);
  EXPECT_EQ(tl.dropped(), 8u);
  EXPECT_EQ(tl.dropped_by_category(),
            (std::vector<std::pair<std::string, std::uint64_t>>{{"dram", 3}, {"l2", 5}}));
  const json doc = parse(tl);
  EXPECT_EQ(non_metadata(doc), 8u);  // and the marker of the first dropped event (the l2 instant at 0)
  EXPECT_EQ(doc.at("otherData").at("trace").at("complete_until_us"), 0);
  const json& t = doc.at("otherData").at("trace");
  EXPECT_EQ(t.at("category_max"), json::parse(R"({"dram":2,"l2":0})"));
  EXPECT_EQ(t.at("recorded_by_category"), json::parse(R"({"core":5,"dram":2})"));
}

TEST(TimelineBounds, ACategoryCapDoesNotUseUpTheTotal) {
  TimelineLimits lim;
  lim.max_events = 4;
  lim.category_max = {{"dram", 1}};
  Timeline tl(lim);
  const TrackId t = tl.track("dram", "ch0");
  for (Ps k = 0; k < 3; ++k) tl.interval(t, "rd", "dram", ns(k), ns(k + 1));
  for (Ps k = 0; k < 5; ++k) tl.interval(t, "x", "core", ns(k), ns(k + 1));
  EXPECT_EQ(tl.recorded("dram"), 1u);
  EXPECT_EQ(tl.recorded("core"), 3u);
  EXPECT_EQ(tl.dropped("dram"), 2u);
  EXPECT_EQ(tl.dropped("core"), 2u);
}

TEST(TimelineBounds, NonFiniteCounterValuesAreDropped) {
  Timeline tl;
  const TrackId t = tl.track("link", "h2d");
  tl.counter(t, "queue", 0, std::numeric_limits<double>::quiet_NaN());
  tl.counter(t, "queue", 1, std::numeric_limits<double>::infinity());
  tl.counter(t, "queue", 2, 4);
  EXPECT_EQ(tl.recorded(), 1u);
  EXPECT_EQ(tl.dropped("counter"), 2u);
  EXPECT_EQ(events_of(parse(tl), "C").size(), 1u);
}

TEST(TimelineBounds, TheWindowKeepsEventsThatTouchIt) {
  TimelineLimits lim;
  lim.from = ns(100);
  lim.to = ns(200);
  Timeline tl(lim);
  const TrackId t = tl.track("core0", "busy");
  tl.interval(t, "before", "core", ns(0), ns(100));        // ends where the window starts
  tl.interval(t, "into", "core", ns(50), ns(150));         // kept whole, not clipped
  tl.interval(t, "across", "core", ns(0), ns(1000));       // spans the window
  tl.interval(t, "inside", "core", ns(120), ns(130));
  tl.interval(t, "out of", "core", ns(199), ns(300));
  tl.interval(t, "after", "core", ns(200), ns(250));       // starts where it ends
  tl.interval(t, "point at from", "core", ns(100), ns(100));
  tl.instant(t, "at from", "core", ns(100));
  tl.instant(t, "just before", "core", ns(100) - 1);
  tl.instant(t, "last ps", "core", ns(200) - 1);
  tl.instant(t, "at to", "core", ns(200));
  EXPECT_EQ(tl.recorded(), 7u);
  EXPECT_EQ(tl.outside_window(), 4u);
  EXPECT_EQ(tl.dropped(), 0u);

  const json doc = parse(tl);
  std::vector<std::string> kept;
  for (const json& e : doc.at("traceEvents")) {
    if (e.at("ph") != "M") kept.push_back(e.at("name"));
  }
  EXPECT_EQ(kept, (std::vector<std::string>{"across", "into", "point at from", "at from", "inside",
                                            "out of", "last ps"}));
  const json t0 = events_of(doc, "X").at(1);
  EXPECT_EQ(t0.at("ts"), 0.05);
  EXPECT_EQ(t0.at("dur"), 0.1);
  const json& other = doc.at("otherData").at("trace");
  EXPECT_EQ(other.at("window_from_us"), 0.1);
  EXPECT_EQ(other.at("window_to_us"), 0.2);
  EXPECT_EQ(other.at("events_outside_window"), 4);
}

TEST(TimelineBounds, EventsOutsideTheWindowDoNotUseUpMaxEvents) {
  TimelineLimits lim;
  lim.max_events = 2;
  lim.from = ns(100);
  Timeline tl(lim);
  const TrackId t = tl.track("core0", "busy");
  for (Ps k = 0; k < 10; ++k) tl.instant(t, "early", "core", ns(k));
  tl.instant(t, "a", "core", ns(100));
  tl.instant(t, "b", "core", ns(101));
  tl.instant(t, "c", "core", ns(102));
  EXPECT_EQ(tl.recorded(), 2u);
  EXPECT_EQ(tl.dropped(), 1u);
  EXPECT_EQ(tl.outside_window(), 10u);
}

TEST(TimelineBounds, CountersStartTheWindowAtTheirLastEarlierValue) {
  TimelineLimits lim;
  lim.from = ns(100);
  Timeline tl(lim);
  const TrackId h2d = tl.track("link", "h2d");
  const TrackId d2h = tl.track("link", "d2h");
  tl.counter(h2d, "queue", ns(10), 1);
  tl.counter(h2d, "queue", ns(50), 3);   // latest before the window
  tl.counter(h2d, "queue", ns(20), 2);   // called later, but earlier in time
  tl.counter(h2d, "queue", ns(150), 4);
  tl.counter(d2h, "queue", ns(90), 5);
  tl.counter(d2h, "queue", ns(100), 6);  // exactly at the window start: written after the carry
  EXPECT_EQ(tl.recorded(), 2u);
  EXPECT_EQ(tl.outside_window(), 4u);
  std::vector<std::pair<std::string, double>> samples;
  std::vector<double> times;
  for (const json& c : events_of(parse(tl), "C")) {
    samples.emplace_back(c.at("name"), c.at("args").at("value"));
    times.push_back(c.at("ts"));
  }
  EXPECT_EQ(samples, (std::vector<std::pair<std::string, double>>{
                         {"h2d/queue", 3}, {"h2d/queue", 4}, {"d2h/queue", 5}, {"d2h/queue", 6}}));
  EXPECT_EQ(times, (std::vector<double>{0.1, 0.15, 0.1, 0.1}));
}

TEST(TimelineBounds, ACategoryListRecordsOnlyThoseCategories) {
  TimelineLimits lim;
  lim.categories = {"dram", "counter", "typo"};
  lim.category_max = {{"dram", 2}, {"l2", 5}};
  Timeline tl(lim);
  const TrackId dram = tl.track("dram", "ch0");
  const TrackId core = tl.track("core0", "busy");
  const CategoryId core_cat = tl.category("core");
  const CategoryId dram_cat = tl.category("dram");
  EXPECT_FALSE(tl.records(core_cat));
  EXPECT_TRUE(tl.records(dram_cat));
  EXPECT_FALSE(tl.records(CategoryId{}));
  for (Ps k = 0; k < 3; ++k) {
    tl.interval(dram, "rd", "dram", ns(k), ns(k + 1));             // 2 kept, 1 dropped by the cap
    tl.interval(core, tl.name("busy"), core_cat, ns(k), ns(k + 1));  // filtered out
    tl.instant(core, "retire", "core", ns(k));                      // filtered out
  }
  tl.counter(dram, "queue", ns(1), 1);
  EXPECT_EQ(tl.recorded(), 3u);
  EXPECT_EQ(tl.recorded("dram"), 2u);
  EXPECT_EQ(tl.recorded("core"), 0u);
  EXPECT_EQ(tl.recorded("counter"), 1u);
  EXPECT_EQ(tl.filtered_out(), 6u);
  EXPECT_EQ(tl.dropped(), 1u);  // filtered events are not "dropped"
  EXPECT_EQ(tl.dropped("core"), 0u);
  // "l2" only has a cap and "typo" only a listing, and no call used either: likely typos.
  EXPECT_EQ(tl.unused_categories(), (std::vector<std::string>{"l2", "typo"}));

  const json doc = parse(tl);
  EXPECT_EQ(non_metadata(doc), 4u);  // and the marker of the dropped dram interval
  const json& t = doc.at("otherData").at("trace");
  EXPECT_EQ(t.at("events_filtered_out"), 6);
  EXPECT_EQ(t.at("categories"), json::parse(R"(["counter","dram","typo"])"));
  EXPECT_EQ(t.at("recorded_by_category"), json::parse(R"({"counter":1,"dram":2})"));
  EXPECT_EQ(t.at("dropped_by_category"), json::parse(R"({"dram":1})"));
}

TEST(TimelineBounds, AFilteredOutCounterIsNotCarriedIntoTheWindow) {
  TimelineLimits lim;
  lim.categories = {"core"};
  lim.from = ns(100);
  Timeline tl(lim);
  const TrackId t = tl.track("link", "h2d");
  tl.counter(t, "queue", ns(10), 1);
  tl.counter(t, "queue", ns(150), 2);
  EXPECT_EQ(tl.filtered_out(), 2u);
  EXPECT_EQ(tl.outside_window(), 0u);
  EXPECT_TRUE(events_of(parse(tl), "C").empty());
  EXPECT_EQ(tl.unused_categories(), std::vector<std::string>{"core"});
}

TEST(TimelineBounds, WithoutACategoryListEverythingIsRecordedAndNothingIsUnused) {
  Timeline tl;
  tl.counter(tl.track("a", "b"), "n", 0, 1);
  EXPECT_TRUE(tl.records(tl.category("anything")));
  EXPECT_EQ(tl.filtered_out(), 0u);
  EXPECT_TRUE(tl.unused_categories().empty());
  EXPECT_TRUE(parse(tl).at("otherData").at("trace").at("categories").is_null());

  TimelineLimits lim;
  lim.categories = {"counter"};
  Timeline counters_listed(lim);
  EXPECT_EQ(counters_listed.unused_categories(), std::vector<std::string>{"counter"});
  counters_listed.counter(counters_listed.track("a", "b"), "n", 0, 1);
  EXPECT_TRUE(counters_listed.unused_categories().empty());
}

}  // namespace
}  // namespace par::trace
