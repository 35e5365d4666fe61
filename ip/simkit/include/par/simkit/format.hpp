// Decimal number formatting for reports: fixed and percent with rounding half up; byte counts.
#pragma once

#include <cstdint>
#include <string>

namespace par::simkit {

// `value` with `decimals` digits after the point (0 = integer), rounded half up (half away from
// zero for negative values) on the decimal representation of the value to 15 significant digits,
// so binary noise does not decide a tie: 0.125 -> "0.13", 2.745 -> "2.75", 0.995 -> "1.00"
// although the nearest doubles are 2.74500000000000010658 and 0.99499999999999999556.
// Non-finite values give "nan", "inf", "-inf". A result that rounds to zero has no sign.
std::string format_fixed(double value, int decimals);

// `fraction` * 100 with `decimals` digits and a '%' sign, rounded like format_fixed; the
// multiplication is exact (a shift of the decimal digits): 0.99995 -> "100.00%".
std::string format_percent(double fraction, int decimals);

// The shortest text that reads back as the same double ("0.1", "3", "1e+20"); "nan"/"inf".
std::string format_shortest(double value);

// A byte count in the largest binary unit that divides it: "64 MiB", "1 GiB", "1000 bytes".
std::string format_bytes(std::uint64_t bytes);

}  // namespace par::simkit
