// Runtime errors (docs/isa.md §9.2) and impossible configurations: one clear message naming the core, the
// PC with its source line, the thread and the cause — never a crash.
#include <gtest/gtest.h>

#include <sstream>

#include "core_test_support.hpp"
#include "par/isa/encoding.hpp"

namespace par::core {
namespace {

std::string error_of(const std::string& source, CoreConfig cfg = testing::config(1, 4),
                     RunMode mode = RunMode::Timing) {
  RunOptions opt;
  opt.mode = mode;
  const ProgramRun run = run_program(testing::assemble_or_fail(source, "bad.par"), cfg, opt);
  EXPECT_FALSE(run.ok);
  return run.error;
}

TEST(RuntimeErrors, MisalignedAccessNamesPcLineThreadAndAddress) {
  EXPECT_EQ(error_of(testing::packet(8, ".I1 0x1000\n") + "main: sll r1 = i0, 2\n ld8 r2 = i1[r1] #\n"),
            "core0: runtime error at pc 1 (bad.par:7), thread 1: misaligned 8-byte load at 0x1004");
}

TEST(RuntimeErrors, AccessOutsideLocalMemory) {
  CoreConfig cfg = testing::config(1, 4);
  cfg.local_mem_size = 0x10000;
  EXPECT_EQ(error_of(testing::packet(8, ".I1 0xFFF8\n") + "main: sll r1 = i0, 3\n st8 i1[r1] = r1 #\n", cfg),
            "core0: runtime error at pc 1 (bad.par:7), thread 1: unmapped 8-byte store at 0x10000");
}

// Every window size, down to windows smaller than the access: an access is performed exactly
// when all of its bytes lie in [base, base + size), in timing and functional mode.
TEST(RuntimeErrors, LocalWindowOfEverySizeHoldsExactlyItsBytes) {
  constexpr std::uint64_t kBase = 0x100;
  for (std::uint64_t window = 1; window <= 12; ++window) {
    for (int bytes : {1, 2, 4, 8}) {
      for (std::uint64_t offset = 0; offset <= window + 8; offset += static_cast<std::uint64_t>(bytes)) {
        for (RunMode mode : {RunMode::Timing, RunMode::Functional}) {
          CoreConfig cfg = testing::config(1, 1);
          cfg.local_mem_base = kBase;
          cfg.local_mem_size = window;
          const std::uint64_t addr = kBase + offset;
          const std::string n = std::to_string(bytes);
          const std::string load = bytes == 8 ? "ld8" : "ld" + n + "u";
          const std::string src = testing::packet(1, ".I1 " + std::to_string(addr) + "\n") + "main: set r1 = 0x5A\n" +
                                  " st" + n + " i1[0] = r1 #\n " + load + " r2 = i1[0]\n st" + n + " i1[0] = r2 #\n";
          RunOptions opt;
          opt.mode = mode;
          const ProgramRun run = run_program(testing::assemble_or_fail(src, "w.par"), cfg, opt);
          const std::string where = "window " + std::to_string(window) + ", " + n + "-byte access at offset " +
                                    std::to_string(offset) + (mode == RunMode::Timing ? ", timing" : ", functional");
          if (offset + static_cast<std::uint64_t>(bytes) <= window) {
            ASSERT_TRUE(run.ok) << where << ": " << run.error;
            EXPECT_EQ(run.read(addr, 1, bytes)[0], 0x5Au) << where;
          } else {
            std::ostringstream hex;
            hex << std::hex << addr;
            EXPECT_EQ(run.error, "core0: runtime error at pc 1 (w.par:7), thread 0: unmapped " + n +
                                     "-byte store at 0x" + hex.str())
                << where;
          }
        }
      }
    }
  }
}

TEST(RuntimeErrors, IndirectExpandWithDisagreeingTargets) {
  EXPECT_EQ(error_of(testing::packet(4) + "main: add r1 = i0, 2\n xp r1\n add r2 = r1, 0 #\nx: add r3 = r1, 0 #\n"),
            "core0: runtime error at pc 1 (bad.par:6), thread 0 and thread 1: indirect expand with "
            "disagreeing targets 2 and 3");
}

TEST(RuntimeErrors, ExpandTargetOutsideTheProgram) {
  EXPECT_EQ(error_of(testing::packet(4) + "main: set r1 = 500\n xp r1 #\n"),
            "core0: runtime error at pc 1 (bad.par:6): expand target 500 is outside the program (2 instructions)");
}

TEST(RuntimeErrors, CommandStackOverflow) {
  CoreConfig cfg = testing::config(1, 2);
  cfg.control_stack_depth = 5;
  EXPECT_EQ(error_of(testing::packet(2) + "main: xp main\n add r1 = r1, 1 #\n", cfg),
            "core0: runtime error at pc 0 (bad.par:5): command-stack overflow (core.control_stack_depth = 5 entries)");
}

TEST(RuntimeErrors, EndlessLoopHitsTheCycleLimitAndSaysWhereTheFrontendIs) {
  CoreConfig cfg = testing::config(1, 4);
  cfg.max_cycles = 5000;
  const std::string src = testing::packet(4) + "main: loop body\n add r1 = r1, 0 #\nbody: add r2 = r2, 1 #\n";
  EXPECT_EQ(error_of(src, cfg),
            "core0: runtime error at pc 2 (bad.par:7): run limit exceeded: more than 5000 cycles "
            "(core.max_cycles); probable endless loop; the frontend is stuck in round 0 with 2 open "
            "control-stack entries");
  const std::string functional = error_of(src, cfg, RunMode::Functional);
  EXPECT_NE(functional.find("more than 5000 fetched instructions"), std::string::npos) << functional;
}

TEST(RuntimeErrors, IllegalWordIsReportedWhenFetched) {
  isa::Program p = testing::assemble_or_fail(testing::packet(4) + "main: add r1 = i0, 1\n add r2 = r1, 1 #\n");
  p.code[1] = 0xFC000000u;  // op6 63: reserved
  const ProgramRun run = run_program(p, testing::config(1, 4));
  EXPECT_FALSE(run.ok);
  EXPECT_NE(run.error.find("core0: runtime error at pc 1 (test.par:6): illegal instruction: "), std::string::npos)
      << run.error;
}

TEST(RuntimeErrors, MasterOnlyInstructionOnAParCore) {
  isa::Instruction par;
  par.op = isa::Opcode::Par;
  par.rd = 1;
  par.imm = 0;
  par.stop = true;
  CoreConfig cfg = testing::config(1, 1);
  auto program = LoadedProgram::from_instructions({par}, cfg);
  LocalMemory mem(0, 4096);
  PacketEngine engine("core3", cfg, *program, mem, nullptr, RunMode::Timing);
  Packet packet;
  packet.threads = 1;
  CoreStats stats;
  std::string error;
  EXPECT_FALSE(engine.run(packet, stats, &error));
  EXPECT_EQ(error, "core3: runtime error at pc 0: illegal instruction: 'par' is not allowed on a PAR core");
}

TEST(RuntimeErrors, NonInheritedLoopCountOnAParCore) {
  isa::Instruction loop;
  loop.op = isa::Opcode::LoopR;
  loop.rd = 3;  // r3
  loop.imm = 0;
  loop.stop = true;
  CoreConfig cfg = testing::config(1, 1);
  auto program = LoadedProgram::from_instructions({loop}, cfg);
  LocalMemory mem(0, 4096);
  PacketEngine engine("core0", cfg, *program, mem, nullptr, RunMode::Timing);
  Packet packet;
  packet.threads = 1;
  CoreStats stats;
  std::string error;
  EXPECT_FALSE(engine.run(packet, stats, &error));
  EXPECT_EQ(error,
            "core0: runtime error at pc 0: illegal instruction: loop count must be an inherited register "
            "i1..i15 on a PAR core");
}

TEST(ConfigErrors, ImpossibleParametersAreAllReported) {
  CoreConfig cfg;
  cfg.lanes = 0;
  cfg.threads_per_lane = 65;
  cfg.rob_size = 0;
  cfg.queue_size = 0;
  cfg.output_buffers = 0;
  cfg.fpu_latency = 0;
  cfg.gprs = 32;
  const ProgramRun run = run_program(testing::assemble_or_fail(testing::packet(1) + "main: add r1 = i0, 1 #\n"), cfg);
  EXPECT_FALSE(run.ok);
  for (const char* expected : {"core.lanes: 0 is out of range 1..256", "core.threads_per_lane: 65 is out of range 1..64",
                               "core.rob_size: 0 is out of range 1..4096", "core.queue_size: 0 is out of range 1..4096",
                               "core.output_buffers: 0 is out of range 1..4096", "core.fpu_latency: 0 is out of range 1..1000",
                               "core.gprs: must be 16 (fixed by the instruction encoding), got 32"})
    EXPECT_NE(run.error.find(expected), std::string::npos) << expected << "\n" << run.error;
}

TEST(ConfigErrors, ProgramLargerThanTheInstructionCache) {
  CoreConfig cfg;
  cfg.icache_size = 1;
  const ProgramRun run = run_program(testing::assemble_or_fail(testing::packet(1) + "main: add r1 = i0, 1\n add r2 = r1, 1 #\n"), cfg);
  EXPECT_EQ(run.error, "program has 2 instructions, more than the instruction cache holds (core.icache_size = 1)");
}

TEST(ConfigErrors, DataOutsideLocalMemory) {
  CoreConfig cfg;
  cfg.local_mem_size = 0x1000;
  const ProgramRun run = run_program(
      testing::assemble_or_fail(testing::packet(1) + "main: add r1 = i0, 1 #\n.DATA 0x2000\nv: .i64 1\n"), cfg);
  EXPECT_EQ(run.error, "data section at 0x2000 (8 bytes) lies outside the local memory [0x0, 0x1000)");
}

}  // namespace
}  // namespace par::core
