// Options: every user error becomes a clear message in ParseResult::errors, never an exception.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "par/simkit/options.hpp"
#include "simkit_test_support.hpp"

namespace par::simkit {
namespace {

using test::SampleConfig;
using test::TempDir;

class OptionErrorsTest : public ::testing::Test {
 protected:
  OptionErrorsTest() { test::register_sample(reg, cfg); }

  // The errors of parsing `args`; parse() itself must not throw.
  std::vector<std::string> errors(const std::vector<std::string>& args) {
    ParseResult r;
    EXPECT_NO_THROW(r = reg.parse(args));
    return r.errors;
  }
  std::string only_error(const std::vector<std::string>& args) {
    const auto e = errors(args);
    EXPECT_EQ(e.size(), 1u) << ::testing::PrintToString(e);
    return e.empty() ? std::string() : e.front();
  }

  SampleConfig cfg;
  OptionRegistry reg;
  TempDir dir;
};

TEST_F(OptionErrorsTest, MalformedValues) {
  EXPECT_EQ(only_error({"--core.lanes", "abc"}), "--core.lanes: 'abc' is not an integer");
  EXPECT_EQ(only_error({"--core.lanes=8x"}), "--core.lanes: '8x' is not an integer");
  EXPECT_EQ(only_error({"--core.lanes=0x"}), "--core.lanes: '0x' is not an integer");
  EXPECT_EQ(only_error({"--core.lanes="}), "--core.lanes: '' is not an integer");
  EXPECT_EQ(only_error({"--core.clock_ghz", "fast"}), "--core.clock_ghz: 'fast' is not a number");
  EXPECT_EQ(only_error({"--core.clock_ghz", "nan"}), "--core.clock_ghz: 'nan' is not a number");
  EXPECT_EQ(only_error({"--core.trace=maybe"}),
            "--core.trace: 'maybe' is not a boolean (true/false)");
  EXPECT_EQ(only_error({"--core.threads_per_lane", "-1"}),
            "--core.threads_per_lane: '-1' is not an unsigned integer");
  EXPECT_EQ(only_error({"--l2.size", "4X"}), "--l2.size: '4X' is not an integer");
}

TEST_F(OptionErrorsTest, ValuesOutsideTheTypeOrTheRange) {
  EXPECT_EQ(only_error({"--core.lanes", "99999999999"}),
            "--core.lanes: '99999999999' is out of range for int");
  EXPECT_EQ(only_error({"--l2.size", "0x1ffffffffffffffff"}),
            "--l2.size: '0x1ffffffffffffffff' is out of range for uint64");
  EXPECT_EQ(only_error({"--l2.size", "17179869184G"}),
            "--l2.size: '17179869184G' is out of range for uint64");
  EXPECT_EQ(only_error({"--core.clock_ghz", "1e999"}),
            "--core.clock_ghz: '1e999' is out of range for real");
  EXPECT_EQ(only_error({"--core.lanes", "100"}), "--core.lanes: '100' is out of range [1, 64]");
  EXPECT_EQ(only_error({"--core.lanes", "0x0"}), "--core.lanes: '0x0' is out of range [1, 64]");
  EXPECT_EQ(only_error({"--core.threads_per_lane", "0"}),
            "--core.threads_per_lane: '0' is out of range (must be >= 1)");
  EXPECT_EQ(only_error({"--core.clock_ghz", "12.5"}),
            "--core.clock_ghz: '12.5' is out of range [0.001, 10]");
  EXPECT_EQ(cfg.lanes, 8);  // nothing was stored
}

TEST_F(OptionErrorsTest, MissingValues) {
  EXPECT_EQ(only_error({"--core.lanes"}), "--core.lanes: missing value");
  const auto e = errors({"--core.lanes", "--core.trace"});
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0], "--core.lanes: missing value");
  EXPECT_TRUE(cfg.trace);  // the next option was still read
  EXPECT_EQ(only_error({"--config"}), "--config: missing value");
  EXPECT_EQ(only_error({"--config="}), "--config: missing value");
}

TEST_F(OptionErrorsTest, UnknownOptionsSuggestTheClosestName) {
  EXPECT_EQ(only_error({"--core.lane=4"}),
            "unknown option '--core.lane' (did you mean '--core.lanes'?)");
  EXPECT_EQ(only_error({"--bogus"}), "unknown option '--bogus'");
  EXPECT_EQ(only_error({"-help"}), "unknown option '-help' (did you mean '--help'?)");
  EXPECT_EQ(only_error({"-q"}), "unknown option '-q'");
  EXPECT_EQ(only_error({"--confg=x.ini"}), "unknown option '--confg' (did you mean '--config'?)");
}

TEST_F(OptionErrorsTest, EnumErrorsListTheChoices) {
  EXPECT_EQ(only_error({"--core.count", "retire"}),
            "--core.count: 'retire' is not one of: issue, commit");
  EXPECT_EQ(only_error({"--core.count", "Commit"}),
            "--core.count: 'Commit' is not one of: issue, commit");
}

TEST_F(OptionErrorsTest, UnreadableConfigFiles) {
  const std::string missing = dir.path() + "/missing.ini";
  EXPECT_EQ(only_error({"--config", missing}),
            "cannot read config file '" + missing + "': No such file or directory");
  EXPECT_EQ(only_error({"--config", dir.path()}),
            "cannot read config file '" + dir.path() + "': it is a directory");
  // A read that fails after the open (the kernel refuses to read /proc/self/mem at address 0).
  EXPECT_EQ(only_error({"--config", "/proc/self/mem"}),
            "cannot read config file '/proc/self/mem': read error: Input/output error");
}

// A file that never ends or is far too large is refused at a bound instead of filling memory.
TEST_F(OptionErrorsTest, ConfigFilesAreLimitedTo1MiB) {
  EXPECT_EQ(only_error({"--config", "/dev/zero"}), "cannot read config file '/dev/zero': it is a device, not a file");
  const std::string big = dir.path() + "/big.ini";
  std::ofstream(big) << std::string((1 << 20) + 1, '#');
  EXPECT_EQ(only_error({"--config", big}),
            "cannot read config file '" + big + "': it is larger than 1 MiB, the limit for this kind of input");
  const std::string largest = dir.path() + "/largest.ini";
  std::ofstream(largest) << "[core]\ncount = commit\n" << std::string((1 << 20) - 24, '#');
  EXPECT_TRUE(reg.parse({"--config", largest}).ok());
}

TEST_F(OptionErrorsTest, IniErrorsNameFileAndLine) {
  const std::string ini = dir.write("bad.ini",
                                    "[core]\n"
                                    "lanes = abc\n"
                                    "lane = 4\n"
                                    "just some words\n"
                                    "[l2\n"
                                    "[l2..x]\n"
                                    "[]\n"
                                    "out = elsewhere\n"
                                    "bogus.key = 1\n"
                                    "dram.preset = \"unterminated\n"
                                    "= 5\n"
                                    "[core]\n"
                                    "count = retire\n"
                                    "threads_per_lane = 2\n");
  const auto e = errors({"--config", ini});
  const std::vector<std::string> expected{
      ini + ":2: core.lanes: 'abc' is not an integer",
      ini + ":3: unknown option 'core.lane' (did you mean 'core.lanes'?)",
      ini + ":4: expected 'name = value' or '[section]'",
      ini + ":5: malformed section header '[l2'",
      ini + ":6: malformed section name 'l2..x'",
      ini + ":8: option 'out' can only be given on the command line",
      ini + ":9: unknown option 'bogus.key'",
      ini + ":10: dram.preset: unterminated quoted value",
      ini + ":11: expected 'name = value' or '[section]'",
      ini + ":13: core.count: 'retire' is not one of: issue, commit",
  };
  EXPECT_EQ(e, expected);
  EXPECT_EQ(cfg.threads, 2u);  // good lines still apply
}

TEST_F(OptionErrorsTest, QuotedValueErrors) {
  const std::string ini =
      dir.write("q.ini", "dram.preset = \"a\\qb\"\nname = \"x\" trailing\nname = \"ok\" # fine\n");
  const auto e = errors({"--config", ini});
  const std::vector<std::string> expected{
      ini + ":1: dram.preset: unknown escape '\\q' in quoted value",
      ini + ":2: name: unexpected text after the closing quote",
  };
  EXPECT_EQ(e, expected);
  EXPECT_EQ(cfg.name, "ok");
}

TEST_F(OptionErrorsTest, AllErrorsAreCollectedInOrder) {
  const std::string ini = dir.write("a.ini", "[core]\nlanes = 1000\n");
  const auto e = errors({"--nope", "--config", ini, "--core.count", "x", "--core.lanes", "5"});
  const std::vector<std::string> expected{
      "unknown option '--nope'",
      ini + ":2: core.lanes: '1000' is out of range [1, 64]",
      "--core.count: 'x' is not one of: issue, commit",
  };
  EXPECT_EQ(e, expected);
  EXPECT_EQ(cfg.lanes, 5);
}

TEST_F(OptionErrorsTest, OddTokensNeverThrow) {
  EXPECT_EQ(only_error({"---x"}), "unknown option '---x'");
  EXPECT_EQ(only_error({"--=5"}), "unknown option '--'");
  ParseResult r;
  EXPECT_NO_THROW(r = reg.parse({"", "-", "--", "--x"}));
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(r.positional, (std::vector<std::string>{"", "-", "--x"}));
}

}  // namespace
}  // namespace par::simkit
