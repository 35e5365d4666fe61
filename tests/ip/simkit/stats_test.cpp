// Statistics: tree, JSON document, lookup, formulas, distributions and the table.
#include "par/simkit/stats.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <stdexcept>

namespace par::simkit {
namespace {

// Rows of a statistics table, split at blanks: name -> {value, unit, description words...}.
std::map<std::string, std::vector<std::string>> table_rows(const std::string& table) {
  std::map<std::string, std::vector<std::string>> rows;
  std::istringstream lines(table);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::string name;
    words >> name;
    for (std::string w; words >> w;) rows[name].push_back(w);
  }
  return rows;
}

// A small platform: two cores with their own groups attached to an unnamed root, a shared L2.
struct Platform {
  StatGroup root;
  StatGroup core0{"platform.core0"};
  StatGroup core1{"platform.core1"};
  StatGroup l2{"platform.l2"};
  Counter* cycles0;
  Counter* insts0;
  Counter* cycles1;
  Real* busy_ns;
  Distribution* latency;
  Counter* hits;
  Counter* accesses;

  Platform() {
    cycles0 = &core0.counter("cycles", "cycles", "Simulated core cycles");
    insts0 = &core0.counter("thread_insts", "thread-instructions", "Executed thread-instructions");
    core0.formula("ipc", "ratio", "Thread-instructions per cycle",
                  [](const StatView& s) { return s["thread_insts"] / s["cycles"]; });
    StatGroup& lsu = core0.group("lsu");
    lsu.counter("loads", "instructions", "Load instructions");
    cycles1 = &core1.counter("cycles", "cycles", "Simulated core cycles");
    hits = &l2.counter("hits", "accesses", "Hits");
    accesses = &l2.counter("accesses", "accesses", "Accesses");
    l2.formula(
        "hit_rate", "ratio", "Hits per access",
        [](const StatView& s) { return s["hits"] / s["accesses"]; }, Format::percent(2));
    latency =
        &l2.distribution("latency", "cycles", "Access latency", Buckets::log2(4), Format::fixed(1));
    busy_ns = &l2.real("busy", "ns", "Time with a request in flight");
    root.attach(core0);
    root.attach(core1);
    root.attach(l2);
  }
};

TEST(StatsTree, PathsAndLookup) {
  Platform p;
  *p.cycles0 += 100;
  EXPECT_EQ(p.cycles0->path(), "platform.core0.cycles");
  EXPECT_EQ(p.core0.path(), "platform.core0");
  EXPECT_EQ(p.core0.group("lsu").path(), "platform.core0.lsu");
  EXPECT_EQ(p.root.find("platform.core0.cycles"), p.cycles0);
  EXPECT_EQ(p.root.find("platform.l2.latency"), p.latency);
  EXPECT_EQ(p.core0.find("cycles"), p.cycles0);
  EXPECT_NE(p.root.find("platform.core0.lsu.loads"), nullptr);
  EXPECT_EQ(p.root.find("platform.core0"), nullptr);
  EXPECT_EQ(p.root.find("platform.core2.cycles"), nullptr);
  EXPECT_EQ(p.root.find(""), nullptr);
  EXPECT_EQ(p.root.find_group("platform.core0"), &p.core0);
  EXPECT_EQ(p.root.find_group("platform.core0.lsu"), &p.core0.group("lsu"));
  EXPECT_EQ(p.root.find_group("platform"), nullptr);  // only a level of the names
  EXPECT_EQ(p.root.find("platform.core0.cycles")->number(), 100.0);
}

TEST(StatsJson, NestedByGroupInRegistrationOrder) {
  Platform p;
  *p.cycles0 += 1000;
  *p.insts0 += 2500;
  ++*p.cycles1;
  *p.hits += 3;
  *p.accesses += 4;
  *p.busy_ns += 12.25;
  const Json j = p.root.to_json();
  ASSERT_TRUE(j.contains("platform"));
  std::vector<std::string> keys;
  for (auto it = j["platform"].begin(); it != j["platform"].end(); ++it) keys.push_back(it.key());
  EXPECT_EQ(keys, (std::vector<std::string>{"core0", "core1", "l2"}));
  keys.clear();
  for (auto it = j["platform"]["core0"].begin(); it != j["platform"]["core0"].end(); ++it) {
    keys.push_back(it.key());
  }
  EXPECT_EQ(keys, (std::vector<std::string>{"cycles", "thread_insts", "ipc", "lsu"}));

  const Json& cycles = j["platform"]["core0"]["cycles"];
  EXPECT_EQ(cycles["value"], 1000);
  EXPECT_TRUE(cycles["value"].is_number_unsigned());
  EXPECT_EQ(cycles["unit"], "cycles");
  EXPECT_EQ(cycles["desc"], "Simulated core cycles");
  EXPECT_EQ(cycles["kind"], "counter");
  EXPECT_EQ(j["platform"]["core0"]["ipc"]["value"], 2.5);
  EXPECT_EQ(j["platform"]["core0"]["ipc"]["kind"], "formula");
  EXPECT_EQ(j["platform"]["core0"]["lsu"]["loads"]["value"], 0);
  EXPECT_EQ(j["platform"]["l2"]["hit_rate"]["value"], 0.75);
  EXPECT_EQ(j["platform"]["l2"]["busy"]["value"], 12.25);
  EXPECT_EQ(j["platform"]["l2"]["busy"]["kind"], "real");
  // 0/0 is undefined, and JSON has no NaN.
  EXPECT_TRUE(j["platform"]["core1"].contains("cycles"));
  EXPECT_EQ(find_stat(j, "platform.core0.thread_insts")->at("value"), 2500);
  EXPECT_EQ(find_stat(j, "platform.core0"), nullptr);
  EXPECT_EQ(find_stat(j, "platform.core0.cycles.value"), nullptr);
}

TEST(StatsJson, FullPrecisionSurvivesTheText) {
  StatGroup g;
  Real& r = g.real("x", "ns", "x");
  r.set(0.1 + 0.2);
  Counter& c = g.counter("c", "events", "c");
  c.set(18446744073709551615ull);
  const Json back = Json::parse(g.to_json().dump());
  EXPECT_EQ(back["x"]["value"].get<double>(), 0.1 + 0.2);
  EXPECT_EQ(back["c"]["value"].get<std::uint64_t>(), 18446744073709551615ull);
}

TEST(StatsDistribution, CountsBucketsAndExtremes) {
  Platform p;
  for (double v : {0.0, 1.0, 1.5, 3.0, 7.0, 100.0}) p.latency->sample(v);
  p.latency->sample(-1.0);
  p.latency->sample(2.0, 3);
  EXPECT_EQ(p.latency->count(), 10u);
  EXPECT_EQ(p.latency->min(), -1.0);
  EXPECT_EQ(p.latency->max(), 100.0);
  EXPECT_DOUBLE_EQ(p.latency->mean(), (0 + 1 + 1.5 + 3 + 7 + 100 - 1 + 6) / 10.0);
  EXPECT_EQ(p.latency->bounds(), (std::vector<double>{0, 1, 2, 4, 8}));
  EXPECT_EQ(p.latency->bucket_counts(), (std::vector<std::uint64_t>{1, 2, 4, 1}));
  EXPECT_EQ(p.latency->underflow(), 1u);
  EXPECT_EQ(p.latency->overflow(), 1u);

  const Json d = p.root.to_json()["platform"]["l2"]["latency"];
  EXPECT_EQ(d["kind"], "distribution");
  EXPECT_DOUBLE_EQ(d["value"].get<double>(), p.latency->mean());
  EXPECT_EQ(d["count"], 10);
  EXPECT_EQ(d["min"], -1.0);
  EXPECT_EQ(d["max"], 100.0);
  EXPECT_EQ(d["underflow"], 1);
  EXPECT_EQ(d["overflow"], 1);
  ASSERT_EQ(d["buckets"].size(), 4u);
  EXPECT_EQ(d["buckets"][2], (Json{{"lo", 2.0}, {"hi", 4.0}, {"count", 4}}));
}

TEST(StatsDistribution, EmptyIsUndefinedAndLinearBuckets) {
  StatGroup g("g");
  Distribution& d = g.distribution("q", "entries", "Queue depth", Buckets::linear(0, 10, 3));
  EXPECT_TRUE(std::isnan(d.mean()));
  const Json j = g.to_json();
  EXPECT_TRUE(j["q"]["value"].is_null());
  EXPECT_TRUE(j["q"]["min"].is_null());
  EXPECT_EQ(d.bounds(), (std::vector<double>{0, 10, 20, 30}));
  d.sample(29.999);
  d.sample(30);
  EXPECT_EQ(d.bucket_counts()[2], 1u);
  EXPECT_EQ(d.overflow(), 1u);
  d.reset();
  EXPECT_EQ(d.count(), 0u);
  EXPECT_EQ(d.overflow(), 0u);
  EXPECT_EQ(Buckets::edges({1, 5, 9}).bounds.size(), 3u);
  EXPECT_THROW(Buckets::edges({5, 1}), std::invalid_argument);
  EXPECT_THROW(Buckets::linear(0, 0, 3), std::invalid_argument);
}

// sample() tries the previous sample's bucket first: whatever the order of the values, every one
// lands where a search of the edges puts it (counted here independently, by a scan).
TEST(StatsDistribution, BucketsDoNotDependOnTheOrderOfSamples) {
  StatGroup g("g");
  const std::vector<double> edges{0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 125, 150};
  Distribution& d = g.distribution("lat", "ns", "latency", Buckets::edges(edges));
  std::vector<std::uint64_t> expected(edges.size() - 1, 0);
  std::uint64_t under = 0, over = 0;
  std::uint64_t x = 12345;
  for (int i = 0; i < 2000; ++i) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    // Runs of one bucket, jumps between buckets, the edges themselves, and out of range.
    const double v = (i % 7 == 0) ? edges[(x >> 33) % edges.size()] : static_cast<double>((x >> 40) % 170) - 10.0 + 0.5 * (i % 2);
    const std::uint64_t times = 1 + (x >> 60) % 3;
    d.sample(v, times);
    if (v < edges.front()) under += times;
    else if (v >= edges.back()) over += times;
    else
      for (std::size_t b = 0; b + 1 < edges.size(); ++b)
        if (v >= edges[b] && v < edges[b + 1]) expected[b] += times;
  }
  EXPECT_EQ(d.bucket_counts(), expected);
  EXPECT_EQ(d.underflow(), under);
  EXPECT_EQ(d.overflow(), over);
  // NaN falls in no bucket: it counts as overflow (and never touches a bucket).
  d.sample(std::nan(""));
  EXPECT_EQ(d.bucket_counts(), expected);
  EXPECT_EQ(d.overflow(), over + 1);
}

// locate() (the grid of edges buckets, the exponent of log2 buckets, the binary search of the
// rest) gives upper_bound's bucket for every value, and sample_at() of its answer is sample(): the
// same document.
TEST(StatsDistribution, LocateIsTheBucketSearchAndSampleAtIsSample) {
  const std::vector<std::vector<double>> layouts{
      {0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 125, 150, 175, 200, 250, 300, 400, 500, 750, 1000, 1500,
       2000, 5000, 10000},
      {-1.5, 0.1, 0.2, 0.30000000000000004, 7, 1e3},
      Buckets::log2(1).bounds,
      Buckets::log2(2).bounds,
      Buckets::log2(14).bounds,  // a cache's latency
      Buckets::log2(40).bounds,
      {0, 1, 2, 4, 8, 16, 33},  // log2 but for the last edge
  };
  for (const std::vector<double>& edges : layouts) {
    StatGroup g("g");
    Distribution& d = g.distribution("d", "ns", "located", Buckets::edges(edges));
    Distribution& same = g.distribution("same", "ns", "sampled", Buckets::edges(edges));
    std::vector<double> values{std::nan(""), -1e300, 1e300, edges.front(), edges.back(), -0.0, 1e-300, 5e-324,
                               std::numeric_limits<double>::infinity()};
    for (const double e : edges)
      for (double v = e, below = e, k = 0; k < 3; ++k) {
        values.push_back(v = std::nextafter(v, 1e308));
        values.push_back(below = std::nextafter(below, -1e308));
        values.push_back(e);
      }
    for (double v = edges.front() - 3; v < edges.back() + 3; v += (edges.back() - edges.front()) / 997.3) values.push_back(v);
    for (const double v : values) {
      const std::size_t where = d.locate(v);
      std::size_t expected = Distribution::kOverflow;
      if (v < edges.front()) expected = Distribution::kUnderflow;
      else if (v < edges.back())
        expected = static_cast<std::size_t>(std::upper_bound(edges.begin(), edges.end(), v) - edges.begin()) - 1;
      ASSERT_EQ(where, expected) << "value " << v;
      d.sample_at(v, where);
      same.sample(v);
    }
    const Json a = g.to_json();
    Json located = a["d"], sampled = a["same"];
    located.erase("desc");
    sampled.erase("desc");
    EXPECT_EQ(located.dump(), sampled.dump());
  }
  StatGroup g("g");
  Distribution& log = g.distribution("log", "ns", "log2", Buckets::log2(40));
  EXPECT_EQ(log.locate(0.5), 0u);
  EXPECT_EQ(log.locate(3), 2u);
  EXPECT_EQ(log.locate(std::ldexp(1.0, 38)), 39u);
  EXPECT_EQ(log.locate(std::ldexp(1.0, 39)), Distribution::kOverflow);
  EXPECT_EQ(log.locate(-1), Distribution::kUnderflow);
  Distribution& none = g.distribution("none", "ns", "no buckets");
  EXPECT_EQ(none.locate(1), Distribution::kNoBuckets);
  none.sample_at(4, none.locate(4));
  EXPECT_EQ(none.count(), 1u);
  EXPECT_EQ(none.sum(), 4.0);
}

TEST(StatsFormula, ViewReachesSubgroupsFormulasAndDistributionFields) {
  StatGroup g("g");
  g.counter("a", "events", "a").set(6);
  StatGroup& sub = g.group("sub");
  sub.counter("b", "events", "b").set(3);
  Distribution& d = sub.distribution("lat", "cycles", "latency");
  d.sample(10);
  d.sample(20);
  g.formula("ratio", "ratio", "a/b", [](const StatView& s) { return s["a"] / s["sub.b"]; });
  g.formula("twice", "ratio", "2*ratio", [](const StatView& s) { return 2 * s["ratio"]; });
  g.formula("lat_total", "cycles", "sum",
            [](const StatView& s) { return s["sub.lat.sum"] + s["sub.lat.count"]; });
  g.formula("lat_mean", "cycles", "mean", [](const StatView& s) { return s["sub.lat.mean"]; });
  g.formula("missing", "ratio", "unknown input", [](const StatView& s) { return s["nope"]; });
  g.formula("self", "ratio", "refers to itself", [](const StatView& s) { return s["self"]; });
  int calls = 0;
  g.formula("live", "events", "direct", [&calls] {
    ++calls;
    return 42.0;
  });
  const Json j = g.to_json();
  EXPECT_EQ(j["ratio"]["value"], 2.0);
  EXPECT_EQ(j["twice"]["value"], 4.0);
  EXPECT_EQ(j["lat_total"]["value"], 32.0);
  EXPECT_EQ(j["lat_mean"]["value"], 15.0);
  EXPECT_TRUE(j["missing"]["value"].is_null());
  EXPECT_TRUE(j["self"]["value"].is_null());
  EXPECT_EQ(j["live"]["value"], 42.0);
  EXPECT_EQ(g.find("twice")->number(), 4.0);
  EXPECT_EQ(g.find("live")->number(), 42.0);
}

TEST(StatsTable, AlignedRowsWithFormattedValues) {
  Platform p;
  *p.cycles0 += 1234567;
  *p.insts0 += 2469134;
  *p.hits += 99995;
  *p.accesses += 100000;
  p.latency->sample(3, 3);
  p.latency->sample(5);
  std::ostringstream os;
  p.root.write_table(os);
  const std::string t = os.str();
  std::istringstream lines(t);
  std::vector<std::string> rows;
  for (std::string line; std::getline(lines, line);) rows.push_back(line);
  ASSERT_GE(rows.size(), 10u);
  EXPECT_EQ(rows[0].rfind("statistic", 0), 0u);
  EXPECT_NE(t.find("platform.core0.cycles"), std::string::npos);
  EXPECT_NE(t.find(" 1234567  cycles"), std::string::npos);
  EXPECT_NE(t.find(" 2.000  ratio"), std::string::npos);  // ipc, fixed(3)
  auto table = table_rows(t);
  EXPECT_EQ(table["platform.l2.hit_rate"],
            (std::vector<std::string>{"100.00%", "ratio", "Hits", "per", "access"}));  // 0.99995
  EXPECT_EQ(table["platform.l2.latency"],
            (std::vector<std::string>{"3.5", "cycles", "Access", "latency", "(mean)"}));
  EXPECT_EQ(table["platform.l2.latency.min"][0], "3.0");
  EXPECT_EQ(table["platform.l2.latency.count"][0], "4");
  EXPECT_NE(t.find("platform.l2.latency.count"), std::string::npos);
  EXPECT_NE(t.find("platform.l2.latency[2,4) "), std::string::npos);
  EXPECT_NE(t.find("75.00% of samples"), std::string::npos);
  EXPECT_EQ(t.find("platform.l2.latency[0,1)"), std::string::npos) << "empty buckets are skipped";
  EXPECT_NE(t.find("platform.core1.cycles"), std::string::npos);
  // Values are right-aligned: every "cycles" unit column starts at the same offset.
  std::size_t unit_col = std::string::npos;
  for (const auto& row : rows) {
    if (row.rfind("platform.core0.cycles ", 0) == 0) unit_col = row.find("  cycles");
  }
  for (const auto& row : rows) {
    if (row.rfind("platform.core1.cycles ", 0) == 0) {
      EXPECT_EQ(row.find("  cycles"), unit_col);
    }
  }
}

TEST(StatsTable, RoundingAndUndefinedValues) {
  StatGroup g("g");
  g.real("a", "ratio", "a", Format::fixed(2)).set(0.125);
  g.real("b", "ratio", "b", Format::fixed(2)).set(0.995);
  g.real("c", "ratio", "c", Format::percent(2)).set(0.999921);
  g.real("d", "ratio", "d", Format::fixed(2)).set(2.745);
  g.formula("e", "ratio", "e", [](const StatView& s) { return s["zero"] / s["zero"]; });
  g.counter("zero", "events", "zero");
  std::ostringstream os;
  g.write_table(os);
  auto rows = table_rows(os.str());
  EXPECT_EQ(rows["g.a"][0], "0.13");
  EXPECT_EQ(rows["g.b"][0], "1.00");
  EXPECT_EQ(rows["g.c"][0], "99.99%");
  EXPECT_EQ(rows["g.d"][0], "2.75");
  EXPECT_EQ(rows["g.e"][0], "n/a");
  EXPECT_EQ(rows["g.zero"], (std::vector<std::string>{"0", "events", "zero"}));
  // Right-aligned values: every row's value ends in the same column.
  std::istringstream lines(os.str());
  std::set<std::size_t> ends;
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("g.", 0) != 0) continue;  // the header
    ends.insert(line.find(line.find(" ratio") != std::string::npos ? " ratio" : " events"));
  }
  EXPECT_EQ(ends.size(), 1u) << os.str();
}

TEST(StatsTable, HostMeasurementsDoNotMoveTheColumns) {
  // Two identical runs differ in host time only: their tables differ in that line only.
  const auto table = [](double host_seconds) {
    StatGroup g("run");
    g.counter("cycles", "cycles", "simulated").set(14726);
    Real& host = g.real("host_seconds", "s", "host time", Format::fixed(6));
    host.set(host_seconds);
    host.measures_host();
    g.real("simulated_ns", "ns", "simulated time", Format::fixed(3)).set(14726);
    std::ostringstream os;
    g.write_table(os);
    return os.str();
  };
  std::istringstream a(table(0.5)), b(table(123456.5));
  std::vector<std::string> differing;
  for (std::string la, lb; std::getline(a, la) && std::getline(b, lb);)
    if (la != lb) differing.push_back(la + " | " + lb);
  ASSERT_EQ(differing.size(), 1u) << ::testing::PrintToString(differing);
  EXPECT_NE(differing[0].find("run.host_seconds"), std::string::npos);
}

TEST(StatsTree, ResetClearsEverything) {
  Platform p;
  *p.cycles0 += 5;
  *p.busy_ns += 1.0;
  p.latency->sample(1);
  p.root.reset();
  EXPECT_EQ(p.cycles0->value(), 0u);
  EXPECT_EQ(p.busy_ns->value(), 0.0);
  EXPECT_EQ(p.latency->count(), 0u);
}

TEST(StatsTree, RegistrationErrorsThrow) {
  StatGroup g("m");
  g.counter("x", "events", "x");
  EXPECT_THROW(g.counter("x", "events", "again"), std::invalid_argument);
  EXPECT_THROW(g.group("x"), std::invalid_argument);
  EXPECT_THROW(g.counter("a.b", "events", "dotted"), std::invalid_argument);
  EXPECT_THROW(g.counter("", "events", "empty"), std::invalid_argument);
  EXPECT_THROW(StatGroup("bad name"), std::invalid_argument);
  StatGroup& sub = g.group("sub");
  EXPECT_EQ(&g.group("sub"), &sub);  // created once
  EXPECT_THROW(g.counter("sub", "events", "clash"), std::invalid_argument);
  StatGroup other("sub");
  EXPECT_THROW(g.attach(other), std::invalid_argument);
  StatGroup a("a");
  g.attach(a);
  StatGroup root2;
  EXPECT_THROW(root2.attach(a), std::invalid_argument);  // already attached
  EXPECT_THROW(a.attach(g), std::invalid_argument);      // cycle
  EXPECT_THROW(g.formula("f", "ratio", "no fn", Formula::Fn()), std::invalid_argument);
}

TEST(StatsTree, ADestroyedModuleGroupDetachesItself) {
  StatGroup root;
  auto module = std::make_unique<StatGroup>("platform.core0");
  module->counter("cycles", "cycles", "c");
  root.attach(*module);
  EXPECT_NE(root.find("platform.core0.cycles"), nullptr);
  module.reset();
  EXPECT_EQ(root.find("platform.core0.cycles"), nullptr);
  EXPECT_TRUE(root.to_json().empty());

  // And the other way round: the module outlives the root.
  StatGroup survivor("m");
  {
    StatGroup short_root;
    short_root.attach(survivor);
    EXPECT_EQ(survivor.path(), "m");
  }
  EXPECT_EQ(survivor.parent(), nullptr);
}

TEST(StatsTree, MergedLevelAndGroupOfTheSameNameShareAnObject) {
  StatGroup root;
  StatGroup top("platform");
  top.counter("host_seconds", "s", "host time");
  StatGroup core("platform.core0");
  core.counter("cycles", "cycles", "c");
  root.attach(top);
  root.attach(core);
  const Json j = root.to_json();
  EXPECT_TRUE(j["platform"].contains("host_seconds"));
  EXPECT_TRUE(j["platform"].contains("core0"));
  EXPECT_NE(root.find("platform.host_seconds"), nullptr);
  EXPECT_NE(root.find("platform.core0.cycles"), nullptr);
}

}  // namespace
}  // namespace par::simkit
