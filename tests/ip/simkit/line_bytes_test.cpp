#include "par/simkit/line_bytes.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <numeric>

namespace {

using par::simkit::copy_line_bytes;
using par::simkit::zero_line_bytes;

// Both the inline 64-byte path and the general one touch exactly [dst, dst + len): the guard bytes
// around the destination keep their value.
TEST(LineBytes, CopyAndZeroTouchExactlyTheirLength) {
  for (std::uint64_t len : {0u, 1u, 8u, 32u, 63u, 64u, 65u, 128u}) {
    SCOPED_TRACE(len);
    std::array<std::uint8_t, 200> src{};
    std::iota(src.begin(), src.end(), std::uint8_t{1});
    std::array<std::uint8_t, 200> dst{};
    dst.fill(0xEE);
    copy_line_bytes(dst.data() + 4, src.data(), len);
    for (std::uint64_t i = 0; i < dst.size(); ++i) {
      const bool inside = i >= 4 && i < 4 + len;
      EXPECT_EQ(dst[i], inside ? src[i - 4] : 0xEE) << "byte " << i;
    }
    zero_line_bytes(dst.data() + 4, len);
    for (std::uint64_t i = 0; i < dst.size(); ++i) {
      const bool inside = i >= 4 && i < 4 + len;
      EXPECT_EQ(dst[i], inside ? 0 : 0xEE) << "byte " << i;
    }
  }
}

}  // namespace
