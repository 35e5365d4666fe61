// Book-keeping of backend resources that several thread contexts share and free out of program
// order (README "Thread contexts"). With one context every release sequence of an FU is
// non-decreasing and the timing model uses its rings (the n-th most recent instruction); these
// give the same answers then, and the exact ones when contexts commit independently.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

namespace par::core {

using Cycle = std::int64_t;

// The k largest values pushed so far (a min-heap of at most k). kth() is the k-th largest, or -1
// while fewer than k were pushed: for release cycles of held entries (output buffers, queue
// entries, ROB entries) "fewer than k held in cycle c" holds exactly from cycle kth().
class LargestK {
 public:
  // Nothing is allocated until the first push (a single context never pushes).
  explicit LargestK(int k) : k_(static_cast<std::size_t>(k)) {}
  void push(Cycle v) {
    if (heap_.size() < k_) {
      heap_.push_back(v);
      std::push_heap(heap_.begin(), heap_.end(), std::greater<Cycle>());
    } else if (v > heap_.front()) {
      std::pop_heap(heap_.begin(), heap_.end(), std::greater<Cycle>());
      heap_.back() = v;
      std::push_heap(heap_.begin(), heap_.end(), std::greater<Cycle>());
    }
  }
  Cycle kth() const { return heap_.size() < k_ ? -1 : heap_.front(); }
  // How many of the kept values are >= c (occupancy of held entries in cycle c when k is the
  // number of entries).
  int count_from(Cycle c) const {
    int n = 0;
    for (Cycle v : heap_) n += v >= c;
    return n;
  }
  void clear() { heap_.clear(); }

 private:
  std::size_t k_;
  std::vector<Cycle> heap_;
};

// Commits of one FU per cycle (at most `per_cycle`, core.commit_per_fu), for cycles that can
// still receive a commit. reserve() gives the earliest cycle >= from with a free commit port;
// earlier-dispatched instructions reserve first (oldest first, as a cycle-by-cycle commit would).
class CommitPorts {
 public:
  Cycle reserve(Cycle from, int per_cycle) {
    auto it = std::lower_bound(used_.begin(), used_.end(), from,
                               [](const std::pair<Cycle, int>& e, Cycle c) { return e.first < c; });
    Cycle c = from;
    while (it != used_.end() && it->first == c && it->second >= per_cycle) {
      ++c;
      ++it;
    }
    if (it != used_.end() && it->first == c) ++it->second;
    else used_.insert(it, {c, 1});
    return c;
  }
  // No commit will ever be placed before `c` again.
  void forget_before(Cycle c) {
    auto it = std::lower_bound(used_.begin(), used_.end(), c,
                               [](const std::pair<Cycle, int>& e, Cycle x) { return e.first < x; });
    used_.erase(used_.begin(), it);
  }
  void clear() { used_.clear(); }

 private:
  std::vector<std::pair<Cycle, int>> used_;  // (cycle, commits), ascending
};

}  // namespace par::core
