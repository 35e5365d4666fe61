#include "program_generator.hpp"

#include <algorithm>
#include <vector>

#include "par/isa/encoding.hpp"
#include "par/isa/instruction.hpp"

namespace par::fuzz {

namespace {

using isa::Instruction;
using isa::Opcode;
using isa::Shape;

constexpr std::uint8_t kBase = 14;          // r14: the thread's slice, never written
constexpr int kSliceBytes = 64;
constexpr int kMaxBlocks = 5;
constexpr int kMaxControlPerBlock = 2;

// Any register a value may come from: r0..r15, i0..i15.
std::uint8_t source(ByteReader& in) { return static_cast<std::uint8_t>(in.in(0, 31)); }
// Any general register but the slice pointer.
std::uint8_t destination(ByteReader& in) {
  const auto r = static_cast<std::uint8_t>(in.in(0, 14));
  return r == kBase ? 15 : r;
}
std::uint8_t predicate(ByteReader& in) { return static_cast<std::uint8_t>(in.in(0, 7)); }
// A signed 9-bit immediate, -256..255.
std::int64_t imm9(ByteReader& in) { return in.in(-128, 127) * 2 + in.in(0, 1); }
// The two predicate targets of a compare or predicate-logic instruction (pt = pf only as p0).
void predicate_targets(ByteReader& in, Instruction& x) {
  x.pt = predicate(in);
  x.pf = predicate(in);
  if (x.pt == x.pf) x.pf = 0;
}

// A value, compare, predicate-logic or memory instruction (the shapes of the opcode table).
Instruction data_instruction(ByteReader& in) {
  static const std::vector<Opcode> kOps = [] {
    std::vector<Opcode> ops;
    for (const isa::OpInfo& m : isa::opcode_table())
      if (m.unit != isa::Unit::Control && m.shape != Shape::StreamGet && m.shape != Shape::StreamPut)
        ops.push_back(m.op);  // streams need the optional stream unit
    return ops;
  }();
  const Opcode op = kOps[in.byte() % kOps.size()];
  const isa::OpInfo& m = isa::info(op);
  Instruction x;
  x.op = op;
  x.qp = in.coin() ? predicate(in) : 0;
  const bool has_r = m.r_op6 != isa::kNoOp6, has_i = m.i_op6 != isa::kNoOp6;
  const bool imm = has_i && (!has_r || in.coin());
  switch (m.shape) {
    case Shape::Binary:
      x.rd = destination(in);
      x.ra = source(in);
      x.imm_form = imm;
      if (!imm) x.rb = source(in);
      else if (m.i_op6 == isa::info(Opcode::Sll).i_op6) x.imm = in.in(0, 63);
      else x.imm = imm9(in);
      break;
    case Shape::Unary:
      x.rd = destination(in);
      x.ra = source(in);
      break;
    case Shape::Sla:
      x.rd = destination(in);
      x.ra = source(in);
      x.rb = source(in);
      x.imm = in.in(0, 3);
      break;
    case Shape::Ext:
      x.rd = destination(in);
      x.ra = source(in);
      x.imm = in.in(0, 63);
      x.imm_form = true;
      break;
    case Shape::Const:
      x.rd = destination(in);
      x.imm = op == Opcode::Set ? static_cast<std::int16_t>(in.u64()) : static_cast<std::uint16_t>(in.u64());
      break;
    case Shape::Load:
    case Shape::Store: {
      // Aligned, inside the thread's own slice.
      const int size = isa::access_size(op);
      x.rd = m.shape == Shape::Store ? source(in) : destination(in);
      x.ra = kBase;
      x.imm_form = true;
      x.imm = size * in.in(0, kSliceBytes / size - 1);
      break;
    }
    case Shape::Compare:
      predicate_targets(in, x);
      x.ra = source(in);
      x.imm_form = imm;
      if (imm) x.imm = imm9(in);
      else x.rb = source(in);
      break;
    case Shape::PredLogic:
      predicate_targets(in, x);
      x.pa = predicate(in);
      x.pb = predicate(in);
      break;
    default: break;
  }
  return x;
}

// xp to a later block, a counted loop over a later block, or brk n.
Instruction control_instruction(ByteReader& in, int block, int blocks, const std::vector<std::uint64_t>& starts) {
  Instruction x;
  x.qp = in.coin() ? predicate(in) : 0;
  const int kind = block + 1 < blocks ? in.in(0, 2) : 2;
  const auto later = [&] { return static_cast<std::int64_t>(starts[static_cast<std::size_t>(in.in(block + 1, blocks - 1))]); };
  if (kind == 0) {
    x.op = Opcode::Xp;
    x.imm = later();
  } else if (kind == 1) {
    x.op = Opcode::LoopR;
    x.rd = static_cast<std::uint8_t>(isa::kFirstInherited + in.in(2, 5));
    x.imm = later();
  } else {
    x.op = Opcode::Brk;
    x.imm = in.in(0, 2);
  }
  return x;
}

}  // namespace

GeneratedRun generate_run(ByteReader& in) {
  GeneratedRun run;
  isa::Program& p = run.program;
  p.kind = isa::ProgramKind::Packet;
  p.threads = in.in(1, 48);
  run.data_base = 0x1000;
  run.data_bytes = static_cast<std::uint64_t>(p.threads) * kSliceBytes;
  p.inherited[1] = run.data_base;
  for (int k = 2; k <= 5; ++k) p.inherited[static_cast<std::size_t>(k)] = static_cast<std::uint64_t>(in.in(1, 3));
  for (int k = 6; k <= 15; ++k) p.inherited[static_cast<std::size_t>(k)] = in.u64();

  // Block sizes first: control targets need every block's start.
  const int blocks = in.in(1, kMaxBlocks);
  std::vector<int> sizes;
  std::vector<std::uint64_t> starts;
  std::uint64_t pc = 2;  // the prologue sets r14
  for (int b = 0; b < blocks; ++b) {
    starts.push_back(pc);
    sizes.push_back(in.in(1, 10));
    pc += static_cast<std::uint64_t>(sizes.back());
  }
  Instruction shift;  // r14 = i0 << 6
  shift.op = Opcode::Sll;
  shift.rd = kBase;
  shift.ra = isa::kFirstInherited;
  shift.imm_form = true;
  shift.imm = 6;
  Instruction add;  // r14 += i1
  add.op = Opcode::Add;
  add.rd = kBase;
  add.ra = kBase;
  add.rb = isa::kFirstInherited + 1;
  p.code = {isa::encode(shift), isa::encode(add)};
  p.start = 0;
  for (int b = 0; b < blocks; ++b) {
    int control = 0;
    p.code_labels["b" + std::to_string(b)] = starts[static_cast<std::size_t>(b)];
    for (int k = 0; k < sizes[static_cast<std::size_t>(b)]; ++k) {
      const bool use_control = control < kMaxControlPerBlock && in.byte() % 4 == 0;
      Instruction x = use_control ? control_instruction(in, b, blocks, starts) : data_instruction(in);
      control += use_control ? 1 : 0;
      const bool last = k + 1 == sizes[static_cast<std::size_t>(b)];
      // Block 0 continues the prologue; a stop bit before the end leaves the rest unreachable.
      x.stop = last || in.byte() % 8 == 0;
      p.code.push_back(isa::encode(x));
    }
  }
  // The slices start with input bytes (loads then read something other than zeros).
  isa::DataSection slices;
  slices.address = run.data_base;
  for (std::uint64_t i = 0; i < run.data_bytes; ++i) slices.bytes.push_back(in.byte());
  p.data.push_back(slices);

  core::CoreConfig& c = run.timing;
  c.lanes = 1 << in.in(0, 3);
  c.threads_per_lane = in.in(1, 4);
  c.rob_size = in.in(1, 16);
  c.queue_size = in.in(1, 4);
  c.fpu_latency = in.in(1, 8);
  c.alu_latency = in.in(1, 3);
  c.cmp_latency = in.in(1, 3);
  c.dcache_latency = in.in(1, 4);
  c.output_buffers = in.in(1, 4);
  c.local_mem_size = 0x10000;
  c.max_cycles = 100'000'000;
  run.functional_width = in.in(1, 64);
  return run;
}

}  // namespace par::fuzz
