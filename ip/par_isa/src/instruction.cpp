#include "par/isa/instruction.hpp"

namespace par::isa {

namespace {

using O = Opcode;
using U = Unit;
using S = Shape;
constexpr std::uint8_t N = kNoOp6;

// docs/isa.md §5.2. Columns: opcode, mnemonic, unit, shape, R op6 (op5 for compares), x, I op6
// (op5 for compares), f, flags.
constexpr std::array<OpInfo, kOpcodeCount> kTable = {{
    {O::Add, "add", U::Alu, S::Binary, 31, 0, 16, 0, kWritesP7},
    {O::Addu, "addu", U::Alu, S::Binary, 31, 0, 16, 1, kWritesP7},
    {O::Subf, "subf", U::Alu, S::Binary, 31, 0, 16, 2, kWritesP7},
    {O::Subfu, "subfu", U::Alu, S::Binary, 31, 0, 16, 3, kWritesP7},
    {O::And, "and", U::Alu, S::Binary, 31, 1, 17, 0, 0},
    {O::Or, "or", U::Alu, S::Binary, 31, 1, 17, 1, 0},
    {O::Xor, "xor", U::Alu, S::Binary, 31, 1, 17, 2, 0},
    {O::Nor, "nor", U::Alu, S::Binary, 31, 1, 17, 3, 0},
    {O::Sll, "sll", U::Alu, S::Binary, 31, 2, 18, 0, 0},
    {O::Srl, "srl", U::Alu, S::Binary, 31, 2, 18, 1, 0},
    {O::Sra, "sra", U::Alu, S::Binary, 31, 2, 18, 2, 0},
    {O::Ror, "ror", U::Alu, S::Binary, 31, 2, 18, 3, 0},
    {O::Ext, "ext", U::Alu, S::Ext, N, 0, 18, 0, 0},
    {O::Extu, "extu", U::Alu, S::Ext, N, 0, 18, 1, 0},
    {O::Min, "min", U::Alu, S::Binary, 31, 3, 19, 0, kWritesP7},
    {O::Minu, "minu", U::Alu, S::Binary, 31, 3, 19, 1, kWritesP7},
    {O::Max, "max", U::Alu, S::Binary, 31, 3, 19, 2, kWritesP7},
    {O::Maxu, "maxu", U::Alu, S::Binary, 31, 3, 19, 3, kWritesP7},
    {O::Andc, "andc", U::Alu, S::Binary, 31, 4, N, 0, 0},
    {O::Orc, "orc", U::Alu, S::Binary, 31, 4, N, 1, 0},
    {O::Xnor, "xnor", U::Alu, S::Binary, 31, 4, N, 2, 0},
    {O::Nand, "nand", U::Alu, S::Binary, 31, 4, N, 3, 0},
    {O::Abs, "abs", U::Alu, S::Unary, 31, 5, N, 0, 0},
    {O::Popc, "popc", U::Alu, S::Unary, 31, 5, N, 1, 0},
    {O::Clz, "clz", U::Alu, S::Unary, 31, 5, N, 2, 0},
    {O::Sla, "sla", U::Alu, S::Sla, 31, 6, N, 0, 0},
    {O::Addx, "addx", U::Alu, S::Binary, 31, 7, N, 0, kWritesP7 | kReadsP7},
    {O::Set, "set", U::Alu, S::Const, 48, 0, N, 0, 0},
    {O::Sli, "sli", U::Alu, S::Const, 49, 0, N, 0, kReadsRd},

    {O::Mul, "mul", U::Fpu, S::Binary, 35, 0, 32, 0, 0},
    {O::Mulh, "mulh", U::Fpu, S::Binary, 35, 0, 32, 2, 0},
    {O::Mulhu, "mulhu", U::Fpu, S::Binary, 35, 0, 32, 3, 0},
    {O::Mac, "mac", U::Fpu, S::Binary, 35, 1, 33, 0, kWritesP7 | kReadsRd},
    {O::Macu, "macu", U::Fpu, S::Binary, 35, 1, 33, 1, kWritesP7 | kReadsRd},
    {O::Div, "div", U::Fpu, S::Binary, 35, 2, 34, 0, kLongLatency},
    {O::Divu, "divu", U::Fpu, S::Binary, 35, 2, 34, 1, kLongLatency},
    {O::Rem, "rem", U::Fpu, S::Binary, 35, 2, 34, 2, kLongLatency},
    {O::Remu, "remu", U::Fpu, S::Binary, 35, 2, 34, 3, kLongLatency},

    {O::AddD, "add.d", U::Fpu, S::Binary, 40, 0, N, 0, 0},
    {O::SubD, "sub.d", U::Fpu, S::Binary, 40, 0, N, 1, 0},
    {O::MulD, "mul.d", U::Fpu, S::Binary, 40, 0, N, 2, 0},
    {O::DivD, "div.d", U::Fpu, S::Binary, 40, 0, N, 3, kLongLatency},
    {O::MacD, "mac.d", U::Fpu, S::Binary, 40, 1, N, 0, kReadsRd},
    {O::MinD, "min.d", U::Fpu, S::Binary, 40, 1, N, 1, 0},
    {O::MaxD, "max.d", U::Fpu, S::Binary, 40, 1, N, 2, 0},
    {O::NegD, "neg.d", U::Fpu, S::Unary, 40, 2, N, 0, 0},
    {O::AbsD, "abs.d", U::Fpu, S::Unary, 40, 2, N, 1, 0},
    {O::SqrtD, "sqrt.d", U::Fpu, S::Unary, 40, 2, N, 2, kLongLatency},
    {O::CvtDL, "cvt.d.l", U::Fpu, S::Unary, 40, 3, N, 0, 0},
    {O::CvtLD, "cvt.l.d", U::Fpu, S::Unary, 40, 3, N, 1, 0},
    {O::CvtDF, "cvt.d.f", U::Fpu, S::Unary, 40, 3, N, 2, 0},

    {O::AddF, "add.f", U::Fpu, S::Binary, 41, 0, N, 0, 0},
    {O::SubF, "sub.f", U::Fpu, S::Binary, 41, 0, N, 1, 0},
    {O::MulF, "mul.f", U::Fpu, S::Binary, 41, 0, N, 2, 0},
    {O::DivF, "div.f", U::Fpu, S::Binary, 41, 0, N, 3, kLongLatency},
    {O::MacF, "mac.f", U::Fpu, S::Binary, 41, 1, N, 0, kReadsRd},
    {O::MinF, "min.f", U::Fpu, S::Binary, 41, 1, N, 1, 0},
    {O::MaxF, "max.f", U::Fpu, S::Binary, 41, 1, N, 2, 0},
    {O::NegF, "neg.f", U::Fpu, S::Unary, 41, 2, N, 0, 0},
    {O::AbsF, "abs.f", U::Fpu, S::Unary, 41, 2, N, 1, 0},
    {O::SqrtF, "sqrt.f", U::Fpu, S::Unary, 41, 2, N, 2, kLongLatency},
    {O::CvtFL, "cvt.f.l", U::Fpu, S::Unary, 41, 3, N, 0, 0},
    {O::CvtLF, "cvt.l.f", U::Fpu, S::Unary, 41, 3, N, 1, 0},
    {O::CvtFD, "cvt.f.d", U::Fpu, S::Unary, 41, 3, N, 2, 0},

    {O::Ld1, "ld1", U::Ls, S::Load, 35, 4, 36, 0, 0},
    {O::Ld2, "ld2", U::Ls, S::Load, 35, 4, 36, 1, 0},
    {O::Ld4, "ld4", U::Ls, S::Load, 35, 4, 36, 2, 0},
    {O::Ld8, "ld8", U::Ls, S::Load, 35, 4, 36, 3, 0},
    {O::Ld1u, "ld1u", U::Ls, S::Load, 35, 5, 37, 0, 0},
    {O::Ld2u, "ld2u", U::Ls, S::Load, 35, 5, 37, 1, 0},
    {O::Ld4u, "ld4u", U::Ls, S::Load, 35, 5, 37, 2, 0},
    {O::St1, "st1", U::Ls, S::Store, 35, 6, 38, 0, 0},
    {O::St2, "st2", U::Ls, S::Store, 35, 6, 38, 1, 0},
    {O::St4, "st4", U::Ls, S::Store, 35, 6, 38, 2, 0},
    {O::St8, "st8", U::Ls, S::Store, 35, 6, 38, 3, 0},

    {O::EqW, "eq.w", U::Cmp, S::Compare, 3, 0, 0, 0, 0},
    {O::BitW, "bit.w", U::Cmp, S::Compare, 3, 0, 0, 1, 0},
    {O::LtW, "lt.w", U::Cmp, S::Compare, 3, 0, 0, 2, 0},
    {O::LtuW, "ltu.w", U::Cmp, S::Compare, 3, 0, 0, 3, 0},
    {O::Eq, "eq", U::Cmp, S::Compare, 3, 2, 1, 0, 0},
    {O::Bit, "bit", U::Cmp, S::Compare, 3, 2, 1, 1, 0},
    {O::Lt, "lt", U::Cmp, S::Compare, 3, 2, 1, 2, 0},
    {O::Ltu, "ltu", U::Cmp, S::Compare, 3, 2, 1, 3, 0},
    {O::EqD, "eq.d", U::Cmp, S::Compare, 3, 6, N, 0, 0},
    {O::LtD, "lt.d", U::Cmp, S::Compare, 3, 6, N, 1, 0},
    {O::EqF, "eq.f", U::Cmp, S::Compare, 3, 7, N, 0, 0},
    {O::LtF, "lt.f", U::Cmp, S::Compare, 3, 7, N, 1, 0},
    {O::NanD, "nan.d", U::Cmp, S::Compare, 3, 8, N, 0, 0},
    {O::NanF, "nan.f", U::Cmp, S::Compare, 3, 9, N, 0, 0},
    {O::PAnd, "and", U::Cmp, S::PredLogic, 3, 15, N, 0, 0},
    {O::POr, "or", U::Cmp, S::PredLogic, 3, 15, N, 1, 0},
    {O::PXor, "xor", U::Cmp, S::PredLogic, 3, 15, N, 2, 0},
    {O::PAndc, "andc", U::Cmp, S::PredLogic, 3, 15, N, 3, 0},

    {O::Xp, "xp", U::Control, S::XpLabel, N, 0, N, 0, 0},
    {O::XpR, "xp", U::Control, S::XpReg, 53, 0, N, 0, 0},
    {O::LoopR, "loop", U::Control, S::LoopCount, 50, 0, N, 0, 0},
    {O::Loop, "loop", U::Control, S::LoopCond, 51, 0, N, 0, 0},
    {O::Brk, "brk", U::Control, S::Brk, 52, 0, N, 0, 0},
    {O::Par, "par", U::Control, S::Par, 54, 0, N, 0, kMasterOnly},
    {O::Sync, "sync", U::Control, S::None, 55, 0, N, 0, kMasterOnly},

    {O::Get, "get", U::Ls, S::StreamGet, 39, 0, N, 0, 0},
    {O::Put, "put", U::Ls, S::StreamPut, 39, 0, N, 1, 0},
}};

constexpr bool table_is_indexed_by_opcode() {
  for (int i = 0; i < kOpcodeCount; ++i)
    if (static_cast<int>(kTable[static_cast<std::size_t>(i)].op) != i) return false;
  return true;
}
static_assert(table_is_indexed_by_opcode(), "opcode table rows must follow the Opcode enum");

}  // namespace

std::string_view unit_name(Unit u) {
  switch (u) {
    case Unit::Alu: return "alu";
    case Unit::Fpu: return "fpu";
    case Unit::Ls: return "ls";
    case Unit::Cmp: return "cmp";
    case Unit::Control: return "control";
  }
  return "?";
}

namespace detail {
const std::array<OpInfo, kOpcodeCount> kOpcodeTable = kTable;
}  // namespace detail
const std::array<OpInfo, kOpcodeCount>& opcode_table() { return kTable; }

bool Instruction::operator==(const Instruction& o) const {
  return op == o.op && imm_form == o.imm_form && stop == o.stop && qp == o.qp && rd == o.rd &&
         ra == o.ra && rb == o.rb && pt == o.pt && pf == o.pf && pa == o.pa && pb == o.pb &&
         imm == o.imm;
}

Operands operands(const Instruction& in) {
  Operands o;
  auto src = [&](RegId r) {
    if (r != pred_reg(0)) o.src[o.num_src++] = r;
  };
  auto dst = [&](RegId r) {
    if (r != pred_reg(0)) o.dst[o.num_dst++] = r;
  };
  const OpInfo& m = in.meta();
  switch (m.shape) {
    case Shape::Binary:
      src(in.ra);
      if (!in.imm_form) src(in.rb);
      if (m.flags & kReadsRd) src(in.rd);
      dst(in.rd);
      break;
    case Shape::Unary:
    case Shape::Ext:
      src(in.ra);
      dst(in.rd);
      break;
    case Shape::Sla:
      src(in.ra);
      src(in.rb);
      dst(in.rd);
      break;
    case Shape::Const:
      if (m.flags & kReadsRd) src(in.rd);
      dst(in.rd);
      break;
    case Shape::Load:
      src(in.ra);
      if (!in.imm_form) src(in.rb);
      dst(in.rd);
      break;
    case Shape::Store:
      src(in.ra);
      if (!in.imm_form) src(in.rb);
      o.store_data_src = static_cast<std::int8_t>(o.num_src);
      o.src[o.num_src++] = in.rd;
      break;
    case Shape::Compare:
      src(in.ra);
      if (!in.imm_form) src(in.rb);
      dst(pred_reg(in.pt));
      if (in.pf != in.pt) dst(pred_reg(in.pf));
      break;
    case Shape::PredLogic:
      src(pred_reg(in.pa));
      if (in.pb != in.pa) src(pred_reg(in.pb));
      dst(pred_reg(in.pt));
      if (in.pf != in.pt) dst(pred_reg(in.pf));
      break;
    case Shape::XpReg:
    case Shape::LoopCount:
    case Shape::Par:
    case Shape::StreamPut:
      src(in.rd);
      break;
    case Shape::StreamGet:
      dst(in.rd);
      break;
    case Shape::XpLabel:
    case Shape::LoopCond:
    case Shape::Brk:
    case Shape::None:
      break;
  }
  if (m.flags & kReadsP7) src(pred_reg(7));
  if (m.flags & kWritesP7) dst(pred_reg(7));
  return o;
}

}  // namespace par::isa
