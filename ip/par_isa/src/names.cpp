#include "names.hpp"

#include <cctype>
#include <sstream>

namespace par::isa::detail {

namespace {

bool all_digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}

char lower_char(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

}  // namespace

std::string to_lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = lower_char(c);
  return out;
}

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (lower_char(a[i]) != lower_char(b[i])) return false;
  return true;
}

bool is_register_like(std::string_view name) {
  if (name.size() < 2) return false;
  const char c = lower_char(name[0]);
  return (c == 'r' || c == 'i' || c == 'p') && all_digits(name.substr(1));
}

int parse_register(std::string_view tok) {
  if (!is_register_like(tok)) return -1;
  const char c = lower_char(tok[0]);
  if (c == 'p') return -1;
  const std::string_view digits = tok.substr(1);
  // Canonical spelling only: "r1", not "r01", so that every register has exactly one name.
  if (digits.size() > 2 || (digits.size() == 2 && digits[0] == '0')) return -2;
  int n = 0;
  for (char d : digits) n = n * 10 + (d - '0');
  if (n > 15) return -2;
  return c == 'r' ? n : n + 16;
}

PredToken parse_predicate(std::string_view tok) {
  PredToken p;
  if (!is_register_like(tok) || lower_char(tok[0]) != 'p') return p;
  const std::string_view digits = tok.substr(1);
  if (digits.size() == 1) {
    p.first = digits[0] - '0';
    p.kind = p.first <= 7 ? PredToken::Single : PredToken::Bad;
  } else if (digits.size() == 2) {
    p.first = digits[0] - '0';
    p.second = digits[1] - '0';
    p.kind = (p.first <= 7 && p.second <= 7) ? PredToken::Pair : PredToken::Bad;
  } else {
    p.kind = PredToken::Bad;
  }
  return p;
}

bool is_valid_label(std::string_view name) {
  if (name.empty()) return false;
  const auto head = static_cast<unsigned char>(name[0]);
  if (!(std::isalpha(head) || head == '_')) return false;
  for (char c : name) {
    const auto u = static_cast<unsigned char>(c);
    if (!(std::isalnum(u) || u == '_')) return false;
  }
  return !is_register_like(name);
}

std::string register_name(unsigned field) {
  field &= 31;
  return (field < 16 ? "r" : "i") + std::to_string(field & 15);
}

std::string escape_unprintable(std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (const char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (u >= 0x20 && u < 0x7F) {
      out += c;
    } else {
      out += "\\x";
      out += kHex[u >> 4];
      out += kHex[u & 15];
    }
  }
  return out;
}

std::string quote(std::string_view tok) {
  constexpr std::size_t kMaxShown = 40;
  return "'" + escape_unprintable(tok.substr(0, kMaxShown)) + (tok.size() > kMaxShown ? "...'" : "'");
}

std::string hex(std::uint64_t v) {
  std::ostringstream s;
  s << "0x" << std::hex << std::uppercase << v;
  return s.str();
}

}  // namespace par::isa::detail
