// Time inside the link's timing model: integer picoseconds (trace::Ps, the platform's one
// picosecond type), so that serialisation times such as 0.625 ns per byte add up exactly and
// results do not depend on floating-point summation order.
#pragma once

#include "par/trace/time.hpp"

namespace par::ht {

using trace::Ps;
using trace::ns_to_ps;
using trace::ps_to_ns;

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
