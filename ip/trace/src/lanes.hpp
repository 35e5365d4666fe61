// Lane packing for one track's intervals, so that overlapping intervals display correctly.
//
// Chrome and Perfetto draw the "X" events of one thread as a stack and require proper nesting
// (a child inside its parent); an interval that only partly overlaps another is drawn wrongly or
// dropped. First-fit packing in begin order puts every interval into the first lane where it is
// either after everything open there or inside the innermost open interval; a new lane opens
// only when none fits. The result is deterministic and uses one lane when the track is already
// properly nested (the common case).
#pragma once

#include <cstdint>
#include <vector>

#include "par/trace/time.hpp"

namespace par::trace::detail {

struct Span {
  Ps begin;
  Ps end;
};

struct LaneAssignment {
  std::vector<std::uint32_t> lane;  // per input span, in input order
  std::uint32_t lanes = 1;          // lanes used (at least 1, so the track still gets a row)
  std::uint64_t forced = 0;         // spans put into the last lane without fitting (lane cap)
};

// Lanes beyond this stay unopened: the viewers become unreadable long before, and first-fit
// search costs O(lanes) per span.
inline constexpr std::uint32_t kMaxLanes = 256;

LaneAssignment assign_lanes(const std::vector<Span>& spans);

}  // namespace par::trace::detail
