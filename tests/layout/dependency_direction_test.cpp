// Dependencies run one way, sw -> modules -> ip (docs/architecture.md, "Dependency direction"), and
// two modules meet only through published contracts (a module's include/ headers and INTERFACE
// target): the tree has no #include, link or exported include directory against that; and the scan
// finds each kind of violation in a small tree made for it.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "dependency_scan.hpp"

namespace par::layout {
namespace {

namespace fs = std::filesystem;

TEST(DependencyDirection, DependenciesRunOneWayAndModulesMeetThroughPublishedContracts) {
  const std::vector<std::string> v = dependency_violations(PARSYS_SOURCE_DIR);
  std::string all;
  for (const std::string& s : v) all += "\n  " + s;
  EXPECT_TRUE(v.empty()) << v.size() << " dependencies run against sw -> modules -> ip:" << all;
}

TEST(DependencyDirection, LayersAreTheTopLevelFolders) {
  EXPECT_EQ(layer_of("ip/sckit/include/par/sckit/interrupt.hpp"), 0);
  EXPECT_EQ(layer_of("modules/par_core/par_core.cpp"), 1);
  EXPECT_EQ(layer_of("sw/runtime/host_runtime.hpp"), 2);
  EXPECT_EQ(layer_of("platform/src/platform.cpp"), 3);
  EXPECT_EQ(layer_of("tests/layout/dependency_scan.cpp"), -1);
  EXPECT_EQ(layer_of("ipx/a.hpp"), -1);
}

class ScratchTree : public ::testing::Test {
 protected:
  fs::path root = fs::temp_directory_path() / ("parsys_layout_" + std::to_string(::getpid()));
  void SetUp() override { fs::remove_all(root); }
  void TearDown() override { fs::remove_all(root); }
  void write(const std::string& path, const std::string& text) {
    fs::create_directories((root / path).parent_path());
    std::ofstream(root / path) << text;
  }
};

TEST_F(ScratchTree, EveryKindOfWrongWayDependencyIsFound) {
  write("ip/a/CMakeLists.txt", "add_library(a_lib STATIC a.cpp)  # ip\ntarget_link_libraries(a_lib PUBLIC m_lib)\n");
  write("ip/a/a.hpp", "#pragma once\n");
  write("ip/a/a.cpp", "#include \"a.hpp\"\n#include <vector>\n#include \"m.hpp\"\n");
  write("modules/m/CMakeLists.txt",
        "add_library(m_lib STATIC m.cpp)\ntarget_link_libraries(m_lib\n  PUBLIC a_lib\n  PRIVATE s_lib)\n");
  write("modules/m/m.hpp", "#pragma once\n#include \"a.hpp\"\n");
  write("modules/m/m.cpp", "#include \"m.hpp\"\n\n#include \"par/s/s.hpp\"\n");
  write("sw/s/CMakeLists.txt",
        "add_library(s_lib STATIC s.cpp)\n"
        "target_include_directories(s_lib PUBLIC ${CMAKE_CURRENT_SOURCE_DIR}/include ${PROJECT_SOURCE_DIR}/modules/m)\n"
        "target_link_libraries(s_lib PUBLIC m_lib a_lib)\n");
  write("sw/s/include/par/s/s.hpp", "#pragma once\n");
  // Between two modules: only the published headers and INTERFACE targets.
  write("modules/n/CMakeLists.txt",
        "add_library(n_api INTERFACE)\nadd_library(n_lib STATIC n.cpp)\n"
        "target_link_libraries(n_lib PUBLIC n_api PRIVATE m_lib)\n");
  write("modules/n/include/par/n/n_registers.hpp", "#pragma once\n");
  write("modules/n/n.cpp", "#include \"par/n/n_registers.hpp\"\n#include \"m.hpp\"\n");
  write("modules/m/m_user.cpp", "#include \"par/n/n_registers.hpp\"\n");
  write("sw/s/s.cpp", "#include \"m.hpp\"\n#include \"a.hpp\"\n");
  write("platform/p.cpp", "#include \"par/s/s.hpp\"\n");
  const std::vector<std::string> expected = {
      "ip/a/a.cpp:3: includes \"m.hpp\" (modules/m/m.hpp)",
      "modules/m/m.cpp:3: includes \"par/s/s.hpp\" (sw/s/include/par/s/s.hpp)",
      "ip/a/CMakeLists.txt:2: a_lib links m_lib (defined in modules/m/CMakeLists.txt)",
      "modules/m/CMakeLists.txt:2: m_lib links s_lib (defined in sw/s/CMakeLists.txt)",
      "sw/s/CMakeLists.txt:2: s_lib exports ${PROJECT_SOURCE_DIR}/modules/m, outside its own folder",
      "modules/n/CMakeLists.txt:3: n_lib links m_lib (defined in modules/m/CMakeLists.txt, not its published interface)",
      "modules/n/n.cpp:2: includes \"m.hpp\" (modules/m/m.hpp)",
  };
  std::vector<std::string> found = dependency_violations(root);
  std::sort(found.begin(), found.end());
  std::vector<std::string> sorted = expected;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(found, sorted);
}

}  // namespace
}  // namespace par::layout
