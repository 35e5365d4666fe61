// The program as the fetch loop sees it (DecodedOp, SimtExecutor::kernel_for): worked out once at
// load time, it must say for every opcode and form exactly what the instruction itself says, and
// each opcode's kernel must compute what the ISA's scalar semantics compute, slot by slot.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "core_test_support.hpp"
#include "packet_engine.hpp"
#include "par/isa/encoding.hpp"
#include "par/isa/semantics.hpp"

namespace par::core {
namespace {

using isa::Instruction;
using isa::Opcode;
using isa::Shape;

// Every opcode in each form the opcode table gives it, with operand fields a PAR core accepts.
std::vector<Instruction> every_form() {
  std::vector<Instruction> out;
  for (const isa::OpInfo& m : isa::opcode_table()) {
    for (bool imm : {false, true}) {
      if ((imm ? m.i_op6 : m.r_op6) == isa::kNoOp6) continue;
      Instruction in;
      in.op = m.op;
      in.imm_form = imm;
      in.rd = 3;
      in.ra = 1;
      in.rb = imm ? 0 : 2;
      in.pt = 1;
      in.pf = 2;
      in.pa = 3;
      in.pb = 4;
      in.imm = m.shape == Shape::Const ? 0x1234 : (imm ? -24 : 5);
      if (m.shape == Shape::Sla || m.shape == Shape::Ext) in.imm = 3;
      if (m.shape == Shape::Load || m.shape == Shape::Store) in.imm = imm ? 8 : 0;
      if (m.shape == Shape::XpReg || m.shape == Shape::LoopCount) in.rd = 17;
      out.push_back(in);
      // The qualifying predicate and the stop bit are decoded like any other field.
      in.qp = 5;
      in.stop = true;
      out.push_back(in);
    }
  }
  return out;
}

TEST(DecodedProgram, EveryOpcodeDecodesToWhatTheInstructionSays) {
  const CoreConfig cfg = testing::config(1, 4);
  int backend = 0, control = 0;
  for (const Instruction& in : every_form()) {
    const DecodedOp d = DecodedOp::from(in, cfg);
    const std::string what = std::string(in.meta().mnemonic) + (in.imm_form ? " (I form)" : " (R form)");
    EXPECT_EQ(d.in, in) << what;
    EXPECT_EQ(d.unit, static_cast<std::uint8_t>(in.unit())) << what;
    EXPECT_EQ(d.access_size, isa::access_size(in.op)) << what;
    EXPECT_EQ(d.load, in.is_load()) << what;
    EXPECT_EQ(d.store, in.is_store()) << what;
    EXPECT_EQ(d.memory(), in.is_memory()) << what;
    EXPECT_EQ(d.stream, in.is_stream()) << what;
    if (in.is_control()) {
      ++control;
      EXPECT_EQ(d.kind, DecodedOp::Kind::Control) << what;
      EXPECT_EQ(d.waits_for_rd, in.op == Opcode::XpR || in.op == Opcode::LoopR) << what;
      const ControlKind kind = in.op == Opcode::Xp    ? ControlKind::Xp
                               : in.op == Opcode::XpR ? ControlKind::XpIndirect
                               : in.op == Opcode::Loop || in.op == Opcode::LoopR ? ControlKind::Loop
                                                                                 : ControlKind::Brk;
      EXPECT_EQ(d.control, kind) << what;
    } else {
      ++backend;
      EXPECT_EQ(d.kind, DecodedOp::Kind::Backend) << what;
      EXPECT_NE(d.kernel.any, nullptr) << what;
      EXPECT_NE(d.kernel.short_width, nullptr) << what;
      const TimingOp t = TimingOp::from(in, cfg);
      EXPECT_EQ(d.timing.unit, t.unit) << what;
      EXPECT_EQ(d.timing.latency, t.latency) << what;
      EXPECT_EQ(d.timing.qp, t.qp) << what;
      EXPECT_EQ(d.timing.is_store, t.is_store) << what;
      EXPECT_EQ(d.timing.is_memory, t.is_memory) << what;
      EXPECT_EQ(d.timing.regs.num_src, t.regs.num_src) << what;
      EXPECT_EQ(d.timing.regs.src, t.regs.src) << what;
      EXPECT_EQ(d.timing.regs.num_dst, t.regs.num_dst) << what;
      EXPECT_EQ(d.timing.regs.dst, t.regs.dst) << what;
    }
  }
  EXPECT_GT(control, 0);
  EXPECT_GT(backend, 100);
}

// A loaded program holds the decoded form of each word, and an undecodable word stays illegal
// with the decoder's reason (fetching it is a runtime error, not a load error).
TEST(DecodedProgram, LoadDecodesEveryWordOnce) {
  const CoreConfig cfg = testing::config(1, 4);
  isa::Program p;
  std::vector<Instruction> forms = every_form();
  forms.resize(40);
  for (const Instruction& in : forms) p.code.push_back(isa::encode(in));
  p.code.push_back(0x7FFFFFFFu);  // no opcode has this major opcode and function
  std::string error;
  const auto lp = LoadedProgram::load(p, cfg, &error);
  ASSERT_NE(lp, nullptr) << error;
  ASSERT_EQ(lp->size(), forms.size() + 1);
  for (std::size_t pc = 0; pc < forms.size(); ++pc) {
    std::string why;
    const auto in = isa::decode(p.code[pc], &why);
    ASSERT_TRUE(in.has_value()) << why;
    EXPECT_TRUE(lp->legal(pc));
    EXPECT_EQ(lp->at(pc), *in) << "pc " << pc;
    EXPECT_EQ(lp->op(pc).in, *in) << "pc " << pc;
  }
  std::string why;
  EXPECT_FALSE(isa::decode(p.code.back(), &why).has_value());
  EXPECT_FALSE(lp->legal(forms.size()));
  EXPECT_EQ(lp->illegal_reason(forms.size()), why);
  EXPECT_FALSE(why.empty());
}

// Each value and compare opcode's kernel, in both forms, against the scalar semantics of the ISA
// library, over slot counts that take the executor's short and long loops, with some slots not
// qualified (they must keep their values) and all qualified.
TEST(DecodedProgram, EveryKernelComputesTheScalarSemantics) {
  std::mt19937_64 rng(7);
  for (int slots : {1, 3, 4, 5, 8, 37}) {
    for (bool all : {false, true}) {
      for (const Instruction& base : every_form()) {
        Instruction in = base;
        in.qp = 0;
        const isa::OpInfo& m = in.meta();
        const bool value = isa::sem::dispatch_value_op(in.op, [](auto) {});
        const bool compare = isa::sem::dispatch_compare_op(in.op, [](auto) {});
        if (!value && !compare) continue;
        SlotState st(slots);
        LocalMemory local(0x1000, 0x100);
        SimtExecutor ex(st, local);
        ex.set_width(slots);
        for (int r = 0; r < 32; ++r)
          for (int s = 0; s < slots; ++s) {
            // Mix small, FP-like and arbitrary values so that flags and NaN paths are taken.
            const std::uint64_t v = rng();
            st.reg(r)[s] = (v & 3) == 0 ? (v >> 60) : (v & 3) == 1 ? isa::sem::from_f64(static_cast<double>(v >> 40) / 7.0) : v;
          }
        for (int p = 1; p < 8; ++p)
          for (int s = 0; s < slots; ++s) st.pred(p)[s] = static_cast<std::uint8_t>(rng() & 1);
        std::vector<std::uint8_t> mask(static_cast<std::size_t>(slots), 1);
        if (!all)
          for (int s = 0; s < slots; s += 2) mask[static_cast<std::size_t>(s)] = 0;
        int active = 0;
        for (auto b : mask) active += b;
        const SlotState before = st;
        const auto fault = ex.execute(in, SimtExecutor::kernel_for(in), mask.data(), active);
        ASSERT_FALSE(fault.has_value());
        const std::string what = std::string(m.mnemonic) + (in.imm_form ? " (I form)" : " (R form)") + ", " +
                                 std::to_string(slots) + " slots";
        for (int s = 0; s < slots; ++s) {
          const bool q = mask[static_cast<std::size_t>(s)] != 0;
          if (value) {
            const bool no_b = m.shape == Shape::Unary || m.shape == Shape::Const;
            const std::uint64_t a = m.shape == Shape::Const ? 0 : before.reg(in.ra)[s];
            const std::uint64_t b = no_b ? 0 : in.imm_form ? static_cast<std::uint64_t>(in.imm) : before.reg(in.rb)[s];
            const std::uint64_t c = (m.flags & isa::kReadsRd)   ? before.reg(in.rd)[s]
                                    : (m.flags & isa::kReadsP7) ? before.pred(7)[s]
                                                                : 0;
            std::uint64_t r = 0;
            bool flag = false;
            isa::sem::execute_value(in, a, b, c, r, flag);
            EXPECT_EQ(st.reg(in.rd)[s], q ? r : before.reg(in.rd)[s]) << what << ", slot " << s;
            const bool p7 = (m.flags & isa::kWritesP7) && q ? flag : before.pred(7)[s] != 0;
            EXPECT_EQ(st.pred(7)[s] != 0, p7) << what << ", slot " << s;
          } else {
            const bool logic = m.shape == Shape::PredLogic;
            const std::uint64_t a = logic ? before.pred(in.pa)[s] : before.reg(in.ra)[s];
            const std::uint64_t b = logic ? before.pred(in.pb)[s]
                                    : in.imm_form ? static_cast<std::uint64_t>(in.imm)
                                                  : before.reg(in.rb)[s];
            bool cond = false;
            isa::sem::execute_compare(in, a, b, cond);
            // pt = 1, pf = 2 (distinct): pt <- c, pf <- !c in qualified slots.
            EXPECT_EQ(st.pred(1)[s] != 0, q ? cond : before.pred(1)[s] != 0) << what << ", slot " << s;
            EXPECT_EQ(st.pred(2)[s] != 0, q ? !cond : before.pred(2)[s] != 0) << what << ", slot " << s;
          }
        }
        EXPECT_EQ(ex.qualified_count(), active) << what;
      }
    }
  }
}

// Each load and store kernel moves exactly its access size with its extension, in qualified
// slots only.
TEST(DecodedProgram, EveryMemoryKernelAccessesItsSizeAndExtends) {
  for (int slots : {1, 4, 6}) {
    for (const Instruction& base : every_form()) {
      if (!base.is_memory()) continue;
      Instruction in = base;
      in.qp = 0;
      const int size = isa::access_size(in.op);
      SlotState st(slots);
      LocalMemory local(0x1000, 0x200);
      for (std::uint64_t a = 0; a < 0x200; ++a) local.store(0x1000 + a, 1, 0x80 + (a * 37) % 0x80);
      SimtExecutor ex(st, local);
      ex.set_width(slots);
      std::vector<std::uint8_t> mask(static_cast<std::size_t>(slots), 1);
      mask[0] = 0;
      for (int s = 0; s < slots; ++s) {
        st.reg(in.ra)[s] = 0x1000 + 16 * static_cast<std::uint64_t>(s);
        st.reg(in.rb)[s] = 16;
        st.reg(in.rd)[s] = 0xFEDCBA9876543210ull + static_cast<std::uint64_t>(s);
      }
      const SlotState before = st;
      std::vector<std::uint8_t> mem_before(0x200);
      local.read_block(0x1000, mem_before.data(), mem_before.size());
      const auto fault = ex.execute(in, SimtExecutor::kernel_for(in), mask.data(), slots - 1);
      ASSERT_FALSE(fault.has_value());
      const std::string what = std::string(in.meta().mnemonic) + (in.imm_form ? " (I form)" : " (R form)");
      for (int s = 0; s < slots; ++s) {
        const bool q = mask[static_cast<std::size_t>(s)] != 0;
        const std::uint64_t addr = before.reg(in.ra)[s] + (in.imm_form ? static_cast<std::uint64_t>(in.imm) : 16);
        EXPECT_EQ(ex.addresses()[s], addr) << what << ", slot " << s;
        std::uint64_t raw = 0;
        std::memcpy(&raw, &mem_before[addr - 0x1000], static_cast<std::size_t>(size));
        if (in.is_load()) {
          EXPECT_EQ(st.reg(in.rd)[s], q ? isa::sem::extend_load(in.op, raw) : before.reg(in.rd)[s]) << what << ", slot " << s;
        } else {
          const std::uint64_t mask_bits = size == 8 ? ~0ull : (1ull << (8 * size)) - 1;
          EXPECT_EQ(local.load(addr, size), q ? before.reg(in.rd)[s] & mask_bits : raw) << what << ", slot " << s;
          if (q && size < 8) {  // the byte after the access is untouched
            EXPECT_EQ(local.load(addr + static_cast<std::uint64_t>(size), 1), mem_before[addr + static_cast<std::uint64_t>(size) - 0x1000]) << what;
          }
        }
      }
    }
  }
}

}  // namespace
}  // namespace par::core
