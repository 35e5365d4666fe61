// docs/plugging-in-ip.md: its example (the page's ```cpp and ```cmake blocks, extracted and built
// against the installed SDK by build_doc_example.cmake, with warnings as errors) loads and runs
// as the page says, and the page's pkg-config line names the installed SDK.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "support/sc_isolation.hpp"
#include "support/tlm_harness.hpp"
#include "plugin_test_support.hpp"

namespace par::plugin {
namespace {

namespace fs = std::filesystem;
using namespace par::plugin::testing;
using par::testing::run_isolated;
using par::testing::TlmHarness;
using sc_core::SC_NS;
using sc_core::sc_time;

std::string read_file(const fs::path& path) {
  std::ifstream in(path);
  EXPECT_TRUE(in) << path;
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string command_output(const std::string& command) {
  std::string out;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return out;
  char buffer[256];
  while (std::fgets(buffer, sizeof buffer, pipe) != nullptr) out += buffer;
  EXPECT_EQ(::pclose(pipe), 0) << command;
  return out;
}

TEST(PluginDoc, ExampleIsBuiltFromThePage) {
  const fs::path dir = fs::path(PLUGIN_DOC_MY_RAM).parent_path().parent_path() / "src";
  const std::string page = read_file(fs::path(PARSYS_SOURCE_DIR) / "docs/plugging-in-ip.md");
  const std::string source = read_file(dir / "my_ram.cpp");
  const std::string project = read_file(dir / "CMakeLists.txt");
  ASSERT_FALSE(source.empty());
  EXPECT_NE(page.find("```cpp\n" + source + "```\n"), std::string::npos);
  EXPECT_NE(page.find("```cmake\n" + project + "```\n"), std::string::npos);
  EXPECT_NE(project.find("find_package(parsys REQUIRED)"), std::string::npos);
  EXPECT_NE(source.find("#include <par/plugin/plugin_api.hpp>"), std::string::npos);
}

TEST(PluginDoc, ExampleLoadsAndRuns) {
  run_isolated([] {
    auto ram = make_or_fail(spec_for(PLUGIN_DOC_MY_RAM, "latency_ns=7"));
    ASSERT_NE(ram, nullptr);
    TlmHarness h;
    h.out.bind(ram->in);
    h.at(sc_time(0, SC_NS)).write64(4088, 0xabcdef);
    h.then().read(4088, 8);
    h.then().read(4090, 8);  // past the end
    sc_core::sc_start();
    EXPECT_EQ(h.result(0).latency, sc_time(7, SC_NS));
    EXPECT_EQ(h.result(1).value(), 0xabcdefu);
    EXPECT_EQ(h.result(1).latency, sc_time(7, SC_NS));
    EXPECT_EQ(h.result(2).status, tlm::TLM_ADDRESS_ERROR_RESPONSE);
    EXPECT_EQ(h.result(2).latency, sc_core::SC_ZERO_TIME);  // refused accesses take no time
    EXPECT_EQ(ram->description(), "my_ram by My Company (loosely timed): MyRam, 4096 bytes");
    EXPECT_EQ(stat(*ram, "model.accesses"), 3);
    EXPECT_EQ(stat(*ram, "errors"), 1);
  });
}

TEST(PluginDoc, DefaultLatencyIsTheDocumentedOne) {
  run_isolated([] {
    auto ram = make_or_fail(spec_for(PLUGIN_DOC_MY_RAM, ""));
    ASSERT_NE(ram, nullptr);
    TlmHarness h;
    h.out.bind(ram->in);
    h.at(sc_time(0, SC_NS)).read(0, 8);
    sc_core::sc_start();
    EXPECT_EQ(h.result(0).latency, sc_time(50, SC_NS));
    EXPECT_EQ(h.result(0).value(), 0u);  // calloc'ed
  });
}

// `pkg-config --cflags parsys-plugin` (section 4 of the page) gives the SDK's include directory,
// relocated from the .pc file's place, and C++17.
TEST(PluginDoc, PkgConfigNamesTheInstalledSdk) {
  const fs::path sdk = PARSYS_PLUGIN_SDK_DIR;
  const std::string flags = command_output("PKG_CONFIG_PATH='" + (sdk / "lib/pkgconfig").string() +
                                           "' pkg-config --cflags parsys-plugin");
  std::istringstream words(flags);
  std::string word;
  bool include = false, standard = false;
  while (words >> word) {
    std::error_code ec;
    if (word.rfind("-I", 0) == 0 && fs::equivalent(word.substr(2), sdk / "include", ec)) include = true;
    if (word == "-std=c++17") standard = true;
  }
  EXPECT_TRUE(include) << flags;
  EXPECT_TRUE(standard) << flags;
}

}  // namespace
}  // namespace par::plugin
