// A C++ host program: software that runs on the master core and drives the device through the
// host runtime (sw/host/ holds the programs and their registry; `parsys run --host NAME`).
#pragma once

#include <memory>
#include <ostream>
#include <sstream>
#include <string>

#include "host_runtime.hpp"
#include "par/master/host_software.hpp"

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

// A host program as the software of the master core: runs it, then waits for its packets (as the
// end of a .MASTER program does), and turns its return value and exceptions into the message.
class HostProgramRunner final : public master::HostSoftware {
 public:
  HostProgramRunner(std::unique_ptr<HostProgram> program, HostRuntime& rt) : program_(std::move(program)), rt_(rt) {}

  // Where the program's log goes; by default it is kept and returned by log_text().
  void set_log(std::ostream* os) { log_stream_ = os; }
  std::string log_text() const { return log_.str(); }
  const HostProgram& program() const { return *program_; }

  // "" or "host program 'x' returned 1", the RuntimeError's message, "host program 'x' failed: <what>".
  std::string run() override;

 private:
  std::unique_ptr<HostProgram> program_;
  HostRuntime& rt_;
  std::ostringstream log_;
  std::ostream* log_stream_ = nullptr;
};

}  // namespace par::runtime
