// End-to-end tests of the memory hierarchy through the parsys command: kernels give the
// same results with local and with global memory, the 2011 reproduction still holds with the
// parsim2011 configuration, latency follows the DRAM and L2 parameters, and bad global accesses
// are clear errors.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "kernel_refs.hpp"
#include "par/isa/assembler.hpp"
#include "cli_test_args.hpp"

namespace {

using namespace par::testing;
using par::kernels::KernelInfo;

const std::string kLocal = "--config " + config_file("parsim2011.ini");

// The output region of a kernel as `ADDR:LEN` and the name of the file --out writes for it.
struct OutputRegion {
  std::string request, file;
};

OutputRegion output_region(const KernelInfo& k) {
  const par::isa::AssemblyResult a = par::isa::assemble_file(par::kernels::kernel_path(k));
  EXPECT_TRUE(a.ok()) << a.messages();
  const std::uint64_t addr = par::kernels::ProgramData(*a.program).address(k.output_label);
  std::ostringstream req, file;
  req << "0x" << std::hex << addr << ':' << std::dec << k.output_bytes();
  file << "mem_0x" << std::hex << addr << '_' << std::dec << k.output_bytes() << ".bin";
  return {req.str(), file.str()};
}

// Runs `kernel` with `args` and returns the bytes of its output region.
std::string output_of(const KernelInfo& k, const std::string& args, const std::string& dir) {
  const OutputRegion r = output_region(k);
  const CliResult res =
      parsys("run " + par::kernels::kernel_path(k) + " -q " + args + " --out " + dir + " --dump-mem " + r.request);
  EXPECT_EQ(res.status, 0) << res.out;
  return read_file(dir + "/" + r.file);
}

std::int64_t cycles_of(const std::string& dir) { return read_json(dir + "/stats.json")["core0"]["cycles"]["value"]; }

class EveryKernel : public ::testing::TestWithParam<std::string> {};

TEST_P(EveryKernel, SameResultWithLocalAndGlobalMemory) {
  const KernelInfo& k = par::kernels::kernel(GetParam());
  const std::string dir = temp_dir("memsys_" + GetParam());
  const std::string local = output_of(k, kLocal, dir + "/local");
  ASSERT_EQ(local.size(), k.output_bytes());
  // Global memory behind L2 and DRAM, at the shipped width and at a small one, timed and untimed.
  EXPECT_EQ(output_of(k, kGlobal, dir + "/global"), local);
  EXPECT_EQ(output_of(k, kGlobal + " --core.lanes 2 --core.threads_per_lane 3", dir + "/global_small"), local);
  EXPECT_EQ(output_of(k, kGlobal + " --mode functional", dir + "/global_functional"), local);
  // DRAM directly behind the interconnect, two cores sharing the packet.
  EXPECT_EQ(output_of(k, kGlobal + " --platform.memory dram --platform.cores 2", dir + "/dram_2cores"), local);
}

TEST_P(EveryKernel, Parsim2011ConfigurationReproducesThePublishedCycles) {
  const KernelInfo& k = par::kernels::kernel(GetParam());
  const std::string dir = temp_dir("repro_" + GetParam());
  for (std::size_t i = 0; i < par::kernels::kPublishedThreadsPerLane.size(); ++i) {
    const int t = par::kernels::kPublishedThreadsPerLane[i];
    const std::string out = dir + "/t" + std::to_string(t);
    const CliResult res = parsys("run " + par::kernels::kernel_path(k) + " -q " + kLocal +
                                 " --core.threads_per_lane " + std::to_string(t) + " --out " + out);
    ASSERT_EQ(res.status, 0) << res.out;
    const double published = static_cast<double>(k.published[i].cycles);
    const double rel = (static_cast<double>(cycles_of(out)) - published) / published;
    EXPECT_LE(std::abs(rel), par::kernels::reproduction_tolerance(k, t)) << k.name << " T=" << t;
  }
}

INSTANTIATE_TEST_SUITE_P(MemorySystem, EveryKernel, ::testing::ValuesIn(kernel_names()),
                         [](const ::testing::TestParamInfo<std::string>& p) { return p.param; });

// One lane, one thread: every load waits for memory, well below DRAM saturation.
const std::string kLatencyBound = kGlobal + " --core.lanes 1 --core.threads_per_lane 1";

TEST(MemorySystem, KernelTimeRisesWithDramCasLatency) {
  const std::string dir = temp_dir("tcl");
  std::int64_t previous = 0;
  double previous_latency = 0;
  for (int tcl : {8, 14, 20, 28}) {
    const std::string out = dir + "/tcl" + std::to_string(tcl);
    const CliResult r =
        parsys("run " + kernel_file("sva.par") + " -q " + kLatencyBound + " --dram.tCL " + std::to_string(tcl) + " --out " + out);
    ASSERT_EQ(r.status, 0) << r.out;
    const nlohmann::json s = read_json(out + "/stats.json");
    const std::int64_t cycles = s["core0"]["cycles"]["value"];
    const double latency = s["dram"]["avg_latency"]["value"];
    EXPECT_GT(cycles, previous) << "dram.tCL " << tcl;
    EXPECT_GT(latency, previous_latency) << "dram.tCL " << tcl;
    previous = cycles;
    previous_latency = latency;
  }
}

TEST(MemorySystem, BankBoundKernelGetsFasterWithMoreL2Banks) {
  // SVA writes one column of a matrix: single-word stores spread over many lines, one bank access
  // each. Once its data is in L2 (launches 2..4), the banks' access ports set its pace. The total
  // L2 capacity stays 256 KiB so that only the bank count changes.
  const std::string dir = temp_dir("banks");
  std::int64_t previous_cycles = 0, previous_conflicts = 0;
  for (int banks : {1, 2, 4, 8}) {
    const std::string out = dir + "/b" + std::to_string(banks);
    const CliResult r = parsys("run " + kernel_file("sva.par") + " -q " + kGlobal + " --run.repeat 4 --l2.banks " +
                               std::to_string(banks) + " --l2.bank_bytes " + std::to_string(262144 / banks) + " --out " + out);
    ASSERT_EQ(r.status, 0) << r.out;
    const nlohmann::json s = read_json(out + "/stats.json");
    const std::int64_t cycles = s["core0"]["cycles"]["value"];
    const std::int64_t conflicts = s["l2"]["bank_conflict_cycles"]["value"];
    if (previous_cycles != 0) {
      EXPECT_LT(cycles, previous_cycles) << "l2.banks " << banks;
      EXPECT_LT(conflicts, previous_conflicts) << "l2.banks " << banks;
    }
    previous_cycles = cycles;
    previous_conflicts = conflicts;
  }
}

TEST(MemorySystem, StatisticsOfEveryModuleInReportAndJson) {
  const std::string dir = temp_dir("modstats");
  const CliResult r = parsys("run " + kernel_file("sva.par") + " " + kGlobal + " --out " + dir);
  ASSERT_EQ(r.status, 0) << r.out;
  for (const char* line : {"l2.bank0", "l2.bank3", "dram ", "Global loads/stores"}) EXPECT_TRUE(contains(r.out, line)) << line;
  const nlohmann::json s = read_json(dir + "/stats.json");
  EXPECT_GT(s["core0"]["global"]["transactions"]["value"].get<std::int64_t>(), 0) << s.dump(1).substr(0, 2000);
  std::int64_t accesses = 0;
  for (int b = 0; b < 4; ++b) accesses += s["l2"]["bank" + std::to_string(b)]["accesses"]["value"].get<std::int64_t>();
  EXPECT_EQ(accesses, s["core0"]["global"]["transactions"]["value"].get<std::int64_t>());
  EXPECT_GT(s["dram"]["reads"]["value"].get<std::int64_t>(), 0);
}

// A local window smaller than the accesses (1..7 bytes) holds none of them: every access goes to
// global memory, with the same results.
TEST(MemorySystem, LocalWindowSmallerThanAnAccessSendsEverythingToGlobalMemory) {
  const KernelInfo& k = par::kernels::kernel("sva");
  const std::string dir = temp_dir("memsys_tiny_window");
  const std::string global = output_of(k, kGlobal, dir + "/global");
  ASSERT_EQ(global.size(), k.output_bytes());
  for (const char* size : {"1", "4", "7"})
    EXPECT_EQ(output_of(k, kGlobal + " --core.local_mem_size " + size, dir + "/window" + size), global) << size;
}

TEST(MemorySystem, GlobalAccessOutsideEveryRegionIsAnAddressError) {
  const std::string dir = temp_dir("unmapped_global");
  const std::string f = write_file(dir + "/k.par", ".PAR\n.ADDRESS main\n.THREADS 4\n.I1 0x7FFFFFF000\n.CODE\n"
                                                  "main: sll r1 = i0, 3\n ld8 r2 = i1[r1] #\n");
  const CliResult r = parsys("run " + f + " " + kGlobal);
  EXPECT_EQ(r.status, 1);
  EXPECT_TRUE(contains(r.out, "core0: runtime error at pc 1 (" + f + ":7), thread 0: unmapped 8-byte load at 0x7ffffff000 "
                                 "(TLM_ADDRESS_ERROR_RESPONSE)")) << r.out;
}

TEST(MemorySystem, MisalignedGlobalAccessIsAnError) {
  const std::string dir = temp_dir("misaligned_global");
  const std::string f = write_file(dir + "/k.par", ".PAR\n.ADDRESS main\n.THREADS 4\n.I1 0x100004\n.CODE\n"
                                                  "main: sll r1 = i0, 3\n st8 i1[r1] = r1 #\n");
  const CliResult r = parsys("run " + f + " " + kGlobal);
  EXPECT_EQ(r.status, 1);
  EXPECT_TRUE(contains(r.out, "misaligned")) << r.out;
  EXPECT_TRUE(contains(r.out, f + ":7")) << r.out;
}

}  // namespace

// The protocol checker observes without disturbing: same cycles, same results, every binding of
// the platform checked, no violation by the shipped models.
TEST(MemorySystem, ProtocolCheckerSeesEveryBindingAndChangesNothing) {
  if (with_test_run_args("run ") != "run ") GTEST_SKIP() << "compares runs with and without the checker";
  const KernelInfo& k = par::kernels::kernel("sva");
  const std::string dir = temp_dir("memsys_protocol_check");
  const std::string plain = output_of(k, kGlobal + " --platform.cores 2", dir + "/plain");
  const std::string checked = output_of(k, kGlobal + " --platform.cores 2 --check-protocol", dir + "/checked");
  EXPECT_EQ(checked, plain);
  EXPECT_EQ(cycles_of(dir + "/checked"), cycles_of(dir + "/plain"));
  const nlohmann::json checkers = read_json(dir + "/checked/stats.json")["protocol_check"];
  // 2 cores -> bus, bus -> l2, bus -> scheduler, 4 banks -> dram, scheduler -> 2 cores,
  // scheduler notify -> bus; host side: host_bus -> host_mem, host_bus -> link, bus -> link,
  // link -> bus, link -> host_bus, master -> host_bus.
  EXPECT_EQ(checkers.size(), 17u);
  std::int64_t calls = 0;
  for (const auto& [name, c] : checkers.items()) {
    EXPECT_EQ(c["violations"]["value"], 0) << name;
    calls += c["b_transport"]["value"].get<std::int64_t>();
  }
  EXPECT_EQ(checkers["check_core0_mem__bus_in"]["b_transport"]["value"], 800);
  EXPECT_GT(checkers["check_master_bus__host_bus_in"]["b_transport"]["value"], 0);
  EXPECT_GT(calls, 3000);
  EXPECT_FALSE(read_json(dir + "/plain/stats.json").contains("protocol_check"));
}

// stats.json holds the tree in total, per launch (between packet completions) and per window:
// the samples add up to the total and tile the run.
TEST(MemorySystem, StatisticsPerLaunchAndPerWindowAddUpToTheTotal) {
  const std::string dir = temp_dir("memsys_stats_samples");
  const CliResult r = parsys("run " + kernel_file("sva.par") + " -q " + kGlobal +
                             " --run.repeat 3 --stats-window 2000 --out " + dir);
  ASSERT_EQ(r.status, 0) << r.out;
  const nlohmann::json s = read_json(dir + "/stats.json");
  const auto total = [&](const nlohmann::json& tree, const char* group, const char* stat) {
    return tree[group][stat]["value"].get<std::int64_t>();
  };
  ASSERT_EQ(s["launches"].size(), 3u);
  std::int64_t cycles = 0, reads = 0;
  double previous_end = 0;
  for (std::size_t i = 0; i < 3; ++i) {
    const nlohmann::json& l = s["launches"][i];
    EXPECT_EQ(l["seq"], i + 1);
    EXPECT_GE(l["begin_ns"].get<double>(), previous_end);
    EXPECT_GT(l["end_ns"].get<double>(), l["begin_ns"].get<double>());
    previous_end = l["end_ns"];
    EXPECT_EQ(total(l["stats"], "run", "launches"), 1);
    cycles += total(l["stats"], "core0", "cycles");
    reads += total(l["stats"], "dram", "reads");
  }
  EXPECT_EQ(cycles, total(s, "core0", "cycles"));
  EXPECT_EQ(reads, total(s, "dram", "reads"));
  // The first launch misses in L2 and reads DRAM; the repeats hit.
  EXPECT_GT(total(s["launches"][0]["stats"], "dram", "reads"), 0);
  EXPECT_EQ(total(s["launches"][2]["stats"], "dram", "reads"), 0);

  // Windows of 2000 cycles at 1 GHz tile [0, end of the run); the last one is partial.
  const nlohmann::json& w = s["windows"];
  ASSERT_GE(w.size(), 2u);
  std::int64_t l2_accesses = 0;
  for (std::size_t i = 0; i < w.size(); ++i) {
    EXPECT_DOUBLE_EQ(w[i]["begin_ns"].get<double>(), 2000.0 * static_cast<double>(i));
    if (i + 1 < w.size()) {
      EXPECT_DOUBLE_EQ(w[i]["end_ns"].get<double>(), 2000.0 * static_cast<double>(i + 1));
    }
    l2_accesses += total(w[i]["stats"]["l2"], "bank0", "accesses");
  }
  // ... at the end of the run (the host software's end, after the last completion).
  EXPECT_DOUBLE_EQ(w.back()["end_ns"].get<double>(), s["run"]["simulated_ns"]["value"].get<double>());
  EXPECT_GE(w.back()["end_ns"].get<double>(), s["launches"][2]["end_ns"].get<double>());
  EXPECT_EQ(l2_accesses, total(s["l2"], "bank0", "accesses"));
  // stats.txt has the same sections.
  const std::string txt = read_file(dir + "/stats.txt");
  EXPECT_TRUE(contains(txt, "# launch 3:")) << txt.substr(0, 200);
  EXPECT_TRUE(contains(txt, "# window 1: 2000 ns .. 4000 ns"));
}
