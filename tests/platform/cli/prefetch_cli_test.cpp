// The packet prefetcher through the parsys command (modules/par_core/prefetch/README.md): it never
// changes what a program computes, it is off by default (no statistics, nothing sent), its
// counters add up on a streaming kernel, it makes a DRAM-bound streaming kernel faster by a
// bounded amount, and bad option values are refused with one clear message.
#include <gtest/gtest.h>

#include <string>

#include "cli_test_args.hpp"
#include "kernel_refs.hpp"
#include "par/isa/assembler.hpp"

namespace {

using namespace par::testing;
using par::kernels::KernelInfo;

const std::string kPrefetch = " --core.prefetch.enabled";
// The streaming kernel on a core small enough to be DRAM-bound and quick.
const std::string kStreamArgs = kGlobal + " --core.lanes 8 --core.threads_per_lane 4";

struct PrefetchRun {
  std::string output;  // the kernel's output region
  std::string registers;
  nlohmann::json stats;
};

PrefetchRun run_with(const std::string& file, const std::string& label, std::uint64_t bytes, const std::string& args,
                     const std::string& dir) {
  const par::isa::AssemblyResult a = par::isa::assemble_file(file);
  EXPECT_TRUE(a.ok()) << a.messages();
  PrefetchRun run;
  if (!a.ok()) return run;
  const std::uint64_t out = par::kernels::ProgramData(*a.program).address(label);
  const CliResult r = parsys("run " + file + " -q " + args + " --out " + dir + " --dump-mem " + region(out, bytes) +
                             " --dump-regs 0:64");
  EXPECT_EQ(r.status, 0) << r.out;
  if (r.status != 0) return run;
  run.output = read_file(dir + "/" + dump_file(out, bytes));
  run.registers = read_file(dir + "/registers.txt");
  run.stats = read_json(dir + "/stats.json");
  return run;
}

double stat(const nlohmann::json& stats, const std::string& dotted) {
  const nlohmann::json* node = &stats;
  std::string rest = dotted;
  for (std::size_t dot; (dot = rest.find('.')) != std::string::npos; rest = rest.substr(dot + 1))
    node = &(*node)[rest.substr(0, dot)];
  return (*node)[rest]["value"].get<double>();
}

TEST(PrefetchCli, ResultsAreIdenticalWithAndWithoutPrefetching) {
  const std::string dir = temp_dir("prefetch_results");
  // Every reference kernel that finishes quickly in global memory, at one shape, and the
  // streaming kernel at several distances.
  for (const KernelInfo& k : par::kernels::kernel_table()) {
    const std::string name(k.name);
    if (name == "dmmm" || name == "jim") continue;  // millions of cycles
    const std::string file = par::kernels::kernel_path(k);
    const std::string label(k.output_label);
    const std::string base = kGlobal + " --core.lanes 4 --core.threads_per_lane 4";
    const PrefetchRun off = run_with(file, label, k.output_bytes(), base, dir + "/" + name + "_off");
    const PrefetchRun on =
        run_with(file, label, k.output_bytes(), base + kPrefetch + " --core.prefetch.early_ignore 0", dir + "/" + name + "_on");
    EXPECT_FALSE(off.output.empty()) << name;
    EXPECT_EQ(on.output, off.output) << name;
    EXPECT_EQ(on.registers, off.registers) << name;
  }
  const std::string sva = kernel_file("stream-sva.par");
  const PrefetchRun off = run_with(sva, "sva_z", 16384 * 8, kStreamArgs, dir + "/sva_off");
  for (const char* q : {"1", "2", "5", "33"}) {
    const PrefetchRun on = run_with(sva, "sva_z", 16384 * 8,
                                    kStreamArgs + kPrefetch + " --core.prefetch.queue_rounds " + q + " --core.prefetch.byte_limit 4096",
                                    dir + "/sva_on" + q);
    EXPECT_EQ(on.output, off.output) << q;
    EXPECT_EQ(on.registers, off.registers) << q;
    EXPECT_GT(stat(on.stats, "core0.prefetch.issued"), 0) << q;
  }
  // Thread contexts: rounds end out of order; the prefetcher follows them.
  const std::string contexts = " --core.contexts 3 --core.threads_per_lane 2";
  const PrefetchRun ctx_off = run_with(sva, "sva_z", 16384 * 8, kStreamArgs + contexts, dir + "/sva_ctx_off");
  const PrefetchRun ctx_on = run_with(sva, "sva_z", 16384 * 8, kStreamArgs + contexts + kPrefetch, dir + "/sva_ctx_on");
  EXPECT_EQ(ctx_on.output, off.output);
  EXPECT_EQ(ctx_off.output, off.output);
  EXPECT_EQ(ctx_on.registers, ctx_off.registers);
  EXPECT_GT(stat(ctx_on.stats, "l2.prefetch.useful"), 0);
  EXPECT_LT(stat(ctx_on.stats, "core0.cycles"), stat(ctx_off.stats, "core0.cycles"));
}

TEST(PrefetchCli, OffByDefaultLeavesTheStatisticsAlone) {
  const std::string dir = temp_dir("prefetch_default");
  const std::string sva = kernel_file("stream-sva.par");
  const PrefetchRun def = run_with(sva, "sva_z", 64, kStreamArgs, dir + "/default");
  const PrefetchRun off = run_with(sva, "sva_z", 64, kStreamArgs + " --core.prefetch.enabled false", dir + "/off");
  EXPECT_FALSE(def.stats["core0"].contains("prefetch"));
  EXPECT_FALSE(def.stats["l2"].contains("prefetch"));
  EXPECT_FALSE(def.stats["l2"]["bank0"].contains("prefetch"));
  EXPECT_EQ(stat(def.stats, "core0.cycles"), stat(off.stats, "core0.cycles"));
  EXPECT_EQ(stat(def.stats, "l2.accesses"), stat(off.stats, "l2.accesses"));
  EXPECT_EQ(stat(def.stats, "dram.reads"), stat(off.stats, "dram.reads"));
  EXPECT_TRUE(contains(read_file(dir + "/default/config.ini"), "[core.prefetch]\nenabled = false"));
}

TEST(PrefetchCli, CountersAddUpAndTheStreamingKernelGetsFaster) {
  const std::string dir = temp_dir("prefetch_counters");
  const std::string sva = kernel_file("stream-sva.par");
  const PrefetchRun off = run_with(sva, "sva_z", 64, kStreamArgs, dir + "/off");
  const PrefetchRun on = run_with(sva, "sva_z", 64, kStreamArgs + kPrefetch, dir + "/on");
  const nlohmann::json& s = on.stats;
  // Two affine loads (x and y) in one packet; every round but the ignored first one decoded:
  // 512 rounds of 32 threads, each 4 lines of x and 4 of y.
  EXPECT_EQ(stat(s, "core0.prefetch.affine_loads"), 2);
  EXPECT_EQ(stat(s, "core0.prefetch.rounds"), 511);
  EXPECT_EQ(stat(s, "core0.prefetch.issued") + stat(s, "core0.prefetch.unsent"), 511 * 8);
  EXPECT_EQ(stat(s, "core0.prefetch.bytes"), stat(s, "core0.prefetch.issued") * 64);
  EXPECT_EQ(stat(s, "core0.prefetch.errors"), 0);
  EXPECT_EQ(s["core0"]["prefetch"]["issued"]["unit"], "requests");
  // The L2 saw each request once, and the lines it filled were used.
  EXPECT_EQ(stat(s, "l2.prefetch.requests"), stat(s, "core0.prefetch.issued"));
  EXPECT_EQ(stat(s, "l2.prefetch.requests"),
            stat(s, "l2.prefetch.fills") + stat(s, "l2.prefetch.redundant") + stat(s, "l2.prefetch.dropped"));
  EXPECT_GT(stat(s, "l2.prefetch.useful"), 0.9 * stat(s, "l2.prefetch.fills"));
  EXPECT_LE(stat(s, "l2.prefetch.useful"), stat(s, "l2.prefetch.fills"));
  EXPECT_LE(stat(s, "l2.prefetch.late"), stat(s, "l2.prefetch.useful"));
  EXPECT_EQ(stat(s, "l2.prefetch.evicted_unused"), 0);  // 2 x 128 KiB of input stream through a 256 KiB L2
  EXPECT_EQ(s["l2"]["prefetch"]["useful"]["unit"], "lines");
  EXPECT_EQ(s["l2"]["bank0"]["prefetch"]["evicted_unused"]["unit"], "lines");
  // Demand reads now mostly hit: the L2 reads each input line from DRAM once either way.
  EXPECT_EQ(stat(s, "dram.reads"), stat(off.stats, "dram.reads"));
  const double speedup = stat(off.stats, "core0.cycles") / stat(s, "core0.cycles");
  EXPECT_GT(speedup, 1.05) << stat(off.stats, "core0.cycles") << " -> " << stat(s, "core0.cycles");
  EXPECT_LT(speedup, 1.15) << stat(off.stats, "core0.cycles") << " -> " << stat(s, "core0.cycles");
}

TEST(PrefetchCli, BadValuesAreRejected) {
  const std::string sva = kernel_file("stream-sva.par");
  struct Case {
    std::string args, message;
  } cases[] = {
      {kGlobal + kPrefetch + " --core.prefetch.max_outstanding 0",
       "parsys: --core.prefetch.max_outstanding: '0' is out of range [1, 4096]"},
      {kGlobal + kPrefetch + " --core.prefetch.queue_rounds 0",
       "parsys: --core.prefetch.queue_rounds: '0' is out of range [1, 4096]"},
      {kGlobal + kPrefetch + " --core.prefetch.early_ignore -1",
       "parsys: --core.prefetch.early_ignore: '-1' is out of range"},
      {kGlobal + " --core.prefetch.enabled maybe", "parsys: --core.prefetch.enabled: 'maybe'"},
      {kPrefetch.substr(1),
       "parsys: core.prefetch.enabled: the packet prefetcher fills the L2, but platform.memory is 'local' (use l2_dram)"},
      {kGlobal + kPrefetch + " --l1.enabled",
       "parsys: core.prefetch.enabled: not with l1.enabled (the private L1 does not pass prefetch requests on)"},
  };
  for (const Case& c : cases) {
    const CliResult r = parsys("run " + sva + " " + c.args);
    EXPECT_EQ(r.status, 2) << c.args << ": " << r.out;
    EXPECT_TRUE(contains(r.out, c.message)) << c.args << ": " << r.out;
  }
}

}  // namespace
