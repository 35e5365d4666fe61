// Number formatting: rounding half up on the decimal representation.
#include "par/simkit/format.hpp"

#include <gtest/gtest.h>

#include <limits>

#include "par/simkit/stats.hpp"

namespace par::simkit {
namespace {

TEST(FormatFixed, RoundsHalfUp) {
  EXPECT_EQ(format_fixed(0.12345, 2), "0.12");
  EXPECT_EQ(format_fixed(0.125, 2), "0.13");
  EXPECT_EQ(format_fixed(2.745, 2), "2.75");  // the double is 2.74500000000000010658...
  EXPECT_EQ(format_fixed(0.995, 2), "1.00");  // the double is 0.99499999999999999556...
  EXPECT_EQ(format_fixed(1.005, 2), "1.01");  // the double is 1.00499999999999989342...
  EXPECT_EQ(format_fixed(0.1 + 0.2, 1), "0.3");
  EXPECT_EQ(format_fixed(2.5, 0), "3");
  EXPECT_EQ(format_fixed(3.5, 0), "4");
  EXPECT_EQ(format_fixed(9.9999, 3), "10.000");
  EXPECT_EQ(format_fixed(123.0, 2), "123.00");
  EXPECT_EQ(format_fixed(0.0004, 3), "0.000");
  EXPECT_EQ(format_fixed(0.0005, 3), "0.001");
  EXPECT_EQ(format_fixed(0.00049, 3), "0.000");
  EXPECT_EQ(format_fixed(0.000001, 2), "0.00");
}

TEST(FormatFixed, SignsZerosAndLargeValues) {
  EXPECT_EQ(format_fixed(0.0, 2), "0.00");
  EXPECT_EQ(format_fixed(-0.0, 2), "0.00");
  EXPECT_EQ(format_fixed(-0.125, 2), "-0.13");  // half away from zero
  EXPECT_EQ(format_fixed(-0.001, 2), "0.00");   // no "-0.00"
  EXPECT_EQ(format_fixed(-42.0, 0), "-42");
  EXPECT_EQ(format_fixed(1e20, 2), "100000000000000000000.00");
  EXPECT_EQ(format_fixed(123456789012.0, 0), "123456789012");
  EXPECT_EQ(format_fixed(1e-300, 2), "0.00");
  EXPECT_EQ(format_fixed(std::numeric_limits<double>::quiet_NaN(), 2), "nan");
  EXPECT_EQ(format_fixed(std::numeric_limits<double>::infinity(), 2), "inf");
  EXPECT_EQ(format_fixed(-std::numeric_limits<double>::infinity(), 2), "-inf");
}

TEST(FormatPercent, ScalesTheFractionExactly) {
  EXPECT_EQ(format_percent(0.999921, 2), "99.99%");
  EXPECT_EQ(format_percent(0.99995, 2), "100.00%");
  EXPECT_EQ(format_percent(0.00125, 2), "0.13%");  // a shift of the digits, no binary multiply
  EXPECT_EQ(format_percent(0.5, 0), "50%");
  EXPECT_EQ(format_percent(1.0, 1), "100.0%");
  EXPECT_EQ(format_percent(0.0, 2), "0.00%");
  EXPECT_EQ(format_percent(std::numeric_limits<double>::quiet_NaN(), 2), "nan");
}

TEST(FormatShortest, RoundTrips) {
  EXPECT_EQ(format_shortest(0.1), "0.1");
  EXPECT_EQ(format_shortest(3.0), "3");
  EXPECT_EQ(format_shortest(1e20), "1e+20");
  EXPECT_EQ(format_shortest(-2.5), "-2.5");
}

TEST(FormatBytes, LargestBinaryUnitThatDividesTheCount) {
  EXPECT_EQ(format_bytes(0), "0 bytes");
  EXPECT_EQ(format_bytes(1000), "1000 bytes");
  EXPECT_EQ(format_bytes(1024), "1 KiB");
  EXPECT_EQ(format_bytes(1536), "1536 bytes");
  EXPECT_EQ(format_bytes(std::uint64_t{64} << 20), "64 MiB");
  EXPECT_EQ(format_bytes(std::uint64_t{3} << 40), "3 TiB");
  EXPECT_EQ(format_bytes(std::uint64_t{1} << 50), "1024 TiB");
}

TEST(FormatClass, AppliesTheChosenStyle) {
  EXPECT_EQ(Format::integer().apply(7.5), "8");
  EXPECT_EQ(Format::fixed(3).apply(1.0005), "1.001");
  EXPECT_EQ(Format::percent(1).apply(0.12345), "12.3%");
  EXPECT_EQ(Format::fixed(2).apply(std::numeric_limits<double>::quiet_NaN()), "n/a");
}

}  // namespace
}  // namespace par::simkit
