// Vendor models loaded at run time: the example vendor DRAM, built against the installed
// plug-in SDK only, replaces device DRAM or host memory and the kernels give the same results,
// loosely and approximately timed; a deliberately broken plug-in is caught by --check-protocol
// naming both sockets and the rule.
#include <gtest/gtest.h>

#include <algorithm>
#include <csignal>
#include <fstream>
#include <string>

#include "cli_test_args.hpp"

namespace {

using namespace par::testing;

const std::string kVendorDram = std::string("plugin:") + PARSYS_VENDOR_DRAM_PLUGIN;

// The output region of sva.par (the result vector) and of gs.par, read back after the run.
std::string run_and_dump(const std::string& kernel, const std::string& args, const std::string& dir,
                         const std::string& region) {
  const CliResult r = parsys("run " + kernel_file(kernel) + " -q " + args + " --out " + dir + " --dump-mem " + region);
  EXPECT_EQ(r.status, 0) << r.out;
  const std::string colon = region.substr(region.find(':') + 1);
  return read_file(dir + "/mem_" + region.substr(0, region.find(':')) + "_" + colon + ".bin");
}

// Where sva.par's and gs.par's data (inputs and results) live in device-dram.ini.
const std::string kDataRegion = "0x10000:65536";

TEST(PluginPlatform, VendorDramGivesTheSameResultsLooselyAndApproximatelyTimed) {
  const std::string dir = temp_dir("plugin_vendor_dram");
  for (const std::string kernel : {"sva.par", "gs.par"}) {
    const std::string& region = kDataRegion;
    const std::string builtin = run_and_dump(kernel, kGlobal, dir + "/builtin", region);
    ASSERT_EQ(builtin.size(), 65536u);
    ASSERT_NE(builtin.find_first_not_of('\0'), std::string::npos) << "the region holds the kernel's data";
    EXPECT_EQ(run_and_dump(kernel, kGlobal + " --dram.model " + kVendorDram, dir + "/lt", region), builtin) << kernel;
    EXPECT_EQ(run_and_dump(kernel, kGlobal + " --dram.model " + kVendorDram + " --dram.plugin_args mode=at", dir + "/at", region),
              builtin)
        << kernel;
    // The adapter's statistics replace the DRAM's, with the model's own under dram.model.
    const nlohmann::json s = read_json(dir + "/at/stats.json");
    EXPECT_GT(s["dram"]["reads"]["value"].get<std::int64_t>(), 0) << kernel;
  }
}

TEST(PluginPlatform, VendorModelAsHostMemoryOfTheXd1000Placement) {
  const std::string dir = temp_dir("plugin_host_mem");
  const std::string xd = "--config " + config_file("xd1000.ini");
  const std::string region = "0x10000:65536";
  const std::string builtin = run_and_dump("sva.par", xd, dir + "/builtin", region);
  EXPECT_EQ(run_and_dump("sva.par", xd + " --host_mem.model " + kVendorDram, dir + "/plugin", region), builtin);
}

TEST(PluginPlatform, BrokenModelIsCaughtByTheProtocolChecker) {
  // test_ram keeps its bytes in a vector: a small DRAM geometry keeps it small.
  const std::string args = "run " + kernel_file("sva.par") + " -q " + kGlobal + " --dram.rows 256 --dram.model " + kTestRam +
                           " --dram.plugin_args broken=status --check-protocol";
  const CliResult r = parsys(args);
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_TRUE(contains(r.out, "protocol violation between dram.out and dram.model.socket: [gp.response_status]")) << r.out;
  EXPECT_TRUE(contains(r.out, "TLM_INCOMPLETE_RESPONSE")) << r.out;
}

// Every L2 bank can be a plug-in (--l2.bank.model): each bank model serves the lines the L2
// routes to it (there is no DRAM behind it), so the results are the same, loosely and
// approximately timed, and each bank's adapter reports its own traffic under l2.bank<i>.
TEST(PluginPlatform, L2BanksFromAPlugInGiveTheSameResults) {
  const std::string dir = temp_dir("plugin_l2_banks");
  for (const std::string kernel : {"sva.par", "gs.par"}) {
    const std::string builtin = run_and_dump(kernel, kGlobal, dir + "/builtin", kDataRegion);
    ASSERT_NE(builtin.find_first_not_of('\0'), std::string::npos);
    for (const std::string mode : {"lt", "at"}) {
      const std::string out = dir + "/" + mode;
      EXPECT_EQ(run_and_dump(kernel, kGlobal + " --l2.bank.model " + kVendorDram + " --l2.bank.plugin_args mode=" + mode, out,
                             kDataRegion),
                builtin)
          << kernel << " " << mode;
      const nlohmann::json s = read_json(out + "/stats.json");
      std::int64_t reads = 0;
      for (const char* bank : {"bank0", "bank1", "bank2", "bank3"}) {
        ASSERT_TRUE(s["l2"].contains(bank)) << bank;
        EXPECT_GT(s["l2"][bank]["reads"]["value"].get<std::int64_t>(), 0) << kernel << " " << bank;
        reads += s["l2"][bank]["reads"]["value"].get<std::int64_t>();
      }
      EXPECT_FALSE(s.contains("dram")) << "no DRAM behind plug-in banks";
      EXPECT_GT(reads, 0);
    }
  }
}

TEST(PluginPlatform, BadL2BankPlugInsAreClearErrors) {
  const std::string sva = "run " + kernel_file("sva.par") + " -q ";
  CliResult r = parsys(sva + "--l2.bank.model " + kVendorDram);
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(contains(r.out, "l2.bank.model: a plug-in is given, but platform.memory is 'local' (there is no L2 to put it in)"))
      << r.out;
  r = parsys(sva + kGlobal + " --l2.bank.model " + kVendorDram + " --dram.model " + kVendorDram);
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(contains(r.out, "dram.model: the L2 banks are plug-ins (l2.bank.model)")) << r.out;
  r = parsys(sva + kGlobal + " --l2.bank.model plugin:/no/such/bank.so");
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(contains(r.out, "l2.bank.model: plug-in '/no/such/bank.so': no such file")) << r.out;
  // The model refuses its arguments while the L2 builds its first bank.
  r = parsys(sva + kGlobal + " --dram.rows 256 --l2.bank.model " + kTestRam + " --l2.bank.plugin_args fail=no_bank_today");
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(contains(r.out, "l2.bank.model: ")) << r.out;
  EXPECT_TRUE(contains(r.out, "no_bank_today")) << r.out;
  // Arguments the platform gives cannot be set by the user.
  r = parsys(sva + kGlobal + " --l2.bank.model " + kVendorDram + " --l2.bank.plugin_args bank=2");
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(contains(r.out, "l2.bank.plugin_args: 'bank' is set by parsys (bank=0)")) << r.out;
}

TEST(PluginPlatform, BadPluginOptionsAreClearErrors) {
  const std::string sva = "run " + kernel_file("sva.par") + " -q ";
  CliResult r = parsys(sva + kGlobal + " --dram.model plugin:/no/such/lib.so");
  EXPECT_EQ(r.status, 2);  // a configuration error
  EXPECT_TRUE(contains(r.out, "dram.model: plug-in '/no/such/lib.so': no such file")) << r.out;
  r = parsys(sva + "--dram.model " + kVendorDram);
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(contains(r.out, "dram.model: a plug-in is given, but platform.memory is 'local'")) << r.out;
  r = parsys(sva + kGlobal + " --dram.model " + kVendorDram + " --dram.plugin_args tRDC=3");
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(contains(r.out, "dram.model: plug-in '" + std::string(PARSYS_VENDOR_DRAM_PLUGIN) + "'")) << r.out;
  EXPECT_TRUE(contains(r.out, "unknown argument 'tRDC'")) << r.out;
}

// A model that crashes: one line naming the plug-in (and the model, when parsys was calling it)
// before the process dies of the signal as it would without the report.
TEST(PluginPlatform, CrashingModelIsNamedBeforeTheProcessDies) {
  const std::string lib = std::string(PARSYS_TEST_PLUGIN_DIR) + "/test_ram.so";
  const std::string plugin = "plug-in '" + lib + "' (test_ram by parsys tests)";
  struct Case {
    std::string args;
    int signal_status;  // 128 + signal
    std::string line;
  };
  const Case cases[] = {
      {"crash=access", 128 + 11, "parsys: SIGSEGV (invalid memory access) in " + plugin + ", model dram.model\n"},
      {"crash=access,mode=at", 128 + 11, "parsys: SIGSEGV (invalid memory access) in " + plugin + ", model dram.model\n"},
      {"crash=create", 128 + 11, "parsys: SIGSEGV (invalid memory access) in " + plugin + "\n"},
      {"crash=abort", 128 + 6, "parsys: SIGABRT (abort) while running " + plugin + ", model dram.model\n"},
  };
  for (const Case& c : cases) {
    // A small DRAM: the test RAM allocates all of it.
    const CliStreams r = parsys_streams("run " + kernel_file("sva.par") + " -q " + kGlobal + " --dram.rows 256 --dram.model plugin:" +
                                        lib + " --dram.plugin_args " + c.args);
#if defined(__SANITIZE_ADDRESS__)
    // The sanitizer may warn first (SystemC's coroutine stacks) and reports the fault after the
    // line: the line stands once, at the start of a line.
    const std::size_t at = r.err.find(c.line);
    EXPECT_TRUE(at != std::string::npos && (at == 0 || r.err[at - 1] == '\n')) << c.args << "\n" << r.err;
    EXPECT_EQ(r.err.find("parsys:", at + 1), std::string::npos) << c.args << "\n" << r.err;
#else
    // The line comes first; after it only the shell's own report of the signal.
    EXPECT_EQ(r.err.substr(0, c.line.size()), c.line) << c.args << "\n" << r.err;
    EXPECT_EQ(r.err.find("\nparsys:"), std::string::npos) << c.args << "\n" << r.err;
#endif
    EXPECT_EQ(r.out, "") << c.args;
#if defined(__SANITIZE_ADDRESS__)
    EXPECT_NE(r.status, 0) << c.args;  // the sanitizer's own report and exit follow
#else
    EXPECT_EQ(r.status, c.signal_status) << c.args;
#endif
  }
}

// A model stuck in a call (an access that never returns) polls nothing: after the host-time
// limit or Ctrl-C and run.stuck_grace_seconds, the run's watchdog ends the process with a line
// naming the plug-in and stats.json saying why. SystemC's thread may still be running then, so
// the watchdog writes the statistics it published at its last safe point (between two slices),
// a consistent state before the stuck access, and never calls into the stuck plug-in.
constexpr std::int64_t kHangAfter = 200;

TEST(PluginPlatform, StuckModelIsEndedByTheHostTimeLimitAndByCtrlC) {
  const std::string lib = std::string(PARSYS_TEST_PLUGIN_DIR) + "/test_ram.so";
  const std::string stuck = "but plug-in '" + lib + "' (test_ram by parsys tests), model dram.model did not return within 0.5 host seconds";
  const std::string dir = temp_dir("plugin_stuck");
  // The pointer chase: one thread whose loads follow each other, spread over several slices.
  const std::string run = "run " + kernel_file("pointer-chase.par") + " -q " + kGlobal + " --dram.rows 256 --dram.model plugin:" + lib +
                          " --run.stuck_grace_seconds 0.5";

  // The first kHangAfter accesses are served (several simulation slices), the next one never returns.
  const std::string hang_after = "hang=access,hang_after=" + std::to_string(kHangAfter);
  const CliStreams limit =
      parsys_streams(run + " --dram.plugin_args " + hang_after + " --max-host-seconds 0.3 --stats-window 200 --out " + dir +
                     "/limit");
  EXPECT_EQ(limit.status, 1) << limit.err;
  EXPECT_EQ(limit.out, "");
  const std::string head = "parsys: stopped after 0.3 host seconds (--max-host-seconds) at ";
  EXPECT_EQ(limit.err.rfind(head, 0), 0u) << limit.err;
  EXPECT_TRUE(contains(limit.err, " us simulated, " + stuck + "; the statistics cover the run so far\n")) << limit.err;
  EXPECT_EQ(std::count(limit.err.begin(), limit.err.end(), '\n'), 1) << limit.err;
  const nlohmann::json s = read_json(dir + "/limit/stats.json");
  EXPECT_EQ(s["end"]["status"], "host_time_limit");
  EXPECT_TRUE(contains(s["end"]["reason"].get<std::string>(), stuck)) << s["end"];
  // The statistics of the last safe point: the line's simulated time is theirs; the packet's
  // thread was launched and some accesses served, fewer than the ones before the stuck access.
  const double at_us = std::stod(limit.err.substr(head.size()));
  EXPECT_GT(at_us, 0);
  EXPECT_NEAR(s["run"]["simulated_ns"]["value"].get<double>(), at_us * 1e3, 0.5) << limit.err;
  EXPECT_EQ(s["scheduler"]["threads_launched"]["value"], 1);
  const std::int64_t served = s["bus"]["dram"]["transactions"]["value"].get<std::int64_t>();
  EXPECT_GT(served, 0);
  EXPECT_LE(served, kHangAfter);
  // The plug-in's own statistics would have to be read from the stuck plug-in: none.
  EXPECT_TRUE(s.at("dram").at("model").at("accesses").at("value").is_null()) << s.at("dram");
  // The window samples published before the stuck access: back to back every 200 ns (cycles at
  // 1 GHz) from 0, each with its tree.
  const nlohmann::json& windows = s.at("windows");
  ASSERT_GE(windows.size(), 2u) << s.at("run");
  for (std::size_t i = 0; i < windows.size(); ++i) {
    EXPECT_EQ(windows[i]["index"], i);
    EXPECT_EQ(windows[i]["begin_ns"].get<double>(), 200.0 * static_cast<double>(i));
    EXPECT_EQ(windows[i]["end_ns"].get<double>(), 200.0 * static_cast<double>(i + 1));
    EXPECT_TRUE(windows[i].contains("stats")) << windows[i];
  }

  const std::string marker = dir + "/stuck";
  const SignalledRun ctrl_c = parsys_signalled(run + " --dram.plugin_args " + hang_after + ",hang_marker=" + marker + " --out " +
                                                   dir + "/ctrl_c",
                                               SIGINT, [&](const std::string&) { return std::ifstream(marker).good(); });
  ASSERT_TRUE(ctrl_c.ready) << ctrl_c.out;
  EXPECT_EQ(ctrl_c.status, 130) << ctrl_c.out;
  EXPECT_EQ(ctrl_c.out.rfind("parsys: interrupted at ", 0), 0u) << ctrl_c.out;
  EXPECT_TRUE(contains(ctrl_c.out, " us simulated, " + stuck + "; the statistics cover the run so far\n")) << ctrl_c.out;
  const nlohmann::json c = read_json(dir + "/ctrl_c/stats.json");
  EXPECT_EQ(c["end"]["status"], "interrupted");
  EXPECT_EQ(c["end"]["reason"].get<std::string>().rfind("Ctrl-C (SIGINT) at ", 0), 0u) << c["end"];
  EXPECT_TRUE(contains(c["end"]["reason"].get<std::string>(), stuck)) << c["end"];
  EXPECT_EQ(c["scheduler"]["threads_launched"]["value"], 1);
  EXPECT_LE(c["bus"]["dram"]["transactions"]["value"].get<std::int64_t>(), kHangAfter);
}

}  // namespace
