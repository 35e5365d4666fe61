#include "port_calendar.hpp"

#include <algorithm>

namespace par::l2 {

Tick PortCalendar::reserve(Tick t) {
  std::uint64_t slot = t / period_;
  for (auto it = slots_.lower_bound(slot); it != slots_.end() && *it == slot; ++it) ++slot;
  slots_.insert(slot);
  newest_ = std::max(newest_, slot);
  // Forget old history in batches so the calendar stays small on long runs.
  if (newest_ > 2 * kHorizon && !slots_.empty() && *slots_.begin() + 2 * kHorizon < newest_) {
    slots_.erase(slots_.begin(), slots_.lower_bound(newest_ - kHorizon));
  }
  return std::max(t, slot * period_);
}

}  // namespace par::l2
