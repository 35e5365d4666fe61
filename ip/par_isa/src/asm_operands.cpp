// Operand syntax of instruction lines (docs/isa.md §8.2) and the operand checks shared by all
// instruction builders.
#include <string>
#include <utility>

#include "asm_insn_parser.hpp"
#include "names.hpp"

namespace par::isa::detail {

namespace {

std::string describe(const Atom& a, const IntValue& v) {
  if (a.kind == Atom::Label) return "'" + a.text + "' (" + std::to_string(v.mag) + ")";
  return a.text;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Syntax
// ---------------------------------------------------------------------------------------------

bool InsnParser::parse_atom(std::size_t& pos, Atom& out) {
  if (pos >= end_) return error(end_col(), "missing operand");
  const Token& t = toks_[pos];
  out.col = t.col;
  bool neg = false;
  if (t.is('-') || t.is('+')) {
    neg = t.is('-');
    if (pos + 1 >= end_ || toks_[pos + 1].kind != Token::Number)
      return error(t.col, "expected a number after " + quote(t.text));
    ++pos;
  }
  const Token& v = toks_[pos];
  switch (v.kind) {
    case Token::Number: {
      out.kind = Atom::Imm;
      out.text = (neg ? "-" : "") + std::string(v.text);
      std::uint64_t mag = 0;
      switch (parse_uint(v.text, mag)) {
        case NumStatus::Ok: break;
        case NumStatus::TooLarge: return error(out.col, "number " + quote(out.text) + " does not fit in 64 bits");
        case NumStatus::Float: return error(out.col, "floating-point literal " + quote(out.text) + " not allowed in an instruction");
        case NumStatus::Malformed: return error(v.col, "malformed number " + quote(v.text));
      }
      out.value.neg = neg;
      out.value.mag = mag;
      ++pos;
      return true;
    }
    case Token::Ident: {
      out.text = std::string(v.text);
      const int r = parse_register(v.text);
      if (r == -2) return error(v.col, "bad register " + quote(v.text) + " (r0..r15, i0..i15)");
      if (r >= 0) {
        out.kind = Atom::Reg;
        out.reg = r;
        ++pos;
        return true;
      }
      const PredToken p = parse_predicate(v.text);
      if (p.kind == PredToken::Bad) return error(v.col, "bad predicate " + quote(v.text) + " (p0..p7, or a pair pXY)");
      if (p.kind != PredToken::None) {
        out.kind = p.kind == PredToken::Single ? Atom::Pred : Atom::PredPair;
        out.p1 = p.first;
        out.p2 = p.second;
        ++pos;
        return true;
      }
      if (!is_valid_label(v.text)) return error(v.col, "bad operand " + quote(v.text));
      out.kind = Atom::Label;
      ++pos;
      return true;
    }
    case Token::Bad:
      return error(v.col, "unexpected character " + quote(v.text));
    case Token::Punct:
      break;
  }
  return error(v.col, "expected an operand, got " + quote(v.text));
}

bool InsnParser::parse_operand(std::size_t& pos, Operand& out) {
  if (!parse_atom(pos, out.a)) return false;
  if (pos < end_ && toks_[pos].is('[')) {
    if (out.a.kind != Atom::Reg)
      return error(out.a.col, "memory base must be a register, got " + quote(out.a.text));
    ++pos;
    out.mem = true;
    if (!parse_atom(pos, out.index)) return false;
    if (pos >= end_ || !toks_[pos].is(']'))
      return error(pos < end_ ? toks_[pos].col : end_col(), "expected ']'");
    ++pos;
  }
  return true;
}

bool InsnParser::parse_list(std::size_t& pos, std::vector<Operand>& out) {
  while (true) {
    Operand o;
    if (!parse_operand(pos, o)) return false;
    out.push_back(std::move(o));
    if (pos >= end_ || toks_[pos].is('=')) return true;
    if (!toks_[pos].is(',')) {
      if (toks_[pos].kind == Token::Bad) return error(toks_[pos].col, "unexpected character " + quote(toks_[pos].text));
      return error(toks_[pos].col, "expected ',' before " + quote(toks_[pos].text));
    }
    ++pos;
  }
}

bool InsnParser::parse_operands(std::size_t pos) {
  if (pos >= end_) return true;
  if (!toks_[pos].is('=') && !parse_list(pos, ops_.lhs)) return false;
  if (pos < end_ && toks_[pos].is('=')) {
    ops_.has_eq = true;
    if (ops_.lhs.empty()) return error(toks_[pos].col, "missing operand before '='");
    ++pos;
    if (!parse_list(pos, ops_.rhs)) return false;
    if (pos < end_) return error(toks_[pos].col, "unexpected " + quote(toks_[pos].text));
  }
  return true;
}

// ---------------------------------------------------------------------------------------------
// Operand checks
// ---------------------------------------------------------------------------------------------

bool InsnParser::dest_reg(const Operand& o, std::uint8_t& rd) {
  if (o.mem || o.a.kind != Atom::Reg || o.a.reg >= 16)
    return error(o.col(), "destination must be r0..r15, got " + quote(o.text()));
  rd = static_cast<std::uint8_t>(o.a.reg);
  return true;
}

bool InsnParser::src_reg(const Operand& o, std::uint8_t& r) {
  if (o.mem || o.a.kind != Atom::Reg) return error(o.col(), "expected a register, got " + quote(o.text()));
  r = static_cast<std::uint8_t>(o.a.reg);
  return true;
}

bool InsnParser::pred(const Operand& o, std::uint8_t& p) {
  if (o.mem || o.a.kind != Atom::Pred) return error(o.col(), "expected a predicate p0..p7, got " + quote(o.text()));
  p = static_cast<std::uint8_t>(o.a.p1);
  return true;
}

// A compare / predicate-logic destination: pXY, or pX for the single-destination form, which puts
// pX where the (possibly swapped) condition lands and p0 in the other target (docs/isa.md §8.3).
bool InsnParser::dest_preds(const Operand& o, bool swap, std::uint8_t& pt, std::uint8_t& pf) {
  if (o.mem || (o.a.kind != Atom::Pred && o.a.kind != Atom::PredPair))
    return error(o.col(), "destination must be a predicate pair pXY or a predicate pX, got " + quote(o.text()));
  int t = o.a.p1, f = o.a.kind == Atom::PredPair ? o.a.p2 : 0;
  if (swap) std::swap(t, f);
  pt = static_cast<std::uint8_t>(t);
  pf = static_cast<std::uint8_t>(f);
  return true;
}

bool InsnParser::check_pt_pf(const Operand& o, std::uint8_t pt, std::uint8_t pf) {
  if (pt == pf && pt != 0) return error(o.col(), "pt and pf are both p" + std::to_string(pt));
  return true;
}

bool InsnParser::resolve(const Atom& a, IntValue& v) {
  if (a.kind == Atom::Imm) {
    v = a.value;
    return true;
  }
  if (a.kind != Atom::Label) return error(a.col, "expected an immediate, got " + quote(a.text));
  const auto it = ctx_.symbols->find(a.text);
  if (it == ctx_.symbols->end()) return error(a.col, "undefined label " + quote(a.text));
  v = IntValue{false, it->second.address};
  return true;
}

bool InsnParser::imm_range(const Atom& a, std::int64_t lo, std::uint64_t hi, IntValue& v) {
  if (!resolve(a, v)) return false;
  if (!v.in_range(lo, hi))
    return error(a.col, "immediate " + describe(a, v) + " out of range " + std::to_string(lo) + ".." + std::to_string(hi));
  return true;
}

// Control-transfer target: a code label or an absolute instruction address.
bool InsnParser::target(const Operand& o, std::string_view what, std::uint64_t max, std::int64_t& out) {
  const Atom& a = o.a;
  if (o.mem || (a.kind != Atom::Label && a.kind != Atom::Imm))
    return error(a.col, "expected a label or an instruction address, got " + quote(a.text));
  IntValue v;
  if (!resolve(a, v)) return false;
  if (a.kind == Atom::Label && !ctx_.symbols->find(a.text)->second.is_code)
    return error(a.col, "'" + a.text + "' is a data label, not a code label");
  const std::string name = describe(a, v);
  if (v.neg && v.mag != 0) return error(a.col, std::string(what) + " target " + name + " is negative");
  if (v.mag > max) return error(a.col, std::string(what) + " target " + name + " above " + std::to_string(max));
  if (v.mag >= ctx_.code_size)
    ctx_.diags->warning(ctx_.line, a.col, std::string(what) + " target " + name + " is past the end of the program (" +
                                               std::to_string(ctx_.code_size) + " instructions)");
  out = static_cast<std::int64_t>(v.mag);
  return true;
}
}  // namespace par::isa::detail
