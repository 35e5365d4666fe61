// The bridge from a core's packet engine (ExecListener) to the execution trace of ip/trace: adds
// the core's name, the packet's start cycle, the source line and the disassembly of each PC
// (built once per PC, on first use).
#pragma once

#include <string>
#include <vector>

#include "exec_listener.hpp"
#include "packet_engine.hpp"
#include "par/trace/exec_trace.hpp"

namespace par::core {

class CoreExecTrace final : public ExecListener {
 public:
  CoreExecTrace(trace::ExecTrace& trace, std::string core, const LoadedProgram& program);

  // A packet starts in core clock cycle `start_cycle` = `start` ps; a cycle lasts `period` ps.
  void begin_packet(std::uint64_t start_cycle, trace::Ps start, trace::Ps period);
  void executed(const ExecStep& step) override;

 private:
  trace::ExecTrace& trace_;
  std::string core_;
  const LoadedProgram& program_;
  std::vector<std::string> source_, text_;  // per PC, "" until first used
  std::uint64_t start_cycle_ = 0;
  trace::Ps start_ = 0, period_ = 1;
};

}  // namespace par::core
