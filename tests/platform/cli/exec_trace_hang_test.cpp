// The execution trace through the command line (file, filters, bound, errors) and hangs inside a
// packet: an endless loop is reported at once in both modes, and the host-time limit and Ctrl-C
// stop a functional packet that never returns to SystemC, with its work in stats.json and the
// reason in stats.json's "end".
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "support/parsys_cli.hpp"

namespace {

using namespace par::testing;

const std::string kDivergentLoop = source_path("tests/ip/par_isa/programs/platform_3_2_divergent_loop.par");

// Four threads, 3 million iterations: many seconds in functional mode.
// Seconds of host time even in functional mode at several hundred M thread-instructions/s, so
// that a limit of a fraction of a second always stops it inside the packet.
constexpr std::int64_t kLongLoopIterations = 2000000000;
const std::string kLongLoop =
    ".PAR\n.ADDRESS main\n.THREADS 4\n.I1 " + std::to_string(kLongLoopIterations) + "\n.CODE\n"
    "main:   set   r1 = 0\n"
    "        loop  i1, body\n"
    "        add   r2 = r2, 1    #\n"
    "body:   add   r1 = r1, 1    #\n";

const std::string kSpin = source_path("tests/modules/par_core/programs/endless_spin.par");

std::size_t count_lines(const std::string& text, const std::string& needle) {
  std::size_t n = 0;
  for (std::size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

TEST(ExecTraceCli, LabelFilterAndTimeline) {
  const std::string dir = temp_dir("exec_trace_label");
  const CliResult r = parsys("run " + kDivergentLoop + " -q --core.threads_per_lane 8 --trace.exec " + dir +
                             "/exec.txt --trace.exec_pc body --trace.timeline " + dir + "/t.json");
  ASSERT_EQ(r.status, 0) << r.out;
  const std::string text = read_file(dir + "/exec.txt");
  EXPECT_EQ(text.rfind("#      cycle core     ctx  round     pc depth active mask source | instruction\n", 0), 0u) << text;
  // 'body' holds three instructions and runs seven times (docs/simt-control-flow.md §3.2).
  EXPECT_EQ(count_lines(text, " | "), 21u + 1u) << text;  // + the header
  EXPECT_EQ(count_lines(text, "| add r1 = r1, r2\n"), 7u) << text;
  EXPECT_NE(text.find(" 0xfe " + kDivergentLoop + ":13 | add r1 = r1, r2\n"), std::string::npos) << text;
  EXPECT_NE(text.find(" 0x80 " + kDivergentLoop + ":13 | add r1 = r1, r2\n"), std::string::npos) << text;
  EXPECT_NE(text.find("# 21 records\n"), std::string::npos) << text;
  const nlohmann::json t = read_json(dir + "/t.json");
  EXPECT_EQ(t["otherData"]["trace"]["recorded_by_category"]["exec"], 21);
}

TEST(ExecTraceCli, BoundIsReportedAndBadFiltersAreUsageErrors) {
  const std::string dir = temp_dir("exec_trace_bound");
  const CliResult r = parsys("run " + kDivergentLoop + " -q --trace.exec " + dir + "/exec.txt --trace.exec_max 3");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_TRUE(contains(r.out, "parsys: warning: execution trace: trace.exec_max = 3 records reached, 39 more not written"))
      << r.out;
  const CliResult label = parsys("run " + kDivergentLoop + " -q --trace.exec " + dir + "/x.txt --trace.exec_pc nosuch");
  EXPECT_EQ(label.status, 2);
  EXPECT_EQ(label.out, "parsys: trace.exec_pc: 'nosuch' is no code label of the program (expected LABEL or FROM..TO)\n");
  const CliResult threads = parsys("run " + kDivergentLoop + " -q --trace.exec " + dir + "/x.txt --trace.exec_threads 2:0");
  EXPECT_EQ(threads.status, 2);
  EXPECT_EQ(threads.out, "parsys: trace.exec_threads: '2:0' is not FIRST[:COUNT] (decimal, COUNT >= 1)\n");
}

TEST(HangCli, EndlessLoopIsReportedInBothModesWithTheReasonInStatsJson) {
  const std::string dir = temp_dir("hang_spin");
  const std::string& prog = kSpin;
  for (const std::string mode : {"timing", "functional"}) {
    const CliResult r = parsys("run " + prog + " -q --mode " + mode + " --out " + dir + "/" + mode);
    EXPECT_EQ(r.status, 1) << r.out;
    EXPECT_TRUE(contains(r.out, "parsys: core0: runtime error at pc 4 (" + prog + ":9): endless loop: ")) << r.out;
    const nlohmann::json s = read_json(dir + "/" + mode + "/stats.json");
    EXPECT_EQ(s["end"]["status"], "failed");
    EXPECT_TRUE(contains(s["end"]["reason"].get<std::string>(), "endless loop")) << s["end"];
    EXPECT_GT(s["run"]["thread_instructions"]["value"].get<std::int64_t>(), 0);
  }
}

TEST(HangCli, HostTimeLimitStopsAFunctionalPacket) {
  const std::string dir = temp_dir("hang_host_limit");
  const std::string prog = write_file(dir + "/long.par", kLongLoop);
  const CliResult r = parsys("run " + prog + " -q --mode functional --max-host-seconds 0.2 --out " + dir + "/out");
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_TRUE(contains(r.out, "stopped after 0.2 host seconds (--max-host-seconds)")) << r.out;
  const nlohmann::json s = read_json(dir + "/out/stats.json");
  EXPECT_EQ(s["end"]["status"], "host_time_limit");
  // The work of the packet that was running (it never completed).
  EXPECT_GT(s["run"]["thread_instructions"]["value"].get<std::int64_t>(), 0);
  EXPECT_LT(s["run"]["thread_instructions"]["value"].get<std::int64_t>(), 4 * kLongLoopIterations);
  EXPECT_EQ(s["run"]["launches"]["value"], 0);
}

// The signal comes as soon as parsys catches it: the packet, which runs for seconds, then polls
// the flag at its first check, after its first loop iteration.
TEST(HangCli, CtrlCStopsAFunctionalPacket) {
  const std::string dir = temp_dir("hang_ctrl_c");
  const std::string prog = write_file(dir + "/long.par", kLongLoop);
  const SignalledRun r = parsys_signalled("run " + prog + " -q --mode functional --out " + dir + "/out", SIGINT,
                                          [](const std::string&) { return true; });
  ASSERT_TRUE(r.ready) << r.out;
  EXPECT_EQ(r.status, 130) << r.out;
  const nlohmann::json s = read_json(dir + "/out/stats.json");
  EXPECT_EQ(s["end"]["status"], "interrupted");
  EXPECT_GT(s["run"]["thread_instructions"]["value"].get<std::int64_t>(), 0);
}

}  // namespace
