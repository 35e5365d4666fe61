// Simulated time as the trace library sees it: integer picoseconds.
//
// The library has no SystemC dependency; the platform converts an sc_time once per call
// (with the default 1 ps resolution, `sc_time::value()` already is picoseconds).
#pragma once

#include <cstdint>
#include <limits>

namespace par::trace {

using Ps = std::uint64_t;

// "No end": the default upper bound of a timeline's time window.
inline constexpr Ps kEndOfTime = std::numeric_limits<Ps>::max();

}  // namespace par::trace
