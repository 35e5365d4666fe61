// The access port of one L2 bank: one new access per cycle, as a calendar of reserved cycle
// slots. Plain C++.
//
// An access arriving at time t takes the first free slot at or after the cycle that contains t
// and starts at max(t, slot start); an uncontended access therefore starts at its own time (no
// rounding to clock edges). A calendar rather than a single busy-until time lets a request that
// arrives slightly out of time order (initiators run ahead within a quantum) use a slot that is
// still free before a later request's slot instead of queueing behind it. Slots more than
// kHorizon cycles older than the newest reservation are forgotten.
#pragma once

#include <cstdint>
#include <set>

#include "tick.hpp"

namespace par::l2 {

class PortCalendar {
 public:
  static constexpr std::uint64_t kHorizon = 1u << 14;  // cycles of history kept

  explicit PortCalendar(Tick period) : period_(period) {}

  Tick period() const { return period_; }
  // Reserves the first free slot for an access arriving at `t`; returns its start time.
  Tick reserve(Tick t);
  std::size_t reserved() const { return slots_.size(); }

 private:
  Tick period_;
  std::set<std::uint64_t> slots_;  // reserved cycle numbers (time / period)
  std::uint64_t newest_ = 0;
};

}  // namespace par::l2
