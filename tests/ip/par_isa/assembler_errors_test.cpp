// Assembler errors (docs/isa.md §9.1): one test per case of the table with the exact
// "file:line:column: error: message" text, plus other malformed input and robustness.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "isa_test_support.hpp"
#include "par/isa/assembler.hpp"

namespace par::isa {
namespace {

// Lines 1..4; the code under test starts on line 5.
const std::string kHead = ".PAR\n.ADDRESS main\n.THREADS 1\n.CODE\n";

// Messages of a source that must fail.
std::string errors(const std::string& text) {
  const AssemblyResult r = assemble(text, "k.par");
  EXPECT_FALSE(r.ok());
  EXPECT_FALSE(r.program.has_value());
  return r.messages();
}

TEST(AssemblerErrors, UnknownMnemonic) {
  EXPECT_EQ(errors(kHead + "main:   addd r1 = r2, r3 #\n"), "k.par:5:9: error: unknown mnemonic 'addd'\n");
  EXPECT_EQ(errors(kHead + "main:   leu.d p12 = r1, r2 #\n"), "k.par:5:9: error: unknown mnemonic 'leu.d'\n");
}

TEST(AssemblerErrors, UnknownOrMisplacedDirective) {
  EXPECT_EQ(errors(".MASTER\n.ADDRESS main\n.THREADS 4\n.CODE\nmain:   sync #\n"),
            "k.par:3:1: error: '.THREADS' is not allowed in a .MASTER file\n");
  EXPECT_EQ(errors(kHead + "main:   sync #\n.DAT 0x10\n"),
            "k.par:5:9: error: 'sync' is only allowed in a .MASTER file\n"
            "k.par:6:1: error: unknown directive '.DAT'\n");
  EXPECT_EQ(errors(kHead + "main:   add r1 = r2, r3 #\n.I2 5\n"),
            "k.par:6:1: error: '.I2' must come before .CODE and .DATA\n");
  EXPECT_EQ(errors(".PAR\n.ADDRESS main\n.THREADS 1\n.I0 4\n.CODE\nmain: brk #\n"),
            "k.par:4:1: error: '.I0' is not allowed: i0 is the thread index\n");
  EXPECT_EQ(errors(".ADDRESS main\n.PAR\n.THREADS 1\n.CODE\nmain: brk #\n"),
            "k.par:2:1: error: '.PAR' must come before any other directive\n");
  EXPECT_EQ(errors(kHead + ".MASTER\nmain: brk #\n"),
            "k.par:5:1: error: '.MASTER' after '.PAR' at line 1: only one .PAR or .MASTER per file\n");
  EXPECT_EQ(errors(".PAR\n.ADDRESS main\n.THREADS 1\n.THREADS 2\n.CODE\nmain: brk #\n"),
            "k.par:4:1: error: duplicate '.THREADS' (first at line 3)\n");
}

TEST(AssemblerErrors, BadRegister) {
  EXPECT_EQ(errors(kHead + "main:   add r1 = r16, r2 #\n"),
            "k.par:5:18: error: bad register 'r16' (r0..r15, i0..i15)\n");
  EXPECT_EQ(errors(kHead + "main:   ld8 r1 = i16[r2] #\n"),
            "k.par:5:18: error: bad register 'i16' (r0..r15, i0..i15)\n");
  EXPECT_EQ(errors(kHead + "main:   eq p18 = r1, r2 #\n"),
            "k.par:5:12: error: bad predicate 'p18' (p0..p7, or a pair pXY)\n");
  EXPECT_EQ(errors(kHead + "main:   (p8) brk #\n"), "k.par:5:10: error: bad qualifying predicate 'p8' (p0..p7)\n");
}

TEST(AssemblerErrors, WrongOperandKindOrCount) {
  EXPECT_EQ(errors(kHead + "main:   add i2 = r1, r2 #\n"),
            "k.par:5:13: error: destination must be r0..r15, got 'i2'\n");
  EXPECT_EQ(errors(kHead + "main:   add r1 = r2 #\n"),
            "k.par:5:9: error: 'add' expects rd = ra, rb or rd = ra, imm\n");
  EXPECT_EQ(errors(kHead + "main:   popc r1 = r2, r3 #\n"), "k.par:5:9: error: 'popc' expects rd = ra\n");
  EXPECT_EQ(errors(kHead + "main:   andc r1 = r2, 4 #\n"), "k.par:5:9: error: 'andc' has no immediate form\n");
  EXPECT_EQ(errors(kHead + "main:   lt r1 = r2, r3 #\n"),
            "k.par:5:12: error: destination must be a predicate pair pXY or a predicate pX, got 'r1'\n");
  EXPECT_EQ(errors(kHead + "main:   and p12 = r1, p2 #\n"),
            "k.par:5:19: error: expected a predicate p0..p7, got 'r1'\n");
  EXPECT_EQ(errors(kHead + "main:   ld8 r1 = r2 #\n"),
            "k.par:5:18: error: expected a memory operand ra[rb] or ra[imm], got 'r2'\n");
  EXPECT_EQ(errors(kHead + "main:   xp r1, r2 #\n"), "k.par:5:9: error: 'xp' expects label or r\n");
  EXPECT_EQ(errors(kHead + "main:   eq.d p12 = r1, 0 #\n"), "k.par:5:9: error: 'eq.d' has no immediate form\n");
  EXPECT_EQ(errors(kHead + "main:   add r1 = r2, r3 r4 #\n"), "k.par:5:25: error: expected ',' before 'r4'\n");
  EXPECT_EQ(errors(kHead + "main:   add r1 = r2, #\n"), "k.par:5:21: error: missing operand\n");
  EXPECT_EQ(errors(kHead + "main:   xp x #\n.DATA 0x10\nx: .i8 1\n"),
            "k.par:5:12: error: 'x' is a data label, not a code label\n");
}

TEST(AssemblerErrors, ImmediateOutOfRange) {
  EXPECT_EQ(errors(kHead + "main:   add r1 = r2, 300 #\n"),
            "k.par:5:22: error: immediate 300 out of range -256..255\n");
  EXPECT_EQ(errors(kHead + "main:   sll r1 = r2, 64 #\n"), "k.par:5:22: error: immediate 64 out of range 0..63\n");
  EXPECT_EQ(errors(kHead + "main:   ext r1 = r2, -1 #\n"), "k.par:5:22: error: immediate -1 out of range 0..63\n");
  EXPECT_EQ(errors(kHead + "main:   sla r1 = r2, r3, 4 #\n"), "k.par:5:26: error: immediate 4 out of range 0..3\n");
  EXPECT_EQ(errors(kHead + "main:   set r1 = 65536 #\n"),
            "k.par:5:18: error: immediate 65536 out of range -32768..65535\n");
  EXPECT_EQ(errors(kHead + "main:   sli r1 = -32769 #\n"),
            "k.par:5:18: error: immediate -32769 out of range -32768..65535\n");
  EXPECT_EQ(errors(kHead + "main:   brk 65536 #\n"), "k.par:5:13: error: immediate 65536 out of range 0..65535\n");
  EXPECT_EQ(errors(kHead + "main:   sub r1 = r2, -256 #\n"),
            "k.par:5:22: error: immediate -256 out of range -255..256\n");
  EXPECT_EQ(errors(kHead + "main:   le p12 = r2, 255 #\n"),
            "k.par:5:22: error: immediate 255 out of range -256..254\n");
  EXPECT_EQ(errors(kHead + "main:   gtu p12 = r2, -1 #\n"),
            "k.par:5:23: error: immediate -1 not allowed for 'gtu' (no unsigned successor)\n");
  EXPECT_EQ(errors(kHead + "main:   ld8 r1 = r2[256] #\n"),
            "k.par:5:21: error: immediate 256 out of range -256..255\n");
  EXPECT_EQ(errors(kHead + "main:   add r1 = r2, 99999999999999999999 #\n"),
            "k.par:5:22: error: number '99999999999999999999' does not fit in 64 bits\n");
}

TEST(AssemblerErrors, UndefinedLabel) {
  EXPECT_EQ(errors(kHead + "main:   xp loop_body #\n"), "k.par:5:12: error: undefined label 'loop_body'\n");
  EXPECT_EQ(errors(".PAR\n.ADDRESS nowhere\n.THREADS 1\n.I3 missing\n.CODE\nmain: brk #\n.DATA 0\n .i64 gone\n"),
            "k.par:2:10: error: undefined label 'nowhere'\n"
            "k.par:4:5: error: undefined label 'missing'\n"
            "k.par:8:7: error: undefined label 'gone'\n");
}

TEST(AssemblerErrors, DuplicateLabel) {
  EXPECT_EQ(errors(kHead + "main:   brk #\nscan:   brk\nscan:   brk #\n"),
            "k.par:7:1: error: label 'scan' already defined at line 6\n");
  EXPECT_EQ(errors(kHead + "main:   brk #\n.DATA 0x10\nmain:   .i8 1\n"),
            "k.par:7:1: error: label 'main' already defined at line 5\n");
}

TEST(AssemblerErrors, LabelSpelledLikeARegister) {
  EXPECT_EQ(errors(kHead + "main:   brk\nr3:     brk #\n"), "k.par:6:1: error: 'r3' is a register name, not a label\n");
  EXPECT_EQ(errors(kHead + "main:   brk\nP12:    brk #\n"), "k.par:6:1: error: 'P12' is a register name, not a label\n");
  EXPECT_EQ(errors(kHead + "main:   brk\n4x:     brk #\n"), "k.par:6:1: error: bad label name '4x'\n");
}

TEST(AssemblerErrors, MissingStopBitAtEnd) {
  EXPECT_EQ(errors(kHead + "main:   add r1 = r2, r3\n"), "k.par:5:9: error: last instruction has no stop bit '#'\n");
  EXPECT_EQ(errors(kHead + "main:   brk #\n        (p1) brk\n.DATA 0\n.i8 1\n"),
            "k.par:6:9: error: last instruction has no stop bit '#'\n");
}

TEST(AssemblerErrors, InstructionOutsideCodeAndDataOutsideData) {
  EXPECT_EQ(errors(kHead + "main:   brk #\n.DATA 0x100\n        add r1 = r2, r3 #\n"),
            "k.par:7:9: error: instruction outside a .CODE section\n");
  EXPECT_EQ(errors(kHead + "main:   brk #\nx:      .i64 5\n"),
            "k.par:6:9: error: data directive '.i64' outside a .DATA section\n");
  EXPECT_EQ(errors(".PAR\n.ADDRESS 0\n.THREADS 1\nadd r1 = r1, 1 #\n"),
            "k.par:1:1: error: no instructions\n"
            "k.par:4:1: error: instruction outside a .CODE section\n");
  EXPECT_EQ(errors(".PAR\nx: .ADDRESS 0\n.THREADS 1\n.CODE\nbrk #\n"),
            "k.par:2:1: error: label 'x' outside a .CODE or .DATA section\n");
}

TEST(AssemblerErrors, MissingHeaderAddressOrThreads) {
  EXPECT_EQ(errors(".PAR\n.ADDRESS main\n.CODE\nmain:   brk #\n"), "k.par:1:1: error: .PAR header has no .THREADS\n");
  EXPECT_EQ(errors(".PAR\n.THREADS 4\n.CODE\nmain:   brk #\n"), "k.par:1:1: error: .PAR header has no .ADDRESS\n");
  EXPECT_EQ(errors("// comment\n.MASTER\n.CODE\nmain:   brk #\n"), "k.par:2:1: error: .MASTER header has no .ADDRESS\n");
  EXPECT_EQ(errors(".CODE\nmain:   brk #\n"), "k.par:1:1: error: missing .PAR or .MASTER header\n");
}

TEST(AssemblerErrors, ParAndSyncInPacketFile) {
  EXPECT_EQ(errors(kHead + "main:   par r5, main\n        sync #\n"),
            "k.par:5:9: error: 'par' is only allowed in a .MASTER file\n"
            "k.par:6:9: error: 'sync' is only allowed in a .MASTER file\n");
}

TEST(AssemblerErrors, LoopCountMustBeInheritedInPacketFile) {
  EXPECT_EQ(errors(kHead + "main:   loop r2, main #\n"),
            "k.par:5:14: error: loop count must be an inherited register i1..i15\n");
  EXPECT_EQ(errors(kHead + "main:   loop i0, main #\n"),
            "k.par:5:14: error: loop count must be an inherited register i1..i15\n");
  // The master may use any register.
  EXPECT_TRUE(assemble(".MASTER\n.ADDRESS main\n.CODE\nmain:   loop r2, main #\n", "m.par").ok());
}

TEST(AssemblerErrors, SamePredicateForPtAndPf) {
  EXPECT_EQ(errors(kHead + "main:   eq p33 = r1, r2 #\n"), "k.par:5:12: error: pt and pf are both p3\n");
  EXPECT_EQ(errors(kHead + "main:   nand p77 = p1, p2 #\n"), "k.par:5:14: error: pt and pf are both p7\n");
  EXPECT_TRUE(assemble(kHead + "main:   eq p00 = r1, r2 #\n", "k.par").ok());
}

TEST(AssemblerErrors, MalformedNumbersAndTrailingText) {
  EXPECT_EQ(errors(kHead + "main:   add r1 = r2, r3 # 5\n"), "k.par:5:27: error: unexpected '5' after stop bit\n");
  EXPECT_EQ(errors(kHead + "main:   add r1 = r2, 12ab #\n"), "k.par:5:22: error: malformed number '12ab'\n");
  EXPECT_EQ(errors(kHead + "main:   add r1 = r2, 0x #\n"), "k.par:5:22: error: malformed number '0x'\n");
  EXPECT_EQ(errors(kHead + "main:   add r1 = r2, 2.5 #\n"),
            "k.par:5:22: error: floating-point literal '2.5' not allowed in an instruction\n");
  EXPECT_EQ(errors(".PAR\n.ADDRESS main\n.THREADS 1.5\n.CODE\nmain: brk #\n"),
            "k.par:3:10: error: floating-point literal '1.5' not allowed here\n");
  EXPECT_EQ(errors(".PAR\n.ADDRESS main\n.THREADS 1\n.I1 1e\n.CODE\nmain: brk #\n"),
            "k.par:4:5: error: malformed number '1e'\n");
  EXPECT_EQ(errors(kHead + "main: brk #\n.DATA 0x10\n.f64 1.5.5\n"), "k.par:7:6: error: malformed number '1.5.5'\n");
  EXPECT_EQ(errors(kHead + "main:   (p1 brk #\n"), "k.par:5:13: error: expected ')' after the qualifying predicate\n");
  EXPECT_EQ(errors(kHead + "main:   ld8 r1 = r2[r3 #\n"), "k.par:5:23: error: expected ']'\n");
  EXPECT_EQ(errors(kHead + "main:   add r1 = r2, r3 $ #\n"), "k.par:5:25: error: unexpected character '$'\n");
  EXPECT_EQ(errors(kHead + ".CODE extra\nmain: brk #\n"), "k.par:5:7: error: unexpected 'extra' after '.CODE'\n");
}

TEST(AssemblerErrors, DataValueOverlapAndAlignment) {
  EXPECT_EQ(errors(kHead + "main: brk #\n.DATA 0x10\nx:      .i8  300\n"),
            "k.par:7:14: error: value 300 does not fit in .i8\n");
  EXPECT_EQ(errors(kHead + "main: brk #\n.DATA 0x10\n        .i16 -32769, 65536\n"),
            "k.par:7:14: error: value -32769 does not fit in .i16\n");
  EXPECT_EQ(errors(kHead + "main: brk #\n.DATA 0x10\n        .i32 big\n.DATA 0x100000000\nbig: .i8 0\n"),
            "k.par:7:14: error: value 'big' (0x100000000) does not fit in .i32\n");
  EXPECT_EQ(errors(kHead + "main: brk #\n.DATA 0x10\n        .f32 1e39\n"),
            "k.par:7:14: error: value 1e39 does not fit in .f32\n");
  EXPECT_EQ(errors(kHead + "main: brk #\n.DATA 0x1000\n .zero 32\n.DATA 0x1010\n .i8 1\n"),
            "k.par:8:1: error: .DATA section at 0x1010 overlaps the section at 0x1000 (line 6)\n");
  EXPECT_EQ(errors(kHead + "main: brk #\n.DATA 0x1010\n .i8 1\n.DATA 0x1000\n .zero 17\n"),
            "k.par:8:1: error: .DATA section at 0x1000 overlaps the section at 0x1010 (line 6)\n");
  EXPECT_EQ(errors(kHead + "main: brk #\n.DATA 0x10\n .align 3\n"),
            "k.par:7:9: error: bad alignment 3 (must be a power of two)\n");
  EXPECT_EQ(errors(kHead + "main: brk #\n.DATA 0x10\n .align 0\n"),
            "k.par:7:9: error: bad alignment 0 (must be a power of two)\n");
  EXPECT_EQ(errors(kHead + "main: brk #\n.DATA 0x10\n .zero 1000000000000\n"),
            "k.par:7:2: error: data larger than 268435456 bytes\n");
  EXPECT_EQ(errors(kHead + "main: brk #\n.DATA 0xFFFFFFFFFFFFFFFF\n .i8 1, 2\n"),
            "k.par:7:2: error: data section at 0xFFFFFFFFFFFFFFFF runs past the end of the address space\n");
  EXPECT_EQ(errors(kHead + "main: brk #\n.DATA -4\n"), "k.par:6:7: error: data address -4 is negative\n");
  EXPECT_EQ(errors(kHead + "main: brk #\n.DATA 0x10\n .i64 1,\n"), "k.par:7:8: error: missing value after ','\n");
  EXPECT_EQ(errors(kHead + "main: brk #\n.DATA 0x10\n .f64 x\n"),
            "k.par:7:7: error: expected a floating-point literal, got 'x'\n");
}

TEST(AssemblerErrors, TargetOutOfRange) {
  EXPECT_EQ(errors(kHead + "main:   loop  70000 #\n"), "k.par:5:15: error: loop target 70000 above 65535\n");
  EXPECT_EQ(errors(kHead + "main:   xp 67108864 #\n"), "k.par:5:12: error: xp target 67108864 above 67108863\n");
  EXPECT_EQ(errors(kHead + "main:   xp -1 #\n"), "k.par:5:12: error: xp target -1 is negative\n");
  EXPECT_EQ(errors(".MASTER\n.ADDRESS main\n.CODE\nmain:   par r1, 65536 #\n"),
            "k.par:4:17: error: par target 65536 above 65535\n");
}

TEST(AssemblerErrors, EmptyProgram) {
  EXPECT_EQ(errors(".PAR\n.ADDRESS 0\n.THREADS 1\n.CODE\n"), "k.par:1:1: error: no instructions\n");
  EXPECT_EQ(errors(""), "k.par:1:1: error: missing .PAR or .MASTER header\nk.par:1:1: error: no instructions\n");
}

TEST(AssemblerErrors, HeaderValues) {
  EXPECT_EQ(errors(".PAR\n.ADDRESS main\n.THREADS -1\n.CODE\nmain: brk #\n"),
            "k.par:3:10: error: thread count -1 out of range 0..9223372036854775807\n");
  EXPECT_EQ(errors(".PAR\n.ADDRESS main\n.THREADS 9223372036854775808\n.CODE\nmain: brk #\n"),
            "k.par:3:10: error: thread count 9223372036854775808 out of range 0..9223372036854775807\n");
  EXPECT_EQ(errors(".PAR\n.ADDRESS v\n.THREADS 1\n.CODE\nmain: brk #\n.DATA 0\nv: .i8 0\n"),
            "k.par:2:10: error: 'v' is a data label; .ADDRESS needs a code label\n");
  EXPECT_EQ(errors(".PAR\n.ADDRESS 5\n.THREADS 1\n.CODE\nmain: brk #\n"),
            "k.par:2:10: error: start address 5 is past the end of the program (1 instructions)\n");
  EXPECT_EQ(errors(".PAR\n.ADDRESS main\n.THREADS 1\n.I1 -18446744073709551615\n.CODE\nmain: brk #\n"),
            "k.par:4:5: error: value -18446744073709551615 does not fit in 64 bits\n");
}

TEST(AssemblerErrors, EveryErrorInTheFileIsReportedInSourceOrder) {
  const std::string text = kHead +
                           "main:   addd r1 = r2, r3\n"   // 5: unknown mnemonic
                           "        add r1 = r2, 300\n"   // 6: range
                           "        xp nowhere\n"         // 7: undefined label
                           "        eq p44 = r1, r2\n"    // 8: pt == pf
                           "        add r1 = r2, r3\n";   // 9: no stop bit
  EXPECT_EQ(errors(text),
            "k.par:5:9: error: unknown mnemonic 'addd'\n"
            "k.par:6:22: error: immediate 300 out of range -256..255\n"
            "k.par:7:12: error: undefined label 'nowhere'\n"
            "k.par:8:12: error: pt and pf are both p4\n"
            "k.par:9:9: error: last instruction has no stop bit '#'\n");
}

TEST(AssemblerErrors, DiagnosticFieldsAndFormat) {
  const AssemblyResult r = assemble(kHead + "main:   addd r1 = r2, r3 #\n", "dir/k.par");
  ASSERT_EQ(r.diagnostics.size(), 1u);
  const Diagnostic& d = r.diagnostics[0];
  EXPECT_EQ(d.severity, Diagnostic::Severity::Error);
  EXPECT_EQ(d.file, "dir/k.par");
  EXPECT_EQ(d.line, 5);
  EXPECT_EQ(d.column, 9);
  EXPECT_EQ(d.message, "unknown mnemonic 'addd'");
  EXPECT_EQ(d.str(), "dir/k.par:5:9: error: unknown mnemonic 'addd'");
}

// Binary garbage, huge inputs and random mutations of valid programs: the assembler must return
// (with errors) and never crash or hang.
TEST(AssemblerErrors, SurvivesGarbageAndFuzzedInput) {
  std::mt19937 rng(99);
  std::string garbage(4096, '\0');
  for (char& c : garbage) c = static_cast<char>(rng());
  EXPECT_FALSE(assemble(garbage, "g.par").ok());

  const std::string long_line = kHead + "main: add r1 = r2, " + std::string(100000, '9') + " #\n";
  EXPECT_FALSE(assemble(long_line, "g.par").ok());
  EXPECT_FALSE(assemble(kHead + "main: " + std::string(50000, '(') + "\n", "g.par").ok());
  EXPECT_FALSE(assemble(kHead + "main: add r1 = r2[r3[r4[5]]] #\n", "g.par").ok());
  EXPECT_FALSE(assemble(std::string(".PAR\n.ADDRESS 0\n.THREADS 1\n.CODE\n brk #\n\0\r\n", 42), "g.par").ok());
  EXPECT_TRUE(assemble(".PAR\r\n.ADDRESS 0\r\n.THREADS 1\r\n.CODE\r\n\tbrk\t#\r\n", "crlf.par").ok());
  EXPECT_TRUE(assemble("\xEF\xBB\xBF.PAR\n.ADDRESS 0\n.THREADS 1\n.CODE\n brk #\n", "bom.par").ok());

  const std::string base =
      ".PAR\n.ADDRESS main\n.THREADS 8\n.I1 3\n.I2 out\n.CODE\n"
      "main:   gt    p12 = i0, i1\n        (p1) xp then\n        (p2) xp else\n"
      "        sll   r3 = i0, 3\n        st8   i2[r3] = r1   #\n"
      "then:   add   r1 = i0, 100  #\nelse:   mul   r1 = i0, 2    #\n"
      ".DATA 0x1000\nout:    .zero 64\n        .f64 1.5, -2e3\n        .i8 -1\n";
  ASSERT_TRUE(assemble(base, "f.par").ok());
  const std::string alphabet = "#=,[]():;/.-+ \n\tpri0123456789xabcdefABCDEF.PAR.DATA.i8.zero.align\x01\xff";
  for (int k = 0; k < 2000; ++k) {
    std::string s = base;
    const int edits = 1 + static_cast<int>(rng() % 4);
    for (int e = 0; e < edits; ++e) {
      const std::size_t at = rng() % (s.size() + 1);
      switch (rng() % 3) {
        case 0: s.insert(at, 1, alphabet[rng() % alphabet.size()]); break;
        case 1: if (at < s.size()) s.erase(at, 1); break;
        default: if (at < s.size()) s[at] = alphabet[rng() % alphabet.size()]; break;
      }
    }
    const AssemblyResult r = assemble(s, "f.par");
    // Either a program or at least one error, and every diagnostic points into the file.
    EXPECT_TRUE(r.ok() || !r.diagnostics.empty());
    for (const Diagnostic& d : r.diagnostics) {
      EXPECT_GE(d.line, 1);
      EXPECT_GE(d.column, 1);
    }
  }
}

}  // namespace
}  // namespace par::isa
