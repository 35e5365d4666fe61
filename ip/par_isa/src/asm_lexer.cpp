#include "asm_lexer.hpp"

namespace par::isa::detail {

namespace {

bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_word(char c) { return is_alpha(c) || is_digit(c) || c == '.'; }
bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

}  // namespace

std::vector<Token> lex_line(std::string_view line) {
  std::vector<Token> out;
  std::size_t i = 0;
  const std::size_t n = line.size();
  while (i < n) {
    const char c = line[i];
    if (is_space(c)) {
      ++i;
      continue;
    }
    if (c == ';' || (c == '/' && i + 1 < n && line[i + 1] == '/')) break;  // comment
    Token t;
    t.col = static_cast<int>(i) + 1;
    const std::size_t start = i;
    const char next = i + 1 < n ? line[i + 1] : '\0';
    if (is_digit(c) || (c == '.' && is_digit(next))) {
      // Numbers are scanned generously (letters, dots, exponent signs) and validated by whoever
      // reads them, so that "12ab" is one malformed number rather than "12" followed by "ab".
      const bool hex = c == '0' && (next == 'x' || next == 'X');
      ++i;
      while (i < n) {
        const char d = line[i];
        const char prev = line[i - 1];
        if (is_word(d) || (!hex && (d == '+' || d == '-') && (prev == 'e' || prev == 'E'))) {
          ++i;
        } else {
          break;
        }
      }
      t.kind = Token::Number;
    } else if (is_alpha(c) || (c == '.' && is_alpha(next))) {
      ++i;
      while (i < n && is_word(line[i])) ++i;
      t.kind = Token::Ident;
    } else if (c == '=' || c == ',' || c == '[' || c == ']' || c == '(' || c == ')' || c == ':' ||
               c == '#' || c == '-' || c == '+') {
      ++i;
      t.kind = Token::Punct;
    } else {
      ++i;
      t.kind = Token::Bad;
    }
    t.text = line.substr(start, i - start);
    out.push_back(t);
  }
  return out;
}

}  // namespace par::isa::detail
