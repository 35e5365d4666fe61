#include "asm_numbers.hpp"

#include <charconv>
#include <cstring>
#include <limits>
#include <system_error>

#include "names.hpp"

namespace par::isa::detail {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool is_hex_spelling(std::string_view t) {
  return t.size() >= 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X');
}

// digits [. digits] [e [+-] digits], or . digits [...]; at least one mantissa digit.
bool is_decimal_fp(std::string_view t) {
  std::size_t i = 0, mant = 0;
  while (i < t.size() && is_digit(t[i])) ++i, ++mant;
  if (i < t.size() && t[i] == '.') {
    ++i;
    while (i < t.size() && is_digit(t[i])) ++i, ++mant;
  }
  if (mant == 0) return false;
  if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
    ++i;
    if (i < t.size() && (t[i] == '+' || t[i] == '-')) ++i;
    std::size_t exp = 0;
    while (i < t.size() && is_digit(t[i])) ++i, ++exp;
    if (exp == 0) return false;
  }
  return i == t.size();
}

bool is_inf(std::string_view t) { return iequals(t, "inf"); }
bool is_nan(std::string_view t) { return iequals(t, "nan"); }

// Out-of-range decimal literal: decide between overflow and underflow from the exponent. A
// long double has a far larger range, so it settles almost every case; beyond it, the sign of the
// written exponent does.
bool overflows(std::string_view t) {
  long double ld = 0;
  const auto r = std::from_chars(t.data(), t.data() + t.size(), ld);
  if (r.ec == std::errc()) return ld >= 1.0L;
  const std::size_t e = t.find_first_of("eE");
  return e == std::string_view::npos || e + 1 >= t.size() || t[e + 1] != '-';
}

template <class F>
FpStatus parse_fp(std::string_view t, bool neg, F& out) {
  if (is_inf(t)) {
    out = std::numeric_limits<F>::infinity();
  } else if (is_nan(t)) {
    out = std::numeric_limits<F>::quiet_NaN();
  } else if (is_hex_spelling(t)) {
    std::uint64_t mag = 0;
    if (parse_uint(t, mag) != NumStatus::Ok) return FpStatus::Malformed;
    out = static_cast<F>(mag);
  } else if (is_decimal_fp(t)) {
    const auto r = std::from_chars(t.data(), t.data() + t.size(), out, std::chars_format::general);
    if (r.ec == std::errc::result_out_of_range) {
      if (overflows(t)) return FpStatus::Overflow;
      out = 0;
    } else if (r.ec != std::errc() || r.ptr != t.data() + t.size()) {
      return FpStatus::Malformed;
    }
  } else {
    return FpStatus::Malformed;
  }
  if (neg) out = -out;
  return FpStatus::Ok;
}

}  // namespace

IntValue IntValue::of(std::int64_t v) {
  IntValue r;
  r.neg = v < 0;
  r.mag = r.neg ? 0 - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v);
  return r;
}

bool IntValue::in_range(std::int64_t lo, std::uint64_t hi) const {
  if (!neg || mag == 0) return mag <= hi;
  if (lo >= 0) return false;
  const std::uint64_t lo_mag = 0 - static_cast<std::uint64_t>(lo);
  return mag <= lo_mag;
}

NumStatus parse_uint(std::string_view t, std::uint64_t& mag) {
  mag = 0;
  if (t.empty()) return NumStatus::Malformed;
  if (is_hex_spelling(t)) {
    if (t.size() == 2) return NumStatus::Malformed;
    for (std::size_t i = 2; i < t.size(); ++i) {
      const int d = hex_digit(t[i]);
      if (d < 0) return NumStatus::Malformed;
      if (mag > (std::numeric_limits<std::uint64_t>::max() >> 4)) return NumStatus::TooLarge;
      mag = (mag << 4) | static_cast<std::uint64_t>(d);
    }
    return NumStatus::Ok;
  }
  bool all_digits = true;
  for (char c : t) all_digits = all_digits && is_digit(c);
  if (!all_digits) return is_decimal_fp(t) ? NumStatus::Float : NumStatus::Malformed;
  for (char c : t) {
    const auto d = static_cast<std::uint64_t>(c - '0');
    if (mag > (std::numeric_limits<std::uint64_t>::max() - d) / 10) return NumStatus::TooLarge;
    mag = mag * 10 + d;
  }
  return NumStatus::Ok;
}

bool is_fp_spelling(std::string_view t) {
  if (is_inf(t) || is_nan(t)) return true;
  if (is_hex_spelling(t)) return false;
  if (!is_decimal_fp(t)) return false;
  return t.find_first_of(".eE") != std::string_view::npos;
}

FpStatus parse_f64(std::string_view text, bool neg, std::uint64_t& bits) {
  double d = 0;
  const FpStatus s = parse_fp(text, neg, d);
  if (s == FpStatus::Ok) std::memcpy(&bits, &d, sizeof bits);
  return s;
}

FpStatus parse_f32(std::string_view text, bool neg, std::uint32_t& bits) {
  float f = 0;
  const FpStatus s = parse_fp(text, neg, f);
  if (s == FpStatus::Ok) std::memcpy(&bits, &f, sizeof bits);
  return s;
}

}  // namespace par::isa::detail
