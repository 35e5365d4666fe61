// Round-robin selection among thread contexts with rotating priority (README "Thread contexts"):
// each issue slot goes to the ready context that comes first after the previously selected one,
// which has the lowest priority. When no context is ready the frontend idles until the first one
// becomes ready; contexts that become ready in the same cycle are ordered the same way.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

namespace par::core {

class ContextSelector {
 public:
  using Cycle = std::int64_t;

  explicit ContextSelector(int contexts) : bound_(static_cast<std::size_t>(contexts), 0), last_(contexts - 1) {}

  // Packet start: context 0 has the highest priority.
  void reset() {
    std::fill(bound_.begin(), bound_.end(), Cycle{0});
    last_ = static_cast<int>(bound_.size()) - 1;
  }

  // Chooses among the contexts c with active[c]. `ready(c)` is the exact first cycle >= from in
  // which context c could be selected if nothing else were dispatched before. Another context's
  // dispatch only takes resources, so a ready cycle computed earlier is a lower bound: `ready` is
  // asked only for the contexts whose bound is the earliest, in priority order, until one of them
  // is ready at that bound. Returns the chosen context and its cycle in `at`; -1 when none is
  // active.
  template <class Ready>
  int select(Cycle from, const std::vector<std::uint8_t>& active, Ready&& ready, Cycle& at) {
    const int n = static_cast<int>(bound_.size());
    const int first = last_ + 1 == n ? 0 : last_ + 1;
    constexpr Cycle kNone = std::numeric_limits<Cycle>::max();
    Cycle key = kNone;
    for (int c = 0; c < n; ++c)
      if (active[static_cast<std::size_t>(c)]) key = std::min(key, std::max(bound_[static_cast<std::size_t>(c)], from));
    while (key != kNone) {
      // The contexts at the earliest bound, in priority order: the first that is ready then wins;
      // the others learn their exact cycle, and the earliest bound after them is the next key.
      Cycle next = kNone;
      for (int j = 0, c = first; j < n; ++j, c = c + 1 == n ? 0 : c + 1) {
        if (!active[static_cast<std::size_t>(c)]) continue;
        Cycle& b = bound_[static_cast<std::size_t>(c)];
        Cycle k = std::max(b, from);
        if (k == key) {
          b = k = ready(c);
          if (k <= key) {
            at = key;
            return c;
          }
        }
        next = std::min(next, k);
      }
      key = next;
    }
    return -1;
  }

  // `c` was selected: it has the lowest priority now, and its next instruction is a new one.
  void selected(int c) {
    last_ = c;
    bound_[static_cast<std::size_t>(c)] = 0;
  }

 private:
  std::vector<Cycle> bound_;  // per context: a lower bound of its ready cycle
  int last_;                  // the previously selected context
};

}  // namespace par::core
