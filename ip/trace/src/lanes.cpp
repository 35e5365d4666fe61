#include "lanes.hpp"

#include <algorithm>
#include <numeric>

namespace par::trace::detail {

LaneAssignment assign_lanes(const std::vector<Span>& spans) {
  LaneAssignment out;
  out.lane.assign(spans.size(), 0);
  std::vector<std::uint32_t> order(spans.size());
  std::iota(order.begin(), order.end(), 0u);
  // Begin order; of equal begins the longer first, so that it becomes the parent.
  std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    if (spans[a].begin != spans[b].begin) return spans[a].begin < spans[b].begin;
    if (spans[a].end != spans[b].end) return spans[a].end > spans[b].end;
    return a < b;
  });
  std::vector<std::vector<Ps>> open;  // per lane: ends of the open intervals, innermost last
  for (const std::uint32_t i : order) {
    const Span s = spans[i];
    bool placed = false;
    for (std::uint32_t l = 0; l < open.size() && !placed; ++l) {
      std::vector<Ps>& stack = open[l];
      // Begins never decrease, so an interval that ended by now is closed for good.
      while (!stack.empty() && stack.back() <= s.begin) {
        stack.pop_back();
      }
      if (stack.empty() || s.end <= stack.back()) {
        stack.push_back(s.end);
        out.lane[i] = l;
        placed = true;
      }
    }
    if (placed) continue;
    if (open.size() < kMaxLanes) {
      out.lane[i] = static_cast<std::uint32_t>(open.size());
      open.push_back({s.end});
    } else {
      out.lane[i] = kMaxLanes - 1;
      ++out.forced;
    }
  }
  out.lanes = std::max<std::uint32_t>(1, static_cast<std::uint32_t>(open.size()));
  return out;
}

}  // namespace par::trace::detail
