// The outstanding-request limit of one originating side (docs/link-and-memory.md §1.3) as
// reservations: N slots, each free from a known time on. Plain C++.
//
// A non-posted request takes the slot that frees first and starts at max(entry, slot free); the
// slot is held until its response has been received, then frees at that time. Requests are served
// in call order (the FIFO of docs/link-and-memory.md §1.3): each takes the earliest slot left by
// those before it, so a request beyond the limit waits for the completion of the oldest one in
// flight. Between acquire() and release() a slot's free time is unknown (the access is still at
// the far side); such a slot is never handed out, and has_free_slot() is false when every slot is
// in that state, which only happens when far-side targets wait inside b_transport for their own
// access (an approximately-timed model behind a simple socket) while more processes call than
// there are slots.
//
// The wait queue: with a bound Q, a request (posted or not) that arrives while Q requests wait for
// a slot is accepted only when the oldest of them leaves the queue; the side's request interface
// is blocked until then (admit()).
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

#include "ht_time.hpp"

namespace par::ht {

class OutstandingLimiter {
 public:
  // `slots` >= 1; `wait_queue` 0 = unbounded.
  OutstandingLimiter(unsigned slots, unsigned wait_queue);

  // When a request arriving at `arrival` gets into the side's request interface.
  Ps admit(Ps arrival) const;

  bool has_free_slot() const;
  struct Grant {
    std::size_t slot;
    Ps start;  // max(entry, the slot's free time)
  };
  // Takes the slot that frees first (lowest index among equals). Precondition: has_free_slot().
  Grant acquire(Ps entry);
  // The request holding `slot` has completed at `at`.
  void release(std::size_t slot, Ps at);
  // Forgets waiting requests that left the queue at or before `now`.
  void retire(Ps now);

  unsigned slots() const { return static_cast<unsigned>(free_at_.size()); }
  unsigned held() const;
  // Requests waiting for a slot at time t (entered at or before t, starting after t).
  unsigned waiting_at(Ps t) const;

 private:
  std::vector<Ps> free_at_;
  std::vector<bool> held_;
  unsigned wait_queue_;
  std::vector<std::pair<Ps, Ps>> waiting_;  // (entry, start) of requests that waited
};

}  // namespace par::ht
