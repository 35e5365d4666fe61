// The registry of C++ host programs (`parsys run --host NAME`): an explicit table, built on
// first use, with no static-initialiser registration.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "host_program.hpp"

namespace par::host {

struct HostProgramInfo {
  std::string name;
  std::string description;
  std::function<std::unique_ptr<runtime::HostProgram>()> make;
};

// Every host program, in a fixed order.
const std::vector<HostProgramInfo>& host_programs();

// The program called `name`, or nullptr with `error` = "unknown host program 'x' (known: a, b)".
std::unique_ptr<runtime::HostProgram> make_host_program(const std::string& name, std::string* error);

}  // namespace par::host
