// The access port of one cache (an L2 bank, an L1): one new access per cycle, as a calendar of reserved cycle
// slots. Plain C++.
//
// An access arriving at time t takes the first free slot at or after the cycle that contains t
// and starts at max(t, slot start); an uncontended access therefore starts at its own time (no
// rounding to clock edges). A calendar rather than a single busy-until time lets a request that
// arrives slightly out of time order (initiators run ahead within a quantum) use a slot that is
// still free before a later request's slot instead of queueing behind it. The calendar is a ring
// bitmap of the last kHorizon cycles before the newest reservation: slots older than that are
// forgotten (treated as free), which bounds memory and keeps a reservation O(1) amortised.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "par/cachekit/tick.hpp"

namespace par::cachekit {

class PortCalendar {
 public:
  static constexpr std::uint64_t kHorizon = 1u << 14;  // cycles of history kept

  explicit PortCalendar(ScTick period);

  ScTick period() const { return period_; }
  // Reserves the first free slot for an access arriving at `t`; returns its start time. Inline:
  // every access of a cache takes one.
  ScTick reserve(ScTick t) {
    std::uint64_t slot = per_slot_(t);
    // A slot older than the window is free (forgotten); take it without recording it.
    if (slot < low_) return std::max(t, slot * period_);
    for (;;) {
      if (slot >= low_ + kWindow) advance_to(slot);
      const std::uint64_t i = slot % kWindow;
      // The free slots of this word at or after `slot` (the shift brings in taken-looking zeros
      // only above the word's last slot).
      const std::uint64_t free = ~bits_[i / 64] >> (i % 64);
      if (free != 0) {
        slot += static_cast<std::uint64_t>(__builtin_ctzll(free));
        break;
      }
      slot += 64 - (i % 64);  // the rest of this word is taken
    }
    const std::uint64_t i = slot % kWindow;
    bits_[i / 64] |= std::uint64_t{1} << (i % 64);
    return std::max(t, slot * period_);
  }
  // Reserved slots inside the window (counted when asked: inspection only, so a reservation and
  // a move of the window keep no count).
  std::size_t reserved() const;

 private:
  static constexpr std::uint64_t kWindow = 2 * kHorizon;  // ring size in cycles (power of two)
  // Moves the window so that it ends after `slot` (which is past its end), forgetting what falls
  // out of it.
  void advance_to(std::uint64_t slot);

  ScTick period_;
  TickDivider per_slot_;  // t / period_
  std::vector<std::uint64_t> bits_;  // bit (slot % kWindow) of the ring
  std::uint64_t low_ = 0;            // oldest cycle inside the window
};

}  // namespace par::cachekit
