#include "prefetch/affine_loads.hpp"

#include <array>

#include "par/isa/semantics.hpp"

namespace par::core {

namespace {

using isa::Opcode;

// A register's value as a function of i0, or unknown.
struct Affine {
  bool known = false;
  std::uint64_t scale = 0, offset = 0;
  static Affine constant(std::uint64_t v) { return {true, 0, v}; }
  bool is_constant() const { return known && scale == 0; }
};

Affine sum(const Affine& a, const Affine& b) {
  if (!a.known || !b.known) return {};
  return {true, a.scale + b.scale, a.offset + b.offset};
}
Affine times(const Affine& a, std::uint64_t k) {
  if (!a.known) return {};
  return {true, a.scale * k, a.offset * k};
}

// The value an ALU/FPU instruction writes into rd, when it stays affine in i0: sums, differences,
// shifts left and multiplications by a constant, sla; anything of constants alone is evaluated with
// the ISA's own semantics.
Affine result(const isa::Instruction& in, const Affine& a, const Affine& b, const Affine& c) {
  const bool reads_c = (in.meta().flags & (isa::kReadsRd | isa::kReadsP7)) != 0;
  if ((in.meta().flags & isa::kReadsP7) != 0) return {};  // addx: p7 is not followed
  if (a.is_constant() && b.is_constant() && (!reads_c || c.is_constant())) {
    std::uint64_t r = 0;
    bool flag = false;
    if (isa::sem::execute_value(in, a.offset, b.offset, c.offset, r, flag)) return Affine::constant(r);
    return {};
  }
  switch (in.op) {
    case Opcode::Add:
    case Opcode::Addu: return sum(a, b);
    case Opcode::Subf:
    case Opcode::Subfu: return sum(b, times(a, ~std::uint64_t{0}));  // b - a
    case Opcode::Sll: return b.is_constant() ? times(a, std::uint64_t{1} << (b.offset & 63)) : Affine{};
    case Opcode::Sla: return sum(a, times(b, std::uint64_t{1} << (in.imm & 3)));
    case Opcode::Mul:
      if (a.is_constant()) return times(b, a.offset);
      if (b.is_constant()) return times(a, b.offset);
      return {};
    default: return {};
  }
}

}  // namespace

std::vector<AffineLoad> find_affine_loads(const InstructionAt& at, std::uint64_t start,
                                          const std::uint64_t (&inherited)[16], int max_scan) {
  // Registers 0..15 r0..r15 (0 at thread start), 16..31 i0..i15.
  std::array<Affine, 32> reg;
  for (int r = 0; r < 16; ++r) reg[static_cast<std::size_t>(r)] = Affine::constant(0);
  reg[16] = Affine{true, 1, 0};
  for (int i = 1; i < 16; ++i) reg[static_cast<std::size_t>(16 + i)] = Affine::constant(inherited[i]);
  const auto value = [&reg](std::uint8_t r) { return r < 32 ? reg[r] : Affine{}; };

  std::vector<AffineLoad> loads;
  for (int n = 0; n < max_scan; ++n) {
    const isa::Instruction* in = at(start + static_cast<std::uint64_t>(n));
    if (in == nullptr || in->is_control()) break;
    // Operands: a = ra, b = rb or the immediate; shapes without them read nothing there.
    const isa::Shape shape = in->meta().shape;
    const bool no_a = shape == isa::Shape::Const;
    const bool no_b = no_a || shape == isa::Shape::Unary || shape == isa::Shape::Ext;
    const Affine a = no_a ? Affine::constant(0) : value(in->ra);
    const Affine b = no_b                ? Affine::constant(0)
                     : in->imm_form      ? Affine::constant(static_cast<std::uint64_t>(in->imm))
                                         : value(in->rb);
    if (in->is_load() && in->qp == 0) {
      const Affine addr = sum(a, b);
      if (addr.known)
        loads.push_back({start + static_cast<std::uint64_t>(n), addr.scale, addr.offset, isa::access_size(in->op)});
    }
    // What the instruction writes: a value op's rd (unless predicated: then it may keep its old
    // value in some threads), anything else unknown. Predicates are not followed.
    const isa::Operands ops = isa::operands(*in);
    for (int d = 0; d < ops.num_dst; ++d) {
      const isa::RegId r = ops.dst[static_cast<std::size_t>(d)];
      if (r >= 16) continue;
      const bool value_op = !in->is_memory() && in->unit() != isa::Unit::Cmp;
      reg[r] = value_op && in->qp == 0 ? result(*in, a, b, value(in->rd)) : Affine{};
    }
    if (in->stop) break;
  }
  return loads;
}

}  // namespace par::core
