// A C++ host program: software that runs on the master core and drives the device through the
// host runtime (sw/host/ holds the programs and their registry; `parsys run --host NAME`).
#pragma once

#include <ostream>
#include <string>

#include "host_runtime.hpp"

namespace par::runtime {

class HostProgram {
 public:
  virtual ~HostProgram() = default;
  virtual std::string name() const = 0;
  virtual std::string description() const = 0;
  // Runs on the master core's thread. Returns 0 on success; a non-zero value (e.g. a result
  // that does not match its reference) makes the run fail. Runtime errors propagate as
  // exceptions (RuntimeError, DeviceError) and fail the run with their message.
  virtual int run(HostRuntime& rt, std::ostream& log) = 0;
};

}  // namespace par::runtime
