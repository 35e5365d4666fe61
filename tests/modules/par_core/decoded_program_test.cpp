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


// ---------------------------------------------------------------------------------------------
// Straight runs (DecodedOp::straight): the fetch loop runs backend instructions up to a stop bit,
// a control, stream or illegal instruction as one stretch (PacketEngine::run_straight). With an
// execution listener attached it takes the general path (step()) for every instruction instead,
// so runs with and without one compare the two.

struct CountingListener : ExecListener {
  std::int64_t steps = 0;
  void executed(const ExecStep&) override { ++steps; }
};

struct BothPaths {
  ProgramRun straight, general;
  std::int64_t general_steps = 0;
};

BothPaths run_both_paths(const isa::Program& p, const CoreConfig& cfg, RunOptions options) {
  options.capture_first = 0;
  options.capture_count = static_cast<std::uint64_t>(p.threads);
  BothPaths b;
  b.straight = run_program(p, cfg, options);
  CountingListener listener;
  options.exec_listener = &listener;
  b.general = run_program(p, cfg, options);
  b.general_steps = listener.steps;
  return b;
}

void expect_same_runs(const isa::Program& p, const BothPaths& b, const std::string& what) {
  EXPECT_EQ(b.straight.ok, b.general.ok) << what;
  EXPECT_EQ(b.straight.error, b.general.error) << what;
  testing::expect_same_stats(b.straight.stats, b.general.stats, what);
  EXPECT_EQ(b.straight.stats.fetched, b.general.stats.fetched) << what;
  if (b.general.ok) {  // an instruction that fails is not reported
    EXPECT_EQ(b.straight.stats.fetched, b.general_steps) << what;
  }
  ASSERT_EQ(b.straight.registers.size(), b.general.registers.size()) << what;
  for (std::size_t i = 0; i < b.straight.registers.size(); ++i) {
    EXPECT_EQ(b.straight.registers[i].thread, b.general.registers[i].thread) << what;
    EXPECT_EQ(b.straight.registers[i].r, b.general.registers[i].r) << what << ", thread " << i;
    EXPECT_EQ(b.straight.registers[i].p, b.general.registers[i].p) << what << ", thread " << i;
  }
  const auto [lo, hi] = p.data_extent();
  if (hi > lo && b.straight.memory && b.general.memory) {
    EXPECT_EQ(b.straight.read(lo, (hi - lo) / 8), b.general.read(lo, (hi - lo) / 8)) << what;
  }
}

TEST(DecodedProgram, StraightRunsEndAtStopBitsControlStreamAndIllegalInstructions) {
  isa::Program p = testing::assemble_or_fail(testing::packet(4) +
                                             "main: add r1 = i0, 1\n"
                                             " add r2 = r1, 1\n"
                                             " lt p1 = r1, r2 #\n"
                                             " add r3 = r3, 1\n"
                                             " sub r4 = r3, 2\n"
                                             " get r5 = s0\n"
                                             " add r6 = r6, 1\n"
                                             " (p1) loop body\n"
                                             " add r7 = r7, 1\n"
                                             " add r8 = r8, 1\n"
                                             " add r9 = r9, 1 #\n"
                                             "body: add r10 = r10, 1\n"
                                             " lt p1 = r10, 0 #\n");
  p.code[9] = 0xFC000000u;  // op6 63: reserved
  std::string error;
  const auto lp = LoadedProgram::load(p, testing::config(1, 4), &error);
  ASSERT_NE(lp, nullptr) << error;
  std::vector<std::uint32_t> straight;
  for (std::size_t pc = 0; pc < lp->size(); ++pc) straight.push_back(lp->op(pc).straight);
  EXPECT_EQ(straight, (std::vector<std::uint32_t>{3, 2, 1, 2, 1, 0, 1, 0, 1, 0, 1, 2, 1}));
}

TEST(DecodedProgram, StraightRunsGiveWhatTheGeneralFetchLoopGives) {
  for (const char* name : testing::kKernels) {
    const isa::AssemblyResult r = isa::assemble_file(testing::kernel(name));
    ASSERT_TRUE(r.ok()) << r.messages();
    for (const auto& [lanes, t] : {std::pair{1, 4}, std::pair{2, 2}, std::pair{1, 1}}) {
      for (RunMode mode : {RunMode::Timing, RunMode::Functional}) {
        RunOptions options;
        options.mode = mode;
        options.functional_width = 64;
        const std::string what = std::string(name) + " L=" + std::to_string(lanes) + " T=" + std::to_string(t) +
                                 (mode == RunMode::Timing ? " timing" : " functional");
        const BothPaths b = run_both_paths(*r.program, testing::config(lanes, t), options);
        EXPECT_TRUE(b.straight.ok) << what << ": " << b.straight.error;
        expect_same_runs(*r.program, b, what);
      }
    }
  }
}

// A fault, the run limit and the endless-loop check inside a straight run name the same PC and
// count the same work as the general loop.
TEST(DecodedProgram, StraightRunsStopWhereTheGeneralFetchLoopStops) {
  const isa::Program misaligned = testing::assemble_or_fail(
      testing::packet(8, ".I1 buf\n") +
      "main: sll r1 = i0, 3\n add r2 = r1, 1\n add r3 = r3, 7\n ld8 r4 = r2[i1]\n add r5 = r4, 1\n st8 r1[i1] = r5 #\n"
      ".DATA 0x1000\nbuf: .zero 128\n");
  for (RunMode mode : {RunMode::Timing, RunMode::Functional}) {
    RunOptions options;
    options.mode = mode;
    const BothPaths b = run_both_paths(misaligned, testing::config(1, 4), options);
    EXPECT_FALSE(b.straight.ok);
    EXPECT_NE(b.straight.error.find("runtime error at pc 3 (test.par:9), thread 0: misaligned 8-byte load at 0x1001"), std::string::npos)
        << b.straight.error;
    expect_same_runs(misaligned, b, "misaligned load");
  }
  // Rounds of one long straight run: the cycle limit falls inside one.
  std::string body;
  for (int i = 0; i < 40; ++i) body += " add r" + std::to_string(1 + i % 8) + " = r" + std::to_string(1 + (i + 1) % 8) + ", 1\n";
  const isa::Program longrun = testing::assemble_or_fail(testing::packet(64) + "main:" + body + " add r9 = r9, 1 #\n");
  CoreConfig cfg = testing::config(1, 4);
  cfg.max_cycles = 301;
  for (RunMode mode : {RunMode::Timing, RunMode::Functional}) {
    RunOptions options;
    options.mode = mode;
    options.functional_width = 4;
    const BothPaths b = run_both_paths(longrun, cfg, options);
    EXPECT_FALSE(b.straight.ok);
    EXPECT_NE(b.straight.error.find("run limit exceeded: more than 301 "), std::string::npos) << b.straight.error;
    EXPECT_EQ(b.straight.error.find("at pc 0 "), std::string::npos) << b.straight.error;
    expect_same_runs(longrun, b, "run limit");
  }
  // An endless loop whose body is a straight run: found at the same point.
  const isa::Program endless = testing::assemble_or_fail(
      testing::packet(4) + "main: loop body\n add r1 = r1, 0 #\nbody: add r2 = r2, 0\n add r3 = r3, 0\n add r4 = r4, 0 #\n");
  for (RunMode mode : {RunMode::Timing, RunMode::Functional}) {
    RunOptions options;
    options.mode = mode;
    const BothPaths b = run_both_paths(endless, testing::config(1, 4), options);
    EXPECT_FALSE(b.straight.ok);
    EXPECT_NE(b.straight.error.find("endless loop"), std::string::npos) << b.straight.error;
    expect_same_runs(endless, b, "endless loop");
  }
}

}  // namespace
}  // namespace par::core
