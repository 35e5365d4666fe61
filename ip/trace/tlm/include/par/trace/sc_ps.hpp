// sc_time -> trace picoseconds, exact for any SystemC time resolution of 1 ps or coarser (and
// rounded to the nearest ps for finer ones). Build one per module (it reads the resolution once,
// which SystemC fixes before the first sc_time exists).
#pragma once

#include <cstdint>

#include <systemc>

#include "par/trace/time.hpp"

namespace par::trace {

class ScToPs {
 public:
  ScToPs();
  Ps operator()(const sc_core::sc_time& t) const {
    const std::uint64_t ticks = t.value();
    return divisor_ == 1 ? ticks * multiplier_ : (ticks + divisor_ / 2) / divisor_;
  }

 private:
  std::uint64_t multiplier_ = 1;  // ps per tick (resolution >= 1 ps)
  std::uint64_t divisor_ = 1;     // ticks per ps (resolution < 1 ps)
};

}  // namespace par::trace
