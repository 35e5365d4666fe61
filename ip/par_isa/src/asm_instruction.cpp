// Instruction lines of the PAR assembler: machine instructions by operand shape, dispatch
// between machine and pseudo mnemonics, and the per-instruction errors of docs/isa.md §9.1.
#include <string>
#include <string_view>
#include <utility>

#include "asm_insn_parser.hpp"
#include "names.hpp"

namespace par::isa::detail {

// ---------------------------------------------------------------------------------------------
// Builders
// ---------------------------------------------------------------------------------------------

bool InsnParser::build_binary(const OpInfo& m) {
  const bool has_r = m.r_op6 != kNoOp6, has_i = m.i_op6 != kNoOp6;
  form_ = has_r && has_i ? "rd = ra, rb or rd = ra, imm" : has_i ? "rd = ra, imm" : "rd = ra, rb";
  if (!expect_form(ops_.has_eq && ops_.lhs.size() == 1 && ops_.rhs.size() == 2)) return false;
  if (!dest_reg(ops_.lhs[0], in_.rd) || !src_reg(ops_.rhs[0], in_.ra)) return false;
  const Operand& b = ops_.rhs[1];
  if (!b.mem && b.a.kind == Atom::Reg) {
    if (!has_r) return error(b.col(), "'" + mn_ + "' has no register form");
    in_.rb = static_cast<std::uint8_t>(b.a.reg);
    return true;
  }
  if (b.mem || (b.a.kind != Atom::Imm && b.a.kind != Atom::Label))
    return error(b.col(), "expected a register or an immediate, got " + quote(b.text()));
  if (!has_i) return no_imm_form(m);
  in_.imm_form = true;
  const bool shift = m.i_op6 == info(Opcode::Ext).i_op6;  // shift-immediate form: imm6
  IntValue v;
  if (!imm_range(b.a, shift ? 0 : kImm9Min, shift ? 63 : kImm9Max, v)) return false;
  in_.imm = v.as_signed();
  return true;
}

bool InsnParser::build_unary(const OpInfo&) {
  form_ = "rd = ra";
  if (!expect_form(ops_.has_eq && ops_.lhs.size() == 1 && ops_.rhs.size() == 1)) return false;
  return dest_reg(ops_.lhs[0], in_.rd) && src_reg(ops_.rhs[0], in_.ra);
}

bool InsnParser::build_sla(const OpInfo&) {
  form_ = "rd = ra, rb, n";
  if (!expect_form(ops_.has_eq && ops_.lhs.size() == 1 && ops_.rhs.size() == 3)) return false;
  if (!dest_reg(ops_.lhs[0], in_.rd) || !src_reg(ops_.rhs[0], in_.ra) || !src_reg(ops_.rhs[1], in_.rb))
    return false;
  IntValue v;
  if (ops_.rhs[2].mem || !imm_range(ops_.rhs[2].a, 0, 3, v)) return false;
  in_.imm = v.as_signed();
  return true;
}

bool InsnParser::build_ext(const OpInfo&) {
  form_ = "rd = ra, n";
  if (!expect_form(ops_.has_eq && ops_.lhs.size() == 1 && ops_.rhs.size() == 2)) return false;
  if (!dest_reg(ops_.lhs[0], in_.rd) || !src_reg(ops_.rhs[0], in_.ra)) return false;
  IntValue v;
  if (ops_.rhs[1].mem || !imm_range(ops_.rhs[1].a, 0, 63, v)) return false;
  in_.imm_form = true;
  in_.imm = v.as_signed();
  return true;
}

bool InsnParser::build_const(const OpInfo& m) {
  form_ = "rd = imm16";
  if (!expect_form(ops_.has_eq && ops_.lhs.size() == 1 && ops_.rhs.size() == 1)) return false;
  if (!dest_reg(ops_.lhs[0], in_.rd)) return false;
  const Operand& o = ops_.rhs[0];
  if (!o.mem && o.a.kind == Atom::Reg) return error(o.col(), "expected an immediate, got " + quote(o.text()));
  IntValue v;
  if (o.mem || !imm_range(o.a, -32768, kImm16Max, v)) return false;
  const auto low = static_cast<std::uint16_t>(v.bits() & 0xFFFF);
  in_.imm = m.op == Opcode::Set ? static_cast<std::int64_t>(static_cast<std::int16_t>(low)) : low;
  return true;
}

bool InsnParser::build_load(const OpInfo& m) {
  form_ = "rd = ra[rb] or rd = ra[imm]";
  if (!expect_form(ops_.has_eq && ops_.lhs.size() == 1 && ops_.rhs.size() == 1)) return false;
  if (!dest_reg(ops_.lhs[0], in_.rd)) return false;
  const Operand& o = ops_.rhs[0];
  if (!o.mem) return error(o.col(), "expected a memory operand ra[rb] or ra[imm], got " + quote(o.text()));
  in_.ra = static_cast<std::uint8_t>(o.a.reg);
  if (o.index.kind == Atom::Reg) {
    in_.rb = static_cast<std::uint8_t>(o.index.reg);
    return true;
  }
  if (m.i_op6 == kNoOp6) return no_imm_form(m);
  IntValue v;
  if (!imm_range(o.index, kImm9Min, kImm9Max, v)) return false;
  in_.imm_form = true;
  in_.imm = v.as_signed();
  return true;
}

bool InsnParser::build_store(const OpInfo& m) {
  form_ = "ra[rb] = rd or ra[imm] = rd";
  if (!expect_form(ops_.has_eq && ops_.lhs.size() == 1 && ops_.rhs.size() == 1)) return false;
  const Operand& o = ops_.lhs[0];
  if (!o.mem) return error(o.col(), "expected a memory operand ra[rb] or ra[imm], got " + quote(o.text()));
  if (!src_reg(ops_.rhs[0], in_.rd)) return false;  // the data register may be inherited
  in_.ra = static_cast<std::uint8_t>(o.a.reg);
  if (o.index.kind == Atom::Reg) {
    in_.rb = static_cast<std::uint8_t>(o.index.reg);
    return true;
  }
  if (m.i_op6 == kNoOp6) return no_imm_form(m);
  IntValue v;
  if (!imm_range(o.index, kImm9Min, kImm9Max, v)) return false;
  in_.imm_form = true;
  in_.imm = v.as_signed();
  return true;
}

// Compares and their pseudos: the register form may swap targets and operands; the immediate
// form may swap targets and add 1 to the immediate (docs/isa.md §8.3).
bool InsnParser::build_compare(Opcode reg_op, bool reg_swap_t, bool reg_swap_ops, Opcode imm_op,
                               bool imm_swap_t, int imm_add, bool reject_minus1) {
  form_ = info(imm_op).i_op6 != kNoOp6 ? "pXY = ra, rb or pXY = ra, imm" : "pXY = ra, rb";
  if (!expect_form(ops_.has_eq && ops_.lhs.size() == 1 && ops_.rhs.size() == 2)) return false;
  const Operand& d = ops_.lhs[0];
  const Operand& b = ops_.rhs[1];
  std::uint8_t ra = 0;
  if (!dest_preds(d, false, in_.pt, in_.pf) || !src_reg(ops_.rhs[0], ra)) return false;
  if (!b.mem && b.a.kind == Atom::Reg) {
    in_.op = reg_op;
    in_.ra = ra;
    in_.rb = static_cast<std::uint8_t>(b.a.reg);
    if (reg_swap_ops) std::swap(in_.ra, in_.rb);
    if (!dest_preds(d, reg_swap_t, in_.pt, in_.pf)) return false;
    return check_pt_pf(d, in_.pt, in_.pf);
  }
  if (b.mem || (b.a.kind != Atom::Imm && b.a.kind != Atom::Label))
    return error(b.col(), "expected a register or an immediate, got " + quote(b.text()));
  if (info(imm_op).i_op6 == kNoOp6) return error(mn_col_, "'" + mn_ + "' has no immediate form");
  IntValue v;
  if (!imm_range(b.a, kImm9Min, kImm9Max - static_cast<std::uint64_t>(imm_add), v)) return false;
  if (reject_minus1 && v.neg && v.mag == 1)
    return error(b.a.col, "immediate -1 not allowed for '" + mn_ + "' (no unsigned successor)");
  in_.op = imm_op;
  in_.imm_form = true;
  in_.ra = ra;
  in_.imm = v.as_signed() + imm_add;
  if (!dest_preds(d, imm_swap_t, in_.pt, in_.pf)) return false;
  return check_pt_pf(d, in_.pt, in_.pf);
}

bool InsnParser::build_predlogic(Opcode op, bool swap_t, bool swap_src, bool unary) {
  form_ = unary ? "pXY = pA" : "pXY = pA, pB";
  if (!expect_form(ops_.has_eq && ops_.lhs.size() == 1 && ops_.rhs.size() == (unary ? 1u : 2u))) return false;
  in_.op = op;
  const Operand& d = ops_.lhs[0];
  if (!dest_preds(d, swap_t, in_.pt, in_.pf) || !pred(ops_.rhs[0], in_.pa)) return false;
  if (unary) {
    in_.pb = in_.pa;
  } else if (!pred(ops_.rhs[1], in_.pb)) {
    return false;
  }
  if (swap_src) std::swap(in_.pa, in_.pb);
  return check_pt_pf(d, in_.pt, in_.pf);
}

bool InsnParser::build_xp() {
  form_ = "label or r";
  if (!expect_form(!ops_.has_eq && ops_.lhs.size() == 1)) return false;
  const Operand& o = ops_.lhs[0];
  if (!o.mem && o.a.kind == Atom::Reg) {
    in_.op = Opcode::XpR;
    in_.rd = static_cast<std::uint8_t>(o.a.reg);
    return true;
  }
  in_.op = Opcode::Xp;
  return target(o, "xp", kXpTargetMax, in_.imm);
}

bool InsnParser::build_loop() {
  form_ = "r, label or label";
  if (!expect_form(!ops_.has_eq && (ops_.lhs.size() == 1 || ops_.lhs.size() == 2))) return false;
  if (ops_.lhs.size() == 1) {
    in_.op = Opcode::Loop;
    return target(ops_.lhs[0], "loop", kImm16Max, in_.imm);
  }
  in_.op = Opcode::LoopR;
  const Operand& c = ops_.lhs[0];
  if (!src_reg(c, in_.rd)) return false;
  // Every slot of a PAR core must see the same count (docs/isa.md §7.6).
  if (ctx_.kind == ProgramKind::Packet && in_.rd <= kFirstInherited)
    return error(c.col(), "loop count must be an inherited register i1..i15");
  return target(ops_.lhs[1], "loop", kImm16Max, in_.imm);
}

bool InsnParser::build_brk() {
  form_ = "[n]";
  if (!expect_form(!ops_.has_eq && ops_.lhs.size() <= 1)) return false;
  if (ops_.lhs.empty()) return true;
  IntValue v;
  if (ops_.lhs[0].mem || !imm_range(ops_.lhs[0].a, 0, kImm16Max, v)) return false;
  in_.imm = v.as_signed();
  return true;
}

bool InsnParser::build_par() {
  form_ = "rc, label";
  if (!expect_form(!ops_.has_eq && ops_.lhs.size() == 2)) return false;
  return src_reg(ops_.lhs[0], in_.rd) && target(ops_.lhs[1], "par", kImm16Max, in_.imm);
}

bool InsnParser::build_none() {
  form_ = "no operands";
  return expect_form(!ops_.has_eq && ops_.lhs.empty());
}

bool InsnParser::channel(const Operand& o, std::int64_t& ch) {
  const std::string& t = o.text();
  const bool named = !o.mem && o.a.kind == Atom::Label && t.size() >= 2 && t.size() <= 3 &&
                     (t[0] == 's' || t[0] == 'S') &&
                     t.find_first_not_of("0123456789", 1) == std::string::npos && (t.size() == 2 || t[1] != '0');
  const int n = named ? std::stoi(t.substr(1)) : -1;
  if (n < 0 || n >= kStreamChannels)
    return error(o.col(), "expected a stream channel s0..s" + std::to_string(kStreamChannels - 1) + ", got " +
                              quote(t));
  ch = n;
  return true;
}

// get rd = sN | put sN = rd (the data register of put may be inherited, as a store's).
bool InsnParser::build_stream(const OpInfo& m) {
  const bool get = m.shape == Shape::StreamGet;
  form_ = get ? "rd = sN" : "sN = rd";
  if (!expect_form(ops_.has_eq && ops_.lhs.size() == 1 && ops_.rhs.size() == 1)) return false;
  if (get) return dest_reg(ops_.lhs[0], in_.rd) && channel(ops_.rhs[0], in_.imm);
  return channel(ops_.lhs[0], in_.imm) && src_reg(ops_.rhs[0], in_.rd);
}

bool InsnParser::build_table(const OpInfo& m) {
  in_.op = m.op;
  switch (m.shape) {
    case Shape::Binary: return build_binary(m);
    case Shape::Unary: return build_unary(m);
    case Shape::Sla: return build_sla(m);
    case Shape::Ext: return build_ext(m);
    case Shape::Const: return build_const(m);
    case Shape::Load: return build_load(m);
    case Shape::Store: return build_store(m);
    case Shape::Compare: return build_compare(m.op, false, false, m.op, false, 0, false);
    case Shape::PredLogic: return build_predlogic(m.op, false, false, false);
    case Shape::XpLabel: case Shape::XpReg: return build_xp();
    case Shape::LoopCount: case Shape::LoopCond: return build_loop();
    case Shape::Brk: return build_brk();
    case Shape::Par: return build_par();
    case Shape::None: return build_none();
    case Shape::StreamGet: case Shape::StreamPut: return build_stream(m);
  }
  return false;
}

// Register pseudo-instructions (docs/isa.md §8.3). Returns false after an error; callers only
namespace {

// Machine mnemonics; the predicate-logic rows share names with register operations and are
// chosen by the destination in try_predlogic.
const OpInfo* find_mnemonic(std::string_view name) {
  for (const OpInfo& m : opcode_table())
    if (m.mnemonic == name && m.shape != Shape::PredLogic) return &m;
  return nullptr;
}

}  // namespace

std::optional<Instruction> InsnParser::run() {
  // Stop bit: '#' must be the last token.
  end_ = toks_.size();
  for (std::size_t i = 0; i < toks_.size(); ++i) {
    if (toks_[i].is('#')) {
      end_ = i;
      in_.stop = true;
      if (i + 1 < toks_.size()) {
        const Token& t = toks_[i + 1];
        error(t.col, "unexpected " + quote(t.text) + " after stop bit");
        return std::nullopt;
      }
      break;
    }
  }
  for (std::size_t i = 0; i < end_; ++i)
    if (toks_[i].kind == Token::Bad) {
      error(toks_[i].col, "unexpected character " + quote(toks_[i].text));
      return std::nullopt;
    }
  std::size_t pos = 0;
  // Qualifying predicate (pN).
  if (pos < end_ && toks_[pos].is('(')) {
    if (pos + 1 >= end_) {
      error(toks_[pos].col, "missing qualifying predicate after '('");
      return std::nullopt;
    }
    const Token& p = toks_[pos + 1];
    const PredToken pt = parse_predicate(p.text);
    if (p.kind != Token::Ident || pt.kind != PredToken::Single) {
      error(p.col, "bad qualifying predicate " + quote(p.text) + " (p0..p7)");
      return std::nullopt;
    }
    if (pos + 2 >= end_ || !toks_[pos + 2].is(')')) {
      error(pos + 2 < end_ ? toks_[pos + 2].col : end_col(), "expected ')' after the qualifying predicate");
      return std::nullopt;
    }
    in_.qp = static_cast<std::uint8_t>(pt.first);
    pos += 3;
  }
  if (pos >= end_) {
    error(pos < toks_.size() ? toks_[pos].col : end_col(), "missing mnemonic");
    return std::nullopt;
  }
  const Token& mt = toks_[pos];
  if (mt.kind != Token::Ident) {
    error(mt.col, "expected a mnemonic, got " + quote(mt.text));
    return std::nullopt;
  }
  mn_ = to_lower(mt.text);
  mn_col_ = mt.col;
  if (!parse_operands(pos + 1)) return std::nullopt;

  // Order matters: predicate destinations pick predicate logic for and/or/.../mov/not before the
  // register versions are considered.
  bool ok = false, handled = false;
  if (mn_ == "sub" || mn_ == "subu" || mn_ == "neg" || mn_ == "rol" || mn_ == "mulu" || mn_ == "null" ||
      mn_ == "nop") {
    ok = build_register_pseudo();
  } else if (ok = try_predlogic(handled); handled) {
  } else if (mn_ == "mov" || mn_ == "not") {
    ok = build_register_pseudo();
  } else if (ok = try_compare_pseudo(handled); handled) {
  } else if (const OpInfo* m = find_mnemonic(mn_)) {
    if ((m->flags & kMasterOnly) && ctx_.kind == ProgramKind::Packet) {
      error(mn_col_, "'" + mn_ + "' is only allowed in a .MASTER file");
      return std::nullopt;
    }
    ok = build_table(*m);
  } else {
    error(mn_col_, "unknown mnemonic " + quote(mt.text));
    return std::nullopt;
  }
  if (!ok) return std::nullopt;
  return in_;
}

std::optional<Instruction> parse_instruction(const std::vector<Token>& toks, const InsnContext& ctx) {
  return InsnParser(toks, ctx).run();
}

}  // namespace par::isa::detail
