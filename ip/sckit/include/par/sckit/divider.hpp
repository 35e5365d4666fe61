// Exact n / d for a fixed d without a hardware division on every call (a clock period divides
// every arrival time of a core's or an L2 bank's accesses): n * ceil(2^64 / d) / 2^64, rounded
// down, equals n / d whenever n * d < 2^64 (the error n * (d * ceil(2^64 / d) - 2^64) / 2^64 stays
// below 1 / d). Larger n divide. Plain C++ (no SystemC).
#pragma once

#include <cstdint>

namespace par::sckit {

class Divider {
 public:
  explicit Divider(std::uint64_t d)
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

}  // namespace par::sckit
