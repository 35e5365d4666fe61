// Temporary directories for tests that write files: one of its own per call, unique across
// processes (mkdtemp), so concurrent test runs (ctest -j, the `.checked` variants, other build
// trees and worktrees on the same machine) never share or delete each other's files.
#pragma once

#include <stdlib.h>  // mkdtemp

#include <filesystem>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

#include <gtest/gtest.h>

namespace par::testing {

namespace detail {
// The directories made by this process: removed when it exits, unless a test failed (its files
// then help to find out why) or PARSYS_KEEP_TEST_DIRS is set.
class TempDirRegistry {
 public:
  void add(const std::string& dir) { dirs_.push_back(dir); }
  ~TempDirRegistry() {
    const char* keep = std::getenv("PARSYS_KEEP_TEST_DIRS");
    // GoogleTest never destroys its UnitTest (it is allocated once and leaked), so it may be
    // asked here.
    if ((keep != nullptr && *keep != '\0') || ::testing::UnitTest::GetInstance()->failed_test_count() > 0) return;
    std::error_code ec;
    for (const std::string& d : dirs_) std::filesystem::remove_all(d, ec);
  }

 private:
  std::vector<std::string> dirs_;
};
inline TempDirRegistry& temp_dir_registry() {
  static TempDirRegistry registry;
  return registry;
}
}  // namespace detail

// A new empty directory named after `name` (e.g. /tmp/parsys_test_hang_spin_Ab12Cd).
inline std::string temp_dir(const std::string& name) {
  std::string pattern = std::string(::testing::TempDir()) + "parsys_test_" + name + "_XXXXXX";
  if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed for '" + pattern + "'");
  detail::temp_dir_registry().add(pattern);
  return pattern;
}

}  // namespace par::testing
