// The host program of a plain .PAR file in the full system: the master core launches the file's
// packet (start, thread count, inherited registers) run.repeat times, waiting for each, as a
// host driver would. The program's data is in memory before the run (loaded like the program).
#pragma once

#include "host_program.hpp"
#include "par/isa/program.hpp"

namespace par::platform {

class PacketHostProgram : public runtime::HostProgram {
 public:
  PacketHostProgram(const isa::Program& program, int repeat) : program_(program), repeat_(repeat) {}
  std::string name() const override { return "launch-packet"; }
  std::string description() const override { return "launches the file's packet run.repeat times"; }
  int run(runtime::HostRuntime& rt, std::ostream& log) override;

 private:
  const isa::Program& program_;
  int repeat_;
};

}  // namespace par::platform
