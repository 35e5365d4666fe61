// Timeline: the JSON document's structure, tracks and metadata, times, arguments, counters,
// escaping, ordering and determinism.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <stdexcept>

#include "support/temp_dir.hpp"
#include "par/trace/timeline.hpp"
#include "trace_test_util.hpp"

namespace par::trace {
namespace {

using testing::events_of;
using testing::json;
using testing::json_text;
using testing::Names;
using testing::parse;
using testing::ns;

// A run shaped like the platform's: every track of the proposed naming convention.
Timeline platform_like() {
  Timeline tl;
  const TrackId host = tl.track("host", "ops");
  const TrackId h2d = tl.track("link", "h2d");
  const TrackId d2h = tl.track("link", "d2h");
  const TrackId sched = tl.track("scheduler", "launches");
  const TrackId busy0 = tl.track("core0", "busy");
  const TrackId stall0 = tl.track("core0", "stall");
  const TrackId busy1 = tl.track("core1", "busy");
  const TrackId bank0 = tl.track("l2", "bank0");
  const TrackId ch0 = tl.track("dram", "ch0");
  tl.interval(host, "write_mem", "host", ns(0), ns(100), {Arg::hex("addr", 0x1000), {"bytes", 256}});
  tl.interval(h2d, "packet", "link", ns(10), ns(90), {{"bytes", 64}});
  tl.interval(sched, "kernel 0", "launch", ns(100), ns(900));
  tl.interval(busy0, "busy", "core", ns(110), ns(500));
  tl.interval(stall0, "stall", "core", ns(200), ns(260), {{"reason", "l2 miss"}});
  tl.interval(busy1, "busy", "core", ns(110), ns(700));
  tl.interval(bank0, "read", "l2", ns(205), ns(210), {{"hit", false}});
  tl.interval(ch0, "read", "dram", ns(211), ns(250));
  tl.instant(sched, "done", "launch", ns(900));
  tl.interval(d2h, "packet", "link", ns(910), ns(990));
  tl.counter(h2d, "queue", ns(10), 1);
  tl.counter(h2d, "queue", ns(90), 0);
  return tl;
}

TEST(Timeline, EmptyTimelineIsAValidDocument) {
  const json doc = parse(Timeline{});
  ASSERT_TRUE(doc.is_object());
  EXPECT_TRUE(doc.at("traceEvents").is_array());
  EXPECT_TRUE(doc.at("traceEvents").empty());
  EXPECT_EQ(doc.at("displayTimeUnit"), "ns");
  const json& t = doc.at("otherData").at("trace");
  EXPECT_EQ(t.at("producer"), "parsys");
  EXPECT_EQ(t.at("events_recorded"), 0);
  EXPECT_EQ(t.at("events_dropped"), 0);
  EXPECT_EQ(t.at("events_outside_window"), 0);
  EXPECT_EQ(t.at("events_filtered_out"), 0);
  EXPECT_EQ(t.at("max_events"), 1000000);
  EXPECT_EQ(t.at("window_from_us"), 0);
  EXPECT_TRUE(t.at("window_to_us").is_null());
}

TEST(Timeline, EveryEventHasTheRequiredFieldsAndTheCountsAreExact) {
  const Timeline tl = platform_like();
  const json doc = parse(tl);
  const json& events = doc.at("traceEvents");
  for (const json& e : events) {
    ASSERT_TRUE(e.contains("ph")) << e;
    EXPECT_TRUE(e.at("name").is_string()) << e;
    EXPECT_TRUE(e.at("pid").is_number_integer()) << e;
    EXPECT_TRUE(e.at("tid").is_number_integer()) << e;
    EXPECT_TRUE(e.at("ts").is_number()) << e;
    if (e.at("ph") == "X") {
      EXPECT_TRUE(e.at("dur").is_number()) << e;
    }
    if (e.at("ph") == "i") {
      EXPECT_EQ(e.at("s"), "t") << e;
    }
    if (e.at("ph") != "M") {
      EXPECT_TRUE(e.at("cat").is_string()) << e;
    }
  }
  // 7 processes, 9 threads: a name and a sort index each.
  EXPECT_EQ(events_of(doc, "M").size(), 2u * 7 + 2u * 9);
  EXPECT_EQ(events_of(doc, "X").size(), 9u);
  EXPECT_EQ(events_of(doc, "i").size(), 1u);
  EXPECT_EQ(events_of(doc, "C").size(), 2u);
  EXPECT_EQ(events.size(), 32u + 12u);
  EXPECT_EQ(tl.recorded(), 12u);
  EXPECT_EQ(tl.recorded("core"), 3u);
  EXPECT_EQ(tl.recorded("counter"), 2u);
  EXPECT_EQ(doc.at("otherData").at("trace").at("events_recorded"), 12);
  EXPECT_EQ(doc.at("otherData").at("trace").at("recorded_by_category"),
            json::parse(R"({"core":3,"counter":2,"dram":1,"host":1,"l2":1,"launch":2,"link":2})"));
}

TEST(Timeline, ProcessesAndThreadsAreNamedInCreationOrder) {
  const json doc = parse(platform_like());
  const Names names(doc);
  std::vector<std::string> processes;
  for (const auto& [pid, name] : names.process) processes.push_back(name);
  EXPECT_EQ(processes, (std::vector<std::string>{"host", "link", "scheduler", "core0", "core1",
                                                 "l2", "dram"}));
  std::vector<std::string> threads;
  for (const auto& [key, name] : names.thread) threads.push_back(names.process.at(key.first) + "/" + name);
  EXPECT_EQ(threads, (std::vector<std::string>{"host/ops", "link/h2d", "link/d2h",
                                               "scheduler/launches", "core0/busy", "core0/stall",
                                               "core1/busy", "l2/bank0", "dram/ch0"}));
  // pids 1..P in display order; tids above every pid, unique across the file.
  EXPECT_EQ(names.process.begin()->first, 1);
  for (const auto& [key, name] : names.thread) EXPECT_GT(key.second, 7) << name;
  for (const auto& [pid, index] : names.process_sort) EXPECT_EQ(index, pid - 1);
  int expected_thread_index = 0;
  for (const auto& [key, index] : names.thread_sort) EXPECT_EQ(index, expected_thread_index++);
}

TEST(Timeline, EventsLandOnTheirTracks) {
  const json doc = parse(platform_like());
  const Names names(doc);
  std::map<std::string, std::vector<std::string>> by_track;
  for (const json& e : doc.at("traceEvents")) {
    if (e.at("ph") != "M") by_track[names.track_of(e)].push_back(e.at("name"));
  }
  EXPECT_EQ(by_track["core0/stall"], std::vector<std::string>{"stall"});
  EXPECT_EQ(by_track["scheduler/launches"], (std::vector<std::string>{"kernel 0", "done"}));
  EXPECT_EQ(by_track["link/h2d"], (std::vector<std::string>{"packet", "h2d/queue", "h2d/queue"}));
  EXPECT_EQ(by_track["dram/ch0"], std::vector<std::string>{"read"});
  EXPECT_EQ(by_track.size(), 9u);
}

TEST(Timeline, TheSameProcessAndThreadGiveTheSameTrack) {
  Timeline tl;
  const TrackId a = tl.track("core0", "busy");
  const TrackId b = tl.track("core0", "stall");
  EXPECT_EQ(tl.track("core0", "busy").index, a.index);
  EXPECT_NE(a.index, b.index);
  EXPECT_NE(tl.track("core1", "busy").index, a.index);
  EXPECT_FALSE(TrackId{}.valid());
}

TEST(Timeline, TimesAreMicrosecondsWithExactPicoseconds) {
  Timeline tl;
  const TrackId t = tl.track("dram", "ch0");
  tl.interval(t, "a", "dram", 1'234'567, 1'234'567 + 1'500);  // 1.234567 us for 1.5 ns
  tl.interval(t, "b", "dram", ns(2'000'000), ns(2'000'001));  // 2000 us for 1 ns
  tl.instant(t, "c", "dram", 999);                           // 0.000999 us
  tl.interval(t, "d", "dram", 0, 0);
  const std::string text = json_text(tl);
  EXPECT_NE(text.find("\"ts\":1.234567,\"dur\":0.0015"), std::string::npos) << text;
  EXPECT_NE(text.find("\"ts\":2000,\"dur\":0.001"), std::string::npos) << text;
  EXPECT_NE(text.find("\"ts\":0.000999"), std::string::npos) << text;
  EXPECT_NE(text.find("\"ts\":0,\"dur\":0"), std::string::npos) << text;
  const json doc = json::parse(text);
  const auto x = events_of(doc, "X");
  ASSERT_EQ(x.size(), 3u);
  // Parsed back, nanoseconds survive: ts * 1000 rounds to the ns we put in.
  EXPECT_EQ(std::llround(x[2].at("ts").get<double>() * 1e6), 2'000'000'000);
  EXPECT_EQ(std::llround(x[2].at("dur").get<double>() * 1e3), 1);
}

TEST(Timeline, ArgumentsKeepTheirTypes) {
  Timeline tl;
  const TrackId t = tl.track("l2", "bank0");
  tl.interval(t, "read", "l2", 0, 10,
              {Arg::hex("addr", 0x8000'0040), {"bytes", 64u}, {"delta", -3}, {"hit", true},
               {"ratio", 0.25}, {"op", "fill"}, {"big", std::uint64_t{18446744073709551615u}},
               {"nan", std::nan("")}});
  tl.instant(t, "zero_hex", "l2", 5, {Arg::hex("addr", 0)});
  const json doc = parse(tl);
  const json args = events_of(doc, "X").at(0).at("args");
  EXPECT_EQ(args.at("addr"), "0x80000040");
  EXPECT_EQ(args.at("bytes"), 64);
  EXPECT_EQ(args.at("delta"), -3);
  EXPECT_EQ(args.at("hit"), true);
  EXPECT_EQ(args.at("ratio"), 0.25);
  EXPECT_EQ(args.at("op"), "fill");
  EXPECT_EQ(args.at("big").get<std::uint64_t>(), 18446744073709551615u);
  EXPECT_EQ(args.at("nan"), "nan");
  EXPECT_EQ(args.size(), 8u);
  EXPECT_EQ(events_of(doc, "i").at(0).at("args").at("addr"), "0x0");
}

TEST(Timeline, EventsWithoutArgumentsHaveNoArgsField) {
  Timeline tl;
  tl.interval(tl.track("p", "t"), "a", "c", 0, 1);
  EXPECT_FALSE(events_of(parse(tl), "X").at(0).contains("args"));
}

TEST(Timeline, CountersAreNamedAfterTheirThreadAndCarryTheValue) {
  Timeline tl;
  tl.counter(tl.track("link", "h2d"), "queue", ns(5), 3);
  tl.counter(tl.track("link", "d2h"), "queue", ns(6), 1.5);
  tl.counter(tl.track("dram", ""), "in_flight", ns(7), 12);
  const auto c = events_of(parse(tl), "C");
  ASSERT_EQ(c.size(), 3u);
  EXPECT_EQ(c[0].at("name"), "h2d/queue");
  EXPECT_EQ(c[0].at("args"), json::parse(R"({"value":3})"));
  EXPECT_EQ(c[0].at("cat"), "counter");
  EXPECT_EQ(c[1].at("name"), "d2h/queue");
  EXPECT_EQ(c[1].at("args").at("value"), 1.5);
  EXPECT_EQ(c[2].at("name"), "in_flight");
  EXPECT_NE(c[0].at("pid"), c[2].at("pid"));
}

TEST(Timeline, OddNamesAreEscapedAndInvalidUtf8IsReplaced) {
  Timeline tl;
  const std::string odd = "q\"b\\s/n\nt\tc\x01 \x7f \xc2\xb5s \xe2\x82\xac";
  const TrackId t = tl.track("pro\"cess", "thr\\ead\n");
  tl.interval(t, odd, "c\"at", 0, 1, {{"k\"ey", "v\x02"}});
  tl.instant(t, "bad \xff\xfe utf8 \xc3", "c", 2);         // invalid bytes, truncated sequence
  tl.instant(t, "surrogate \xed\xa0\x80 overlong \xc0\xaf", "c", 3);
  const std::string text = json_text(tl);
  EXPECT_NE(text.find("\\u0001"), std::string::npos);
  EXPECT_NE(text.find("\"q\\\"b\\\\s/n\\nt\\tc\\u0001"), std::string::npos) << text;
  const json doc = json::parse(text);  // strict: throws on invalid JSON or UTF-8
  const Names names(doc);
  EXPECT_EQ(names.process.at(1), "pro\"cess");
  const auto x = events_of(doc, "X");
  EXPECT_EQ(x.at(0).at("name"), odd);
  EXPECT_EQ(x.at(0).at("cat"), "c\"at");
  EXPECT_EQ(x.at(0).at("args").at("k\"ey"), "v\x02");
  EXPECT_EQ(names.thread.at({1, x.at(0).at("tid").get<int>()}), "thr\\ead\n");
  const auto i = events_of(doc, "i");
  EXPECT_EQ(i.at(0).at("name"), "bad \xef\xbf\xbd\xef\xbf\xbd utf8 \xef\xbf\xbd");
  EXPECT_EQ(i.at(1).at("name"),
            "surrogate \xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd overlong \xef\xbf\xbd\xef\xbf\xbd");
}

TEST(Timeline, EachTrackIsWrittenInTimeOrderWhateverTheCallOrder) {
  Timeline tl;
  const TrackId a = tl.track("core0", "busy");
  const TrackId b = tl.track("core1", "busy");
  // Loosely timed: core1 ran ahead, then core0 caught up.
  tl.interval(b, "b3", "core", ns(300), ns(350));
  tl.interval(b, "b1", "core", ns(100), ns(150));
  tl.interval(a, "a2", "core", ns(200), ns(250));
  tl.interval(a, "a1", "core", ns(0), ns(50));
  tl.interval(b, "b2", "core", ns(200), ns(250));
  std::vector<std::string> order;
  for (const json& e : events_of(parse(tl), "X")) order.push_back(e.at("name"));
  EXPECT_EQ(order, (std::vector<std::string>{"a1", "a2", "b1", "b2", "b3"}));
}

TEST(Timeline, AParentStartingWithItsChildIsWrittenFirst) {
  Timeline tl;
  const TrackId t = tl.track("host", "ops");
  tl.interval(t, "child", "host", ns(10), ns(20));
  tl.interval(t, "parent", "host", ns(10), ns(90));
  std::vector<std::string> order;
  for (const json& e : events_of(parse(tl), "X")) order.push_back(e.at("name"));
  EXPECT_EQ(order, (std::vector<std::string>{"parent", "child"}));
}

TEST(Timeline, OutputIsDeterministicAndIdsGiveTheSameBytesAsStrings) {
  const std::string a = json_text(platform_like());
  EXPECT_EQ(a, json_text(platform_like()));

  Timeline by_text, by_id;
  const TrackId t1 = by_text.track("dram", "ch0");
  const TrackId t2 = by_id.track("dram", "ch0");
  const NameId read = by_id.name("read");
  const CategoryId dram = by_id.category("dram");
  const NameId depth = by_id.name("depth");
  for (Ps k = 0; k < 5; ++k) {
    by_text.interval(t1, "read", "dram", ns(k * 10), ns(k * 10 + 5), {{"bank", k}});
    by_id.interval(t2, read, dram, ns(k * 10), ns(k * 10 + 5), {{"bank", k}});
    by_text.instant(t1, "read", "dram", ns(k * 10 + 1));
    by_id.instant(t2, read, dram, ns(k * 10 + 1));
    by_text.counter(t1, "depth", ns(k * 10), static_cast<double>(k));
    by_id.counter(t2, depth, ns(k * 10), static_cast<double>(k));
  }
  EXPECT_EQ(json_text(by_text), json_text(by_id));
}

TEST(Timeline, ProcessSortIndexReordersProcesses) {
  Timeline tl;
  tl.set_process_sort_index("host", -1);  // before it exists
  tl.track("core0", "busy");
  tl.track("dram", "ch0");
  tl.track("host", "ops");
  tl.set_process_sort_index("dram", 10);
  const Names names(parse(tl));
  EXPECT_EQ(names.process, (std::map<int, std::string>{{1, "host"}, {2, "core0"}, {3, "dram"}}));
}

TEST(Timeline, InfoGoesIntoOtherData) {
  Timeline tl;
  tl.set_info("command", "parsys run k.par");
  tl.set_info("config", "xd1000");
  tl.set_info("command", "parsys run j.par");  // replaces
  const json other = parse(tl).at("otherData");
  EXPECT_EQ(other.at("command"), "parsys run j.par");
  EXPECT_EQ(other.at("config"), "xd1000");
  EXPECT_EQ(other.size(), 3u);
  EXPECT_THROW(tl.set_info("trace", "x"), std::invalid_argument);
}

TEST(Timeline, AnUnknownTrackIsRejected) {
  Timeline tl;
  tl.track("a", "b");
  EXPECT_THROW(tl.interval(TrackId{}, "x", "c", 0, 1), std::invalid_argument);
  EXPECT_THROW(tl.instant(TrackId{7}, "x", "c", 0), std::invalid_argument);
  EXPECT_THROW(tl.counter(TrackId{1}, "x", 0, 1.0), std::invalid_argument);
  EXPECT_EQ(tl.recorded(), 0u);
}

TEST(Timeline, UnknownNameAndCategoryIdsAreRejected) {
  Timeline tl;
  const TrackId t = tl.track("a", "b");
  const NameId name = tl.name("x");
  const CategoryId cat = tl.category("c");
  EXPECT_THROW(tl.interval(t, NameId{}, cat, 0, 1), std::invalid_argument);
  EXPECT_THROW(tl.instant(t, name, CategoryId{}, 0), std::invalid_argument);
  EXPECT_THROW(tl.counter(t, NameId{99}, 0, 1.0), std::invalid_argument);
  try {
    tl.interval(t, name, CategoryId{7}, 0, 1);
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "timeline: unknown category id 7");
  }
  tl.interval(t, name, cat, 0, 1);
  EXPECT_EQ(tl.recorded(), 1u);
}

TEST(Timeline, AnEndBeforeTheBeginRecordsZeroLength) {
  Timeline tl;
  tl.interval(tl.track("a", "b"), "x", "c", ns(5), ns(3));
  const auto x = events_of(parse(tl), "X");
  EXPECT_EQ(x.at(0).at("ts"), 0.005);
  EXPECT_EQ(x.at(0).at("dur"), 0);
}

TEST(Timeline, TrackRefIsANoOpWithoutATimeline) {
  const TrackRef off;
  EXPECT_FALSE(off.enabled());
  off.interval("x", "c", 0, 1);
  off.instant("x", "c", 0);
  off.counter("x", 0, 1);

  Timeline tl;
  const TrackRef on(&tl, "core0", "busy");
  EXPECT_TRUE(on.enabled());
  on.interval("x", "c", 0, 1, {{"n", 1}});
  on.instant(tl.name("y"), tl.category("c"), 2);
  on.counter("z", 3, 4.0);
  EXPECT_EQ(tl.recorded(), 3u);
  EXPECT_EQ(on.id().index, tl.track("core0", "busy").index);
}

TEST(Timeline, WritesFilesAndReportsFailures) {
  Timeline tl = platform_like();
  const std::string path = par::testing::temp_dir("timeline") + "/timeline.json";
  std::string error;
  ASSERT_TRUE(tl.write_json_file(path, &error)) << error;
  std::ifstream in(path);
  const json doc = json::parse(in);
  EXPECT_EQ(events_of(doc, "X").size(), 9u);
  std::remove(path.c_str());

  EXPECT_FALSE(tl.write_json_file("/nonexistent-dir/x.json", &error));
  EXPECT_EQ(error, "cannot write '/nonexistent-dir/x.json': No such file or directory");
}

TEST(Timeline, AnEventIs32Bytes) {
  EXPECT_EQ(sizeof(Timeline::Event), 32u);
  EXPECT_EQ(sizeof(Timeline::StoredArg), 16u);
}

}  // namespace
}  // namespace par::trace
