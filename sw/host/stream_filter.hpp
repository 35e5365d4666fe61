// stream-filter: sw/kernels/stream-filter.par through the stream windows. The host fills every
// core's channel s0 with its share of the input (the scheduler's static policy: core c runs
// threads [c * ceil(N/C), ...)), opens s1 behind it for the output, launches the packet, drains
// each core's s1 and checks the concatenation against the C++ reference (stream_filter).
#pragma once

#include "host_program.hpp"

namespace par::host {

class StreamFilter final : public runtime::HostProgram {
 public:
  std::string name() const override { return "stream-filter"; }
  std::string description() const override {
    return "fill each core's stream s0 with its share of the input of sw/kernels/stream-filter.par, "
           "launch it, drain s1, check it (needs core.stream.enabled and the static scheduler policy)";
  }
  int run(runtime::HostRuntime& rt, std::ostream& log) override;
};

}  // namespace par::host
