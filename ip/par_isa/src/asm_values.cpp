// Directive operands: integers, labels and FP literals (docs/isa.md §8.1, §8.4).
#include <string>

#include "asm_assembler.hpp"
#include "names.hpp"

namespace par::isa::detail {

bool Assembler::no_more(const std::vector<Token>& toks, std::size_t pos, const Token& d) {
  if (pos >= toks.size()) return true;
  error(toks[pos], "unexpected " + quote(toks[pos].text) + " after " + quote(d.text));
  return false;
}

// Reads one directive operand. Integers keep their exact value; FP spellings (2.5, 1e3, inf, nan)
// are stored as binary64 bits where FP is allowed.
bool Assembler::parse_value(const std::vector<Token>& toks, std::size_t& pos, const Token& d, ValueMode mode,
                            Value& out) {
  const bool allow_label = mode == ValueMode::IntOrLabel || mode == ValueMode::Inherited;
  const bool allow_fp = mode == ValueMode::Inherited || mode == ValueMode::Float;
  if (pos >= toks.size()) {
    const Token& last = toks.back();
    error(Loc{line_, last.col + static_cast<int>(last.text.size())}, "missing value for " + quote(d.text));
    return false;
  }
  const Token* t = &toks[pos];
  out.loc = Loc{line_, t->col};
  bool neg = false;
  if (t->is('-') || t->is('+')) {
    neg = t->is('-');
    const bool next_ok = pos + 1 < toks.size() &&
                         (toks[pos + 1].kind == Token::Number ||
                          (allow_fp && toks[pos + 1].kind == Token::Ident && is_fp_spelling(toks[pos + 1].text)));
    if (!next_ok) {
      error(*t, "expected a number after " + quote(t->text));
      return false;
    }
    t = &toks[++pos];
  }
  out.text = (neg ? "-" : "") + std::string(t->text);
  const std::string fp_what = mode == ValueMode::Float ? to_lower(d.text) : "binary64";
  auto take_fp = [&]() {
    out.kind = Value::Fp;
    const FpStatus st = parse_f64(t->text, neg, out.fp_bits);
    if (st == FpStatus::Overflow) {
      error(out.loc, "value " + out.text + " does not fit in " + fp_what);
      return false;
    }
    if (st == FpStatus::Malformed) {
      error(*t, "malformed number " + quote(t->text));
      return false;
    }
    ++pos;
    return true;
  };
  if (t->kind == Token::Ident && allow_fp && is_fp_spelling(t->text)) return take_fp();  // inf, nan
  if (t->kind == Token::Ident) {
    if (!allow_label) {
      error(*t, (allow_fp ? "expected a floating-point literal, got " : "expected a number, got ") + quote(t->text));
      return false;
    }
    if (is_register_like(t->text)) {
      error(*t, "expected a number or a label, got register " + quote(t->text));
      return false;
    }
    if (!is_valid_label(t->text)) {
      error(*t, "bad label name " + quote(t->text));
      return false;
    }
    out.kind = Value::Label;
    out.label = std::string(t->text);
    ++pos;
    return true;
  }
  if (t->kind != Token::Number) {
    error(*t, (t->kind == Token::Bad ? "unexpected character " : "expected a value, got ") + quote(t->text));
    return false;
  }
  std::uint64_t mag = 0;
  switch (parse_uint(t->text, mag)) {
    case NumStatus::Ok:
      if (mode == ValueMode::Float) return take_fp();
      out.kind = Value::Int;
      out.iv = IntValue{neg, mag};
      ++pos;
      return true;
    case NumStatus::Float:
      if (allow_fp) return take_fp();
      error(out.loc, "floating-point literal " + quote(out.text) + " not allowed here");
      return false;
    case NumStatus::TooLarge:
      if (mode == ValueMode::Float) return take_fp();
      error(out.loc, "number " + quote(out.text) + " does not fit in 64 bits");
      return false;
    case NumStatus::Malformed:
      break;
  }
  error(*t, "malformed number " + quote(t->text));
  return false;
}

}  // namespace par::isa::detail
