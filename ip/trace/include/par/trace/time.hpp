// Simulated time as the trace library sees it: integer picoseconds.
//
// The library has no SystemC dependency; the platform converts an sc_time once per call
// (with the default 1 ps resolution, `sc_time::value()` already is picoseconds).
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>

namespace par::trace {

using Ps = std::uint64_t;

// "No end": the default upper bound of a timeline's time window.
inline constexpr Ps kEndOfTime = std::numeric_limits<Ps>::max();

// Nanoseconds (a configuration value, >= 0) rounded to the nearest picosecond, and back.
inline Ps ns_to_ps(double ns) { return static_cast<Ps>(std::llround(ns * 1000.0)); }
inline double ps_to_ns(Ps ps) { return static_cast<double>(ps) / 1000.0; }

}  // namespace par::trace
