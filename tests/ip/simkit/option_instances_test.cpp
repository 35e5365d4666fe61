// Per-instance options: `core3.lanes` gives instance 3 of the type "core" its own value of
// core.lanes, checked as core.lanes is, kept apart from the type's value, written into the dumps
// and applied to a copy of the type's configuration.
#include <gtest/gtest.h>

#include "par/simkit/options.hpp"
#include "simkit_test_support.hpp"

namespace par::simkit {
namespace {

using test::Count;
using test::SampleConfig;
using test::TempDir;

struct Registry {
  SampleConfig cfg;
  OptionRegistry reg;
  Registry() {
    test::register_sample(reg, cfg);
    reg.add_instances("core");
  }
};

TEST(InstanceOptions, ValuesAreKeptPerInstanceAndLeaveTheTypesValue) {
  TempDir dir;
  const std::string ini = dir.write("in.ini", "[core3]\nlanes = 16\ncount = commit\n[core]\nlanes = 2\n");
  Registry r;
  const ParseResult p = r.reg.parse({"--config", ini, "--core3.lanes", "24", "--core0.clock_ghz=2.5", "--core1.trace"});
  ASSERT_TRUE(p.ok()) << p.errors.front();
  EXPECT_EQ(r.cfg.lanes, 2);  // the type's value
  EXPECT_EQ(r.cfg.count, Count::Issue);
  EXPECT_FALSE(r.cfg.trace);
  const std::vector<InstanceValue>& v = r.reg.instance_values();
  ASSERT_EQ(v.size(), 4u);
  // One value per instance and option, the command line's over the file's, in the order first given.
  EXPECT_EQ(v[0].name(), "core3.lanes");
  EXPECT_EQ(v[0].text, "24");
  EXPECT_EQ(v[0].origin.str(), "command line");
  EXPECT_EQ(v[0].index(), 3);
  EXPECT_EQ(v[1].name(), "core3.count");
  EXPECT_EQ(v[1].option, "core.count");
  EXPECT_EQ(v[1].origin.str(), ini + ":3");
  EXPECT_EQ(v[2].instance, "core0");
  EXPECT_EQ(v[2].json, Json(2.5));
  EXPECT_EQ(v[3].name(), "core1.trace");
  EXPECT_EQ(v[3].text, "true");  // a flag without a value

  // Applied to a copy of the configuration registered under the type's names.
  SampleConfig core3 = r.cfg;
  OptionRegistry own;
  test::register_sample(own, core3);
  EXPECT_TRUE(own.assign_instance(v, "core3").empty());
  EXPECT_EQ(core3.lanes, 24);
  EXPECT_EQ(core3.count, Count::Commit);
  EXPECT_EQ(core3.clock_ghz, 1.5);  // core0's value is not core3's
  EXPECT_EQ(r.reg.find_instance_option("core12.threads_per_lane"), r.reg.find("core.threads_per_lane"));
}

TEST(InstanceOptions, BadValuesAndNamesAreErrors) {
  TempDir dir;
  const std::string ini = dir.write("bad.ini", "[core2]\nlanes = 65\n[l2]\nbank1.size = 4\n");
  Registry r;
  const ParseResult p = r.reg.parse({"--config", ini, "--core1.lanes", "x", "--core01.lanes", "3",
                                     "--core.7.lanes", "3", "--core1.dump-mem", "0:4", "--core1.out", "d"});
  ASSERT_EQ(p.errors.size(), 7u);
  EXPECT_EQ(p.errors[0], "unknown option '--core01.lanes' (did you mean '--core.lanes'?)");  // leading zero
  EXPECT_EQ(p.errors[1].rfind("unknown option '--core.7.lanes'", 0), 0u) << p.errors[1];
  EXPECT_EQ(p.errors[2].rfind("unknown option '--core1.dump-mem'", 0), 0u) << p.errors[2];  // no section core
  EXPECT_EQ(p.errors[3].rfind("unknown option '--core1.out'", 0), 0u) << p.errors[3];
  EXPECT_EQ(p.errors[4], ini + ":2: core2.lanes: '65' is out of range [1, 64]");
  EXPECT_EQ(p.errors[5].rfind(ini + ":4: unknown option 'l2.bank1.size'", 0), 0u) << p.errors[5];  // l2 has no instances
  EXPECT_EQ(p.errors[6], "--core1.lanes: 'x' is not an integer");  // the command line after the files
  EXPECT_TRUE(r.reg.instance_values().empty());
  EXPECT_EQ(r.cfg.lanes, 8);
  EXPECT_THROW(r.reg.add_instances("core."), std::invalid_argument);
  EXPECT_THROW(r.reg.add_instances("core2"), std::invalid_argument);
}

TEST(InstanceOptions, DumpsHoldEachInstanceAndReadBack) {
  Registry r;
  ASSERT_TRUE(r.reg.parse({"--core3.lanes", "24", "--core3.clock_ghz", "0.1", "--core1.count", "commit"}).ok());
  const std::string ini = r.reg.effective_ini();
  EXPECT_NE(ini.find("\n[core3]\nlanes = 24                                        ; command line\n"
                     "clock_ghz = 0.1                                   ; command line\n\n[core1]\ncount = commit"),
            std::string::npos)
      << ini;
  const Json json = r.reg.effective_json();
  EXPECT_EQ(json.at("core3"), Json::parse(R"({"lanes": 24, "clock_ghz": 0.1})"));
  EXPECT_EQ(json.at("core1").at("count"), "commit");
  const Json origin = r.reg.effective_json(true).at("core3").at("lanes");
  EXPECT_EQ(origin.at("value"), 24);
  EXPECT_EQ(origin.at("default"), 8);  // the type's value
  EXPECT_EQ(origin.at("origin"), "command line");
  TempDir dir;
  for (const auto& [name, text] : {std::pair{"back.ini", ini}, std::pair{"back.json", json.dump()}}) {
    Registry again;
    ASSERT_TRUE(again.reg.parse({"--config", dir.write(name, text)}).ok()) << name;
    ASSERT_EQ(again.reg.instance_values().size(), 3u) << name;
    EXPECT_EQ(again.reg.effective_json(), json) << name;
  }
}

}  // namespace
}  // namespace par::simkit
