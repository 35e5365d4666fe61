#include "core_exec_trace.hpp"

#include "par/isa/disassembler.hpp"

namespace par::core {

CoreExecTrace::CoreExecTrace(trace::ExecTrace& trace, std::string core, const LoadedProgram& program)
    : trace_(trace), core_(std::move(core)), program_(program), source_(program.size()), text_(program.size()) {}

void CoreExecTrace::begin_packet(std::uint64_t start_cycle, trace::Ps start, trace::Ps period) {
  start_cycle_ = start_cycle;
  start_ = start;
  period_ = period;
}

void CoreExecTrace::executed(const ExecStep& step) {
  const std::uint64_t cycle = start_cycle_ + static_cast<std::uint64_t>(step.cycle);
  if (!trace_.wants(step.pc, cycle)) return;
  std::string& source = source_[step.pc];
  std::string& text = text_[step.pc];
  if (text.empty()) {
    source = program_.source().location(step.pc);
    text = program_.legal(step.pc) ? isa::disassemble(program_.at(step.pc), &program_.source()) : "(illegal)";
  }
  trace::ExecRecord r;
  r.core = core_;
  r.cycle = cycle;
  r.context = step.context;
  r.round = step.round;
  r.pc = step.pc;
  r.source = source;
  r.instruction = text;
  r.mask = step.mask;
  r.slots = step.slots;
  r.first_thread = step.first_thread;
  r.active = step.active;
  r.depth = step.depth;
  r.begin = start_ + static_cast<trace::Ps>(step.cycle) * period_;
  r.end = r.begin + period_;
  trace_.record(r);
}

}  // namespace par::core
