// One PAR packet as the host stages it in the scheduler's registers (docs/isa.md §7.8: start
// address, thread count, inherited registers) plus how its completion is signalled.
#pragma once

#include <cstdint>

#include "par/sched/scheduler_registers.hpp"

namespace par::sched {

struct Command {
  std::uint64_t start = 0;      // instruction address of the thread program
  std::int64_t threads = 0;     // N; thread indices 0..N-1; N <= 0 launches nothing
  std::uint64_t flag_addr = 0;  // completion flag address; 0 = no flag write
  std::uint64_t tag = 0;        // flag value (| kFlagErrorBit on failure)
  std::uint64_t control = 0;    // kControl* bits
  std::uint64_t inherited[kInheritedCount] = {};  // i1..i15 at 1..15; [0] unused (i0)
};

}  // namespace par::sched
