// A shared resource (a link channel, an interconnect port) as a calendar of reserved intervals:
// "busy until t" that remembers its gaps. Plain C++; times are integer ticks of the caller's
// choosing (picoseconds, sc_time values).
//
// A transfer that is ready at t occupies the resource for its duration from the first moment at
// or after t at which it is free for that long. A calendar rather than one busy-until time
// matters because loosely-timed initiators call in an order that is not time order: the response
// of a link read is reserved ~200 ns after its request, cores run ahead of each other within a
// quantum. A transfer issued later in call order but earlier in time must still use the idle
// resource before a later reservation instead of queueing behind it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>

namespace par::simkit {

class IntervalCalendar {
 public:
  using Ticks = std::uint64_t;

  // Reserves `duration` from the first free moment at or after `ready`; returns the start.
  // A zero duration reserves nothing and starts at `ready`.
  Ticks reserve(Ticks ready, Ticks duration);
  // Forgets reservations that end at or before `now`: nothing can be reserved before the current
  // simulated time any more. Bounds the calendar's size.
  void retire(Ticks now);

  // End of the latest reservation (0 when none is remembered).
  Ticks busy_until() const;
  // Disjoint intervals remembered (touching reservations are merged into one).
  std::size_t intervals() const { return busy_.size(); }

 private:
  struct Interval {
    Ticks start, end;
  };
  // Sorted, disjoint and never touching. Reservations almost always land at the end and retire
  // from the front, so a deque makes both O(1); a reservation in a gap inserts in the middle.
  std::deque<Interval> busy_;
};

}  // namespace par::simkit
