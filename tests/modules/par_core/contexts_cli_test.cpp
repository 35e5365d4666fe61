// Thread contexts through the parsys command: bad core.contexts values get one clear message and
// exit status 2; a run with contexts reports them (readable report, stats.json with units) and
// writes an effective configuration that reproduces it.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "support/parsys_cli.hpp"

namespace {

using namespace par::testing;

std::string gs() { return kernel_file("gs.par"); }

TEST(ContextsCli, OutOfRangeCountsAreRejected) {
  for (const char* n : {"0", "257", "-1"}) {
    const CliResult r = parsys("run " + gs() + " --core.contexts " + n);
    EXPECT_EQ(r.status, 2) << n << ": " << r.out;
    EXPECT_TRUE(contains(r.out, std::string("parsys: --core.contexts: '") + n + "' is out of range [1, 256]")) << r.out;
  }
  // Beyond any integer the option parser refuses it before the range check.
  const CliResult huge = parsys("run " + gs() + " --core.contexts 99999999999999999999");
  EXPECT_EQ(huge.status, 2) << huge.out;
  EXPECT_TRUE(contains(huge.out, "parsys: --core.contexts: '99999999999999999999' is out of range for int")) << huge.out;
}

TEST(ContextsCli, ZeroContextsInAConfigFileNamesTheFileAndLine) {
  const std::string dir = temp_dir("contexts_ini");
  write_file(dir + "/c.ini", "[core]\nlanes = 1\ncontexts = 0\n");
  const CliResult r = parsys("run " + gs() + " --config " + dir + "/c.ini");
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_TRUE(contains(r.out, dir + "/c.ini:3")) << r.out;
  EXPECT_TRUE(contains(r.out, "out of range [1, 256]")) << r.out;
}

TEST(ContextsCli, ContextStateBeyondTheLimitIsRejected) {
  // 256 contexts of 256 x 64 slots: 16384 slots x (264 bytes of registers and predicates, 37 of
  // scratch and masks, 65 mask bytes for 64 stack levels) + the scoreboard, 1470 MiB.
  const CliResult r = parsys("run " + gs() + " --core.contexts 256 --core.lanes 256 --core.threads_per_lane 64");
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_TRUE(contains(r.out,
                       "parsys: core.contexts: 256 contexts of 16384 thread slots (L x T) with 64 command-stack levels "
                       "need 1470 MiB of context state, more than the 1024 MiB a core may hold"))
      << r.out;
}

TEST(ContextsCli, UnknownSelectionRuleAndFuAreRejected) {
  CliResult r = parsys("run " + gs() + " --core.context_ready soon");
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_TRUE(contains(r.out, "--core.context_ready: 'soon' is not one of: dispatch, operands, complete")) << r.out;
  r = parsys("run " + gs() + " --core.contexts 2 --core.context_fu_wait alu,tex");
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_TRUE(contains(r.out, "parsys: core.context_fu_wait: 'tex' is not a functional unit (alu, fpu, ls, cmp)"))
      << r.out;
}

TEST(ContextsCli, RunReportsContextsAndReproducesFromItsConfig) {
  const std::string dir = temp_dir("contexts_run");
  const std::string opts = " --core.threads_per_lane 2 --core.contexts 3 --core.context_ready operands"
                           " --core.context_fu_wait fpu --core.fpu_latency 9";
  const CliResult r = parsys("run " + gs() + opts + " --out " + dir + "/a");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_TRUE(contains(r.out, "Thread contexts            3, round-robin, ready = operands, FU wait: fpu")) << r.out;
  EXPECT_TRUE(contains(r.out, "    FPU                      busy ")) << r.out;
  std::ifstream f(dir + "/a/stats.json");
  const nlohmann::json stats = nlohmann::json::parse(f);
  const nlohmann::json& core = stats["core0"];
  const nlohmann::json& fpu = core["contexts"]["idle"]["fpu"];
  EXPECT_EQ(fpu["fu_wait"]["unit"], "context-cycles");
  EXPECT_GT(fpu["fu_wait"]["value"].get<double>(), 0);
  double idle = 0;
  for (const char* k : {"memory_wait", "fu_wait", "other_unit", "other", "finished"}) idle += fpu[k]["value"].get<double>();
  const double cycles = core["cycles"]["value"].get<double>();
  const double busy = core["instructions"]["fpu"]["value"].get<double>() * 2;
  EXPECT_EQ(idle, 3 * (cycles - busy));
  EXPECT_EQ(core["contexts"]["c2"]["slots"]["unit"], "instructions");
  // The effective configuration gives the same run back.
  const CliResult again = parsys("run " + gs() + " --config " + dir + "/a/config.ini --out " + dir + "/b");
  ASSERT_EQ(again.status, 0) << again.out;
  std::ifstream g(dir + "/b/stats.json");
  const nlohmann::json stats_b = nlohmann::json::parse(g);
  EXPECT_EQ(stats_b["core0"]["cycles"], core["cycles"]);
  EXPECT_EQ(stats_b["core0"]["contexts"]["idle"], core["contexts"]["idle"]);
}

TEST(ContextsCli, ThePlainCoreHasNoContextGroup) {
  const std::string dir = temp_dir("contexts_plain");
  const CliResult r = parsys("run " + gs() + " -q --out " + dir);
  ASSERT_EQ(r.status, 0) << r.out;
  std::ifstream f(dir + "/stats.json");
  EXPECT_FALSE(nlohmann::json::parse(f)["core0"].contains("contexts"));
  EXPECT_FALSE(contains(parsys("run " + gs()).out, "Thread contexts"));
}

}  // namespace
