// Time inside the link's timing model: integer picoseconds, so that serialisation times such as
// 0.625 ns per byte add up exactly and results do not depend on floating-point summation order.
#pragma once

#include <cmath>
#include <cstdint>

namespace par::ht {

using Ps = std::uint64_t;

// Nanoseconds (a configuration value, >= 0) rounded to the nearest picosecond.
inline Ps ns_to_ps(double ns) { return static_cast<Ps>(std::llround(ns * 1000.0)); }
inline double ps_to_ns(Ps ps) { return static_cast<double>(ps) / 1000.0; }

// The two ends of the link and the two unidirectional channels between them.
enum class Side { Host, Device };
enum class Direction { HostToDevice, DeviceToHost };

inline Side other(Side s) { return s == Side::Host ? Side::Device : Side::Host; }
// The channel that carries packets sent by `from`.
inline Direction sent_by(Side from) {
  return from == Side::Host ? Direction::HostToDevice : Direction::DeviceToHost;
}
inline const char* name_of(Direction d) { return d == Direction::HostToDevice ? "h2d" : "d2h"; }

}  // namespace par::ht
