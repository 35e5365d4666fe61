// Vendor models loaded at run time (issue 5): the example vendor DRAM, built against the installed
// plug-in SDK only, replaces device DRAM or host memory and the kernels give the same results,
// loosely and approximately timed; a deliberately broken plug-in is caught by --check-protocol
// naming both sockets and the rule.
#include <gtest/gtest.h>

#include <string>

#include "../support/parsys_cli.hpp"

namespace {

using namespace par::testing;

const std::string kGlobal = "--config " + config_file("device-dram.ini");
const std::string kVendorDram = std::string("plugin:") + PARSYS_VENDOR_DRAM_PLUGIN;
const std::string kTestRam = std::string("plugin:") + PARSYS_TEST_PLUGIN_DIR + "/test_ram.so";

// The output region of sva.par (the result vector) and of gs.par, read back after the run.
std::string run_and_dump(const std::string& kernel, const std::string& args, const std::string& dir,
                         const std::string& region) {
  const CliResult r = parsys("run " + kernel_file(kernel) + " -q " + args + " --out " + dir + " --dump-mem " + region);
  EXPECT_EQ(r.status, 0) << r.out;
  const std::string colon = region.substr(region.find(':') + 1);
  return read_file(dir + "/mem_" + region.substr(0, region.find(':')) + "_" + colon + ".bin");
}

TEST(PluginPlatform, VendorDramGivesTheSameResultsLooselyAndApproximatelyTimed) {
  const std::string dir = temp_dir("plugin_vendor_dram");
  for (const std::string kernel : {"sva.par", "gs.par"}) {
    const std::string region = "0x0:65536";
    const std::string builtin = run_and_dump(kernel, kGlobal, dir + "/builtin", region);
    ASSERT_EQ(builtin.size(), 65536u);
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
  const std::string region = "0x0:65536";
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

}  // namespace
