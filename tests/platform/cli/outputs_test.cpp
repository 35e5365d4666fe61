// What a run leaves behind: the output directory (given, created with its parents, or parsys-out
// by default), paths and dump ranges checked before simulating, checked writes, config.json given
// back with --config, stats.txt that differs between identical runs only in host measurements,
// --version, data labels in --dump-mem.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "support/parsys_cli.hpp"

namespace {

using namespace par::testing;

std::string kernel(const std::string& name) { return kernel_file(name); }

// A shell command as given: its standard output (redirect as needed) and exit status.
CliResult shell(const std::string& cmd) {
  CliResult r;
  FILE* p = popen(cmd.c_str(), "r");
  if (p == nullptr) return r;
  char buf[4096];
  while (std::fgets(buf, sizeof buf, p)) r.out += buf;
  const int st = pclose(p);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

// parsys in `dir`, for runs whose default output directory is the working directory.
CliResult parsys_in(const std::string& dir, const std::string& args) {
  return shell("cd '" + dir + "' && " + std::string(PARSYS_BIN) + " " + with_test_run_args(args) + " 2>&1");
}

bool exists(const std::string& path) { return std::ifstream(path).good(); }

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> v;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) v.push_back(l);
  return v;
}

// The lines of two stats.txt files that differ; both files must have the same number of lines.
std::vector<std::string> differing_lines(const std::string& a, const std::string& b) {
  const auto la = lines(read_file(a)), lb = lines(read_file(b));
  std::vector<std::string> d;
  EXPECT_EQ(la.size(), lb.size());
  for (std::size_t i = 0; i < std::min(la.size(), lb.size()); ++i)
    if (la[i] != lb[i]) d.push_back(la[i]);
  return d;
}

// stats.json without the host measurements (host time and simulator speed).
nlohmann::json without_host_measures(nlohmann::json j) {
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end();) {
      if (it.key().find("host_second") != std::string::npos) {
        it = j.erase(it);
      } else {
        *it = without_host_measures(*it);
        ++it;
      }
    }
  } else if (j.is_array()) {
    for (auto& e : j) e = without_host_measures(e);
  }
  return j;
}

TEST(Outputs, ARunWithoutOutKeepsItsResultsInParsysOutUnlessToldNot) {
  const std::string dir = temp_dir("default_out");
  CliResult r = parsys_in(dir, "run " + kernel("gs.par") + " -q --core.threads_per_lane 2");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(read_json(dir + "/parsys-out/stats.json")["core0"]["cycles"]["value"], 14726);
  EXPECT_TRUE(exists(dir + "/parsys-out/config.json"));

  const std::string none = temp_dir("no_out");
  r = parsys_in(none, "run " + kernel("gs.par") + " -q --no-out --core.threads_per_lane 2");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_FALSE(exists(none + "/parsys-out/stats.json"));
  r = parsys_in(none, "run " + kernel("gs.par") + " --no-out --out x");
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(contains(r.out, "parsys: --out and --no-out contradict each other")) << r.out;
}

TEST(Outputs, OutputDirectoryIsCreatedWithItsParents) {
  const std::string dir = temp_dir("parents") + "/a/b/c";
  const CliResult r = parsys("run " + kernel("gs.par") + " -q --out " + dir);
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_TRUE(exists(dir + "/stats.txt"));
}

TEST(Outputs, BadPathsAndRangesAreFoundBeforeSimulating) {
  const std::string dir = temp_dir("bad_paths");
  write_file(dir + "/file", "x");
  // The report (printed after the run) is absent: nothing was simulated.
  CliResult r = parsys("run " + kernel("gs.par") + " --out " + dir + "/file/sub");
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "parsys: cannot create output directory '" + dir + "/file/sub': Not a directory\n");
  r = parsys("run " + kernel("gs.par") + " --no-out --trace-timeline " + dir + "/file/t.json");
  EXPECT_EQ(r.status, 1);
  EXPECT_TRUE(contains(r.out, "parsys: --trace.timeline: cannot create directory '" + dir + "/file'")) << r.out;
  EXPECT_FALSE(contains(r.out, "Execution time")) << r.out;
  r = parsys("run " + kernel("gs.par") + " --no-out --vcd " + dir);
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "parsys: --trace.vcd: '" + dir + "' is a directory\n");
  r = parsys("run " + kernel("gs.par") + " --no-out --dump-mem 0x7000000000:16");
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(contains(r.out, "parsys: --dump-mem 0x7000000000:16 is outside the local memory")) << r.out;
  EXPECT_FALSE(contains(r.out, "Execution time")) << r.out;
  // Trace files in directories that do not exist yet are fine: the directories are created.
  r = parsys("run " + kernel("gs.par") + " -q --no-out --trace-timeline " + dir + "/new/t.json");
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_TRUE(contains(read_file(dir + "/new/t.json"), "traceEvents"));
}

TEST(Outputs, AFailedWriteIsAnErrorWithANonZeroExit) {
  if (!exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
  const std::string dir = temp_dir("full_disk");
  ASSERT_EQ(std::system(("ln -s /dev/full '" + dir + "/stats.json'").c_str()), 0);
  CliResult r = parsys("run " + kernel("gs.par") + " -q --out " + dir);
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "parsys: cannot write '" + dir + "/stats.json': No space left on device\n");
  // The report on a full standard output.
  r = shell(std::string(PARSYS_BIN) + " " + with_test_run_args("run " + kernel("gs.par") + " --no-out") + " 2>&1 >/dev/full");
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "parsys: cannot write the report to standard output\n");
}

TEST(Outputs, AValueThatIsNotUtf8IsAUsageError) {
  const CliResult r = parsys("run " + kernel("gs.par") + " --no-out --trace.signals \"$(printf 'core\\377')\"");
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(contains(r.out, "parsys: --trace.signals: the value is not valid UTF-8")) << r.out;
}

TEST(Outputs, ConfigJsonGivenBackWithConfigReproducesTheRun) {
  const std::string a = temp_dir("json_a"), b = temp_dir("json_b");
  CliResult r = parsys("run " + kernel("gs.par") + " -q --core.threads_per_lane 4 --run.clock_mhz 1234.5 "
                       "--core.rob_allocation issue --trace.signals 'a \"b\" ;c' --out " + a);
  ASSERT_EQ(r.status, 0) << r.out;
  const nlohmann::json config = read_json(a + "/config.json");
  EXPECT_EQ(config["core"]["threads_per_lane"], 4);
  EXPECT_EQ(config["run"]["clock_mhz"], 1234.5);
  EXPECT_EQ(config["$parsys_version"], read_json(a + "/stats.json")["parsys_version"]);
  r = parsys("run " + kernel("gs.par") + " -q --config " + a + "/config.json --out " + b);
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(read_file(b + "/config.json"), read_file(a + "/config.json"));
  EXPECT_EQ(without_host_measures(read_json(b + "/stats.json")), without_host_measures(read_json(a + "/stats.json")));
  for (const std::string& l : differing_lines(a + "/stats.txt", b + "/stats.txt"))
    EXPECT_TRUE(contains(l, "host_second")) << l;
}

TEST(Outputs, StatsTxtOfTwoIdenticalRunsDiffersOnlyInHostMeasurements) {
  const std::string a = temp_dir("diff_a"), b = temp_dir("diff_b");
  const std::string run = "run " + kernel("sva.par") + " -q --config " + config_file("device-dram.ini") +
                          " --platform.cores 2 --stats-window 2000 --out ";
  ASSERT_EQ(parsys(run + a).status, 0);
  ASSERT_EQ(parsys(run + b).status, 0);
  const std::vector<std::string> d = differing_lines(a + "/stats.txt", b + "/stats.txt");
  for (const std::string& l : d) EXPECT_TRUE(contains(l, "host_second")) << l;
  // Every other line is identical, column widths included.
  const auto all = lines(read_file(a + "/stats.txt"));
  std::size_t host_lines = 0;
  for (const std::string& l : all) host_lines += contains(l, "host_second") ? 1 : 0;
  EXPECT_LE(d.size(), host_lines);
  EXPECT_GT(all.size(), 200u);
}

TEST(Outputs, VersionIsPrintedAndRecorded) {
  const CliResult r = parsys("--version");
  EXPECT_EQ(r.status, 0);
  ASSERT_EQ(r.out.rfind("parsys ", 0), 0u) << r.out;
  const std::string version = r.out.substr(7, r.out.size() - 8);
  EXPECT_EQ(version, PARSYS_VERSION);
  const std::string dir = temp_dir("version");
  ASSERT_EQ(parsys("run " + kernel("gs.par") + " -q --out " + dir).status, 0);
  EXPECT_EQ(read_json(dir + "/stats.json")["parsys_version"], version);
  EXPECT_EQ(read_json(dir + "/config.json")["$parsys_version"], version);
  EXPECT_EQ(lines(read_file(dir + "/config.ini")).front(), "# parsys " + version);
}

TEST(Outputs, DumpMemAcceptsDataLabels) {
  const std::string dir = temp_dir("labels");
  // hpf: the output image is at data label hpf_out; the 64 bytes at its address, by label and by number.
  CliResult r = parsys("run " + kernel("hpf.par") + " -q --out " + dir + " --dump-mem hpf_out:64 --dump-mem hpf_out+2:4");
  ASSERT_EQ(r.status, 0) << r.out;
  r = parsys("run " + kernel("hpf.par") + " --no-out --dump-mem hpf_out:16");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_FALSE(contains(r.out, "00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00")) << "hpf_out holds results";
  r = parsys("run " + kernel("hpf.par") + " --no-out --dump-mem hpf_outt:4");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, "parsys: --dump-mem 'hpf_outt:4': 'hpf_outt' is neither an address nor a data label of the program "
                   "(expected ADDR:LEN or LABEL[:LEN])\n");
  r = parsys("run " + kernel("hpf.par") + " --no-out --dump-mem 0x10000");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, "parsys: --dump-mem '0x10000': expected ADDR:LEN (a length is needed after an address)\n");
}

}  // namespace
