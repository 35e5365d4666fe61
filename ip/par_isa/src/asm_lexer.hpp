// Line lexer of the PAR assembler (docs/isa.md §8.1). Private to the ISA library.
#pragma once

#include <string_view>
#include <vector>

namespace par::isa::detail {

struct Token {
  enum Kind {
    Ident,   // names, mnemonics (add.d), directives (.DATA), registers, labels, inf/nan
    Number,  // anything that starts with a digit (or '.' and a digit): 42, 0x2A, 2.5, 1e-3
    Punct,   // one of = , [ ] ( ) : # - +
    Bad,     // any other byte
  };
  Kind kind = Bad;
  std::string_view text;  // view into the source line
  int col = 0;            // 1-based byte column

  bool is(char c) const { return kind == Punct && text.size() == 1 && text[0] == c; }
};

// Splits one source line (without its line break) into tokens. Comments (`//` or `;` to the end
// of the line) are dropped. Never fails: unknown bytes become Bad tokens for the parser to report.
std::vector<Token> lex_line(std::string_view line);

}  // namespace par::isa::detail
