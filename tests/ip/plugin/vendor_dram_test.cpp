// The example vendor DRAM (ip/examples/vendor_dram), built as a separate CMake project against
// the installed plug-in SDK only, loaded and exercised behind PluginTarget in both modes.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "support/sc_isolation.hpp"
#include "support/tlm_harness.hpp"
#include "par/tlmcheck/checked_bindings.hpp"
#include "plugin_test_support.hpp"

namespace par::plugin {
namespace {

namespace fs = std::filesystem;
using namespace par::plugin::testing;
using par::testing::run_isolated;
using par::testing::TlmHarness;
using sc_core::SC_NS;
using sc_core::sc_time;

// 1 GHz (1 ns cycles), tRCD 3, tCL 4, tRP 5, 8 bytes per cycle: a 64-byte access takes 8 data
// cycles. Rows of 1 KiB over 4 banks: bank = (address / 1024) mod 4.
const char* const kArgs = "tRCD=3,tCL=4,tRP=5,bus_bytes=8,row_bytes=1024,banks=4";

TargetSpec vendor_spec(const std::string& extra) {
  TargetSpec s = spec_for(PARSYS_VENDOR_DRAM_PLUGIN, std::string(kArgs) + extra);
  s.platform_args = {{"size", std::to_string(1u << 20)}, {"base", "0x80000000"}, {"clock_mhz", "1000"}};
  return s;
}

TEST(VendorDramExample, SdkInstallsOnlyThePluginHeader) {
  std::set<std::string> headers;
  for (const auto& e : fs::recursive_directory_iterator(fs::path(PARSYS_PLUGIN_SDK_DIR) / "include"))
    if (e.is_regular_file()) headers.insert(fs::relative(e.path(), PARSYS_PLUGIN_SDK_DIR).string());
  EXPECT_EQ(headers, std::set<std::string>{"include/par/plugin/plugin_api.hpp"});
  EXPECT_TRUE(fs::exists(fs::path(PARSYS_PLUGIN_SDK_DIR) / "lib/cmake/parsys/parsysConfig.cmake"));
  EXPECT_TRUE(fs::exists(fs::path(PARSYS_PLUGIN_SDK_DIR) / "lib/pkgconfig/parsys-plugin.pc"));
}

TEST(VendorDramExample, CompiledAgainstTheInstalledHeadersOnly) {
  std::ifstream in(fs::path(PARSYS_EXAMPLES_BUILD_DIR) / "vendor_dram/compile_commands.json");
  ASSERT_TRUE(in) << "no compile_commands.json in " << PARSYS_EXAMPLES_BUILD_DIR;
  std::stringstream text;
  text << in.rdbuf();
  const std::string commands = text.str();
  EXPECT_NE(commands.find("vendor_dram.cpp"), std::string::npos);
  EXPECT_NE(commands.find(std::string(PARSYS_PLUGIN_SDK_DIR) + "/include"), std::string::npos);
  // Every include directory is the SDK's or outside the parsys source tree (the example's own
  // folder is not one either; the build tree may lie inside the source tree).
  const std::string sdk_include = std::string(PARSYS_PLUGIN_SDK_DIR) + "/include";
  int includes = 0;
  std::istringstream words(commands);
  std::string word;
  while (words >> word) {
    std::string dir;
    if (word == "-isystem" || word == "-I") words >> dir;
    else if (word.rfind("-I", 0) == 0) dir = word.substr(2);
    else continue;
    ++includes;
    EXPECT_TRUE(dir == sdk_include || dir.rfind(PARSYS_SOURCE_DIR, 0) != 0) << dir;
  }
  EXPECT_EQ(includes, 2);  // one per source file: the SDK's include directory
}

TEST(VendorDramExample, Info) {
  std::string error;
  const auto lib = PluginLibrary::open(PARSYS_VENDOR_DRAM_PLUGIN, error);
  ASSERT_NE(lib, nullptr) << error;
  EXPECT_EQ(lib->info().title(), "vendor_dram by Acme Memories (parsys example)");
  EXPECT_EQ(lib->info().timing, unsigned{PARSYS_PLUGIN_LT | PARSYS_PLUGIN_AT});
}

// Miss, hit, conflict, miss in another bank; data written is read back.
void row_buffer_script(TlmHarness& h) {
  std::vector<std::uint8_t> line(64);
  for (std::size_t i = 0; i < line.size(); ++i) line[i] = static_cast<std::uint8_t>(i * 3 + 1);
  h.at(sc_time(0, SC_NS)).write(0, line);       // bank 0 row 0, closed: tRCD + tCL + 8 = 15
  h.at(sc_time(100, SC_NS)).read(0, 64);        // bank 0 row 0, hit: tCL + 8 = 12
  h.at(sc_time(200, SC_NS)).read(4096, 64);     // bank 0 row 1, conflict: tRP + tRCD + tCL + 8 = 20
  h.at(sc_time(300, SC_NS)).read(1024, 64);     // bank 1, closed: 15
  h.at(sc_time(400, SC_NS)).read(0, 64);        // bank 0 row 0 again: conflict, data still there
}

TEST(VendorDramExample, RowBufferTimingAndDataInBothModes) {
  for (const char* mode : {"lt", "at"}) {
    SCOPED_TRACE(mode);
    run_isolated([mode] {
      auto dram = make_or_fail(vendor_spec(std::string(",mode=") + mode));
      ASSERT_NE(dram, nullptr);
      TlmHarness h;
      h.out.bind(dram->in);
      row_buffer_script(h);
      sc_core::sc_start();
      std::vector<double> latency;
      for (std::size_t i = 0; i < h.size(); ++i) {
        EXPECT_EQ(h.result(i).status, tlm::TLM_OK_RESPONSE) << i;
        latency.push_back(ns(h.result(i).latency));
      }
      EXPECT_EQ(latency, (std::vector<double>{15, 12, 20, 15, 20}));
      EXPECT_EQ(h.result(1).read_data, h.result(0).data);
      EXPECT_EQ(h.result(4).read_data, h.result(0).data);
      EXPECT_EQ(h.result(2).read_data, std::vector<std::uint8_t>(64, 0));
      EXPECT_EQ(stat(*dram, "model.row_hits"), 1);
      EXPECT_EQ(stat(*dram, "model.row_misses"), 2);
      EXPECT_EQ(stat(*dram, "model.row_conflicts"), 2);
      EXPECT_EQ(stat(*dram, "model.reads"), 4);
      EXPECT_EQ(stat(*dram, "model.writes"), 1);
      EXPECT_EQ(stat(*dram, "model.latency_ns"), 15 + 12 + 20 + 15 + 20);
      EXPECT_EQ(stat(*dram, "avg_latency"), (15 + 12 + 20 + 15 + 20) / 5.0);
      EXPECT_EQ(dram->model().description(),
                "Acme example DRAM, 1048576 bytes, 4 banks of 1024-byte rows, 8 bytes/cycle at 1000 MHz, "
                "tRCD/tCL/tRP 3/4/5");
    });
  }
}

// Four initiators (like four L2 banks) read a line of four different banks at t = 0. Loosely
// timed they overlap completely; approximately timed the model takes one request per cycle.
TEST(VendorDramExample, SeveralInitiators) {
  for (const char* mode : {"lt", "at"}) {
    SCOPED_TRACE(mode);
    run_isolated([mode] {
      auto dram = make_or_fail(vendor_spec(std::string(",mode=") + mode));
      ASSERT_NE(dram, nullptr);
      std::vector<std::unique_ptr<TlmHarness>> hs;
      for (int i = 0; i < 4; ++i) {
        hs.push_back(std::make_unique<TlmHarness>(("bank" + std::to_string(i)).c_str()));
        hs.back()->out.bind(dram->in);
        hs.back()->at(sc_time(0, SC_NS)).write64(1024u * i + 8, 100u + i);
        hs.back()->then().read(1024u * i + 8, 8);
      }
      sc_core::sc_start();
      std::vector<double> first;
      for (int i = 0; i < 4; ++i) {
        const TlmHarness& h = *hs[static_cast<std::size_t>(i)];
        EXPECT_EQ(h.result(1).value(), 100u + i);
        first.push_back(ns(h.result(0).latency));
        EXPECT_EQ(ns(h.result(1).latency), 4 + 1) << i;  // row hit, one data cycle
      }
      // Closed rows: tRCD + tCL + 1 data cycle = 8.
      const std::vector<double> expected =
          std::string(mode) == "lt" ? std::vector<double>{8, 8, 8, 8} : std::vector<double>{8, 9, 10, 11};
      EXPECT_EQ(sorted(first), expected);
    });
  }
}

// The example's approximately-timed side, behind ip/tlm_check's base-protocol checker.
TEST(VendorDramExample, ApproximatelyTimedModeKeepsTheBaseProtocol) {
  run_isolated([] {
    tlmcheck::CheckerConfig check;
    check.enable = true;
    check.stop_on_violation = false;
    tlmcheck::CheckedBindings<> links(check);
    TargetSpec s = vendor_spec(",mode=at");
    s.connect = [&links](PluginTarget::OutSocket& out, TargetSocket& model) {
      links.bind(out, "dram.out", model, "dram.model.socket");
    };
    auto dram = make_or_fail(s);
    ASSERT_NE(dram, nullptr);
    TlmHarness h;
    h.out.bind(dram->in);
    row_buffer_script(h);
    h.at(sc_time(500, SC_NS)).read(8, 8);  // these two arrive together: one request per cycle
    h.at(sc_time(500, SC_NS)).read(2048, 8);
    sc_core::sc_start();
    for (const tlmcheck::Violation& v : links.violations()) ADD_FAILURE() << v.message;
    EXPECT_EQ(links.violation_count(), 0u);
    ASSERT_EQ(links.checkers().size(), 1u);
    EXPECT_EQ(links.checkers()[0]->stats().find("nb_transactions")->number(), 7);
    EXPECT_EQ(stat(*dram, "transactions"), 7);
  });
}

TEST(VendorDramExample, ArgumentErrors) {
  run_isolated([] {
    const std::string who = "dram.model: plug-in '" + std::string(PARSYS_VENDOR_DRAM_PLUGIN) +
                            "' (vendor_dram by Acme Memories (parsys example)) could not create 'model': ";
    auto error_of = [](const TargetSpec& s) {
      std::string error;
      EXPECT_EQ(make_target(s, error), nullptr);
      return error;
    };
    EXPECT_EQ(error_of(vendor_spec(",tRDC=3")), who + "unknown argument 'tRDC'");
    EXPECT_EQ(error_of(vendor_spec(",mode=ca")), who + "argument 'mode': 'ca' is not one of lt, at");
    TargetSpec s = vendor_spec("");
    s.config.plugin_args = "banks=0";
    EXPECT_EQ(error_of(s), who + "argument 'banks': 0 is out of range 1..1024");
  });
}

}  // namespace
}  // namespace par::plugin
