// Options: defaults, command line, INI files, precedence, value spellings, lists, registration.
#include "par/simkit/options.hpp"

#include <gtest/gtest.h>

#include <limits>
#include <stdexcept>

#include "simkit_test_support.hpp"

namespace par::simkit {
namespace {

using test::Count;
using test::SampleConfig;
using test::TempDir;

class OptionsTest : public ::testing::Test {
 protected:
  OptionsTest() { test::register_sample(reg, cfg); }

  ParseResult parse(const std::vector<std::string>& args) {
    ParseResult r = reg.parse(args);
    for (const auto& e : r.errors) ADD_FAILURE() << "unexpected error: " << e;
    return r;
  }

  SampleConfig cfg;
  OptionRegistry reg;
  TempDir dir;
};

TEST_F(OptionsTest, DefaultsAreTheFieldValuesAtRegistration) {
  const ParseResult r = parse({});
  EXPECT_TRUE(r.ok());
  const SampleConfig fresh;
  EXPECT_EQ(cfg.lanes, fresh.lanes);
  EXPECT_EQ(cfg.offset, fresh.offset);
  EXPECT_EQ(cfg.preset, fresh.preset);
  EXPECT_EQ(cfg.count, Count::Issue);
  for (const Option* o : reg.options()) {
    EXPECT_EQ(o->origin().kind, Origin::Kind::Default) << o->name();
    EXPECT_EQ(o->value_text(), o->default_text()) << o->name();
  }
  EXPECT_EQ(reg.find("core.lanes")->default_text(), "8");
  EXPECT_EQ(reg.find("mem.base")->default_text(), "0x1000");
  EXPECT_EQ(reg.find("core.lanes")->origin().str(), "default");
  EXPECT_EQ(reg.find("no.such"), nullptr);
}

TEST_F(OptionsTest, CommandLineAcceptsSpaceAndEqualsSpellings) {
  parse({"--core.lanes", "16", "--core.threads_per_lane=2", "--dram.preset=LPDDR3-1866",
         "--core.clock_ghz", "2.25"});
  EXPECT_EQ(cfg.lanes, 16);
  EXPECT_EQ(cfg.threads, 2u);
  EXPECT_EQ(cfg.preset, "LPDDR3-1866");
  EXPECT_DOUBLE_EQ(cfg.clock_ghz, 2.25);
  EXPECT_EQ(reg.find("core.lanes")->origin().kind, Origin::Kind::CommandLine);
  EXPECT_EQ(reg.find("core.lanes")->origin().str(), "command line");
}

TEST_F(OptionsTest, IniSectionsGiveThePrefix) {
  const std::string ini = dir.write("a.ini",
                                    "# a comment\n"
                                    "name = sweep-7   ; inline comment\n"
                                    "\n"
                                    "[core]\n"
                                    "lanes = 32\n"
                                    "  count=commit\n"
                                    "trace = yes # on\n"
                                    "[ l2 ]\n"
                                    "size = 1M\n"
                                    "[dram]\n"
                                    "preset = \"DDR3-1600 ; slow\"\n"
                                    "[]\n"
                                    "core.offset = -7\n");
  const ParseResult r = parse({"--config", ini});
  EXPECT_EQ(r.config_files, std::vector<std::string>{ini});
  EXPECT_EQ(cfg.name, "sweep-7");
  EXPECT_EQ(cfg.lanes, 32);
  EXPECT_EQ(cfg.count, Count::Commit);
  EXPECT_TRUE(cfg.trace);
  EXPECT_EQ(cfg.l2_size, 1024u * 1024u);
  EXPECT_EQ(cfg.preset, "DDR3-1600 ; slow");
  EXPECT_EQ(cfg.offset, -7);
  EXPECT_EQ(reg.find("core.lanes")->origin().kind, Origin::Kind::File);
  EXPECT_EQ(reg.find("core.lanes")->origin().str(), ini + ":5");
  EXPECT_EQ(reg.find("core.offset")->origin().line, 13);
  EXPECT_EQ(reg.find("core.threads_per_lane")->origin().kind, Origin::Kind::Default);
}

TEST_F(OptionsTest, IniToleratesCrLfAndByteOrderMark) {
  const std::string ini = dir.write("crlf.ini", "\xEF\xBB\xBF[core]\r\nlanes = 12\r\n");
  parse({"--config=" + ini});
  EXPECT_EQ(cfg.lanes, 12);
}

TEST_F(OptionsTest, CommandLineWinsOverIniWhateverTheOrder) {
  const std::string ini = dir.write("a.ini", "[core]\nlanes = 32\nthreads_per_lane = 16\n");
  parse({"--core.lanes", "2", "--config", ini});
  EXPECT_EQ(cfg.lanes, 2);
  EXPECT_EQ(cfg.threads, 16u);
  EXPECT_EQ(reg.find("core.lanes")->origin().kind, Origin::Kind::CommandLine);
  EXPECT_EQ(reg.find("core.threads_per_lane")->origin().str(), ini + ":3");
}

TEST_F(OptionsTest, LaterConfigFileWinsOverEarlier) {
  const std::string a = dir.write("a.ini", "[core]\nlanes = 32\nthreads_per_lane = 16\n");
  const std::string b = dir.write("b.ini", "[core]\nlanes = 48\n");
  const ParseResult r = parse({"--config", a, "--config", b});
  EXPECT_EQ(r.config_files, (std::vector<std::string>{a, b}));
  EXPECT_EQ(cfg.lanes, 48);
  EXPECT_EQ(cfg.threads, 16u);
  EXPECT_EQ(reg.find("core.lanes")->origin().str(), b + ":2");
}

TEST_F(OptionsTest, LastOccurrenceOnTheCommandLineWins) {
  parse({"--core.lanes", "2", "--core.lanes", "3"});
  EXPECT_EQ(cfg.lanes, 3);
}

TEST_F(OptionsTest, IntegersTakeHexSignsAndSizeSuffixes) {
  parse({"--mem.base", "0xFFFF0000", "--l2.size", "4KiB", "--core.offset", "-0x10", "--core.lanes",
         "0x20", "--l2.banks", "+2"});
  EXPECT_EQ(cfg.base, 0xFFFF0000u);
  EXPECT_EQ(cfg.l2_size, 4096u);
  EXPECT_EQ(cfg.offset, -16);
  EXPECT_EQ(cfg.lanes, 32);
  EXPECT_EQ(cfg.l2_banks, 2u);
  parse({"--l2.size", "2G"});
  EXPECT_EQ(cfg.l2_size, 2ull << 30);
  parse({"--l2.size", "0x10K"});
  EXPECT_EQ(cfg.l2_size, 16u * 1024u);
}

TEST(OptionsLimits, SixtyFourBitExtremes) {
  std::int64_t s = 0;
  std::uint64_t u = 0;
  OptionRegistry reg;
  reg.add("s", s, "signed");
  reg.add("u", u, "unsigned");
  EXPECT_TRUE(reg.parse({"--s", "-9223372036854775808", "--u", "0xffffffffffffffff"}).ok());
  EXPECT_EQ(s, std::numeric_limits<std::int64_t>::min());
  EXPECT_EQ(u, std::numeric_limits<std::uint64_t>::max());
  EXPECT_EQ(reg.find("u")->value_text(), "18446744073709551615");
}

TEST_F(OptionsTest, EnumChoicesAreCaseSensitive) {
  parse({"--core.count", "commit"});
  EXPECT_EQ(cfg.count, Count::Commit);
  EXPECT_EQ(reg.find("core.count")->value_text(), "commit");
  EXPECT_EQ(reg.find("core.count")->metavar(), "<issue|commit>");
  const ParseResult r = reg.parse({"--core.count", "Issue"});
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(cfg.count, Count::Commit);  // a rejected value leaves the field alone
}

TEST_F(OptionsTest, RangesAreInclusive) {
  parse({"--core.lanes", "1"});
  EXPECT_EQ(cfg.lanes, 1);
  parse({"--core.lanes", "64", "--core.clock_ghz", "10"});
  EXPECT_EQ(cfg.lanes, 64);
  EXPECT_FALSE(reg.parse({"--core.lanes", "65"}).ok());
  EXPECT_FALSE(reg.parse({"--core.lanes", "0"}).ok());
  EXPECT_FALSE(reg.parse({"--core.threads_per_lane", "0"}).ok());
  EXPECT_EQ(cfg.lanes, 64);
  EXPECT_EQ(reg.find("core.lanes")->constraint_text(), "[1, 64]");
  EXPECT_EQ(reg.find("core.threads_per_lane")->constraint_text(), ">= 1");
}

TEST_F(OptionsTest, FlagsWithAndWithoutValues) {
  parse({"--core.trace"});
  EXPECT_TRUE(cfg.trace);
  parse({"--core.trace=false"});
  EXPECT_FALSE(cfg.trace);
  parse({"--core.trace", "on"});
  EXPECT_TRUE(cfg.trace);
  // A following argument that is not a boolean stays positional.
  const ParseResult r = parse({"--core.trace", "kernel.par"});
  EXPECT_TRUE(cfg.trace);
  EXPECT_EQ(r.positional, std::vector<std::string>{"kernel.par"});
}

TEST_F(OptionsTest, PositionalArgumentsAreReturnedInOrder) {
  const ParseResult r =
      parse({"prog.par", "--core.lanes", "4", "-", "-5", "--", "--core.lanes", "x"});
  EXPECT_EQ(r.positional, (std::vector<std::string>{"prog.par", "-", "-5", "--core.lanes", "x"}));
  EXPECT_EQ(cfg.lanes, 4);
}

TEST_F(OptionsTest, NegativeNumberIsAValue) {
  parse({"--core.offset", "-42"});
  EXPECT_EQ(cfg.offset, -42);
}

TEST_F(OptionsTest, CommandLineOnlyOptionsAndShortNames) {
  const ParseResult r = parse({"-h", "--out", "results/x"});
  EXPECT_TRUE(cfg.help);
  EXPECT_EQ(cfg.out, "results/x");
  EXPECT_TRUE(reg.find("out")->is_command_line_only());
  EXPECT_EQ(reg.find("help")->short_alias(), 'h');
}

TEST_F(OptionsTest, ListsAppendWithinASourceAndTheCommandLineReplacesFiles) {
  const std::string ini = dir.write("l.ini", "[run]\ndump-mem = 0x10:4\ndump-mem = 0x20:8\n");
  parse({"--config", ini});
  EXPECT_EQ(cfg.dump_mem, (std::vector<std::string>{"0x10:4", "0x20:8"}));
  EXPECT_EQ(reg.find("run.dump-mem")->origin().str(), ini + ":3");

  SampleConfig c2;
  OptionRegistry r2;
  test::register_sample(r2, c2);
  EXPECT_TRUE(
      r2.parse({"--run.dump-mem", "0x1000:64", "--config", ini, "--run.dump-mem=0x2000:8"}).ok());
  EXPECT_EQ(c2.dump_mem, (std::vector<std::string>{"0x1000:64", "0x2000:8"}));
}

TEST(OptionsLists, ANewSourceReplacesTheDefaultAndAnEmptyValueClears) {
  std::vector<std::string> list{"a", "b"};
  OptionRegistry reg;
  reg.add("list", list, "a list");
  EXPECT_TRUE(reg.parse({"--list", "c"}).ok());
  EXPECT_EQ(list, std::vector<std::string>{"c"});

  std::vector<std::string> list2{"a", "b"};
  OptionRegistry reg2;
  reg2.add("list", list2, "a list");
  EXPECT_TRUE(reg2.parse({"--list="}).ok());
  EXPECT_TRUE(list2.empty());
}

TEST(OptionsArgv, ProgramNameIsSkipped) {
  int lanes = 1;
  OptionRegistry reg;
  reg.add("core.lanes", lanes, "lanes");
  const char* argv[] = {"parsys", "--core.lanes", "5", "k.par", nullptr};
  const ParseResult r = reg.parse(4, argv);
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(lanes, 5);
  EXPECT_EQ(r.positional, std::vector<std::string>{"k.par"});
}

TEST(OptionsRegistration, ProgrammingErrorsThrow) {
  int a = 5;
  int b = 0;
  enum class E { X, Y, Z };
  E e = E::Z;
  OptionRegistry reg;
  reg.add("core.a", a, "a");
  EXPECT_THROW(reg.add("core.a", b, "twice"), std::invalid_argument);
  EXPECT_THROW(reg.add("core", b, "section of core.a"), std::invalid_argument);
  EXPECT_THROW(reg.add("core.a.b", b, "below core.a"), std::invalid_argument);
  EXPECT_THROW(reg.add("config", b, "reserved"), std::invalid_argument);
  EXPECT_THROW(reg.add("bad name", b, "space"), std::invalid_argument);
  EXPECT_THROW(reg.add("x..y", b, "empty word"), std::invalid_argument);
  EXPECT_THROW(reg.add("x.y", b, "default outside").range(1, 4), std::invalid_argument);
  EXPECT_THROW(reg.add_enum("e", e, "default not a choice", {{"x", E::X}, {"y", E::Y}}),
               std::invalid_argument);
  bool f1 = false;
  bool f2 = false;
  reg.add("f1", f1, "flag").short_name('f');
  EXPECT_THROW(reg.add("f2", f2, "flag").short_name('f'), std::invalid_argument);
}

}  // namespace
}  // namespace par::simkit
