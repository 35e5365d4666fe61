// Software the master core runs in its thread instead of the .MASTER program of the loaded file:
// a C++ host program (sw/runtime's HostProgramRunner wraps one). The platform hands it to the
// master core.
#pragma once

#include <string>

namespace par::master {

class HostSoftware {
 public:
  virtual ~HostSoftware() = default;
  // Runs to its end on the master core's thread (every access and wait through the core's
  // HostPort). Returns "" or why it failed; the master core prefixes its name.
  virtual std::string run() = 0;
};

}  // namespace par::master
