// The per-context idle-cycle breakdown (README "Thread contexts", core_stats.hpp IdleCause):
// for every FU and context, the cycles in which the FU accepted no thread, split by the state of
// the context's next instruction. Computed from intervals, not per cycle: each FU's busy cycles
// (thread entries, known at dispatch and appended in increasing order, since an FU issues in
// dispatch order) and, per context, the interval during which an instruction was its next one
// with the cycles until which each of its waits held.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "core_stats.hpp"
#include "par/isa/instruction.hpp"
#include "timing_model.hpp"

namespace par::core {

// The cycles in which threads entered one FU, as runs of consecutive cycles in increasing order.
class BusyCycles {
 public:
  // Thread entry cycles of one instruction (strictly increasing, after every earlier one).
  void add(const Cycle* starts, int n);
  // Busy cycles before `c` (c at or after the last forget_before()).
  std::int64_t before(Cycle c) const;
  std::int64_t total() const { return total_; }
  // No query will be made below `c` again: runs that end by then are dropped.
  void forget_before(Cycle c);
  void clear();

 private:
  struct Run {
    Cycle begin, end;     // [begin, end)
    std::int64_t before;  // busy cycles before begin
  };
  std::vector<Run> runs_;
  std::size_t first_ = 0;  // runs_[0 .. first_) are dropped
  std::int64_t total_ = 0;
};

class ContextAccounting {
 public:
  explicit ContextAccounting(int contexts) : finished_at_(static_cast<std::size_t>(contexts)) {}

  void start_packet();
  // Threads entered `unit` in the cycles `starts` (the timing model's last instruction).
  void busy(isa::Unit unit, const std::vector<Cycle>& starts) {
    fu_[static_cast<std::size_t>(unit)].add(starts.data(), static_cast<int>(starts.size()));
  }
  // An instruction for `unit` (-1: a control instruction) was the next instruction of a context
  // in the cycles [from, to): until `frontend` it waited for the frontend (block end, expand),
  // until `memory` for a load's value, until `fu` for its previous instruction of the unit;
  // later cycles count as Other. Call once the instruction has been dispatched (the busy cycles
  // before `to` are then final).
  void next_instruction(ContextCounters& c, int unit, Cycle from, Cycle to, Cycle frontend, Cycle memory, Cycle fu);
  // Context `context` has no round left from cycle `at` on.
  void finished(int context, Cycle at);
  // The packet ends in cycle `end` (exclusive): adds the Finished cycles.
  void end_packet(Cycle end, std::vector<ContextCounters>& counters);
  // No context will report an interval starting before `c` again.
  void forget_before(Cycle c);

 private:
  std::int64_t idle(std::size_t u, Cycle from, Cycle to) const {
    return to <= from ? 0 : (to - from) - (fu_[u].before(to) - fu_[u].before(from));
  }
  struct Finish {
    Cycle at = -1;  // -1: still running
    std::array<std::int64_t, isa::kBackendUnits> busy_before{};
  };
  std::array<BusyCycles, isa::kBackendUnits> fu_;
  std::vector<Finish> finished_at_;
};

}  // namespace par::core
