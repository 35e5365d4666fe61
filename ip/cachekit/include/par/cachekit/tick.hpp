// Time inside the plain (SystemC-free) cache models: an absolute count of SystemC time-resolution
// units (sc_time::value()), so conversions to and from sc_time are exact.
#pragma once

#include <cstdint>

#include "par/sckit/divider.hpp"

namespace par::cachekit {

using ScTick = std::uint64_t;

// Divides by a fixed period without a hardware division per access (par/sckit/divider.hpp).
using TickDivider = sckit::Divider;

// Whole cycles covering `t` ticks (a partial cycle counts as one).
inline std::uint64_t cycles_ceil(ScTick t, ScTick period) { return (t + period - 1) / period; }
inline std::uint64_t cycles_ceil(ScTick t, const TickDivider& period) { return period(t + period.divisor() - 1); }

}  // namespace par::cachekit
