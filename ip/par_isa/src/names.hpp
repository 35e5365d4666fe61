// Register, predicate and label names shared by the assembler, disassembler and image reader
// (docs/isa.md §3, §8.1). Private to the ISA library.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace par::isa::detail {

std::string to_lower(std::string_view s);
bool iequals(std::string_view a, std::string_view b);

// A register token: 0..15 for r0..r15, 16..31 for i0..i15 (the 5-bit field value).
// Returns -1 when `tok` is not register-like at all, -2 when it is register-like but not a valid
// register ("r16", "i01").
int parse_register(std::string_view tok);

// Predicate tokens: pN (single, 0..7) or pXY (pair: pt = X, pf = Y).
struct PredToken {
  enum Kind { None, Single, Pair, Bad } kind = None;
  int first = 0;   // pN, or X of a pair
  int second = 0;  // Y of a pair
};
PredToken parse_predicate(std::string_view tok);

// "r3", "i12", "p5": a letter r/i/p followed only by digits, in any case. Such names are reserved
// and can never be labels (docs/isa.md §8.1).
bool is_register_like(std::string_view name);
// [A-Za-z_][A-Za-z0-9_]* and not register-like.
bool is_valid_label(std::string_view name);

// Assembly name of a 5-bit register field ("r3" / "i1").
std::string register_name(unsigned field);

// `s` with every byte outside printable ASCII as \xNN (a newline would end a line or comment).
std::string escape_unprintable(std::string_view s);

// Quotes a token for a diagnostic, escaping unprintable bytes as \xNN and shortening very long
// tokens so that one message stays one readable line.
std::string quote(std::string_view tok);

// "0x1A2B": addresses and words in messages and listings.
std::string hex(std::uint64_t v);

}  // namespace par::isa::detail
