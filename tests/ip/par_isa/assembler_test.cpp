// Assembler: example programs, pseudo-instructions, directives, labels (docs/isa.md §8, §10).
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include "support/temp_dir.hpp"
#include "isa_test_support.hpp"
#include "par/isa/assembler.hpp"
#include "par/isa/encoding.hpp"

namespace par::isa {
namespace {

std::uint64_t f64_bits(double d) {
  std::uint64_t b;
  std::memcpy(&b, &d, 8);
  return b;
}
std::uint32_t f32_bits(float f) {
  std::uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}
std::uint64_t read_le(const std::vector<std::uint8_t>& v, std::size_t off, int n) {
  std::uint64_t x = 0;
  for (int i = n - 1; i >= 0; --i) x = (x << 8) | v.at(off + static_cast<std::size_t>(i));
  return x;
}

Program must_assemble(const std::string& text, const std::string& file = "t.par") {
  const AssemblyResult r = assemble(text, file);
  EXPECT_TRUE(r.ok()) << r.messages();
  return r.ok() ? *r.program : Program{};
}

TEST(Assembler, AllExampleProgramsAssembleWithoutDiagnostics) {
  const auto files = test::par_files(test::source_dir() / "tests" / "ip" / "par_isa" / "programs");
  ASSERT_GE(files.size(), 8u);
  for (const auto& f : files) {
    const AssemblyResult r = assemble_file(f.string());
    EXPECT_TRUE(r.ok()) << f << "\n" << r.messages();
    EXPECT_TRUE(r.diagnostics.empty()) << f << "\n" << r.messages();
  }
}

TEST(Assembler, ScaledVectorAddMatchesSpec) {
  const std::string path = (test::source_dir() / "tests/ip/par_isa/programs/par_isa_10_1_scaled_vector_add.par").string();
  const AssemblyResult r = assemble_file(path);
  ASSERT_TRUE(r.ok()) << r.messages();
  const Program& p = *r.program;
  EXPECT_EQ(p.kind, ProgramKind::Packet);
  EXPECT_EQ(p.threads, 10);
  EXPECT_EQ(p.start, 0u);
  EXPECT_EQ(p.data_labels.at("x"), 0x1000u);
  EXPECT_EQ(p.data_labels.at("y"), 0x1050u);
  EXPECT_EQ(p.data_labels.at("a"), 0x10A0u);
  EXPECT_EQ(p.data_labels.at("z"), 0x10C0u);
  EXPECT_EQ(p.code_labels.at("sva"), 0u);
  EXPECT_EQ(p.inherited[1], 0x1000u);
  EXPECT_EQ(p.inherited[2], 0x1050u);
  EXPECT_EQ(p.inherited[3], 0x10C0u);
  EXPECT_EQ(p.inherited[4], 0x10A0u);
  EXPECT_EQ(p.inherited[5], 0u);
  ASSERT_EQ(p.code.size(), 7u);
  EXPECT_EQ(p.code[0], 0x241800C0u);  // sll r1 = i0, 3 (golden word)
  EXPECT_EQ(p.code[6] & 1u, 1u);      // stop bit on st8
  ASSERT_EQ(p.data.size(), 1u);
  EXPECT_EQ(p.data[0].address, 0x1000u);
  EXPECT_EQ(p.data[0].bytes.size(), 0x10C0u - 0x1000u + 80u);
  EXPECT_EQ(read_le(p.data[0].bytes, 8, 8), f64_bits(1.0));     // x[1]
  EXPECT_EQ(read_le(p.data[0].bytes, 0xA0, 8), f64_bits(2.5));  // a
  EXPECT_EQ(read_le(p.data[0].bytes, 0xA8, 8), 0u);             // .align padding
  EXPECT_EQ(p.source_file, path);
  ASSERT_EQ(p.source_lines.size(), 7u);
  EXPECT_EQ(p.source_lines[0], 12u);
  EXPECT_EQ(p.source_lines[6], 18u);
  EXPECT_EQ(p.location(0), path + ":12");
}

TEST(Assembler, CounterLoopExampleExpandsPseudos) {
  const AssemblyResult r =
      assemble_file((test::source_dir() / "tests/ip/par_isa/programs/par_isa_10_2_counter_loop_break.par").string());
  ASSERT_TRUE(r.ok()) << r.messages();
  const Program& p = *r.program;
  EXPECT_EQ(p.inherited[2], 8u);
  EXPECT_EQ(p.code_labels.at("scan"), 7u);
  const Instruction loop = *decode(p.code[4]);
  EXPECT_EQ(loop.op, Opcode::LoopR);
  EXPECT_EQ(loop.rd, 18);  // i2
  EXPECT_EQ(loop.imm, 7);
  const Instruction gt = *decode(p.code[8]);  // gt p1 = r6, r1 -> lt p10 = r1, r6
  EXPECT_EQ(gt.op, Opcode::Lt);
  EXPECT_EQ(gt.pt, 1);
  EXPECT_EQ(gt.pf, 0);
  EXPECT_EQ(gt.ra, 1);
  EXPECT_EQ(gt.rb, 6);
  const Instruction mov = *decode(p.code[9]);  // (p1) mov r2 = r3 -> or r2 = r3, 0
  EXPECT_EQ(mov.op, Opcode::Or);
  EXPECT_EQ(mov.qp, 1);
  EXPECT_TRUE(mov.imm_form);
  EXPECT_EQ(mov.imm, 0);
  EXPECT_EQ(p.data_labels.at("out"), 0x2040u);
}

TEST(Assembler, MasterExampleAcceptsParAndSync) {
  const AssemblyResult r =
      assemble_file((test::source_dir() / "tests/ip/par_isa/programs/par_isa_10_3_master_two_packets.par").string());
  ASSERT_TRUE(r.ok()) << r.messages();
  const Program& p = *r.program;
  EXPECT_EQ(p.kind, ProgramKind::Master);
  EXPECT_EQ(p.threads, 0);
  const Instruction par = *decode(p.code[6]);
  EXPECT_EQ(par.op, Opcode::Par);
  EXPECT_EQ(par.rd, 5);
  EXPECT_EQ(par.imm, static_cast<std::int64_t>(p.code_labels.at("sva")));
  EXPECT_EQ(decode(p.code[11])->op, Opcode::Sync);
  EXPECT_EQ(p.inherited[1], p.data_labels.at("x"));
  EXPECT_EQ(p.data_labels.at("y") - p.data_labels.at("x"), 8000u);
}

struct Pair {
  const char* pseudo;
  const char* machine;
};

// docs/isa.md §8.3: every pseudo-instruction and the machine instruction it stands for.
constexpr Pair kPseudos[] = {
    {"sub r1 = r2, r3", "subf r1 = r3, r2"},
    {"subu r1 = r2, i3", "subfu r1 = i3, r2"},
    {"sub r1 = r2, 5", "add r1 = r2, -5"},
    {"sub r1 = r2, 256", "add r1 = r2, -256"},
    {"sub r1 = r2, -255", "add r1 = r2, 255"},
    {"neg r1 = r2", "subf r1 = r2, 0"},
    {"mov r1 = i2", "or r1 = i2, 0"},
    {"not r1 = r2", "nor r1 = r2, 0"},
    {"rol r1 = r2, 8", "ror r1 = r2, 56"},
    {"rol r1 = r2, 0", "ror r1 = r2, 0"},
    {"mulu r1 = r2, r3", "mul r1 = r2, r3"},
    {"mulu r1 = r2, 7", "mul r1 = r2, 7"},
    {"null", "eq p00 = r0, 0"},
    {"nop", "eq p00 = r0, 0"},
    // Compare pseudos, register forms.
    {"ne p12 = r1, r2", "eq p21 = r1, r2"},
    {"le p12 = r1, r2", "lt p21 = r2, r1"},
    {"leu p12 = r1, r2", "ltu p21 = r2, r1"},
    {"gt p12 = r1, r2", "lt p12 = r2, r1"},
    {"gtu p12 = r1, r2", "ltu p12 = r2, r1"},
    {"ge p12 = r1, r2", "lt p21 = r1, r2"},
    {"geu p12 = r1, r2", "ltu p21 = r1, r2"},
    // Immediate forms.
    {"ne p12 = r1, 5", "eq p21 = r1, 5"},
    {"le p12 = r1, 5", "lt p12 = r1, 6"},
    {"leu p12 = r1, 5", "ltu p12 = r1, 6"},
    {"gt p12 = r1, 5", "lt p21 = r1, 6"},
    {"gtu p12 = r1, 5", "ltu p21 = r1, 6"},
    {"ge p12 = r1, 5", "lt p21 = r1, 5"},
    {"geu p12 = r1, 5", "ltu p21 = r1, 5"},
    {"le p12 = r1, 254", "lt p12 = r1, 255"},
    {"le p12 = r1, -256", "lt p12 = r1, -255"},
    {"leu p12 = r1, -2", "ltu p12 = r1, -1"},
    {"gt p12 = r1, -1", "lt p21 = r1, 0"},
    // Single-destination forms.
    {"lt p3 = r1, r2", "lt p30 = r1, r2"},
    {"eq p3 = r1, 7", "eq p30 = r1, 7"},
    {"ne p3 = r1, r2", "eq p03 = r1, r2"},
    {"ge p3 = r1, 5", "lt p03 = r1, 5"},
    {"gt p3 = r1, 5", "lt p03 = r1, 6"},
    {"gt p3 = r1, r2", "lt p30 = r2, r1"},
    {"le p3 = r1, r2", "lt p03 = r2, r1"},
    {"le p3 = r1, 9", "lt p30 = r1, 10"},
    // .w, .d, .f compare pseudos.
    {"le.w p12 = r1, 5", "lt.w p12 = r1, 6"},
    {"ne.w p12 = r1, r2", "eq.w p21 = r1, r2"},
    {"geu.w p12 = r1, r2", "ltu.w p21 = r1, r2"},
    {"gtu.w p4 = r1, 3", "ltu.w p04 = r1, 4"},
    {"ne.d p12 = r1, r2", "eq.d p21 = r1, r2"},
    {"le.d p12 = r1, r2", "lt.d p21 = r2, r1"},
    {"gt.d p12 = r1, r2", "lt.d p12 = r2, r1"},
    {"ge.d p12 = r1, r2", "lt.d p21 = r1, r2"},
    {"gt.f p3 = r1, r2", "lt.f p30 = r2, r1"},
    {"ne.f p5 = r1, r2", "eq.f p05 = r1, r2"},
    // Predicate pseudos.
    {"nand p12 = p3, p4", "and p21 = p3, p4"},
    {"nor p12 = p3, p4", "or p21 = p3, p4"},
    {"xnor p12 = p3, p4", "xor p21 = p3, p4"},
    {"orc p12 = p3, p4", "andc p21 = p4, p3"},
    {"mov p12 = p3", "and p12 = p3, p3"},
    {"not p12 = p3", "and p21 = p3, p3"},
    {"and p3 = p2, p2", "and p30 = p2, p2"},
    {"not p3 = p2", "and p03 = p2, p2"},
    {"nand p3 = p1, p2", "and p03 = p1, p2"},
    // Case rules: mnemonics and registers are case-insensitive.
    {"ADD R1 = R2, I3", "add r1 = r2, i3"},
    {"(P3) LD8 R4 = I1[R2] #", "(p3) ld8 r4 = i1[r2] #"},
    {"Mul.D r5 = r4, r2", "mul.d r5 = r4, r2"},
};

TEST(Assembler, PseudoInstructionsExpandToTheirMachineForms) {
  for (const Pair& p : kPseudos) {
    SCOPED_TRACE(p.pseudo);
    EXPECT_EQ(test::assemble_one(std::string("        ") + p.pseudo),
              test::assemble_one(std::string("        ") + p.machine));
  }
}

TEST(Assembler, RegisterAndPredicateVersionsAreToldApartByTheDestination) {
  const struct {
    const char* line;
    Opcode op;
  } cases[] = {
      {"and r1 = r2, r3", Opcode::And},    {"and p12 = p2, p3", Opcode::PAnd},
      {"or r1 = r2, 5", Opcode::Or},       {"or p12 = p2, p3", Opcode::POr},
      {"xor r1 = r2, r3", Opcode::Xor},    {"xor p1 = p2, p3", Opcode::PXor},
      {"andc r1 = r2, r3", Opcode::Andc},  {"andc p12 = p2, p3", Opcode::PAndc},
      {"nand r1 = r2, r3", Opcode::Nand},  {"nand p12 = p2, p3", Opcode::PAnd},
      {"nor r1 = r2, r3", Opcode::Nor},    {"nor p12 = p2, p3", Opcode::POr},
      {"xnor r1 = r2, r3", Opcode::Xnor},  {"xnor p12 = p2, p3", Opcode::PXor},
      {"orc r1 = r2, r3", Opcode::Orc},    {"orc p12 = p2, p3", Opcode::PAndc},
      {"mov r1 = r2", Opcode::Or},         {"mov p12 = p2", Opcode::PAnd},
      {"not r1 = r2", Opcode::Nor},        {"not p12 = p2", Opcode::PAnd},
  };
  for (const auto& c : cases) EXPECT_EQ(decode(test::assemble_one(c.line))->op, c.op) << c.line;
}

TEST(Assembler, FormIsChosenByTheLastOperand) {
  const Instruction r = *decode(test::assemble_one("add r1 = r2, r3"));
  const Instruction i = *decode(test::assemble_one("add r1 = r2, 3"));
  EXPECT_FALSE(r.imm_form);
  EXPECT_TRUE(i.imm_form);
  EXPECT_EQ(r.rb, 3);
  EXPECT_EQ(i.imm, 3);
  const Instruction ldr = *decode(test::assemble_one("ld4u r2 = r3[r4]"));
  const Instruction ldi = *decode(test::assemble_one("ld4u r2 = r3[-8]"));
  EXPECT_FALSE(ldr.imm_form);
  EXPECT_TRUE(ldi.imm_form);
  EXPECT_EQ(ldi.imm, -8);
  const Instruction srl = *decode(test::assemble_one("srl r1 = r2, 63"));
  EXPECT_EQ(srl.op, Opcode::Srl);
  EXPECT_EQ(srl.imm, 63);
  EXPECT_EQ(decode(test::assemble_one("set r1 = 0xC000"))->imm, -16384);  // sign-extended
  EXPECT_EQ(decode(test::assemble_one("sli r1 = -1"))->imm, 0xFFFF);     // low 16 bits
  EXPECT_EQ(decode(test::assemble_one("brk"))->imm, 0);
  EXPECT_EQ(decode(test::assemble_one("extu r1 = r2, 31"))->op, Opcode::Extu);
}

TEST(Assembler, LabelsCommentsAndSections) {
  const Program p = must_assemble(
      "; header comment\n"
      ".PAR                 // packet\n"
      ".ADDRESS Entry\n"
      ".THREADS 3\n"
      ".I5 entry            ; a code label gives its instruction address\n"
      ".CODE\n"
      "        xp later     // forward reference\n"
      "Entry:\n"
      "entry:  add r1 = r2, r3 #\n"
      ".CODE\n"
      "later:  (p1) loop later #\n"
      "count:\n"
      ".DATA 0x100\n"
      "tbl:    .i64 later, Entry, tbl, end\n"
      "end:\n");
  EXPECT_EQ(p.code.size(), 3u);
  EXPECT_EQ(p.code_labels.at("Entry"), 1u);  // labels are case-sensitive: two labels
  EXPECT_EQ(p.code_labels.at("entry"), 1u);
  EXPECT_EQ(p.code_labels.at("later"), 2u);
  EXPECT_EQ(p.code_labels.at("count"), 3u);  // a label at the end names "the next instruction"
  EXPECT_EQ(p.start, 1u);
  EXPECT_EQ(p.inherited[5], 1u);
  EXPECT_EQ(decode(p.code[0])->imm, 2);
  EXPECT_EQ(p.data_labels.at("end"), 0x120u);
  ASSERT_EQ(p.data.size(), 1u);
  EXPECT_EQ(read_le(p.data[0].bytes, 0, 8), 2u);
  EXPECT_EQ(read_le(p.data[0].bytes, 8, 8), 1u);
  EXPECT_EQ(read_le(p.data[0].bytes, 16, 8), 0x100u);
  EXPECT_EQ(read_le(p.data[0].bytes, 24, 8), 0x120u);
  EXPECT_EQ(p.source_lines, (std::vector<std::uint32_t>{7, 9, 11}));
}

TEST(Assembler, DataDirectivesProduceLittleEndianBytes) {
  const Program p = must_assemble(
      ".MASTER\n.ADDRESS 0\n.CODE\n sync #\n"
      ".DATA 0x2000\n"
      "b:  .i8  1, -1, 255, -128\n"
      "h:  .i16 0x1234, -2, 65535\n"
      "w:  .i32 0xDEADBEEF, -1\n"
      "    .align 8\n"
      "d:  .i64 -1, 0x0123456789ABCDEF, 18446744073709551615, -9223372036854775808\n"
      "f:  .f32 1.5, -0.0, inf, 1e-45\n"
      "g:  .f64 2.5, -1e-3, nan, -inf, 3, 0x10\n"
      "z:  .zero 3\n"
      "    .align 4\n"
      "e:  .i8 7\n"
      ".DATA 0x10\n"
      "lo: .i32 b, e\n");
  ASSERT_EQ(p.data.size(), 2u);
  const auto& v = p.data[0].bytes;
  EXPECT_EQ(p.data_labels.at("b"), 0x2000u);
  EXPECT_EQ(read_le(v, 0, 4), 0x80FFFF01u);
  EXPECT_EQ(p.data_labels.at("h"), 0x2004u);
  EXPECT_EQ(read_le(v, 4, 2), 0x1234u);
  EXPECT_EQ(read_le(v, 6, 2), 0xFFFEu);
  EXPECT_EQ(read_le(v, 8, 2), 0xFFFFu);
  EXPECT_EQ(p.data_labels.at("w"), 0x200Au);  // no automatic alignment
  EXPECT_EQ(read_le(v, 0x0A, 4), 0xDEADBEEFu);
  EXPECT_EQ(read_le(v, 0x0E, 4), 0xFFFFFFFFu);
  EXPECT_EQ(p.data_labels.at("d"), 0x2018u);  // .align 8 from 0x2012
  EXPECT_EQ(read_le(v, 0x18, 8), ~0ull);
  EXPECT_EQ(read_le(v, 0x20, 8), 0x0123456789ABCDEFull);
  EXPECT_EQ(read_le(v, 0x28, 8), ~0ull);
  EXPECT_EQ(read_le(v, 0x30, 8), 0x8000000000000000ull);
  EXPECT_EQ(p.data_labels.at("f"), 0x2038u);
  EXPECT_EQ(read_le(v, 0x38, 4), f32_bits(1.5f));
  EXPECT_EQ(read_le(v, 0x3C, 4), 0x80000000u);
  EXPECT_EQ(read_le(v, 0x40, 4), 0x7F800000u);
  EXPECT_EQ(read_le(v, 0x44, 4), 1u);  // smallest subnormal
  EXPECT_EQ(p.data_labels.at("g"), 0x2048u);
  EXPECT_EQ(read_le(v, 0x48, 8), 0x4004000000000000ull);
  EXPECT_EQ(read_le(v, 0x50, 8), f64_bits(-1e-3));
  EXPECT_EQ(read_le(v, 0x58, 8) & 0x7FF0000000000000ull, 0x7FF0000000000000ull);
  EXPECT_NE(read_le(v, 0x58, 8) & 0x000FFFFFFFFFFFFFull, 0u);  // a NaN
  EXPECT_EQ(read_le(v, 0x60, 8), 0xFFF0000000000000ull);
  EXPECT_EQ(read_le(v, 0x68, 8), f64_bits(3.0));
  EXPECT_EQ(read_le(v, 0x70, 8), f64_bits(16.0));
  EXPECT_EQ(p.data_labels.at("z"), 0x2078u);
  EXPECT_EQ(p.data_labels.at("e"), 0x207Cu);  // 0x207B aligned to 4
  EXPECT_EQ(v.size(), 0x7Du);
  EXPECT_EQ(p.data[1].address, 0x10u);
  EXPECT_EQ(read_le(p.data[1].bytes, 0, 4), 0x2000u);
  EXPECT_EQ(read_le(p.data[1].bytes, 4, 4), 0x207Cu);
  EXPECT_EQ(p.data_extent(), (std::pair<std::uint64_t, std::uint64_t>{0x10, 0x207D}));
}

TEST(Assembler, InheritedValuesTakeIntegersLabelsAndFloatLiterals) {
  const Program p = must_assemble(
      ".PAR\n.ADDRESS 0\n.THREADS 9223372036854775807\n"
      ".I1 2.5\n.I2 -7\n.I3 0xFFFFFFFFFFFFFFFF\n.I4 -inf\n.I5 1e3\n.I6 v\n.I7 -0x10\n.I8 42\n.I15 nan\n"
      ".CODE\n add r1 = i1, i2 #\n.DATA 0x40\nv: .i8 1\n");
  EXPECT_EQ(p.threads, INT64_MAX);
  EXPECT_EQ(p.inherited[1], 0x4004000000000000ull);
  EXPECT_EQ(p.inherited[2], static_cast<std::uint64_t>(-7));
  EXPECT_EQ(p.inherited[3], ~0ull);
  EXPECT_EQ(p.inherited[4], 0xFFF0000000000000ull);
  EXPECT_EQ(p.inherited[5], f64_bits(1000.0));
  EXPECT_EQ(p.inherited[6], 0x40u);
  EXPECT_EQ(p.inherited[7], static_cast<std::uint64_t>(-16));
  EXPECT_EQ(p.inherited[8], 42u);  // `.I8` in the header is the register, not data
  EXPECT_EQ(p.inherited[15], 0x7FF8000000000000ull);
}

TEST(Assembler, WarningsDoNotStopAssembly) {
  const AssemblyResult r = assemble(".MASTER\n.ADDRESS 0\n.CODE\n        xp 300 #\n", "w.par");
  ASSERT_TRUE(r.ok()) << r.messages();
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics[0].severity, Diagnostic::Severity::Warning);
  EXPECT_EQ(r.messages(), "w.par:4:12: warning: xp target 300 is past the end of the program (1 instructions)\n");
}

TEST(Assembler, BlockRunningIntoALabelWithoutAStopBitIsAWarning) {
  const std::string src = ".PAR\n.ADDRESS main\n.THREADS 1\n.CODE\nmain:   loop body\n  add r1 = r1, 1\n"
                          "body:\n  add r2 = r2, 1\nalso:   add r3 = r3, 1 #\nend:    add r4 = r4, 1 #\n";
  const AssemblyResult r = assemble(src, "w.par");
  ASSERT_TRUE(r.ok()) << r.messages();
  EXPECT_EQ(r.messages(),
            "w.par:6:3: warning: instruction has no stop bit '#': its block runs on into label 'body' (line 7)\n"
            "w.par:8:3: warning: instruction has no stop bit '#': its block runs on into label 'also' (line 9)\n");
  // The program is the one written: the block simply continues.
  EXPECT_FALSE(decode(r.program->code[1])->stop);
  EXPECT_TRUE(decode(r.program->code[3])->stop);
}

TEST(Assembler, MissingFileIsReported) {
  const AssemblyResult r = assemble_file("/nonexistent/dir/k.par");
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.messages(), "/nonexistent/dir/k.par:0:0: error: cannot read: No such file or directory\n");
  const std::string dir = test::source_dir().string();
  EXPECT_EQ(assemble_file(dir).messages(), dir + ":0:0: error: cannot read: it is a directory\n");
  EXPECT_EQ(assemble_file("/proc/self/mem").messages(),
            "/proc/self/mem:0:0: error: cannot read: read error: Input/output error\n");
}

// Devices and files past the limit are refused before anything is read.
TEST(Assembler, DevicesAndSourcesLargerThan1GiBAreRefused) {
  EXPECT_EQ(assemble_file("/dev/zero").messages(), "/dev/zero:0:0: error: cannot read: it is a device, not a file\n");
  const std::string big = par::testing::temp_dir("assembler") + "/big.par";
  { std::ofstream create(big); }
  std::filesystem::resize_file(big, (std::uint64_t{1} << 30) + 1);  // sparse: nothing is written
  EXPECT_EQ(assemble_file(big).messages(),
            big + ":0:0: error: cannot read: it is larger than 1 GiB, the limit for this kind of input\n");
  std::filesystem::remove(big);
}

}  // namespace
}  // namespace par::isa
