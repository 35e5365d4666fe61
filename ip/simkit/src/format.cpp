#include "par/simkit/format.hpp"

#include <charconv>
#include <cmath>
#include <cstdlib>

namespace par::simkit {

namespace {

// Rounds |value| * 10^shift to `decimals` digits, half up, working on its decimal digits.
std::string format_decimal(double value, int decimals, int shift) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value < 0 ? "-inf" : "inf";
  if (decimals < 0) decimals = 0;
  // 15 significant digits: every double prints to them without binary noise (the shortest form
  // of 0.995 is "0.995" and its 15-digit form "9.95000000000000e-01"), so a tie stays a tie.
  char buf[40];
  const auto r =
      std::to_chars(buf, buf + sizeof buf, std::fabs(value), std::chars_format::scientific, 14);
  const std::string sci(buf, r.ptr);  // d.ddddddddddddddde[+-]xx
  std::string digits = sci.substr(0, 1) + sci.substr(2, 14);
  const int exponent = std::atoi(sci.c_str() + sci.find('e') + 1) + shift;
  // value * 10^decimals = 0.digits * 10^keep; keep the first `keep` digits and round on the next.
  const long keep = static_cast<long>(exponent) + 1 + decimals;
  std::string integer;  // round(|value| * 10^shift * 10^decimals), as decimal digits
  if (keep <= 0) {
    integer = keep == 0 && digits[0] >= '5' ? "1" : "0";
  } else {
    const auto k = static_cast<std::size_t>(keep);
    const bool round_up = k < digits.size() && digits[k] >= '5';
    integer =
        k <= digits.size() ? digits.substr(0, k) : digits + std::string(k - digits.size(), '0');
    if (round_up) {
      std::size_t i = integer.size();
      while (i > 0 && integer[i - 1] == '9') integer[--i] = '0';
      if (i == 0) {
        integer.insert(integer.begin(), '1');
      } else {
        ++integer[i - 1];
      }
    }
    const std::size_t nonzero = integer.find_first_not_of('0');
    integer = nonzero == std::string::npos ? "0" : integer.substr(nonzero);
  }
  const auto d = static_cast<std::size_t>(decimals);
  if (integer.size() <= d) integer.insert(0, d + 1 - integer.size(), '0');
  std::string text =
      d == 0 ? integer
             : integer.substr(0, integer.size() - d) + "." + integer.substr(integer.size() - d);
  const bool zero = integer.find_first_not_of('0') == std::string::npos;
  return (value < 0 && !zero ? "-" : "") + text;
}

}  // namespace

std::string format_fixed(double value, int decimals) { return format_decimal(value, decimals, 0); }

std::string format_percent(double fraction, int decimals) {
  const std::string text = format_decimal(fraction, decimals, 2);
  return std::isfinite(fraction) ? text + "%" : text;
}

std::string format_shortest(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value < 0 ? "-inf" : "inf";
  char buf[40];
  const auto r = std::to_chars(buf, buf + sizeof buf, value);
  return std::string(buf, r.ptr);
}

std::string format_bytes(std::uint64_t bytes) {
  static const char* const kUnits[] = {"KiB", "MiB", "GiB", "TiB"};
  std::string unit = "bytes";
  for (const char* u : kUnits) {
    if (bytes < 1024 || bytes % 1024 != 0) break;
    bytes /= 1024;
    unit = u;
  }
  return std::to_string(bytes) + " " + unit;
}

}  // namespace par::simkit
