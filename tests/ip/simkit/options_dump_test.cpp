// Options: help text, effective INI (round trip) and effective JSON.
#include <gtest/gtest.h>

#include <sstream>

#include "par/simkit/options.hpp"
#include "simkit_test_support.hpp"

namespace par::simkit {
namespace {

using test::Count;
using test::SampleConfig;
using test::TempDir;

void expect_same(const SampleConfig& a, const SampleConfig& b) {
  EXPECT_EQ(a.lanes, b.lanes);
  EXPECT_EQ(a.threads, b.threads);
  EXPECT_EQ(a.offset, b.offset);
  EXPECT_EQ(a.clock_ghz, b.clock_ghz);  // exact: the dump must not lose bits
  EXPECT_EQ(a.trace, b.trace);
  EXPECT_EQ(a.count, b.count);
  EXPECT_EQ(a.l2_size, b.l2_size);
  EXPECT_EQ(a.l2_banks, b.l2_banks);
  EXPECT_EQ(a.base, b.base);
  EXPECT_EQ(a.preset, b.preset);
  EXPECT_EQ(a.dump_mem, b.dump_mem);
  EXPECT_EQ(a.name, b.name);
}

TEST(EffectiveIni, RoundTripReproducesTheConfiguration) {
  TempDir dir;
  const std::string ini =
      dir.write("in.ini", "[core]\nlanes = 24\ncount = commit\n[l2]\nsize = 3M\n");
  SampleConfig first;
  OptionRegistry reg;
  test::register_sample(reg, first);
  const ParseResult r = reg.parse({"--config",
                                   ini,
                                   "--core.clock_ghz",
                                   "0.1",
                                   "--core.offset",
                                   "-9",
                                   "--core.trace",
                                   "--mem.base",
                                   "0xdead0000",
                                   "--dram.preset",
                                   "  odd ; \"name\" # \\ \t",
                                   "--name=",
                                   "--run.dump-mem",
                                   "0x10:4",
                                   "--run.dump-mem",
                                   "",
                                   "--run.dump-mem",
                                   "x ;y",
                                   "--out",
                                   "not-dumped"});
  ASSERT_TRUE(r.ok()) << ::testing::PrintToString(r.errors);
  const std::string dumped = reg.effective_ini();
  const std::string file = dir.write("effective.ini", dumped);

  SampleConfig second;
  OptionRegistry reg2;
  test::register_sample(reg2, second);
  const ParseResult r2 = reg2.parse({"--config", file});
  ASSERT_TRUE(r2.ok()) << ::testing::PrintToString(r2.errors) << "\n" << dumped;
  expect_same(first, second);
  EXPECT_EQ(second.out, "out");
  EXPECT_EQ(reg2.effective_json(), reg.effective_json());
  // A second round is byte-identical apart from the origin comments.
  EXPECT_EQ(reg2.find("core.lanes")->origin().kind, Origin::Kind::File);
}

TEST(EffectiveIni, EmptyListAndEmptyStringSurvive) {
  std::vector<std::string> list{"default"};
  std::string text = "default";
  OptionRegistry reg;
  reg.add("l", list, "list");
  reg.add("s", text, "string");
  ASSERT_TRUE(reg.parse({"--l=", "--s="}).ok());
  ASSERT_TRUE(list.empty());
  TempDir dir;
  const std::string file = dir.write("e.ini", reg.effective_ini());

  std::vector<std::string> list2{"default"};
  std::string text2 = "default";
  OptionRegistry reg2;
  reg2.add("l", list2, "list");
  reg2.add("s", text2, "string");
  ASSERT_TRUE(reg2.parse({"--config", file}).ok());
  EXPECT_TRUE(list2.empty());
  EXPECT_EQ(text2, "");
}

TEST(EffectiveIni, LayoutSectionsAndOrigins) {
  TempDir dir;
  const std::string ini = dir.write("in.ini", "[core]\nlanes = 24\n");
  SampleConfig cfg;
  OptionRegistry reg;
  test::register_sample(reg, cfg);
  ASSERT_TRUE(reg.parse({"--config", ini, "--l2.banks", "8", "--out", "o"}).ok());
  const std::string text = reg.effective_ini();
  EXPECT_EQ(text.find("out ="), std::string::npos) << "command-line-only options are not dumped";
  EXPECT_EQ(text.find("help ="), std::string::npos);
  // Options without a section come before the first [section].
  EXPECT_LT(text.find("\nname = run"), text.find("[core]"));
  EXPECT_NE(text.find("[core]\n"), std::string::npos);
  EXPECT_NE(text.find("lanes = 24"), std::string::npos);
  EXPECT_NE(text.find("; " + ini + ":2\n"), std::string::npos);
  EXPECT_NE(text.find("banks = 8"), std::string::npos);
  EXPECT_NE(text.find("; command line\n"), std::string::npos);
  EXPECT_NE(text.find("base = 0x1000"), std::string::npos) << "hex options stay hex";
  EXPECT_NE(text.find("count = issue"), std::string::npos);
  EXPECT_NE(text.find("; default\n"), std::string::npos);
}

TEST(EffectiveJson, NestedValuesAndOrigins) {
  SampleConfig cfg;
  OptionRegistry reg;
  test::register_sample(reg, cfg);
  ASSERT_TRUE(
      reg.parse({"--core.lanes", "16", "--core.count", "commit", "--run.dump-mem", "a"}).ok());
  const Json j = reg.effective_json();
  EXPECT_EQ(j["core"]["lanes"], 16);
  EXPECT_EQ(j["core"]["count"], "commit");
  EXPECT_EQ(j["core"]["trace"], false);
  EXPECT_EQ(j["core"]["clock_ghz"], 1.5);
  EXPECT_EQ(j["mem"]["base"], 0x1000);
  EXPECT_EQ(j["run"]["dump-mem"], Json::array({"a"}));
  EXPECT_EQ(j["name"], "run");
  EXPECT_FALSE(j.contains("out"));
  // Registration order, not alphabetical.
  EXPECT_EQ(j.begin().key(), "name");
  EXPECT_EQ(j["core"].begin().key(), "lanes");

  const Json o = reg.effective_json(true);
  EXPECT_EQ(o["core"]["lanes"]["value"], 16);
  EXPECT_EQ(o["core"]["lanes"]["default"], 8);
  EXPECT_EQ(o["core"]["lanes"]["origin"], "command line");
  EXPECT_EQ(o["core"]["lanes"]["type"], "int");
  EXPECT_EQ(o["core"]["lanes"]["help"], "Lock-step lanes per PAR core.");
  EXPECT_EQ(o["core"]["threads_per_lane"]["origin"], "default");
}

TEST(EffectiveJson, GivenBackWithConfigReproducesTheConfiguration) {
  SampleConfig first;
  OptionRegistry reg;
  test::register_sample(reg, first);
  ASSERT_TRUE(reg.parse({"--core.clock_ghz", "0.1", "--core.offset", "-9", "--core.trace", "--mem.base",
                         "0xffffffffffffffff", "--dram.preset", "  odd ; \"name\" # \\ \t\n", "--name=",
                         "--run.dump-mem", "0x10:4", "--run.dump-mem", "", "--core.count", "commit"})
                  .ok());
  TempDir dir;
  Json doc = reg.effective_json();
  doc["$generator"] = "a tool 1.0";  // metadata members are skipped
  const std::string file = dir.write("effective.json", doc.dump(2));

  SampleConfig second;
  OptionRegistry reg2;
  test::register_sample(reg2, second);
  const ParseResult r2 = reg2.parse({"--config", file});
  ASSERT_TRUE(r2.ok()) << ::testing::PrintToString(r2.errors);
  expect_same(first, second);
  EXPECT_EQ(reg2.effective_json(), reg.effective_json());
  EXPECT_EQ(reg2.find("core.lanes")->origin().str(), file);
}

TEST(EffectiveJson, EmptyListInAJsonFileClearsTheList) {
  std::vector<std::string> list{"default"};
  OptionRegistry reg;
  reg.add("run.l", list, "list");
  TempDir dir;
  ASSERT_TRUE(reg.parse({"--config", dir.write("e.json", R"({"run": {"l": []}})")}).ok());
  EXPECT_TRUE(list.empty());
}

TEST(EffectiveJson, BadJsonFilesAreClearErrors) {
  SampleConfig cfg;
  OptionRegistry reg;
  test::register_sample(reg, cfg);
  TempDir dir;
  const auto errors = [&](const std::string& name, const std::string& text) {
    return ::testing::PrintToString(reg.parse({"--config", dir.write(name, text)}).errors);
  };
  EXPECT_NE(errors("a.json", "{\n  \"core\": {\n    \"lanes\": 8,,\n").find("a.json:3: not valid JSON"),
            std::string::npos);
  EXPECT_NE(errors("b.json", "[1]").find("b.json: expected a JSON object of options"), std::string::npos);
  EXPECT_NE(errors("c.json", R"({"core": {"lane": 8}})").find("c.json: unknown option 'core.lane'"), std::string::npos);
  EXPECT_NE(errors("d.json", R"({"core": {"lanes": null}})").find("d.json: core.lanes: expected a string, number or boolean, not null"),
            std::string::npos);
  EXPECT_NE(errors("e.json", R"({"core": {"lanes": [1]}})").find("core.lanes: a list is given but the option takes one value"),
            std::string::npos);
  EXPECT_NE(errors("f.json", R"({"core": {"lanes": 0}})").find("f.json: core.lanes: '0' is out of range"), std::string::npos);
  EXPECT_NE(errors("g.json", R"({"out": "x"})").find("option 'out' can only be given on the command line"),
            std::string::npos);
}

TEST(Options, ValuesThatAreNotUtf8AreRejected) {
  SampleConfig cfg;
  OptionRegistry reg;
  test::register_sample(reg, cfg);
  const ParseResult r = reg.parse({"--name=caf\xe9", "--dram.preset=\xc0\xaf", "--run.dump-mem=\xed\xa0\x80"});
  EXPECT_EQ(r.errors, (std::vector<std::string>{"--name: the value is not valid UTF-8",
                                                "--dram.preset: the value is not valid UTF-8",
                                                "--run.dump-mem: the value is not valid UTF-8"}));
  EXPECT_TRUE(reg.parse({"--name=caf\xc3\xa9 \xf0\x9f\x99\x82"}).ok()) << "well-formed UTF-8 is accepted";
  EXPECT_EQ(cfg.name, "caf\xc3\xa9 \xf0\x9f\x99\x82");
}

TEST(Help, ListsEveryOptionWithTypeDefaultAndHelp) {
  SampleConfig cfg;
  OptionRegistry reg;
  test::register_sample(reg, cfg);
  std::ostringstream os;
  reg.help(os);
  const std::string text = os.str();
  // Help lines wrap: compare with the blanks collapsed.
  std::string flat;
  for (const char c : text) {
    const bool blank = c == ' ' || c == '\n';
    if (!blank || (!flat.empty() && flat.back() != ' ')) flat += blank ? ' ' : c;
  }
  for (const Option* o : reg.options()) {
    EXPECT_NE(flat.find("--" + o->name() + (o->type_name() == "bool" ? "" : " ") + o->metavar() +
                        " " + o->help()),
              std::string::npos)
        << o->name();
    if (o->type_name() != "bool" && o->type_name() != "list") {
      EXPECT_NE(flat.find(o->help() + " (default: " + o->default_text()), std::string::npos)
          << o->name();
    }
  }
  EXPECT_NE(text.find("--config <file>"), std::string::npos);
  EXPECT_NE(text.find("-h, --help"), std::string::npos);
  EXPECT_NE(text.find("--core.lanes <int>"), std::string::npos);
  EXPECT_NE(text.find("(default: 8; allowed: [1, 64])"), std::string::npos);
  EXPECT_NE(text.find("--core.count <issue|commit>"), std::string::npos);
  EXPECT_NE(text.find("(default: issue)"), std::string::npos);
  EXPECT_NE(text.find("--core.trace[=<bool>]"), std::string::npos);
  EXPECT_NE(text.find("(default: 0x1000)"), std::string::npos);
  EXPECT_NE(text.find("(default: DDR4-2400)"), std::string::npos);
  EXPECT_NE(flat.find("(repeatable; default: none)"), std::string::npos);
  // Grouped by section, general options first.
  EXPECT_LT(text.find("General:"), text.find("[core]"));
  EXPECT_LT(text.find("[core]"), text.find("[l2]"));
  EXPECT_LT(text.find("[core]"), text.find("--core.lanes"));
  EXPECT_LT(text.find("--core.offset"), text.find("[l2]"));
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    EXPECT_LE(line.size(), 100u) << line;
  }
}

TEST(Help, LongHelpWrapsAndLongNamesGetTheirOwnLine) {
  std::string s;
  int x = 0;
  OptionRegistry reg;
  reg.add("a.very.long.option.name.that.does.not.fit.the.column", s, "Short help.");
  reg.add("b.x", x,
          "A long help text that certainly needs more than one line of the terminal, because it "
          "goes on and on about the option and what it does and why, well past one hundred "
          "columns of text.");
  std::ostringstream os;
  reg.help(os);
  std::istringstream lines(os.str());
  int continuation = 0;
  for (std::string line; std::getline(lines, line);) {
    EXPECT_LE(line.size(), 100u) << line;
    if (line.find("columns of text.") != std::string::npos) ++continuation;
  }
  EXPECT_EQ(continuation, 1);
  EXPECT_NE(os.str().find("--a.very.long.option.name.that.does.not.fit.the.column <string>\n"),
            std::string::npos);
}

}  // namespace
}  // namespace par::simkit
