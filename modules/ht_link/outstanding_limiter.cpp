#include "outstanding_limiter.hpp"

#include <algorithm>
#include <cassert>

namespace par::ht {

OutstandingLimiter::OutstandingLimiter(unsigned slots, unsigned wait_queue)
    : free_at_(slots, 0), held_(slots, false), wait_queue_(wait_queue) {}

Ps OutstandingLimiter::admit(Ps arrival) const {
  if (wait_queue_ == 0) return arrival;
  std::vector<Ps> leaves;  // when each request waiting at `arrival` gets its slot
  for (const auto& [entry, start] : waiting_)
    if (entry <= arrival && arrival < start) leaves.push_back(start);
  if (leaves.size() < wait_queue_) return arrival;
  // One place must free: the (n - Q + 1)-th departure in time.
  const std::size_t k = leaves.size() - wait_queue_;
  std::nth_element(leaves.begin(), leaves.begin() + static_cast<std::ptrdiff_t>(k), leaves.end());
  return leaves[k];
}

bool OutstandingLimiter::has_free_slot() const {
  return std::find(held_.begin(), held_.end(), false) != held_.end();
}

OutstandingLimiter::Grant OutstandingLimiter::acquire(Ps entry) {
  std::size_t best = free_at_.size();
  for (std::size_t i = 0; i < free_at_.size(); ++i) {
    if (held_[i]) continue;
    if (best == free_at_.size() || free_at_[i] < free_at_[best]) best = i;
  }
  assert(best < free_at_.size() && "acquire() without a free slot");
  held_[best] = true;
  const Ps start = std::max(entry, free_at_[best]);
  if (start > entry) waiting_.emplace_back(entry, start);
  return {best, start};
}

void OutstandingLimiter::release(std::size_t slot, Ps at) {
  held_.at(slot) = false;
  free_at_[slot] = at;
}

void OutstandingLimiter::retire(Ps now) {
  waiting_.erase(std::remove_if(waiting_.begin(), waiting_.end(),
                                [now](const auto& w) { return w.second <= now; }),
                 waiting_.end());
}

unsigned OutstandingLimiter::held() const {
  return static_cast<unsigned>(std::count(held_.begin(), held_.end(), true));
}

unsigned OutstandingLimiter::waiting_at(Ps t) const {
  return static_cast<unsigned>(std::count_if(waiting_.begin(), waiting_.end(), [t](const auto& w) {
    return w.first <= t && t < w.second;
  }));
}

}  // namespace par::ht
