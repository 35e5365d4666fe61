// Integer and floating-point literals of the PAR assembler (docs/isa.md §8.1). Private.
#pragma once

#include <cstdint>
#include <string_view>

namespace par::isa::detail {

// An integer literal as sign and magnitude, so that every range check (-256..255 up to
// -2^63..2^64-1) is exact without a wider integer type.
struct IntValue {
  bool neg = false;
  std::uint64_t mag = 0;

  static IntValue of(std::int64_t v);
  // lo <= value <= hi, with lo <= 0.
  bool in_range(std::int64_t lo, std::uint64_t hi) const;
  // Two's-complement bits (the value modulo 2^64).
  std::uint64_t bits() const { return neg ? 0 - mag : mag; }
  std::int64_t as_signed() const { return static_cast<std::int64_t>(bits()); }
};

enum class NumStatus { Ok, Malformed, TooLarge, Float };

// Unsigned decimal ("42") or hexadecimal ("0x2A") integer. Float is returned for text that is a
// well-formed decimal FP literal ("2.5", "1e3"), so callers can say that FP is not allowed there.
NumStatus parse_uint(std::string_view text, std::uint64_t& mag);

// True if the literal is written as floating point: it has a '.', a decimal exponent, or is
// inf/nan (docs/isa.md §8.1: such `.I` values are stored as binary64 bit patterns).
bool is_fp_spelling(std::string_view text);

enum class FpStatus { Ok, Malformed, Overflow };

// `text` is the literal without its sign: a decimal integer or FP number, a hex integer, `inf` or
// `nan` (any case). Rounds to nearest; a value too small for the format becomes a signed zero, a
// value too large is Overflow.
FpStatus parse_f64(std::string_view text, bool neg, std::uint64_t& bits);
FpStatus parse_f32(std::string_view text, bool neg, std::uint32_t& bits);

}  // namespace par::isa::detail
