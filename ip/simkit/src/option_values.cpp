#include "option_values.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>
#include <system_error>
#include <vector>

namespace par::simkit::detail {

namespace {

std::string quoted(std::string_view text) { return "'" + std::string(text) + "'"; }

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

// Multiplier of a size suffix; 0 when `s` is not one.
std::uint64_t suffix_scale(std::string_view s) {
  static const std::pair<const char*, unsigned> kSuffixes[] = {
      {"K", 10},   {"M", 20},   {"G", 30},   {"T", 40},
      {"KiB", 10}, {"MiB", 20}, {"GiB", 30}, {"TiB", 40}};
  if (s.empty()) return 1;
  for (const auto& [name, shift] : kSuffixes) {
    if (s == name) return std::uint64_t{1} << shift;
  }
  return 0;
}

enum class IntStatus { Ok, NotInteger, Overflow };

// Magnitude and sign of an integer literal; overflow means the magnitude exceeds 64 bits.
IntStatus split_integer(std::string_view t, bool& negative, std::uint64_t& magnitude) {
  negative = false;
  if (!t.empty() && (t[0] == '+' || t[0] == '-')) {
    negative = t[0] == '-';
    t.remove_prefix(1);
  }
  int base = 10;
  if (t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) {
    base = 16;
    t.remove_prefix(2);
  }
  if (t.empty() || t[0] == '+' || t[0] == '-') return IntStatus::NotInteger;
  const auto r = std::from_chars(t.data(), t.data() + t.size(), magnitude, base);
  if (r.ptr == t.data()) return IntStatus::NotInteger;
  const std::uint64_t scale = suffix_scale(std::string_view(r.ptr, t.data() + t.size() - r.ptr));
  if (scale == 0) return IntStatus::NotInteger;
  if (r.ec == std::errc::result_out_of_range) return IntStatus::Overflow;
  if (magnitude > std::numeric_limits<std::uint64_t>::max() / scale) return IntStatus::Overflow;
  magnitude *= scale;
  return IntStatus::Ok;
}

}  // namespace

std::string_view trim(std::string_view s) {
  const auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
  while (!s.empty() && blank(s.front())) s.remove_prefix(1);
  while (!s.empty() && blank(s.back())) s.remove_suffix(1);
  return s;
}

std::string parse_bool(std::string_view text, bool& out) {
  const std::string_view t = trim(text);
  for (const char* yes : {"true", "yes", "on", "1"}) {
    if (iequals(t, yes)) {
      out = true;
      return "";
    }
  }
  for (const char* no : {"false", "no", "off", "0"}) {
    if (iequals(t, no)) {
      out = false;
      return "";
    }
  }
  return quoted(text) + " is not a boolean (true/false)";
}

std::string parse_signed(std::string_view text, std::int64_t lo, std::int64_t hi, const char* type,
                         std::int64_t& out) {
  bool negative = false;
  std::uint64_t magnitude = 0;
  switch (split_integer(trim(text), negative, magnitude)) {
    case IntStatus::NotInteger:
      return quoted(text) + " is not an integer";
    case IntStatus::Overflow:
      return quoted(text) + " is out of range for " + type;
    case IntStatus::Ok:
      break;
  }
  // Compare magnitudes as unsigned so INT64_MIN needs no special case.
  const std::uint64_t limit =
      negative ? std::uint64_t{0} - static_cast<std::uint64_t>(lo) : static_cast<std::uint64_t>(hi);
  if (magnitude > limit) return quoted(text) + " is out of range for " + type;
  out = negative ? static_cast<std::int64_t>(std::uint64_t{0} - magnitude)
                 : static_cast<std::int64_t>(magnitude);
  return "";
}

std::string parse_unsigned(std::string_view text, std::uint64_t hi, const char* type,
                           std::uint64_t& out) {
  bool negative = false;
  std::uint64_t magnitude = 0;
  switch (split_integer(trim(text), negative, magnitude)) {
    case IntStatus::NotInteger:
      return quoted(text) + " is not an integer";
    case IntStatus::Overflow:
      return quoted(text) + " is out of range for " + type;
    case IntStatus::Ok:
      break;
  }
  if (negative && magnitude != 0) return quoted(text) + " is not an unsigned integer";
  if (magnitude > hi) return quoted(text) + " is out of range for " + type;
  out = magnitude;
  return "";
}

std::string parse_real(std::string_view text, double& out) {
  std::string_view t = trim(text);
  // from_chars is locale-independent but takes no '+'.
  if (!t.empty() && t[0] == '+') t.remove_prefix(1);
  double v = 0;
  const auto r = std::from_chars(t.data(), t.data() + t.size(), v);
  if (t.empty() || r.ptr != t.data() + t.size() ||
      (r.ec != std::errc() && r.ec != std::errc::result_out_of_range)) {
    return quoted(text) + " is not a number";
  }
  // Overflow and underflow alike (from_chars does not say which): no configuration needs them.
  if (r.ec == std::errc::result_out_of_range) return quoted(text) + " is out of range for real";
  if (!std::isfinite(v)) {
    return quoted(text) + (std::isnan(v) ? " is not a number" : " is out of range for real");
  }
  out = v;
  return "";
}

std::string hex_text(std::uint64_t v) {
  char buf[24];
  const auto r = std::to_chars(buf, buf + sizeof buf, v, 16);
  return "0x" + std::string(buf, r.ptr);
}

std::string ini_quote(const std::string& s) {
  const bool plain = !s.empty() && s.front() != ' ' && s.front() != '\t' && s.back() != ' ' &&
                     s.back() != '\t' && s.front() != '"' &&
                     s.find_first_of("#;\\\n\r\t") == std::string::npos;
  if (plain) return s;
  std::string q = "\"";
  for (const char c : s) {
    switch (c) {
      case '"':
        q += "\\\"";
        break;
      case '\\':
        q += "\\\\";
        break;
      case '\n':
        q += "\\n";
        break;
      case '\t':
        q += "\\t";
        break;
      case '\r':
        q += "\\r";
        break;
      default:
        q += c;
    }
  }
  return q + "\"";
}

bool valid_utf8(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
    const unsigned char c = byte(i);
    std::size_t n = 0;
    std::uint32_t cp = 0, min = 0;
    if (c < 0x80) {
      ++i;
      continue;
    } else if ((c & 0xE0) == 0xC0) {
      n = 1, cp = c & 0x1F, min = 0x80;
    } else if ((c & 0xF0) == 0xE0) {
      n = 2, cp = c & 0x0F, min = 0x800;
    } else if ((c & 0xF8) == 0xF0) {
      n = 3, cp = c & 0x07, min = 0x10000;
    } else {
      return false;
    }
    for (std::size_t k = 1; k <= n; ++k) {
      if (i + k >= s.size() || (byte(i + k) & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (byte(i + k) & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
    i += n + 1;
  }
  return true;
}

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

}  // namespace par::simkit::detail
