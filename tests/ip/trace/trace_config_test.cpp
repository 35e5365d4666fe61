// TraceConfig: options on the command line, validation messages, and the recorders it builds.
#include <gtest/gtest.h>

#include <set>
#include <sstream>
#include <stdexcept>

#include "par/simkit/options.hpp"
#include "par/trace/trace_config.hpp"

namespace par::trace {
namespace {

TEST(TraceConfig, DefaultsAskForNothing) {
  const TraceConfig cfg;
  EXPECT_TRUE(cfg.validate().empty());
  EXPECT_EQ(make_timeline(cfg), nullptr);
  EXPECT_EQ(make_vcd(cfg), nullptr);
  const TimelineLimits lim = timeline_limits(cfg);
  EXPECT_EQ(lim.max_events, 1'000'000u);
  EXPECT_TRUE(lim.category_max.empty());
  EXPECT_EQ(lim.from, 0u);
  EXPECT_EQ(lim.to, kEndOfTime);
}

TEST(TraceConfig, CommandLineOptionsFillTheConfig) {
  simkit::OptionRegistry reg;
  TraceConfig cfg;
  register_options(reg, cfg);
  const auto r = reg.parse(std::vector<std::string>{
      "--trace.timeline", "run.json", "--trace.max_events", "5K", "--trace.categories", "core",
      "--trace.categories", "dram", "--trace.category_max",
      "dram=100", "--trace.category_max", "l2=0", "--trace.from_ns", "1000", "--trace.to_ns",
      "2500.5", "--trace.vcd", "run.vcd", "--trace.signals", "core*.stall", "--trace.signals", "link",
      "--trace.max_changes", "77"});
  ASSERT_TRUE(r.ok()) << r.errors.front();
  EXPECT_EQ(cfg.timeline_file, "run.json");
  EXPECT_EQ(cfg.vcd_file, "run.vcd");
  EXPECT_TRUE(cfg.validate().empty());

  const TimelineLimits lim = timeline_limits(cfg);
  EXPECT_EQ(lim.max_events, 5120u);
  EXPECT_EQ(lim.categories, (std::set<std::string, std::less<>>{"core", "dram"}));
  EXPECT_EQ(lim.category_max, (std::map<std::string, std::uint64_t, std::less<>>{{"dram", 100}, {"l2", 0}}));
  EXPECT_EQ(lim.from, 1'000'000u);
  EXPECT_EQ(lim.to, 2'500'500u);
  const auto tl = make_timeline(cfg);
  ASSERT_NE(tl, nullptr);
  EXPECT_EQ(tl->limits().to, 2'500'500u);

  const auto vcd = make_vcd(cfg);
  ASSERT_NE(vcd, nullptr);
  EXPECT_EQ(vcd->max_changes(), 77u);
  EXPECT_TRUE(vcd->is_selected("core3.stall"));
  EXPECT_TRUE(vcd->is_selected("link.h2d.busy"));
  EXPECT_FALSE(vcd->is_selected("core3.busy"));
}

TEST(TraceConfig, FileOptionsAreCommandLineOnly) {
  simkit::OptionRegistry reg;
  TraceConfig cfg;
  register_options(reg, cfg);
  EXPECT_TRUE(reg.find("trace.timeline")->is_command_line_only());
  EXPECT_TRUE(reg.find("trace.vcd")->is_command_line_only());
  EXPECT_FALSE(reg.find("trace.max_events")->is_command_line_only());
  const std::string ini = reg.effective_ini();
  EXPECT_EQ(ini.find("timeline"), std::string::npos) << ini;
  EXPECT_EQ(ini.find("vcd ="), std::string::npos) << ini;
  EXPECT_NE(ini.find("max_events = 1000000"), std::string::npos) << ini;
}

TEST(TraceConfig, OutOfRangeValuesAreRejectedByTheRegistry) {
  simkit::OptionRegistry reg;
  TraceConfig cfg;
  register_options(reg, cfg);
  const auto r = reg.parse(std::vector<std::string>{"--trace.max_events", "0", "--trace.from_ns", "-1"});
  ASSERT_EQ(r.errors.size(), 2u);
  EXPECT_NE(r.errors[0].find("trace.max_events"), std::string::npos) << r.errors[0];
  EXPECT_NE(r.errors[1].find("trace.from_ns"), std::string::npos) << r.errors[1];
}

TEST(TraceConfig, ValidateNamesTheOption) {
  TraceConfig cfg;
  cfg.max_events = 0;
  cfg.max_changes = 0;
  cfg.categories = {"core", ""};
  cfg.category_max = {"dram", "=5", "l2=", "l2=x", "core=12", "a=99999999999999999999"};
  cfg.from_ns = 200;
  cfg.to_ns = 100;
  cfg.signals = {"core*", ""};
  EXPECT_EQ(cfg.validate(),
            (std::vector<std::string>{
                "trace.max_events: 0 is out of range >= 1",
                "trace.max_changes: 0 is out of range >= 1",
                "trace.categories: empty category name",
                "trace.category_max: 'dram' is not CATEGORY=N (N a decimal count)",
                "trace.category_max: '=5' is not CATEGORY=N (N a decimal count)",
                "trace.category_max: 'l2=' is not CATEGORY=N (N a decimal count)",
                "trace.category_max: 'l2=x' is not CATEGORY=N (N a decimal count)",
                "trace.category_max: 'a=99999999999999999999' is not CATEGORY=N (N a decimal count)",
                "trace.to_ns: 100 is not after trace.from_ns = 200 (0 means the end of the run)",
                "trace.signals: empty pattern"}));
  EXPECT_THROW(make_timeline(cfg), std::invalid_argument);
  EXPECT_THROW(make_vcd(cfg), std::invalid_argument);

  TraceConfig far;
  far.from_ns = 2e15;
  far.to_ns = -1;
  far.counter_interval_ns = -5;
  EXPECT_EQ(far.validate(), (std::vector<std::string>{"trace.from_ns: 2e+15 is out of range 0..1e+15",
                                                      "trace.to_ns: -1 is out of range 0..1e+15",
                                                      "trace.counter_interval_ns: -5 is out of range 0..1e+15"}));
}

// Counters are sampled by default (100 ns, change-only); 0 keeps every sample.
TEST(TraceConfig, TheCounterIntervalGoesIntoTheLimits) {
  TraceConfig cfg;
  EXPECT_EQ(timeline_limits(cfg).counter_interval, 100'000u);
  cfg.counter_interval_ns = 0;
  EXPECT_EQ(timeline_limits(cfg).counter_interval, 0u);
  cfg.counter_interval_ns = 2.5;
  EXPECT_EQ(timeline_limits(cfg).counter_interval, 2500u);
}

TEST(TraceConfig, TheWindowIsRoundedToPicoseconds) {
  TraceConfig cfg;
  cfg.from_ns = 0.0004;  // 0.4 ps -> 0
  cfg.to_ns = 0.0016;    // 1.6 ps -> 2
  EXPECT_TRUE(cfg.validate().empty());
  const TimelineLimits lim = timeline_limits(cfg);
  EXPECT_EQ(lim.from, 0u);
  EXPECT_EQ(lim.to, 2u);
  cfg.to_ns = 0.0003;    // rounds to the same picosecond as from: empty window
  EXPECT_EQ(cfg.validate().size(), 1u);
}

}  // namespace
}  // namespace par::trace
