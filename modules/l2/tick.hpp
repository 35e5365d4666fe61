// Time inside the plain (SystemC-free) L2 model: an absolute count of SystemC time-resolution
// units (sc_time::value()), so conversions to and from sc_time are exact.
#pragma once

#include <cstdint>

namespace par::l2 {

using Tick = std::uint64_t;

// Whole cycles covering `t` ticks (a partial cycle counts as one).
inline std::uint64_t cycles_ceil(Tick t, Tick period) { return (t + period - 1) / period; }

}  // namespace par::l2
