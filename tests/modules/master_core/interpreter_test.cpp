// The .MASTER interpreter without SystemC (FakePort, FakeScheduler): every single-thread program
// gives the registers and memory of the same code run as a 1-thread packet on the PAR core
// (ALU, FP, compares, memory, every control-flow construct); then the master-only parts: counter
// loops on general registers, par (staging snapshot of r1..r15), sync, the implicit final sync,
// time accounting, and runtime errors with file:line.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "sw/runtime/runtime_test_support.hpp"
#include "host_runtime.hpp"
#include "master_interpreter.hpp"
#include "par/isa/assembler.hpp"
#include "par/simkit/options.hpp"
#include "program_runner.hpp"

namespace par::master {
namespace {

using runtime::testing::FakePort;
using runtime::testing::FakeScheduler;
using runtime::testing::ns;

constexpr std::uint64_t kData = 0x1000;
constexpr std::size_t kDataBytes = 512;

struct Final {
  std::string error;
  std::array<std::uint64_t, 16> r{};
  std::array<std::uint8_t, 8> p{};
  std::vector<std::uint8_t> mem;
};

isa::Program assemble(const std::string& source) {
  const isa::AssemblyResult a = isa::assemble(source, "m.par");
  EXPECT_TRUE(a.ok()) << a.messages();
  return a.ok() ? *a.program : isa::Program{};
}

// The body (everything after the header line) as a 1-thread packet on the PAR core.
Final run_on_core(const std::string& inherited, const std::string& body) {
  const isa::Program program = assemble(".PAR\n.ADDRESS main\n.THREADS 1\n" + inherited + body);
  core::RunOptions opt;
  opt.capture_count = 1;
  const core::ProgramRun run = core::run_program(program, core::CoreConfig{}, opt);
  Final f;
  if (!run.ok) {
    f.error = run.error;
    return f;
  }
  f.r = run.registers.at(0).r;
  f.p = run.registers.at(0).p;
  f.mem.resize(kDataBytes);
  run.memory->read_block(kData, f.mem.data(), kDataBytes);
  return f;
}

// A master program on a FakePort whose memory holds the program's data.
struct MasterRun {
  FakePort port;
  FakeScheduler sched;
  simkit::StatGroup stats{"master"};
  MasterConfig cfg;
  isa::Program program;
  std::unique_ptr<runtime::HostRuntime> rt;
  std::unique_ptr<InterpreterCounters> counters;
  std::unique_ptr<MasterInterpreter> interp;

  explicit MasterRun(const std::string& source, MasterConfig c = MasterConfig{}) : cfg(c), program(assemble(source)) {
    port.scheduler = &sched;
    for (const isa::DataSection& d : program.data) std::memcpy(port.mem.data() + d.address, d.bytes.data(), d.bytes.size());
    runtime::RuntimeConfig rcfg;
    rcfg.issue_cycles = cfg.cpi;
    rt = std::make_unique<runtime::HostRuntime>(port, rcfg, program, stats);
    counters = std::make_unique<InterpreterCounters>(stats);
    interp = std::make_unique<MasterInterpreter>(program, cfg, port, *rt, *counters);
  }
  std::string run() { return interp->run(); }
};

Final run_as_master(const std::string& inherited, const std::string& body) {
  MasterRun m(".MASTER\n.ADDRESS main\n" + inherited + body);
  Final f;
  f.error = m.run();
  f.r = m.interp->registers().r;
  f.p = m.interp->registers().p;
  f.mem.assign(m.port.mem.begin() + kData, m.port.mem.begin() + kData + kDataBytes);
  return f;
}

// Returns the master's result for extra checks.
Final expect_same(const std::string& inherited, const std::string& body) {
  const Final core = run_on_core(inherited, body);
  const Final master = run_as_master(inherited, body);
  EXPECT_EQ(core.error, "");
  EXPECT_EQ(master.error, "");
  for (int i = 0; i < 16; ++i) EXPECT_EQ(master.r[i], core.r[i]) << "r" << i;
  for (int i = 0; i < 8; ++i) EXPECT_EQ(master.p[i], core.p[i]) << "p" << i;
  for (std::size_t b = 0; b < kDataBytes; ++b)
    if (master.mem[b] != core.mem[b]) {
      ADD_FAILURE() << "memory byte 0x" << std::hex << kData + b << " differs";
      break;
    }
  return master;
}

std::vector<std::int64_t> words(const Final& f, std::size_t n) {
  std::vector<std::int64_t> w(n);
  std::memcpy(w.data(), f.mem.data(), n * 8);
  return w;
}

// --- the same results as the PAR core ------------------------------------------------------------

TEST(MasterInterpreterVsParCore, IntegerAlu) {
  expect_same(".I1 0x7FFFFFFFFFFFFFFF\n.I2 -12345\n", R"(
.CODE
main:   set    r1 = -5
        sli    r1 = 0x1234
        add    r2 = i1, 1
        addu   r3 = i1, i1
        subf   r4 = i2, i1
        subfu  r5 = i1, i2
        addx   r6 = r3, r4
        and    r7 = r1, i2
        or     r8 = r1, 0x55
        xor    r9 = r8, i2
        nor    r10 = r9, r7
        andc   r11 = i1, r1
        orc    r12 = r11, r10
        xnor   r13 = r12, r1
        nand   r14 = r13, i2
        sll    r15 = i2, 7
        srl    r0 = i2, r8
        sra    r1 = i2, 3
        ror    r2 = r1, 13
        rol    r3 = r1, 5
        ext    r4 = i2, 7
        extu   r5 = i2, 15
        min    r6 = i2, r15
        minu   r7 = i2, r15
        max    r8 = i2, -3
        maxu   r9 = i2, r0
        abs    r10 = i2
        popc   r11 = i2
        clz    r12 = r10
        sla    r13 = r10, r11, 3
        mul    r14 = i2, r13
        mulh   r15 = i1, i2
        mulhu  r0 = i1, i2
        mac    r1 = i2, 77
        macu   r2 = i2, r13
        div    r3 = i2, 7
        divu   r4 = i2, 7
        rem    r5 = i2, -7
        remu   r6 = i2, 0
        div    r7 = r7, 0
        neg    r8 = i2
        sub    r9 = r8, 200
        sub    r10 = r9, -255 #
.DATA 0x1000
        .zero 8
)");
}

TEST(MasterInterpreterVsParCore, FloatingPoint) {
  expect_same(".I1 2.5\n.I2 -0.1\n.I3 0x40490FDB\n.I4 nan\n", R"(
.CODE
main:   add.d  r1 = i1, i2
        sub.d  r2 = i2, i1
        mul.d  r3 = r1, r2
        div.d  r4 = r3, i2
        mov    r5 = i1
        mac.d  r5 = r3, r4
        min.d  r6 = i2, i4
        max.d  r7 = r6, r5
        neg.d  r8 = r7
        abs.d  r9 = r8
        sqrt.d r10 = r9
        cvt.l.d r11 = r10
        cvt.d.l r12 = r11
        cvt.d.f r13 = i3
        cvt.f.d r14 = r4
        add.f  r15 = r14, i3
        mul.f  r0 = r15, r15
        div.f  r1 = r0, i3
        sqrt.f r2 = r1
        mac.f  r2 = r1, i3
        min.f  r3 = r2, i3
        cvt.l.f r4 = r3
        cvt.f.l r5 = r4
        sub.f  r6 = r5, r0
        neg.f  r7 = r6
        abs.f  r8 = r7
        max.f  r9 = r8, r6
        sqrt.d r10 = i2
        add.d  r11 = r10, i1 #
.DATA 0x1000
        .zero 8
)");
}

TEST(MasterInterpreterVsParCore, ComparesAndPredicates) {
  expect_same(".I1 -3\n.I2 0x100000005\n.I3 1.5\n.I4 nan\n", R"(
.CODE
main:   eq     p12 = i1, -3
        lt     p34 = i1, i2
        ltu    p56 = i1, i2
        bit    p7 = i2, 4
        eq.w   p20 = i2, 5
        lt.w   p03 = i1, i2
        ltu.w  p4 = i1, i2
        bit.w  p5 = i2, 1
        and    p61 = p1, p2
        or     p70 = p3, p4
        xor    p23 = p5, p6
        andc   p40 = p5, p6
        set    r1 = 0
   (p1) set    r1 = 1
   (p2) add    r1 = r1, 10
        eq.d   p35 = i3, i3
        lt.d   p6 = i4, i3
        nan.d  p7 = i4, i3
        lt.f   p2 = i3, i3
        ge.d   p4 = i3, i4
   (p7) add    r2 = r1, 100
   (p0) add    r3 = r2, 1 #
.DATA 0x1000
        .zero 8
)");
}

TEST(MasterInterpreterVsParCore, LoadsAndStoresOfEverySize) {
  expect_same(".I1 buf\n.I2 out\n", R"(
.CODE
main:   ld1    r1 = i1[0]
        ld1u   r2 = i1[1]
        ld2    r3 = i1[2]
        ld2u   r4 = i1[2]
        ld4    r5 = i1[4]
        ld4u   r6 = i1[4]
        ld8    r7 = i1[8]
        set    r8 = 16
        ld8    r9 = i1[r8]
        st1    i2[0] = r1
        st2    i2[2] = r3
        st4    i2[4] = r5
        st8    i2[8] = r7
        st8    i2[r8] = i1
        add    r10 = i2, 24
        st8    r10[-8] = r9
        set    r11 = 0
   (p1) st8    i2[32] = r7 #          // disqualified: no store
.DATA 0x1000
buf:    .i8 -2, 200
        .i16 -1000
        .i32 -100000
        .i64 0x1122334455667788, -9
out:    .zero 64
)");
}

TEST(MasterInterpreterVsParCore, ExpandsLoopsAndBreaksWithATrace) {
  // Each visited point stores a value to the trace: the order of the trace is the control flow.
  const Final f = expect_same(".I1 5\n.I2 3\n.I3 trace\n", R"(
.CODE
main:   mov    r14 = i3              // trace pointer
        set    r1 = 0
        loop   i1, outer             // loop-and-continue
        set    r9 = 100
        xp     record                // call and return
        set    r2 = leaf
        xp     r2                    // indirect expand
        eq     p12 = r1, 4
   (p1) xp     then                  // if / else
   (p2) xp     else
        set    r4 = 0
        loop   i2, cond_body         // loop-and-continue whose body ends in a tail expand
        xp     tail          #       // top-level tail expand: the program ends with it
outer:  add    r1 = r1, 1
        set    r3 = 0
        loop   i2, inner
        mov    r9 = r1
        xp     record
        eq     p3 = r1, 4
   (p3) brk    1             #       // break out of the outer loop at r1 = 4
inner:  add    r3 = r3, 1
        eq     p4 = r3, 2
   (p4) brk                          // continue (no stop bit: M is empty, the iteration ends)
        mul    r9 = r1, 10
        add    r9 = r9, r3
        xp     record
        eq     p5 = r1, 3
        eq     p6 = r3, 3
        and    p50 = p5, p6
   (p5) brk    2             #       // leave inner and the rest of this outer iteration
cond_body: add r4 = r4, 1
        mov    r9 = r4
        xp     record        #       // tail expand at the end of a loop body
record: st8    r14[0] = r9
        add    r14 = r14, 8  #
leaf:   set    r9 = 55
        xp     record        #       // tail expand from a called block returns to its caller
then:   set    r9 = 1
        xp     record        #
else:   set    r9 = 2
        xp     record        #
tail:   set    r9 = 999
        xp     record
   (p6) xp     record        #       // a disqualified expand with a stop bit still ends the block
.DATA 0x1000
trace:  .zero 400
)");
  // outer 1, 2: inner 1 and 3 (2 continues), then the outer body; outer 3: brk 2 after inner 3
  // skips the outer body; outer 4: brk 1 leaves the outer loop; then 100, leaf, then, the three
  // tail-expanded loop bodies, and the two tail expands of `tail`.
  EXPECT_EQ(words(f, 19), (std::vector<std::int64_t>{11, 13, 1, 21, 23, 2, 31, 33, 41, 43, 4, 100, 55, 1, 1, 2, 3, 999,
                                                     999}));
}

TEST(MasterInterpreterVsParCore, ConditionalLoopsLoopAndReturnAndBrkLevels) {
  const Final f = expect_same(".I1 4\n.I2 out\n", R"(
.CODE
main:   set    r1 = 0
        eq     p1 = r0, 0
   (p1) loop   grow                  // conditional loop while p1
        st8    i2[0] = r1
        xp     sub                   // a called block whose loop returns for it
        st8    i2[8] = r2
        set    r5 = 0
        loop   i1, twice
        st8    i2[16] = r5
        xp     deep
        st8    i2[24] = r6   #
grow:   add    r1 = r1, 3
        lt     p1 = r1, 20   #
sub:    set    r2 = 1
        loop   i1, dbl       #       // loop-and-return: ends `sub` too
dbl:    add    r2 = r2, r2   #
twice:  add    r5 = r5, 1
        xp     skip                  // brk 1 in a block called from a loop body: skip the iteration
        add    r5 = r5, 100  #
skip:   eq     p2 = r5, 112
   (p2) brk    1
        add    r5 = r5, 10   #
deep:   set    r6 = 0
        loop   i1, lvl1
        add    r6 = r6, 100  #
lvl1:   add    r6 = r6, 1
        xp     lvl2
        add    r6 = r6, 50   #
lvl2:   eq     p3 = r6, 59
   (p3) brk    2                     // leave lvl2 and the loop (called from the loop body)
        add    r6 = r6, 7    #
.DATA 0x1000
out:    .zero 32
)");
  // grow: 3 .. 21; sub: 1 doubled 4 times; twice: 111, then 112 breaks out of `skip` and the
  // iteration, 223, 334; deep: 1, 8, 58, then 59 leaves lvl2 and the loop, + 100.
  EXPECT_EQ(words(f, 4), (std::vector<std::int64_t>{21, 16, 334, 159}));
}

// --- master-only behaviour -----------------------------------------------------------------------

TEST(MasterInterpreter, CounterLoopsMayCountWithGeneralRegisters) {
  MasterRun m(R"(.MASTER
.ADDRESS main
.CODE
main:   set    r1 = 6
        set    r2 = 0
        loop   r1, body
        set    r3 = -1
        loop   r3, body              // a count <= 0 runs no iteration
        set    r1 = 0
        add    r4 = r2, 0    #
body:   add    r2 = r2, r1   #       // the count was read once: r1 changes nothing
)");
  ASSERT_EQ(m.run(), "");
  EXPECT_EQ(m.interp->registers().r[2], 36u);
  EXPECT_EQ(m.interp->registers().r[4], 36u);
  EXPECT_EQ(m.interp->executed(), 3u + 6 + 4);
}

TEST(MasterInterpreter, ParStagesASnapshotOfR1ToR15AndSyncWaits) {
  MasterConfig cfg;
  MasterRun m(R"(.MASTER
.ADDRESS main
.I1 0x100
.CODE
main:   set    r15 = 15
        mov    r1 = i1
        set    r2 = 2
        set    r5 = 500
        par    r5, kern
        set    r1 = 7                 // after the par: the packet keeps its snapshot
        set    r6 = 0
        par    r6, kern               // N <= 0 launches nothing
   (p1) par    r5, kern               // disqualified
        sync                  #
kern:   add    r1 = i1, 1     #
)", cfg);
  ASSERT_EQ(m.run(), "");
  ASSERT_EQ(m.sched.packets().size(), 1u);
  const FakeScheduler::Packet& p = m.sched.packets()[0];
  EXPECT_EQ(p.block[0], m.program.code_labels.at("kern"));
  EXPECT_EQ(p.block[1], 500u);
  EXPECT_EQ(p.block[16 + 1], 0x100u);
  EXPECT_EQ(p.block[16 + 2], 2u);
  EXPECT_EQ(p.block[16 + 5], 500u);
  EXPECT_EQ(p.block[16 + 15], 15u);
  EXPECT_EQ(p.block[16 + 3], 0u);
  // 2 transactions: staging burst, DOORBELL; the sync sleeps until the completion interrupt and
  // the end of the program had nothing left.
  ASSERT_EQ(m.port.log.size(), 2u);
  EXPECT_EQ(m.port.log[0].length, 256u);
  EXPECT_EQ(m.port.interrupts_taken, 1u);
  // 4 instructions at 0.5 ns before the par; the burst and the doorbell take 100 ns each; the
  // packet runs 1000 ns from its acceptance at 202 ns.
  EXPECT_EQ(m.port.log[0].issue, ns(2));
  EXPECT_EQ(m.port.now(), ns(1202));
  EXPECT_EQ(m.rt->launches().at(0).kernel, "kern");
  EXPECT_EQ(m.stats.find("launches")->number(), 1);
}

TEST(MasterInterpreter, TheEndOfTheProgramIsAnImplicitSync) {
  MasterRun m(R"(.MASTER
.ADDRESS main
.CODE
main:   set    r5 = 8
        par    r5, kern  #
kern:   add    r1 = i1, 1     #
)");
  ASSERT_EQ(m.run(), "");
  EXPECT_EQ(m.port.log.size(), 2u);
  EXPECT_EQ(m.port.interrupts_taken, 1u);
  EXPECT_TRUE(m.rt->launches().at(0).done);
}

TEST(MasterInterpreter, NonMemoryInstructionsCostCpiCyclesAndSynchroniseOnlyAtTransactions) {
  MasterConfig cfg;
  cfg.cpi = 2;  // 1 ns per instruction at 2 GHz
  MasterRun m(R"(.MASTER
.ADDRESS main
.CODE
main:   set    r1 = 0x1000
        set    r2 = 10
        loop   r2, body              // 1 + 10 x 2 instructions
        ld8    r3 = r1[0]            // issued after 13 + 20 = 23 instructions... see below
        add    r3 = r3, 1
        add    r3 = r3, 1   #
body:   add    r4 = r4, 1
        nop         #
.DATA 0x1000
        .i64 40
)", cfg);
  ASSERT_EQ(m.run(), "");
  ASSERT_EQ(m.port.log.size(), 1u);
  EXPECT_EQ(m.port.log[0].issue, ns(23));  // set, set, loop, 10 x (add, nop)
  EXPECT_EQ(m.port.now(), ns(125));        // 100 ns load, two adds
  EXPECT_EQ(m.port.compute_cycles, 50u);
  EXPECT_EQ(m.interp->registers().r[3], 42u);
  EXPECT_EQ(m.stats.find("instructions")->number(), 26);
  EXPECT_EQ(m.stats.find("loads")->number(), 1);
  EXPECT_EQ(m.stats.find("control")->number(), 1);
}

std::string error_of(const std::string& body, MasterConfig cfg = MasterConfig{}) {
  MasterRun m(".MASTER\n.ADDRESS main\n.CODE\n" + body, cfg);
  return m.run();
}

TEST(MasterInterpreter, RuntimeErrorsNameThePcTheSourceLineAndTheCause) {
  EXPECT_EQ(error_of("main:   set r1 = 0x1004\n        ld8 r2 = r1[0] #\n"),
            "runtime error at pc 1 (m.par:5): misaligned 8-byte load at 0x1004");
  EXPECT_EQ(error_of("main:   set r1 = 0x20\n        sli r1 = 0\n        st4 r1[0] = r1 #\n"),
            "runtime error at pc 2 (m.par:6): unmapped 4-byte store at 0x200000 (TLM_ADDRESS_ERROR_RESPONSE)");
  EXPECT_EQ(error_of("main:   set r1 = 1000\n        xp r1 #\n"),
            "runtime error at pc 1 (m.par:5): expand target 1000 is outside the program (2 instructions)");
  MasterConfig shallow;
  shallow.control_stack_depth = 3;
  EXPECT_EQ(error_of("main:   xp main\n        nop #\n", shallow),
            "runtime error at pc 0 (m.par:4): command-stack overflow (master.control_stack_depth = 3 entries)");
  MasterConfig limited;
  limited.max_instructions = 100;
  EXPECT_EQ(error_of("main:   loop body #\nbody:   nop #\n", limited),
            "runtime error at pc 1 (m.par:5): run limit exceeded: more than 100 instructions "
            "(master.max_instructions); probable endless loop with 1 open control-stack entries");
}

TEST(MasterInterpreter, AnIllegalWordIsAnErrorWhenFetched) {
  MasterRun m(".MASTER\n.ADDRESS main\n.CODE\nmain:   nop\n        nop #\n");
  m.program.code[1] = 0x7E000000u;  // op6 = 63: reserved
  m.interp = std::make_unique<MasterInterpreter>(m.program, m.cfg, m.port, *m.rt, *m.counters);
  const std::string e = m.run();
  EXPECT_EQ(e.rfind("runtime error at pc 1 (m.par:5): illegal instruction: ", 0), 0u) << e;
}

TEST(MasterInterpreter, AFailedPacketStopsTheMasterAtItsSyncOrAtTheEnd) {
  const std::string src = R"(.MASTER
.ADDRESS main
.CODE
main:   set    r5 = 4
        par    r5, kern
        sync
        par    r5, kern #
kern:   add    r1 = i1, 1     #
)";
  {
    MasterRun m(src);
    m.sched.fails = [](std::uint64_t seq) { return seq == 1; };
    EXPECT_EQ(m.run(),
              "runtime error at pc 2 (m.par:6): packet 1 (kern, 4 threads) failed: the thread scheduler reported it "
              "(FAILED_SEQ = 1)");
    EXPECT_EQ(m.sched.packets().size(), 1u) << "the master stopped at the sync";
  }
  {
    MasterRun m(src);
    m.sched.fails = [](std::uint64_t seq) { return seq == 2; };
    EXPECT_EQ(m.run(),
              "runtime error at pc 3 (m.par:7): packet 2 (kern, 4 threads) failed: the thread scheduler reported it "
              "(FAILED_SEQ = 2) (implicit sync at the end of the master program)");
  }
}

TEST(MasterConfigTest, InvalidValuesNameTheirOption) {
  MasterConfig c;
  c.clock_mhz = 0;
  c.cpi = 0;
  c.max_instructions = 0;
  const std::vector<std::string> e = c.validate();
  ASSERT_EQ(e.size(), 3u);
  EXPECT_EQ(e[0], "master.clock_mhz: must be in (0, 1000000]");
  EXPECT_EQ(e[1], "master.cpi: 0 is out of range 1..1000000");
  EXPECT_EQ(e[2], "master.max_instructions: must be at least 1");
  EXPECT_THROW(checked(c), std::invalid_argument);
  EXPECT_TRUE(MasterConfig{}.validate().empty());
}

// The master.* options: the core's own (MasterConfig) and those of the host runtime it runs
// (runtime::RuntimeConfig, registered by sw/runtime), as the platform registers both.
TEST(MasterConfigTest, EveryFieldIsAnOption) {
  MasterConfig c;
  runtime::RuntimeConfig rc;
  simkit::OptionRegistry reg;
  register_options(reg, c);
  runtime::register_options(reg, rc);
  const std::vector<std::string> args = {"parsys",
                                         "--master.clock_mhz", "2600",
                                         "--master.cpi", "2",
                                         "--master.scheduler_base", "0x2000000000",
                                         "--master.heap_base", "0x100000",
                                         "--master.heap_bytes", "0x80000",
                                         "--master.copy_chunk_bytes", "128",
                                         "--master.wait", "flag",
                                         "--master.poll_ns", "250",
                                         "--master.flag_addr", "0x800000000100",
                                         "--master.wait_limit_ns", "0",
                                         "--master.control_stack_depth", "16",
                                         "--master.max_instructions", "1000"};
  const auto r = reg.parse(args);
  ASSERT_TRUE(r.ok()) << r.errors.front();
  EXPECT_EQ(c.clock_mhz, 2600.0);
  EXPECT_EQ(c.cpi, 2u);
  EXPECT_EQ(rc.scheduler_base, 0x2000000000u);
  EXPECT_EQ(rc.heap_base, 0x100000u);
  EXPECT_EQ(rc.heap_bytes, 0x80000u);
  EXPECT_EQ(rc.copy_chunk_bytes, 128u);
  EXPECT_EQ(rc.wait, runtime::WaitMode::Flag);
  EXPECT_EQ(rc.poll_ns, 250.0);
  EXPECT_EQ(rc.flag_addr, 0x800000000100u);
  EXPECT_EQ(rc.wait_limit_ns, 0.0);
  EXPECT_EQ(c.control_stack_depth, 16);
  EXPECT_EQ(c.max_instructions, 1000);
  EXPECT_TRUE(c.validate().empty());
  EXPECT_TRUE(rc.validate().empty());
  // The flag method needs its flag.
  runtime::RuntimeConfig f;
  f.wait = runtime::WaitMode::Flag;
  EXPECT_EQ(f.validate(), std::vector<std::string>{
                              "master.flag_addr: must be set (a host-memory address) when master.wait = flag"});
  // The default wait is the completion interrupt.
  EXPECT_EQ(runtime::RuntimeConfig{}.wait, runtime::WaitMode::Interrupt);
  EXPECT_STREQ(runtime::to_string(runtime::WaitMode::Interrupt), "interrupt");
}

}  // namespace
}  // namespace par::master
