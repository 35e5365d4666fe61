#include "par/cachekit/port_calendar.hpp"

#include <algorithm>

namespace par::cachekit {

PortCalendar::PortCalendar(ScTick period) : period_(period), per_slot_(period), bits_(kWindow / 64, 0) {}

void PortCalendar::mark(std::uint64_t slot) {
  const std::uint64_t i = slot % kWindow;
  bits_[i / 64] |= std::uint64_t{1} << (i % 64);
  ++reserved_;
}

void PortCalendar::advance_to(std::uint64_t slot) {
  if (slot < low_ + kWindow) return;
  // Keep kHorizon cycles of history before `slot`; clear the cycles that leave the window. The
  // window starts on a word boundary, so every word holds 64 consecutive cycles of it.
  const std::uint64_t new_low = (slot - kHorizon) & ~std::uint64_t{63};
  if (new_low - low_ >= kWindow) {
    std::fill(bits_.begin(), bits_.end(), 0);
    reserved_ = 0;
  } else {
    for (std::uint64_t c = low_; c < new_low; c += 64) {
      std::uint64_t& w = bits_[(c % kWindow) / 64];
      reserved_ -= static_cast<std::size_t>(__builtin_popcountll(w));
      w = 0;
    }
  }
  low_ = new_low;
}

ScTick PortCalendar::reserve(ScTick t) {
  std::uint64_t slot = per_slot_(t);
  // A slot older than the window is free (forgotten); take it without recording it.
  if (slot < low_) return std::max(t, slot * period_);
  for (;;) {
    advance_to(slot);
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
  mark(slot);
  return std::max(t, slot * period_);
}

}  // namespace par::cachekit
