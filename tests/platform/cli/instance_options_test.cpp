// Per-instance options through the parsys command (docs/architecture.md, configuration): an
// instance's name overrides its type's option (core1.lanes over core.lanes), so one platform mixes
// core shapes; the program's results do not change, the scheduler's static shares follow each
// core's L x T, each core's statistics follow its own shape,
// config.ini and config.json record each instance's values and reproduce the run, and a value for
// an instance that does not exist is refused with one clear message.
#include <gtest/gtest.h>

#include <string>

#include "cli_test_args.hpp"
#include "kernel_refs.hpp"
#include "par/isa/assembler.hpp"

namespace {

using namespace par::testing;

// GS on four cores of 64 lanes x 4 threads (device-dram.ini): 1280 threads, 320 per core.
const std::string kFourCores = kGlobal + " --platform.cores 4 -q";

struct GsRun {
  std::string output;  // the kernel's output region
  nlohmann::json stats, config;
};

GsRun run_gs(const std::string& args, const std::string& dir) {
  const par::kernels::KernelInfo& k = par::kernels::kernel("gs");
  const std::string file = par::kernels::kernel_path(k);
  const par::isa::AssemblyResult a = par::isa::assemble_file(file);
  EXPECT_TRUE(a.ok()) << a.messages();
  GsRun run;
  if (!a.ok()) return run;
  const std::uint64_t out = par::kernels::ProgramData(*a.program).address(std::string(k.output_label));
  const CliResult r = parsys("run " + file + " " + args + " --out " + dir + " --dump-mem " + region(out, k.output_bytes()));
  EXPECT_EQ(r.status, 0) << r.out;
  if (r.status != 0) return run;
  run.output = read_file(dir + "/" + dump_file(out, k.output_bytes()));
  run.stats = read_json(dir + "/stats.json");
  run.config = read_json(dir + "/config.json");
  return run;
}

std::int64_t counter(const nlohmann::json& stats, const std::string& core, const std::string& name) {
  return stats.at(core).at(name).at("value").get<std::int64_t>();
}

TEST(InstanceOptions, MixedCoreShapesComputeTheSameResultsAndEachCoreCountsItsOwnShape) {
  const std::string dir = temp_dir("instance_shapes");
  const GsRun uniform = run_gs(kFourCores, dir + "/uniform");
  const GsRun mixed = run_gs(kFourCores + " --core1.lanes 4 --core2.threads_per_lane 2", dir + "/mixed");
  ASSERT_FALSE(uniform.output.empty());
  EXPECT_EQ(mixed.output, uniform.output);
  // Equal shapes: 320 threads each, 2 rounds of 64 x 4.
  EXPECT_EQ(counter(uniform.stats, "core1", "threads"), 320);
  EXPECT_EQ(counter(uniform.stats, "core1", "rounds"), 2);
  // The static shares follow L x T: 256, 16, 128, 256 slots = 16, 1, 8, 16 units of 16 slots,
  // ceil(1280 / 41) = 32 threads a unit -> 512, 32, 256 and the remaining 480 threads, so every
  // core runs 2 rounds of its own shape instead of the 4 x 4 core running 20.
  const std::int64_t threads[] = {512, 32, 256, 480};
  for (int c = 0; c < 4; ++c) {
    const std::string core = "core" + std::to_string(c);
    EXPECT_EQ(counter(mixed.stats, core, "threads"), threads[c]) << core;
    EXPECT_EQ(counter(mixed.stats, core, "rounds"), 2) << core;
  }
  // So the small core no longer sets the pace: no core takes twice the uniform run's cycles.
  for (int c = 0; c < 4; ++c) {
    const std::string core = "core" + std::to_string(c);
    EXPECT_LT(counter(mixed.stats, core, "cycles"), 2 * counter(uniform.stats, core, "cycles")) << core;
  }
  // Utilisation is busy lane-cycles / (C x L) with the core's own L (every active slot is stepped
  // through the FU: one lane-cycle per thread-instruction).
  const nlohmann::json& core1 = mixed.stats.at("core1");
  EXPECT_DOUBLE_EQ(core1.at("utilization").at("alu").at("value").get<double>(),
                   core1.at("thread_instructions").at("alu").at("value").get<double>() /
                       (4.0 * counter(mixed.stats, "core1", "cycles")));
}

TEST(InstanceOptions, ConfigFilesRecordEachInstanceAndReproduceTheRun) {
  const std::string dir = temp_dir("instance_config");
  const std::string ini = dir + "/shapes.ini";
  write_file(ini, "[core]\nlanes = 16\n[core3]\nlanes = 8\nrob_size = 16\n");
  const GsRun first = run_gs(kFourCores + " --config " + ini + " --core0.lanes 32", dir + "/first");
  ASSERT_FALSE(first.output.empty());
  EXPECT_EQ(first.config.at("core").at("lanes"), 16);
  EXPECT_EQ(first.config.at("core0").at("lanes"), 32);
  EXPECT_EQ(first.config.at("core3").at("lanes"), 8);
  EXPECT_EQ(first.config.at("core3").at("rob_size"), 16);
  EXPECT_FALSE(first.config.contains("core1"));  // its type's values
  const std::string text = read_file(dir + "/first/config.ini");
  EXPECT_NE(text.find("[core3]\nlanes = 8"), std::string::npos) << text;
  EXPECT_NE(text.find("rob_size = 16                                     ; " + ini + ":5"), std::string::npos) << text;
  EXPECT_NE(text.find("[core0]\nlanes = 32                                        ; command line"), std::string::npos)
      << text;
  // Given back (INI or JSON), each file reproduces the run.
  for (const char* f : {"config.ini", "config.json"}) {
    const GsRun again = run_gs(kGlobal + " -q --config " + dir + "/first/" + f, dir + "/again_" + f);
    EXPECT_EQ(again.output, first.output) << f;
    EXPECT_EQ(again.config, first.config) << f;
    for (const char* core : {"core0", "core1", "core3"})
      EXPECT_EQ(counter(again.stats, core, "cycles"), counter(first.stats, core, "cycles")) << f << " " << core;
  }
}

TEST(InstanceOptions, ValuesForInstancesThatDoNotExistAreRefused) {
  const std::string gs = kernel_file("gs.par") + " --no-out -q " + kGlobal + " --platform.cores 4";
  const struct {
    const char* args;
    const char* message;
  } cases[] = {
      {" --core9.lanes 4", "parsys: core9.lanes: there is no core9 (platform.cores = 4: core0..core3)\n"},
      {" --l2.bank4.model builtin", "parsys: l2.bank4.model: there is no l2.bank4 (l2.banks = 4: l2.bank0..l2.bank3)\n"},
      {" --platform.memory dram --l2.bank0.plugin_args a=1",
       "parsys: l2.bank0.plugin_args: there is no L2 (platform.memory is 'dram')\n"},
      {" --core1.lanes 0", "parsys: --core1.lanes: '0' is out of range [1, 256]\n"},
      {" --core1.local_mem_size 4096",
       "parsys: core1.local_mem_size: must be the same for every core (it shapes the platform, not one core); set "
       "core.local_mem_size\n"},
      {" --core01.lanes 4", "parsys: unknown option '--core01.lanes' (did you mean '--core.lanes'?)\n"},
      {" --core1.lanez 4", "parsys: unknown option '--core1.lanez' (did you mean '--core.lanes'?)\n"},
  };
  for (const auto& c : cases) {
    const CliResult r = parsys("run " + gs + c.args);
    EXPECT_EQ(r.status, 2) << c.args;
    EXPECT_EQ(r.out, c.message) << c.args;
  }
  // The same from a configuration file, with its line.
  const std::string dir = temp_dir("instance_errors");
  write_file(dir + "/bad.ini", "[core5]\nlanes = 4\n[core1]\nlanes = none\n");
  const CliResult r = parsys("run " + gs + " --config " + dir + "/bad.ini");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, "parsys: " + dir + "/bad.ini:4: core1.lanes: 'none' is not an integer\n"
                   "parsys: core5.lanes: there is no core5 (platform.cores = 4: core0..core3)\n");
}

}  // namespace
