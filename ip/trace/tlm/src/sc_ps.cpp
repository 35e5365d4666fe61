#include "par/trace/sc_ps.hpp"

#include <cmath>

namespace par::trace {

ScToPs::ScToPs() {
  // The resolution is a power of ten seconds (SystemC enforces it).
  const double ps = sc_core::sc_get_time_resolution().to_seconds() * 1e12;
  if (ps >= 1.0) {
    multiplier_ = static_cast<std::uint64_t>(std::llround(ps));
  } else {
    divisor_ = static_cast<std::uint64_t>(std::llround(1.0 / ps));
  }
}

}  // namespace par::trace
