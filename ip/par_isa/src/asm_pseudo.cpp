// Pseudo-instructions (docs/isa.md §8.3): each expands into exactly one machine instruction.
#include <array>
#include <string>
#include <string_view>
#include <utility>

#include "asm_insn_parser.hpp"
#include "names.hpp"

namespace par::isa::detail {

// reach here for the pseudo mnemonics.
bool InsnParser::build_register_pseudo() {
  if (mn_ == "sub" || mn_ == "subu") {
    form_ = mn_ == "sub" ? "rd = ra, rb or rd = ra, imm" : "rd = ra, rb";
    if (!expect_form(ops_.has_eq && ops_.lhs.size() == 1 && ops_.rhs.size() == 2)) return false;
    if (!dest_reg(ops_.lhs[0], in_.rd) || !src_reg(ops_.rhs[0], in_.ra)) return false;
    const Operand& b = ops_.rhs[1];
    if (!b.mem && b.a.kind == Atom::Reg) {  // sub rd = ra, rb -> subf rd = rb, ra
      in_.op = mn_ == "sub" ? Opcode::Subf : Opcode::Subfu;
      in_.rb = in_.ra;
      in_.ra = static_cast<std::uint8_t>(b.a.reg);
      return true;
    }
    if (mn_ == "subu") return error(mn_col_, "'subu' has no immediate form");
    if (b.mem) return error(b.col(), "expected a register or an immediate, got " + quote(b.text()));
    IntValue v;  // sub rd = ra, imm -> add rd = ra, -imm
    if (!imm_range(b.a, -255, 256, v)) return false;
    in_.op = Opcode::Add;
    in_.imm_form = true;
    in_.imm = -v.as_signed();
    return true;
  }
  if (mn_ == "neg" || mn_ == "mov" || mn_ == "not") {
    form_ = "rd = ra";
    if (!expect_form(ops_.has_eq && ops_.lhs.size() == 1 && ops_.rhs.size() == 1)) return false;
    if (!dest_reg(ops_.lhs[0], in_.rd) || !src_reg(ops_.rhs[0], in_.ra)) return false;
    in_.op = mn_ == "neg" ? Opcode::Subf : mn_ == "mov" ? Opcode::Or : Opcode::Nor;
    in_.imm_form = true;
    in_.imm = 0;
    return true;
  }
  if (mn_ == "rol") {
    form_ = "rd = ra, n";
    if (!expect_form(ops_.has_eq && ops_.lhs.size() == 1 && ops_.rhs.size() == 2)) return false;
    if (!dest_reg(ops_.lhs[0], in_.rd) || !src_reg(ops_.rhs[0], in_.ra)) return false;
    const Operand& b = ops_.rhs[1];
    if (!b.mem && b.a.kind == Atom::Reg) return error(b.col(), "'rol' takes an immediate amount, got " + quote(b.text()));
    IntValue v;
    if (b.mem || !imm_range(b.a, 0, 63, v)) return false;
    in_.op = Opcode::Ror;
    in_.imm_form = true;
    in_.imm = (64 - v.as_signed()) % 64;
    return true;
  }
  if (mn_ == "mulu") return build_binary(info(in_.op = Opcode::Mul));
  // null / nop: eq p00 = r0, 0
  form_ = "no operands";
  if (!expect_form(!ops_.has_eq && ops_.lhs.empty())) return false;
  in_.op = Opcode::Eq;
  in_.imm_form = true;
  return true;
}

// ne/le/leu/gt/gtu/ge/geu with an optional .w/.d/.f suffix.
bool InsnParser::try_compare_pseudo(bool& handled) {
  handled = false;
  const std::size_t dot = mn_.find('.');
  const std::string cond = mn_.substr(0, dot);
  const std::string suffix = dot == std::string::npos ? "" : mn_.substr(dot);
  Opcode eq = Opcode::Eq, lt = Opcode::Lt, ltu = Opcode::Ltu;
  bool has_unsigned = true;
  if (suffix == ".w") {
    eq = Opcode::EqW, lt = Opcode::LtW, ltu = Opcode::LtuW;
  } else if (suffix == ".d") {
    eq = Opcode::EqD, lt = Opcode::LtD, has_unsigned = false;
  } else if (suffix == ".f") {
    eq = Opcode::EqF, lt = Opcode::LtF, has_unsigned = false;
  } else if (!suffix.empty()) {
    return true;
  }
  const bool u = cond.size() == 3 && cond[2] == 'u';
  if (u && !has_unsigned) return true;
  const Opcode base = u ? ltu : lt;
  const std::string c = u ? cond.substr(0, 2) : cond;
  //                          reg op  swapT  swapOps  imm op  swapT  +1  reject -1
  if (c == "ne" && !u) {
    handled = true;
    return build_compare(eq, true, false, eq, true, 0, false);
  }
  if (c == "le") {
    handled = true;
    return build_compare(base, true, true, base, false, 1, u);
  }
  if (c == "gt") {
    handled = true;
    return build_compare(base, false, true, base, true, 1, u);
  }
  if (c == "ge") {
    handled = true;
    return build_compare(base, true, false, base, true, 0, false);
  }
  return true;
}

// Predicate logic and its pseudos, chosen when the destination is a predicate token.
bool InsnParser::try_predlogic(bool& handled) {
  struct Row {
    std::string_view name;
    Opcode op;
    bool swap_t, swap_src, unary;
  };
  static constexpr std::array<Row, 10> kRows = {{
      {"and", Opcode::PAnd, false, false, false},  {"or", Opcode::POr, false, false, false},
      {"xor", Opcode::PXor, false, false, false},  {"andc", Opcode::PAndc, false, false, false},
      {"nand", Opcode::PAnd, true, false, false},  {"nor", Opcode::POr, true, false, false},
      {"xnor", Opcode::PXor, true, false, false},  {"orc", Opcode::PAndc, true, true, false},
      {"mov", Opcode::PAnd, false, false, true},   {"not", Opcode::PAnd, true, false, true},
  }};
  handled = false;
  if (ops_.lhs.empty() || ops_.lhs[0].mem) return true;
  const Atom::Kind k = ops_.lhs[0].a.kind;
  if (k != Atom::Pred && k != Atom::PredPair) return true;
  for (const Row& r : kRows) {
    if (r.name != mn_) continue;
    handled = true;
    return build_predlogic(r.op, r.swap_t, r.swap_src, r.unary);
  }
  return true;
}

}  // namespace par::isa::detail
