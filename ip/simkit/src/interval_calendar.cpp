#include "par/simkit/interval_calendar.hpp"

#include <algorithm>

namespace par::simkit {

IntervalCalendar::Ticks IntervalCalendar::reserve(Ticks ready, Ticks duration) {
  if (duration == 0) return ready;
  // The common cases: at or after the start of the latest reservation, so the transfer goes
  // after it (merged when it touches it) or after every reservation.
  if (busy_.empty() || ready > busy_.back().end) {
    busy_.push_back({ready, ready + duration});
    return ready;
  }
  if (ready >= busy_.back().start) {
    const Ticks start = busy_.back().end;
    busy_.back().end = start + duration;
    return start;
  }
  // First interval starting after `ready`.
  auto next = std::upper_bound(busy_.begin(), busy_.end(), ready,
                               [](Ticks t, const Interval& i) { return t < i.start; });
  Ticks start = ready;
  if (next != busy_.begin() && std::prev(next)->end > start) start = std::prev(next)->end;  // inside one
  // First fit: skip the reservations that leave no gap of `duration` before them.
  while (next != busy_.end() && next->start < start + duration) {
    start = next->end;
    ++next;
  }
  const Ticks end = start + duration;
  // Insert [start, end), merged with the neighbours it touches.
  const bool joins_prev = next != busy_.begin() && std::prev(next)->end == start;
  const bool joins_next = next != busy_.end() && next->start == end;
  if (joins_prev && joins_next) {
    std::prev(next)->end = next->end;
    busy_.erase(next);
  } else if (joins_prev) {
    std::prev(next)->end = end;
  } else if (joins_next) {
    next->start = start;
  } else {
    busy_.insert(next, Interval{start, end});
  }
  return start;
}

void IntervalCalendar::retire(Ticks now) {
  while (!busy_.empty() && busy_.front().end <= now) busy_.pop_front();
}

IntervalCalendar::Ticks IntervalCalendar::busy_until() const { return busy_.empty() ? 0 : busy_.back().end; }

}  // namespace par::simkit
