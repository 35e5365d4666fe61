// How a packet's thread range [0, N) is cut into shares for the cores (plain C++).
//
// Every share keeps the global thread index: a share of `threads` threads starting at
// `first_thread` runs i0 = first_thread .. first_thread + threads - 1 (docs/isa.md §2.1).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace par::sched {

struct Share {
  std::size_t core = 0;
  std::uint64_t first_thread = 0;
  std::int64_t threads = 0;
};

bool operator==(const Share& a, const Share& b);

// The static policy, weighed by the cores' thread slots (L x T each, in core order): with
// g = gcd of the slots and w_c = slots_c / g, every unit of weight takes q = ceil(N / sum w_c)
// threads, and share c is the contiguous range [q * (w_0 + .. + w_{c-1}), q * (w_0 + .. + w_c))
// cut at N (the last ones shorter or empty). So every core but the last busy one runs the same
// q / g rounds whatever its shape, and equal shapes give C shares of ceil(N / C) threads.
// Empty shares are left out; N <= 0 gives no share. Throws std::invalid_argument for no core or
// a core with no slot.
std::vector<Share> static_shares(std::int64_t threads, const std::vector<std::uint64_t>& core_slots);
// Cores of one shape: C contiguous shares of ceil(N / C) threads.
std::vector<Share> static_shares(std::int64_t threads, std::size_t cores);

// The dynamic policy: consecutive chunks of `chunk` threads (the last one shorter), handed out
// one at a time to whichever core is free.
class ChunkCursor {
 public:
  ChunkCursor(std::int64_t threads, std::int64_t chunk);
  bool done() const { return next_ >= total_; }
  // The next chunk, for `core`. Precondition: !done().
  Share take(std::size_t core);

 private:
  std::uint64_t next_ = 0;
  std::uint64_t total_;
  std::uint64_t chunk_;
};

}  // namespace par::sched
