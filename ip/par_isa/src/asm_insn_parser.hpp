// The instruction-line parser of the PAR assembler, shared by asm_operands.cpp (operand syntax
// and checks), asm_instruction.cpp (machine instructions) and asm_pseudo.cpp (pseudo-
// instructions). Private to the ISA library.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "asm_context.hpp"
#include "asm_numbers.hpp"

namespace par::isa::detail {

// One operand term: a register, a predicate, a predicate pair, an integer or a label.
struct Atom {
  enum Kind { Reg, Pred, PredPair, Imm, Label } kind = Imm;
  int col = 0;
  std::string text;  // as written (with its sign), for messages
  int reg = 0;       // Reg: 5-bit field value
  int p1 = 0, p2 = 0;  // Pred: p1; PredPair: pt = p1, pf = p2
  IntValue value;    // Imm
};

// An operand: an atom, or a memory reference base[index].
struct Operand {
  Atom a;
  bool mem = false;
  Atom index;  // when mem
  int col() const { return a.col; }
  const std::string& text() const { return a.text; }
};

struct Operands {
  std::vector<Operand> lhs;  // before '=' (or all operands when there is no '=')
  std::vector<Operand> rhs;  // after '='
  bool has_eq = false;
};

inline constexpr std::int64_t kImm9Min = -256;
inline constexpr std::uint64_t kImm9Max = 255;
inline constexpr std::uint64_t kImm16Max = 65535;
inline constexpr std::uint64_t kXpTargetMax = (1u << 26) - 1;

// Parses one instruction line; every check reports through ctx.diags and returns false.
class InsnParser {
 public:
  InsnParser(const std::vector<Token>& toks, const InsnContext& ctx) : toks_(toks), ctx_(ctx) {}

  std::optional<Instruction> run();

 private:
  // --- diagnostics -------------------------------------------------------------------------
  bool error(int col, std::string msg) {
    ctx_.diags->error(ctx_.line, col, std::move(msg));
    return false;
  }
  int end_col() const {
    if (end_ == 0) return 1;
    const Token& t = toks_[end_ - 1];
    return t.col + static_cast<int>(t.text.size());
  }

  // --- syntax ------------------------------------------------------------------------------
  bool parse_atom(std::size_t& pos, Atom& out);
  bool parse_operand(std::size_t& pos, Operand& out);
  bool parse_list(std::size_t& pos, std::vector<Operand>& out);
  bool parse_operands(std::size_t pos);

  // --- operand checks ----------------------------------------------------------------------
  bool expect_form(bool ok) { return ok || error(mn_col_, "'" + mn_ + "' expects " + form_); }
  bool dest_reg(const Operand& o, std::uint8_t& rd);
  bool src_reg(const Operand& o, std::uint8_t& r);
  bool pred(const Operand& o, std::uint8_t& p);
  bool dest_preds(const Operand& o, bool swap, std::uint8_t& pt, std::uint8_t& pf);
  bool check_pt_pf(const Operand& o, std::uint8_t pt, std::uint8_t pf);
  bool resolve(const Atom& a, IntValue& v);
  bool imm_range(const Atom& a, std::int64_t lo, std::uint64_t hi, IntValue& v);
  bool target(const Operand& o, std::string_view what, std::uint64_t max, std::int64_t& out);
  bool no_imm_form(const OpInfo& m) { return error(mn_col_, "'" + std::string(m.mnemonic) + "' has no immediate form"); }

  // --- builders per operand shape ------------------------------------------------------------
  bool build_table(const OpInfo& m);
  bool build_binary(const OpInfo& m);
  bool build_unary(const OpInfo& m);
  bool build_sla(const OpInfo& m);
  bool build_ext(const OpInfo& m);
  bool build_const(const OpInfo& m);
  bool build_load(const OpInfo& m);
  bool build_store(const OpInfo& m);
  // A compare or compare pseudo: the register form may swap the targets and the operands, the
  // immediate form may swap the targets and add 1 to the immediate (docs/isa.md §8.3).
  bool build_compare(Opcode reg_op, bool reg_swap_t, bool reg_swap_ops, Opcode imm_op,
                     bool imm_swap_t, int imm_add, bool reject_minus1);
  bool build_predlogic(Opcode op, bool swap_t, bool swap_src, bool unary);
  bool build_xp();
  bool build_loop();
  bool build_brk();
  bool build_par();
  bool build_none();
  bool build_stream(const OpInfo& m);
  // A stream channel operand sN (N = 0..31; docs/isa.md §6.10).
  bool channel(const Operand& o, std::int64_t& ch);
  // Pseudo-instructions (asm_pseudo.cpp). The try_ forms set `handled` when the mnemonic and
  // destination are theirs, and return false only after an error.
  bool build_register_pseudo();
  bool try_compare_pseudo(bool& handled);
  bool try_predlogic(bool& handled);

  const std::vector<Token>& toks_;
  const InsnContext& ctx_;
  std::size_t end_ = 0;  // tokens before the stop bit
  std::string mn_;       // lower-case mnemonic
  int mn_col_ = 0;
  std::string form_;     // expected operand form, for messages
  Operands ops_;
  Instruction in_;
};

}  // namespace par::isa::detail
