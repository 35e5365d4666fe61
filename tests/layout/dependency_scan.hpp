// Which way the dependencies of the source tree run (docs/architecture.md, "Dependency direction"):
// sw/ (host software, kernels) may use modules/ and ip/, modules/ may use ip/, ip/ uses neither. A
// scan of the tree's #include lines and CMake files that lists every dependency running the other
// way:
//
// - an #include in ip/ or modules/ that can only be the header of a higher layer (resolved next
//   to the including file first, then by the include path's tail against every header of the
//   tree; names no header of the tree has, such as <systemc>, are not dependencies);
// - a target_link_libraries of a target defined in ip/ or modules/ that names a target defined in
//   a higher layer;
// - a target_include_directories anywhere that exports a folder outside the CMake file's own
//   folder (a target publishes its own headers only);
// - between two module folders, anything but the published contract: an #include of a header of
//   another module that is not under its include/ folder, a link to another module's target that
//   is not an INTERFACE library (its `*_api`).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace par::layout {

// ip = 0, modules = 1, sw = 2, platform = 3 (which may use everything); -1 for every other folder
// (tests/, scripts/, ...: not scanned).
int layer_of(const std::string& relative_path);

// One line per violation: "modules/x/y.cpp:12: includes \"host_runtime.hpp\" (sw/runtime/host_runtime.hpp)".
std::vector<std::string> dependency_violations(const std::filesystem::path& root);

}  // namespace par::layout
