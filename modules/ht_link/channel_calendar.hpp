// One unidirectional link channel as a calendar of reserved intervals ("busy until t" that
// remembers its gaps). Plain C++.
//
// A packet that is ready at t occupies the channel for its serialisation time from the first
// moment at or after t at which the channel is free for that long. A calendar rather than one
// busy-until time matters here because one channel carries traffic whose times are far apart in
// the same call order: the response of a device read is reserved ~200 ns after its request, and a
// host request issued later in call order but earlier in time must still use the idle link before
// that response instead of queueing behind it.
#pragma once

#include <cstddef>
#include <map>

#include "ht_time.hpp"

namespace par::ht {

class ChannelCalendar {
 public:
  // Reserves `duration` from the first free moment at or after `ready`; returns the start.
  // A zero duration reserves nothing and starts at `ready`.
  Ps reserve(Ps ready, Ps duration);
  // Forgets reservations that end at or before `now`: nothing can be reserved before the current
  // simulated time any more. Bounds the calendar's size.
  void retire(Ps now);

  // End of the latest reservation (0 when none is remembered).
  Ps busy_until() const;
  // Disjoint intervals remembered (touching reservations are merged into one).
  std::size_t intervals() const { return busy_.size(); }

 private:
  std::map<Ps, Ps> busy_;  // start -> end; disjoint and never touching
};

}  // namespace par::ht
