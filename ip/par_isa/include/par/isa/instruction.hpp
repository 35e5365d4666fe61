// PAR ISA: opcodes, the decoded instruction, and its operand roles.
//
// This header is the single description of the instruction set (docs/isa.md §5): every other part
// of the ISA library (encoder, decoder, assembler, disassembler, semantics) and the cycle-level core
// read the opcode table below instead of repeating field values.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

namespace par::isa {

// Functional unit that executes an instruction (docs/isa.md §6.9).
enum class Unit : std::uint8_t { Alu, Fpu, Ls, Cmp, Control };
inline constexpr int kBackendUnits = 4;  // Alu, Fpu, Ls, Cmp: the units of a lane
std::string_view unit_name(Unit u);

// Binary layout families (docs/isa.md §5).
enum class Format : std::uint8_t {
  R,      // op6 rd ra rb x f
  I,      // op6 rd ra imm9 f
  S,      // op6 rd imm16
  Xp,     // bit 31 = 1, imm26
  CmpR,   // op5 pt pf ra rb x f
  CmpI,   // op5 pt pf ra imm9 f
  PLog,   // op5 = 3, pt pf pa pb, x = 15
};

// Operand shape as written in assembly; decides how the assembler parses and the disassembler
// prints an instruction, and which fields must be zero.
enum class Shape : std::uint8_t {
  Binary,     // rd = ra, rb | rd = ra, imm
  Unary,      // rd = ra                         (rb field zero)
  Sla,        // rd = ra, rb, n                  (n in f)
  Ext,        // rd = ra, n                      (I form only, sel = 1)
  Const,      // rd = imm16                      (set, sli)
  Load,       // rd = ra[rb] | rd = ra[imm]
  Store,      // ra[rb] = rd | ra[imm] = rd
  Compare,    // pXY = ra, rb | pXY = ra, imm
  PredLogic,  // pXY = pA, pB
  XpLabel,    // label                           (direct expand)
  XpReg,      // r                               (indirect expand)
  LoopCount,  // r, label
  LoopCond,   // label
  Brk,        // [n]
  Par,        // rc, label
  None,       // no operands (sync)
  StreamGet,  // rd = sN                         (channel N in the ra field)
  StreamPut,  // sN = rd                         (rd is a data source)
};

enum class Opcode : std::uint8_t {
  // Integer ALU
  Add, Addu, Subf, Subfu, And, Or, Xor, Nor, Sll, Srl, Sra, Ror, Ext, Extu,
  Min, Minu, Max, Maxu, Andc, Orc, Xnor, Nand, Abs, Popc, Clz, Sla, Addx, Set, Sli,
  // Integer multiply / divide (FPU)
  Mul, Mulh, Mulhu, Mac, Macu, Div, Divu, Rem, Remu,
  // Binary64
  AddD, SubD, MulD, DivD, MacD, MinD, MaxD, NegD, AbsD, SqrtD, CvtDL, CvtLD, CvtDF,
  // Binary32
  AddF, SubF, MulF, DivF, MacF, MinF, MaxF, NegF, AbsF, SqrtF, CvtFL, CvtLF, CvtFD,
  // Loads and stores
  Ld1, Ld2, Ld4, Ld8, Ld1u, Ld2u, Ld4u, St1, St2, St4, St8,
  // Compares and predicate logic
  EqW, BitW, LtW, LtuW, Eq, Bit, Lt, Ltu, EqD, LtD, EqF, LtF, NanD, NanF,
  PAnd, POr, PXor, PAndc,
  // Control (frontend)
  Xp, XpR, LoopR, Loop, Brk, Par, Sync,
  // Conditional stream reads and writes (LS; need the core's stream unit)
  Get, Put,
  Count
};
inline constexpr int kOpcodeCount = static_cast<int>(Opcode::Count);

// Flags describing what an opcode reads and writes beyond its shape.
enum OpFlag : std::uint16_t {
  kWritesP7 = 1u << 0,     // implicit p7 destination (docs/isa.md §3.2)
  kReadsP7 = 1u << 1,      // addx
  kReadsRd = 1u << 2,      // mac, macu, mac.d, mac.f, sli: rd is also a source
  kLongLatency = 1u << 3,  // div/rem/sqrt: core.fpu_div_latency
  kMasterOnly = 1u << 4,   // par, sync
};

inline constexpr std::uint8_t kNoOp6 = 0xFF;

// One row of the opcode table (docs/isa.md §5.2). An instruction may have an R form (r_op6 with
// x/f) and an I form (i_op6 with f); compares use op5 in place of op6.
struct OpInfo {
  Opcode op;
  std::string_view mnemonic;
  Unit unit;
  Shape shape;
  std::uint8_t r_op6;  // R / CMP-R / PLOG / S major opcode (op5 for compares); kNoOp6 if absent
  std::uint8_t x;      // extension of the R form
  std::uint8_t i_op6;  // I / CMP-I major opcode (op5 for compares); kNoOp6 if absent
  std::uint8_t f;      // function code (both forms)
  std::uint16_t flags;
};

const std::array<OpInfo, kOpcodeCount>& opcode_table();
namespace detail {
// The table behind info(), visible here so that the simulator's per-instruction lookups are one
// load each instead of a call into the library.
extern const std::array<OpInfo, kOpcodeCount> kOpcodeTable;
}  // namespace detail
inline const OpInfo& info(Opcode op) { return detail::kOpcodeTable[static_cast<std::size_t>(op)]; }

// Unified register numbering used for dependences and operand lists.
//   0..15 r0..r15, 16..31 i0..i15 (same values as the 5-bit register field), 32..39 p0..p7.
using RegId = std::uint8_t;
inline constexpr RegId kFirstInherited = 16;
inline constexpr RegId kFirstPredicate = 32;
inline constexpr RegId kRegIdCount = 40;
inline constexpr RegId pred_reg(int p) { return static_cast<RegId>(kFirstPredicate + p); }
inline constexpr bool is_inherited(RegId r) { return r >= kFirstInherited && r < kFirstPredicate; }
inline constexpr bool is_predicate(RegId r) { return r >= kFirstPredicate; }

// A decoded instruction. Register fields keep their 5-bit encoding (16..31 = i0..i15).
struct Instruction {
  Opcode op = Opcode::Add;
  bool imm_form = false;  // I / CMP-I form: the second operand is `imm`
  bool stop = false;      // stop bit '#'
  std::uint8_t qp = 0;    // qualifying predicate p0..p7
  std::uint8_t rd = 0;    // destination, or data source of a store / register of xp r, loop r, par
  std::uint8_t ra = 0;
  std::uint8_t rb = 0;
  std::uint8_t pt = 0, pf = 0;  // compare / predicate-logic targets
  std::uint8_t pa = 0, pb = 0;  // predicate-logic sources
  // imm9 (sign-extended), shift/extend amount, sla n, imm16 (set: sign-extended; sli: zero-extended),
  // brk n, the control-transfer target, or the stream channel of get / put.
  std::int64_t imm = 0;

  const OpInfo& meta() const { return info(op); }
  Unit unit() const { return info(op).unit; }
  bool is_control() const { return unit() == Unit::Control; }
  bool is_load() const { return op >= Opcode::Ld1 && op <= Opcode::Ld4u; }
  bool is_store() const { return op >= Opcode::St1 && op <= Opcode::St8; }
  bool is_memory() const { return is_load() || is_store(); }
  bool is_stream() const { return op == Opcode::Get || op == Opcode::Put; }
  bool operator==(const Instruction& o) const;
};

// Stream channels a get / put can name (the 5-bit ra field).
inline constexpr int kStreamChannels = 32;

// Access size in bytes of a load or store (0 for other opcodes). Inline: the core asks it per
// memory instruction.
constexpr int access_size(Opcode op) {
  switch (op) {
    case Opcode::Ld1: case Opcode::Ld1u: case Opcode::St1: return 1;
    case Opcode::Ld2: case Opcode::Ld2u: case Opcode::St2: return 2;
    case Opcode::Ld4: case Opcode::Ld4u: case Opcode::St4: return 4;
    case Opcode::Ld8: case Opcode::St8: return 8;
    default: return 0;
  }
}

// Registers an instruction reads and writes, in the unified numbering. p0 never appears (it always
// reads 1 and writes to it are dropped); the qualifying predicate is not included (see qp).
struct Operands {
  std::array<RegId, 4> src{};
  std::uint8_t num_src = 0;
  std::array<RegId, 3> dst{};
  std::uint8_t num_dst = 0;
  // For stores: index in src of the data operand (only needed to complete, not to issue).
  std::int8_t store_data_src = -1;
};
Operands operands(const Instruction& in);

}  // namespace par::isa
