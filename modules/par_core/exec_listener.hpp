// What the packet engine reports per executed instruction when an execution trace is attached
// (PacketEngine::set_exec_listener). Without a listener the engine pays one null test per
// instruction.
#pragma once

#include <cstddef>
#include <cstdint>

#include "timing_model.hpp"

namespace par::core {

struct ExecStep {
  Cycle cycle = 0;                 // issue cycle from the packet's start (functional mode: fetch index)
  int context = 0;
  std::uint64_t round = 0;
  std::uint64_t first_thread = 0;  // thread index of slot 0 in this round
  std::uint64_t pc = 0;
  const std::uint8_t* mask = nullptr;  // active mask M the instruction executes under, a byte per slot
  int slots = 0;
  int active = 0;                  // set slots of mask
  std::size_t depth = 0;           // open control-stack entries above the round's PAR entry
};

class ExecListener {
 public:
  virtual ~ExecListener() = default;
  virtual void executed(const ExecStep& step) = 0;
};

}  // namespace par::core
