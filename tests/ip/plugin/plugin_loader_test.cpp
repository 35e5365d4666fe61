// PluginLibrary: every way a library can fail to be a usable plug-in, with the exact message.
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>

#include "support/sc_isolation.hpp"
#include "par/plugin/plugin_library.hpp"

namespace par::plugin {
namespace {

std::string open_error(const std::string& path) {
  std::string error;
  EXPECT_EQ(PluginLibrary::open(path, error), nullptr) << path;
  return error;
}

TEST(PluginLoader, MissingFileAndDirectory) {
  EXPECT_EQ(open_error("/nonexistent/libvendor.so"), "plug-in '/nonexistent/libvendor.so': no such file");
  EXPECT_EQ(open_error(""), "no plug-in library given");
  EXPECT_EQ(open_error("/tmp"), "plug-in '/tmp' is a directory, not a shared library");
}

TEST(PluginLoader, NotASharedLibrary) {
  const std::string path = ::testing::TempDir() + "plugin_loader_text_" + std::to_string(getpid()) + ".so";
  std::ofstream(path) << "not an ELF file\n";
  const std::string e = open_error(path);
  std::remove(path.c_str());
  EXPECT_EQ(e.rfind("plug-in '" + path + "' cannot be loaded: " + path + ": ", 0), 0u) << e;
  EXPECT_NE(e.find("file too short"), std::string::npos) << e;
}

TEST(PluginLoader, LibraryWithoutEntryPointsIsNotAPlugin) {
  const std::string p = PLUGIN_FAKE_NOT_A_PLUGIN;
  EXPECT_EQ(open_error(p), "'" + p +
                               "' is not a parsys plug-in: it does not export parsys_plugin_info() (define it with "
                               "PARSYS_DEFINE_PLUGIN from par/plugin/plugin_api.hpp)");
}

TEST(PluginLoader, WrongApiVersionNamesBothVersions) {
  const std::string p = PLUGIN_FAKE_API_VERSION;
  EXPECT_EQ(open_error(p), "plug-in '" + p +
                               "' was built for parsys plug-in API version 99, but this parsys implements version "
                               "1: rebuild it against this parsys's installed headers");
}

TEST(PluginLoader, WrongSystemCNamesBothVersions) {
  const std::string p = PLUGIN_FAKE_SYSTEMC_ABI;
  EXPECT_EQ(open_error(p),
            "plug-in '" + p +
                "' was built against 'SystemC 2.3.3-Accellera, TLM 2.0.5_pub_rev_20180317-Accellera, C++ 201402L, "
                "libstdc++ cxx11 ABI', but this parsys uses '" +
                host_systemc_abi() +
                "': SystemC models can only be shared between binaries built against the same SystemC, TLM, C++ "
                "standard and C++ library; rebuild the plug-in against them");
}

TEST(PluginLoader, UnresolvedSystemCVersionSymbolIsExplained) {
  const std::string p = PLUGIN_FAKE_UNRESOLVED;
  const std::string e = open_error(p);
  EXPECT_EQ(e.rfind("plug-in '" + p + "' cannot be loaded: ", 0), 0u) << e;
  EXPECT_NE(e.find("undefined symbol: sc_api_version_2_2_0_cxx199711L"), std::string::npos) << e;
  EXPECT_NE(e.find(" (the plug-in was built against a different SystemC release or C++ standard, "
                   "sc_api_version_2_2_0_cxx199711L; this parsys uses " +
                   std::string(host_systemc_abi()) + ": rebuild the plug-in against the same SystemC)"),
            std::string::npos)
      << e;
}

TEST(PluginLoader, IncompletePlugins) {
  const std::string no_create = PLUGIN_FAKE_NO_CREATE;
  EXPECT_EQ(open_error(no_create), "'" + no_create +
                                       "' is not a complete parsys plug-in: it exports parsys_plugin_info() but not "
                                       "parsys_plugin_create()");
  const std::string timing = PLUGIN_FAKE_TIMING;
  EXPECT_EQ(open_error(timing), "plug-in '" + timing +
                                    "' declares timing styles 4: must be PARSYS_PLUGIN_LT, PARSYS_PLUGIN_AT or both");
}

TEST(PluginLoader, InfoOfAGoodPlugin) {
  std::string error;
  const auto lib = PluginLibrary::open(PLUGIN_TEST_RAM, error);
  ASSERT_NE(lib, nullptr) << error;
  EXPECT_EQ(lib->path(), PLUGIN_TEST_RAM);
  EXPECT_EQ(lib->info().api_version, PARSYS_PLUGIN_API_VERSION);
  EXPECT_EQ(lib->info().systemc_abi, host_systemc_abi());
  EXPECT_EQ(lib->info().title(), "test_ram by parsys tests");
  EXPECT_EQ(lib->info().timing, unsigned{PARSYS_PLUGIN_LT | PARSYS_PLUGIN_AT});
}

TEST(PluginLoader, FactoryErrorsCarryThePluginsMessage) {
  par::testing::run_isolated([] {
    std::string error;
    const auto lib = PluginLibrary::open(PLUGIN_TEST_RAM, error);
    ASSERT_NE(lib, nullptr) << error;
    const std::string who = "plug-in '" + std::string(PLUGIN_TEST_RAM) + "' (test_ram by parsys tests)";
    EXPECT_EQ(lib->create("m1", {{"size", "64", true}, {"fail", "the bank count must be a power of two", false}}, error),
              nullptr);
    EXPECT_EQ(error, who + " could not create 'm1': the bank count must be a power of two");
    EXPECT_EQ(lib->create("m2", {}, error), nullptr);
    EXPECT_EQ(error, who + " could not create 'm2': argument 'size' is required");
    EXPECT_EQ(lib->create("m3", {{"size", "64", true}, {"latncy_ns", "5", false}}, error), nullptr);
    EXPECT_EQ(error, who + " could not create 'm3': unknown argument 'latncy_ns'");
    EXPECT_EQ(lib->create("m4", {{"size", "64", true}, {"mode", "xt", false}}, error), nullptr);
    EXPECT_EQ(error, who + " could not create 'm4': argument 'mode': 'xt' is not one of lt, at");

    const auto model = lib->create("m5", {{"size", "64", true}, {"mode", "at", false}}, error);
    ASSERT_NE(model, nullptr) << error;
    EXPECT_STREQ(model->name(), "m5");
    EXPECT_EQ(model->timing(), Timing::ApproximatelyTimed);
    EXPECT_EQ(model->description(), "test RAM of 64 bytes");
  });
}

TEST(PluginLoader, ModelMustHaveADeclaredTiming) {
  par::testing::run_isolated([] {
    std::string error;
    const auto lib = PluginLibrary::open(PLUGIN_TEST_RAM_LT_ONLY, error);
    ASSERT_NE(lib, nullptr) << error;
    ASSERT_NE(lib->create("lt", {{"size", "64", true}}, error), nullptr) << error;
    EXPECT_EQ(lib->create("at", {{"size", "64", true}, {"mode", "at", false}}, error), nullptr);
    EXPECT_EQ(error, "plug-in '" + std::string(PLUGIN_TEST_RAM_LT_ONLY) +
                         "' (test_ram by parsys tests) created an approximately-timed model but declares only "
                         "loosely-timed models (the timing argument of PARSYS_DEFINE_PLUGIN)");
  });
}

}  // namespace
}  // namespace par::plugin
