#include "par/simkit/interval_calendar.hpp"

#include <iterator>

namespace par::simkit {

IntervalCalendar::Ticks IntervalCalendar::reserve(Ticks ready, Ticks duration) {
  if (duration == 0) return ready;
  Ticks start = ready;
  auto next = busy_.upper_bound(start);  // first interval starting after `start`
  if (next != busy_.begin()) {
    const auto prev = std::prev(next);
    if (prev->second > start) start = prev->second;  // `ready` falls inside a reservation
  }
  // First-fit: skip the reservations that leave no gap of `duration` before them.
  while (next != busy_.end() && next->first < start + duration) {
    start = next->second;
    ++next;
  }
  const Ticks end = start + duration;
  // Insert [start, end), merged with the neighbours it touches.
  Ticks merged_start = start;
  Ticks merged_end = end;
  if (next != busy_.begin()) {
    const auto prev = std::prev(next);
    if (prev->second == start) {
      merged_start = prev->first;
      busy_.erase(prev);
    }
  }
  if (next != busy_.end() && next->first == end) {
    merged_end = next->second;
    busy_.erase(next);
  }
  busy_[merged_start] = merged_end;
  return start;
}

void IntervalCalendar::retire(Ticks now) {
  auto it = busy_.begin();
  while (it != busy_.end() && it->second <= now) it = busy_.erase(it);
}

IntervalCalendar::Ticks IntervalCalendar::busy_until() const { return busy_.empty() ? 0 : busy_.rbegin()->second; }

}  // namespace par::simkit
