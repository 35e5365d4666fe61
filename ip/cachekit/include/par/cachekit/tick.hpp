// Time inside the plain (SystemC-free) cache models: an absolute count of SystemC time-resolution
// units (sc_time::value()), so conversions to and from sc_time are exact.
#pragma once

#include <cstdint>

namespace par::cachekit {

using Tick = std::uint64_t;

// Exact n / d for a fixed d without a hardware division on every access (the bank period divides
// every arrival time): n * ceil(2^64 / d) / 2^64, rounded down, equals n / d whenever n * d < 2^64
// (the error n * (d * ceil(2^64 / d) - 2^64) / 2^64 stays below 1 / d). Larger n divide.
class TickDivider {
 public:
  explicit TickDivider(std::uint64_t d)
      : d_(d), magic_(d > 1 ? ~std::uint64_t{0} / d + 1 : 0), limit_(d > 1 ? ~std::uint64_t{0} / d : 0) {}
  std::uint64_t divisor() const { return d_; }
  std::uint64_t operator()(std::uint64_t n) const {
    if (n <= limit_) {
      __extension__ using U128 = unsigned __int128;
      return static_cast<std::uint64_t>((static_cast<U128>(n) * magic_) >> 64);
    }
    return n / d_;
  }

 private:
  std::uint64_t d_, magic_, limit_;
};

// Whole cycles covering `t` ticks (a partial cycle counts as one).
inline std::uint64_t cycles_ceil(Tick t, Tick period) { return (t + period - 1) / period; }
inline std::uint64_t cycles_ceil(Tick t, const TickDivider& period) { return period(t + period.divisor() - 1); }

}  // namespace par::cachekit
