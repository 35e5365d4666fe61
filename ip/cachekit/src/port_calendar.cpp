#include "par/cachekit/port_calendar.hpp"

#include <algorithm>

namespace par::cachekit {

PortCalendar::PortCalendar(ScTick period) : period_(period), per_slot_(period), bits_(kWindow / 64, 0) {}

void PortCalendar::advance_to(std::uint64_t slot) {
  // Keep kHorizon cycles of history before `slot`; clear the cycles that leave the window. The
  // window starts on a word boundary, so every word holds 64 consecutive cycles of it.
  const std::uint64_t new_low = (slot - kHorizon) & ~std::uint64_t{63};
  if (new_low - low_ >= kWindow) {
    std::fill(bits_.begin(), bits_.end(), 0);
  } else {
    for (std::uint64_t c = low_; c < new_low; c += 64) bits_[(c % kWindow) / 64] = 0;
  }
  low_ = new_low;
}

std::size_t PortCalendar::reserved() const {
  std::size_t n = 0;
  for (std::uint64_t w : bits_) n += static_cast<std::size_t>(__builtin_popcountll(w));
  return n;
}

}  // namespace par::cachekit
