// End-to-end tests of the parsys command: exit status, messages, report, output directory.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "par/isa/assembler.hpp"
#include "par/isa/image.hpp"
#include "par/simkit/options.hpp"
#include "platform_options.hpp"
#include "program_runner.hpp"
#include "support/parsys_cli.hpp"
#include "support/sc_isolation.hpp"

namespace {

using namespace par::testing;
using Result = CliResult;

std::string kernel(const std::string& name) { return kernel_file(name); }

TEST(Cli, HelpListsEveryOptionWithItsDefault) {
  const Result r = parsys("--help");
  EXPECT_EQ(r.status, 0);
  par::platform::PlatformConfig cfg;
  par::simkit::OptionRegistry reg;
  par::platform::register_options(reg, cfg);
  ASSERT_GT(reg.options().size(), 30u);
  for (const auto* opt : reg.options()) {
    EXPECT_TRUE(contains(r.out, opt->name())) << opt->name();
    EXPECT_TRUE(contains(r.out, opt->default_text())) << opt->name() << " default " << opt->default_text();
  }
  for (const char* cmd_opt : {"--config", "--out", "--dump-mem", "--dump-regs", "--mode", "--max-cycles"})
    EXPECT_TRUE(contains(r.out, cmd_opt)) << cmd_opt;
}

TEST(Cli, RunReportsTheEngineCycles) {
  par::core::CoreConfig cfg;
  cfg.threads_per_lane = 8;
  const par::core::ProgramRun direct = par::core::run_file(kernel("sva.par"), cfg);
  ASSERT_TRUE(direct.ok) << direct.error;
  const Result r = parsys("run " + kernel("sva.par") + " --core.threads_per_lane 8");
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_TRUE(contains(r.out, "Execution time             " + std::to_string(direct.stats.cycles) + " cycles")) << r.out;
  for (const char* metric : {"Instructions per FU", "IPC", "with compare-unit instructions", "FPU throughput",
                             "ALU utilisation", "Compare-unit utilisation", "L/S-unit utilisation", "ROB utilisation",
                             "Stall cycles", "Thread-instructions", "Simulator speed"})
    EXPECT_TRUE(contains(r.out, metric)) << metric;
}

TEST(Cli, OutputDirectoryHoldsStatisticsConfigurationAndDumps) {
  const std::string dir = temp_dir("out");
  const Result r = parsys("run " + kernel("gs.par") + " -q --core.threads_per_lane 2 --out " + dir +
                          " --dump-mem 0x0:64 --dump-regs 3:2");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_TRUE(r.out.empty()) << r.out;  // -q
  const nlohmann::json stats = read_json(dir + "/stats.json");
  EXPECT_EQ(stats["core0"]["cycles"]["value"], 14726);
  EXPECT_EQ(stats["core0"]["cycles"]["unit"], "cycles");
  EXPECT_EQ(stats["core0"]["thread_instructions"]["fpu"]["value"], 1280 * 8);
  EXPECT_EQ(stats["run"]["launches"]["value"], 1);
  std::ifstream mem(dir + "/mem_0x0_64.bin", std::ios::binary);
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(mem), {}).size(), 64u);
  std::ifstream regs(dir + "/registers.txt");
  const std::string reg_text((std::istreambuf_iterator<char>(regs)), {});
  EXPECT_TRUE(contains(reg_text, "thread 3\n"));
  EXPECT_TRUE(contains(reg_text, "thread 4\n"));
  EXPECT_FALSE(contains(reg_text, "thread 5\n"));
  std::ifstream txt(dir + "/stats.txt");
  EXPECT_TRUE(contains(std::string((std::istreambuf_iterator<char>(txt)), {}), "core0.utilization.alu"));

  // The effective configuration reproduces the run.
  const std::string dir2 = temp_dir("out2");
  ASSERT_EQ(parsys("run " + kernel("gs.par") + " -q --config " + dir + "/config.ini --out " + dir2).status, 0);
  EXPECT_EQ(read_json(dir2 + "/stats.json")["core0"]["cycles"]["value"], 14726);
}

TEST(Cli, IniSectionsSetOptionsAndTheCommandLineWins) {
  const std::string dir = temp_dir("ini");
  write_file(dir + "/t.ini", "[core]\nthreads_per_lane = 1\nlanes = 2\n");
  const Result r = parsys("run " + kernel("sva.par") + " -q --config " + dir + "/t.ini --core.lanes 1 --out " + dir);
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(read_json(dir + "/stats.json")["core0"]["cycles"]["value"], 8965);  // L=1, T=1
}

TEST(Cli, BooleanOptionsTakeALiteralOrStandAlone) {
  const std::string dir = temp_dir("bool");
  auto cycles = [&](const std::string& opts) {
    const Result r = parsys("run " + kernel("rgb_cmyk.par") + " -q --core.threads_per_lane 4 " + opts + " --out " + dir);
    EXPECT_EQ(r.status, 0) << opts << "\n" << r.out;
    return read_json(dir + "/stats.json")["core0"]["cycles"]["value"].get<int>();
  };
  EXPECT_EQ(cycles(""), 14404);
  EXPECT_EQ(cycles("--core.store_output_buffer false"), 13764);
  EXPECT_EQ(cycles("--core.store_output_buffer=no"), 13764);
  EXPECT_EQ(cycles("--core.store_output_buffer"), 14404);
  const Result bad = parsys("run " + kernel("rgb_cmyk.par") + " --core.store_output_buffer maybe");
  EXPECT_EQ(bad.status, 2);
  EXPECT_TRUE(contains(bad.out, "'maybe' is not a boolean")) << bad.out;
  const Result extra = parsys("run " + kernel("rgb_cmyk.par") + " " + kernel("gs.par"));
  EXPECT_EQ(extra.status, 2);
  EXPECT_TRUE(contains(extra.out, "unexpected argument '" + kernel("gs.par") + "'")) << extra.out;
}

TEST(Cli, FunctionalModeGivesTheSameMemory) {
  const std::string a = temp_dir("timing"), b = temp_dir("functional");
  // hpf.par's data (image in, image out) starts at 0x10000.
  ASSERT_EQ(parsys("run " + kernel("hpf.par") + " -q --core.lanes 4 --out " + a + " --dump-mem 0x10000:65536").status, 0);
  ASSERT_EQ(parsys("run " + kernel("hpf.par") + " -q --mode functional --out " + b + " --dump-mem 0x10000:65536").status, 0);
  std::ifstream fa(a + "/mem_0x10000_65536.bin", std::ios::binary), fb(b + "/mem_0x10000_65536.bin", std::ios::binary);
  const std::string ma((std::istreambuf_iterator<char>(fa)), {}), mb((std::istreambuf_iterator<char>(fb)), {});
  ASSERT_EQ(ma.size(), 65536u);
  ASSERT_NE(ma.find_first_not_of('\0'), std::string::npos) << "the region holds the kernel's data";
  EXPECT_EQ(ma, mb);
}

// run.functional_width reaches the core: 20 threads in rounds of 7 are 3 rounds (with the same
// results as one round of the default width).
TEST(Cli, FunctionalWidthSetsTheThreadsPerRound) {
  const std::string dir = temp_dir("fwidth");
  const std::string f = write_file(dir + "/k.par", ".PAR\n.ADDRESS main\n.THREADS 20\n.I1 0x100\n.CODE\n"
                                                   "main: sll r1 = i0, 3\n mul r2 = i0, i0\n st8 i1[r1] = r2 #\n");
  for (const std::string width : {"7", "1024"}) {
    const Result r = parsys("run " + f + " -q --mode functional --run.functional_width " + width + " --out " + dir + "/" +
                            width + " --dump-mem 0x100:160");
    ASSERT_EQ(r.status, 0) << r.out;
  }
  EXPECT_EQ(read_json(dir + "/7/stats.json")["core0"]["rounds"]["value"], 3);
  EXPECT_EQ(read_json(dir + "/1024/stats.json")["core0"]["rounds"]["value"], 1);
  EXPECT_EQ(read_file(dir + "/7/mem_0x100_160.bin"), read_file(dir + "/1024/mem_0x100_160.bin"));
  EXPECT_EQ(read_file(dir + "/7/mem_0x100_160.bin").substr(8 * 19, 8), std::string("\x69\x01\0\0\0\0\0\0", 8));
}

TEST(Cli, AsmAndDisasmRoundTrip) {
  const std::string dir = temp_dir("asm");
  ASSERT_EQ(parsys("asm " + kernel("jim.par") + " -o " + dir + "/jim.bin").status, 0);
  const Result d = parsys("disasm " + dir + "/jim.bin -o " + dir + "/jim2.par");
  ASSERT_EQ(d.status, 0) << d.out;
  ASSERT_EQ(parsys("asm " + dir + "/jim2.par -o " + dir + "/jim2.bin").status, 0);
  std::ifstream f1(dir + "/jim.bin", std::ios::binary), f2(dir + "/jim2.bin", std::ios::binary);
  const std::string b1((std::istreambuf_iterator<char>(f1)), {}), b2((std::istreambuf_iterator<char>(f2)), {});
  EXPECT_FALSE(b1.empty());
  // The images differ only in their debug information (source name and lines); both run alike.
  const Result r1 = parsys("run " + dir + "/jim.bin -q --core.threads_per_lane 8 --out " + dir + "/r1");
  const Result r2 = parsys("run " + dir + "/jim2.bin -q --core.threads_per_lane 8 --out " + dir + "/r2");
  ASSERT_EQ(r1.status, 0) << r1.out;
  ASSERT_EQ(r2.status, 0) << r2.out;
  EXPECT_EQ(read_json(dir + "/r1/stats.json")["core0"]["cycles"], read_json(dir + "/r2/stats.json")["core0"]["cycles"]);
}

TEST(Cli, DisasmWarnsWhatTheListingCannotSay) {
  const std::string dir = temp_dir("disasm_warn");
  const par::isa::AssemblyResult a =
      par::isa::assemble(".PAR\n.ADDRESS main\n.THREADS 2\n.CODE\nmain: add r1 = i0, 1 #\n", "k.par");
  ASSERT_TRUE(a.ok()) << a.messages();
  par::isa::Program p = *a.program;
  p.data_labels["far"] = 0x5000;
  std::string error;
  ASSERT_TRUE(par::isa::save_image(p, dir + "/k.bin", &error)) << error;
  const CliStreams r = parsys_streams("disasm " + dir + "/k.bin");
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.err, "parsys disasm: warning: the listing does not assemble back: data label 'far' (0x5000) is left out: "
                   "outside every data section\n");
  EXPECT_TRUE(contains(r.out, "// This listing does not assemble back to the same program:\n")) << r.out;
  EXPECT_TRUE(contains(r.out, "main:   add r1 = i0, 1 #")) << r.out;
}

// --- Bad input: a clear message and a non-zero exit status, never a crash. -------------------

TEST(CliErrors, UnknownOptionSuggestsTheRightOne) {
  const Result r = parsys("run " + kernel("gs.par") + " --core.lane 4");
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(contains(r.out, "parsys: unknown option '--core.lane' (did you mean '--core.lanes'?)")) << r.out;
}

TEST(CliErrors, MalformedAndOutOfRangeValues) {
  const Result r = parsys("run " + kernel("gs.par") + " --core.lanes abc --core.rob_size 0 --core.threads_per_lane 65 "
                          "--core.queue_release never");
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(contains(r.out, "--core.lanes: 'abc' is not an integer")) << r.out;
  EXPECT_TRUE(contains(r.out, "--core.rob_size: '0' is out of range [1, 4096]")) << r.out;
  EXPECT_TRUE(contains(r.out, "--core.threads_per_lane: '65' is out of range [1, 64]")) << r.out;
  EXPECT_TRUE(contains(r.out, "'never' is not one of: issue, commit")) << r.out;
}

TEST(CliErrors, ZeroLanesInAConfigFileNamesTheFileAndLine) {
  const std::string dir = temp_dir("badini");
  write_file(dir + "/bad.ini", "[core]\nrob_size = 8\nlanes = 0\n");
  const Result r = parsys("run " + kernel("gs.par") + " --config " + dir + "/bad.ini");
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(contains(r.out, dir + "/bad.ini:3")) << r.out;
  EXPECT_TRUE(contains(r.out, "out of range")) << r.out;
}

TEST(CliErrors, MissingProgramFileAndMissingConfigFile) {
  Result r = parsys("run /nonexistent/k.par");
  EXPECT_EQ(r.status, 1);
  EXPECT_TRUE(contains(r.out, "/nonexistent/k.par:0:0: error: cannot read: No such file or directory")) << r.out;
  r = parsys("run " + kernel("gs.par") + " --config /nonexistent/c.ini");
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(contains(r.out, "cannot read config file '/nonexistent/c.ini'")) << r.out;
  r = parsys("run");
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(contains(r.out, "no program given")) << r.out;
  r = parsys("frobnicate");
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(contains(r.out, "unknown command 'frobnicate'")) << r.out;
}

TEST(CliErrors, MalformedAssemblyGivesEveryErrorWithFileLineColumn) {
  const std::string dir = temp_dir("badasm");
  const std::string f = write_file(dir + "/k.par", ".PAR\n.ADDRESS main\n.THREADS 2\n.CODE\nmain: addd r1 = r2, 3\n"
                                                   "  add r1 = i0, 300\n  add r2 = r16, 1 #\n");
  const Result r = parsys("run " + f);
  EXPECT_EQ(r.status, 1);
  EXPECT_TRUE(contains(r.out, f + ":5:7: error: unknown mnemonic 'addd'")) << r.out;
  EXPECT_TRUE(contains(r.out, f + ":6:16: error: immediate 300 out of range -256..255")) << r.out;
  EXPECT_TRUE(contains(r.out, f + ":7:")) << r.out;
}

TEST(CliErrors, EndlessProgramStopsAtTheCycleLimitAndSaysWhere) {
  const std::string dir = temp_dir("endless");
  const std::string f = write_file(dir + "/loop.par", ".PAR\n.ADDRESS main\n.THREADS 4\n.CODE\nmain: loop body\n"
                                                      " add r1 = r1, 0 #\nbody: add r2 = r2, 1 #\n");
  const Result r = parsys("run " + f + " --max-cycles 10000");
  EXPECT_EQ(r.status, 1);
  EXPECT_TRUE(contains(r.out, "core0: runtime error at pc 2 (" + f + ":7): run limit exceeded: more than 10000 cycles"))
      << r.out;
}

TEST(CliErrors, AccessOutsideLocalMemoryIsARuntimeError) {
  const std::string dir = temp_dir("far");
  const std::string f = write_file(dir + "/far.par", ".PAR\n.ADDRESS main\n.THREADS 4\n.I1 0x7000000000\n.CODE\n"
                                                     "main: sll r1 = i0, 3\n ld8 r2 = i1[r1] #\n");
  const Result r = parsys("run " + f);
  EXPECT_EQ(r.status, 1);
  EXPECT_TRUE(contains(r.out, "core0: runtime error at pc 1 (" + f + ":7), thread 0: unmapped 8-byte load at 0x7000000000 (TLM_ADDRESS_ERROR_RESPONSE)"))
      << r.out;
}

TEST(CliErrors, BadDumpRequests) {
  Result r = parsys("run " + kernel("gs.par") + " --dump-mem 0x100");
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(contains(r.out, "--dump-mem '0x100': expected ADDR:LEN")) << r.out;
  r = parsys("run " + kernel("gs.par") + " --dump-mem 0xFFFFFFFFFF:16");
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(contains(r.out, "is outside the local memory")) << r.out;
}

// Without --out the registers are printed after the report (-q leaves out only the report); the
// threads of a packet spread over several cores are all found.
TEST(Cli, DumpRegistersWithoutOutGoesToStandardOutput) {
  const std::string dir = temp_dir("regs");
  const std::string f = write_file(dir + "/k.par", ".PAR\n.ADDRESS main\n.THREADS 8\n.CODE\nmain: mul r5 = i0, 3 #\n");
  const Result r = parsys("run " + f + " -q --dump-regs 5:3 --config " + config_file("device-dram.ini") +
                          " --platform.cores 4");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(r.out.rfind("thread 5\n", 0), 0u) << r.out;
  EXPECT_TRUE(contains(r.out, "thread 6\n")) << r.out;
  EXPECT_TRUE(contains(r.out, "thread 7\n  r0 = 0x0000000000000000  r1 = ")) << r.out;
  EXPECT_TRUE(contains(r.out, "r5 = 0x0000000000000015")) << r.out;  // thread 7: 7 * 3
  EXPECT_FALSE(contains(r.out, "thread 4\n")) << r.out;
}

TEST(CliErrors, DumpRegistersPastTheLastThreadBeforeTheRun) {
  const std::string dir = temp_dir("regs_past");
  const std::string f = write_file(dir + "/k.par", ".PAR\n.ADDRESS main\n.THREADS 8\n.CODE\nmain: mul r5 = i0, 3 #\n");
  for (const std::string range : {"8", "6:3", "0:9", "18446744073709551615:2"}) {
    const Result r = parsys("run " + f + " --dump-regs " + range);
    EXPECT_EQ(r.status, 2) << range;
    EXPECT_EQ(r.out, "parsys: --dump-regs '" + range + "': the packet has 8 threads (0..7)\n") << range;
  }
}

TEST(CliErrors, AssemblerWarningsAreErrorsWithWerror) {
  const std::string dir = temp_dir("werror");
  const std::string f = write_file(dir + "/k.par", ".PAR\n.ADDRESS main\n.THREADS 2\n.CODE\nmain: add r1 = i0, 1\n"
                                                   "next: add r2 = r1, 1 #\n");
  const std::string warning = f + ":5:7: warning: instruction has no stop bit '#': its block runs on into label "
                                  "'next' (line 6)\n";
  Result r = parsys("asm " + f + " -o " + dir + "/k.bin");
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out, warning);
  r = parsys("asm " + f + " -o " + dir + "/k2.bin --Werror");
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, f + ":5:7: error: instruction has no stop bit '#': its block runs on into label 'next' (line 6) "
                       "[--Werror]\n");
  EXPECT_FALSE(std::ifstream(dir + "/k2.bin").good());
  r = parsys("run " + f + " -q");
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out, warning);
  r = parsys("run " + f + " -q --Werror");
  EXPECT_EQ(r.status, 1);
  EXPECT_TRUE(contains(r.out, "[--Werror]")) << r.out;
}

// Inputs that cannot be read end in one line on stderr and a non-zero exit: never SystemC's
// "uncaught exception" on stdout, never a read that fills the host's memory.
TEST(CliErrors, DirectoriesDevicesAndOversizedInputs) {
  const std::string dir = temp_dir("dirs");
  std::system(("mkdir -p '" + dir + "/k.bin'").c_str());
  CliStreams r = parsys_streams("run " + dir + "/k.bin");
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "parsys: cannot read '" + dir + "/k.bin': it is a directory\n");
  r = parsys_streams("run " + dir);
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, dir + ":0:0: error: cannot read: it is a directory\n");
  r = parsys_streams("disasm " + dir + "/k.bin");
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "parsys disasm: cannot read '" + dir + "/k.bin': it is a directory\n");
  r = parsys_streams("run /dev/zero");
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "/dev/zero:0:0: error: cannot read: it is a device, not a file\n");
  r = parsys_streams("run " + kernel("gs.par") + " --config /dev/zero");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "parsys: cannot read config file '/dev/zero': it is a device, not a file\n");
  // A pipe is read up to the limit only.
  r = parsys_streams("run " + kernel("gs.par") + " --config /dev/stdin", "head -c 2000000 /dev/zero |");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "parsys: cannot read config file '/dev/stdin': it is larger than 1 MiB, the limit for this kind of "
                   "input\n");
  r = parsys_streams("run " + kernel("gs.par") + " --config " + dir);
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "parsys: cannot read config file '" + dir + "': it is a directory\n");
}

#if !defined(__SANITIZE_ADDRESS__)
// A local memory the host cannot map (here: an address-space limit below it) is a configuration
// error naming the option. (AddressSanitizer needs terabytes of address space, so not under it.)
TEST(CliErrors, LocalMemoryTheHostCannotProvide) {
  const CliStreams r = parsys_streams("run " + kernel("gs.par") + " --core.local_mem_size 8G", "ulimit -v 4000000 &&");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "parsys: core0: the host cannot provide its 8 GiB of local memory (core.local_mem_size)\n");
}
#endif

TEST(CliErrors, CorruptImage) {
  const std::string dir = temp_dir("corrupt");
  const std::string f = write_file(dir + "/x.bin", "this is not an image");
  const Result r = parsys("disasm " + f);
  EXPECT_EQ(r.status, 1);
  EXPECT_TRUE(contains(r.out, "parsys disasm: ")) << r.out;
  EXPECT_EQ(parsys("run " + f).status, 1);
}

}  // namespace
