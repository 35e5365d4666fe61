// Disassembler: instruction syntax, and assemble -> disassemble -> assemble identity on every
// example program, every kernel under sw/, and random programs.
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "isa_test_support.hpp"
#include "par/isa/assembler.hpp"
#include "par/isa/disassembler.hpp"
#include "par/isa/encoding.hpp"
#include "par/isa/image.hpp"

namespace par::isa {
namespace {

std::string dis(const std::string& line) { return disassemble(*decode(test::assemble_one(line))); }

TEST(Disassembler, PrintsMachineFormsInAssemblySyntax) {
  EXPECT_EQ(dis("(p3) ld8 r4 = i1[r2] #"), "(p3) ld8 r4 = i1[r2] #");
  EXPECT_EQ(dis("ld4u r2 = r3[-8]"), "ld4u r2 = r3[-8]");
  EXPECT_EQ(dis("st1 r3[4] = i7"), "st1 r3[4] = i7");
  EXPECT_EQ(dis("eq p12 = r1, r2"), "eq p12 = r1, r2");
  EXPECT_EQ(dis("sla r1 = r2, r3, 3"), "sla r1 = r2, r3, 3");
  EXPECT_EQ(dis("xp 12"), "xp 12");
  EXPECT_EQ(dis("sub r1 = r2, r3"), "subf r1 = r3, r2");  // machine form, not the pseudo
  EXPECT_EQ(dis("ge p3 = r1, 5"), "lt p03 = r1, 5");
  EXPECT_EQ(dis("null"), "eq p00 = r0, 0");
  EXPECT_EQ(dis("popc r1 = i2"), "popc r1 = i2");
  EXPECT_EQ(dis("cvt.d.l r1 = r2"), "cvt.d.l r1 = r2");
  EXPECT_EQ(dis("extu r1 = r2, 31"), "extu r1 = r2, 31");
  EXPECT_EQ(dis("set r1 = 0xC000"), "set r1 = -16384");
  EXPECT_EQ(dis("sli r1 = 5"), "sli r1 = 0x5");
  EXPECT_EQ(dis("brk"), "brk");
  EXPECT_EQ(dis("(p7) brk 3 #"), "(p7) brk 3 #");
  EXPECT_EQ(dis("loop i2, 4"), "loop i2, 4");
  EXPECT_EQ(dis("andc p45 = p6, p7"), "andc p45 = p6, p7");
  EXPECT_EQ(dis("nan.f p1 = r1, r2"), "nan.f p10 = r1, r2");
}

TEST(Disassembler, UsesCodeLabelsForTargetsWhenGiven) {
  const AssemblyResult r = assemble(
      ".MASTER\n.ADDRESS main\n.CODE\nmain:  loop r1, body\n       par r2, body\n       xp body #\n"
      "body:  brk #\n",
      "l.par");
  ASSERT_TRUE(r.ok()) << r.messages();
  const Program& p = *r.program;
  EXPECT_EQ(disassemble(*decode(p.code[0]), &p), "loop r1, body");
  EXPECT_EQ(disassemble(*decode(p.code[1]), &p), "par r2, body");
  EXPECT_EQ(disassemble(*decode(p.code[2]), &p), "xp body #");
  EXPECT_EQ(disassemble(*decode(p.code[2])), "xp 3 #");
}

void expect_same_program(const Program& a, const Program& b, const std::string& what) {
  EXPECT_EQ(a.kind, b.kind) << what;
  EXPECT_EQ(a.start, b.start) << what;
  EXPECT_EQ(a.threads, b.threads) << what;
  EXPECT_EQ(a.inherited, b.inherited) << what;
  EXPECT_EQ(a.code, b.code) << what;
  ASSERT_EQ(a.data.size(), b.data.size()) << what;
  for (std::size_t i = 0; i < a.data.size(); ++i) {
    EXPECT_EQ(a.data[i].address, b.data[i].address) << what << " section " << i;
    EXPECT_EQ(a.data[i].bytes, b.data[i].bytes) << what << " section " << i;
  }
}

// Disassembles `p`, reassembles the listing, and checks that nothing changed; a second round
// must reproduce the listing exactly.
void check_round_trip(const Program& p, const std::string& what) {
  const std::string listing = disassemble_program(p);
  const AssemblyResult again = assemble(listing, what + ".dis");
  ASSERT_TRUE(again.ok()) << what << "\n" << again.messages() << "\n" << listing;
  expect_same_program(p, *again.program, what);
  for (const auto& [name, addr] : p.code_labels) EXPECT_EQ(again.program->code_labels.at(name), addr) << name;
  EXPECT_EQ(again.program->data_labels, p.data_labels) << what;
  // The first line names the source file, which differs between the two rounds.
  auto body = [](const std::string& s) { return s.substr(s.find('\n')); };
  EXPECT_EQ(body(disassemble_program(*again.program)), body(listing)) << what;
}

TEST(Disassembler, AssembleDisassembleAssembleIsTheIdentityOnAllPrograms) {
  const auto files = test::all_programs();
  ASSERT_GE(files.size(), 8u);
  for (const auto& f : files) {
    SCOPED_TRACE(f.string());
    const AssemblyResult r = assemble_file(f.string());
    ASSERT_TRUE(r.ok()) << r.messages();
    check_round_trip(*r.program, f.filename().string());
  }
}

TEST(Disassembler, GeneratesLabelsForNumericTargetsAndKeepsDataLabels) {
  const AssemblyResult r = assemble(
      ".PAR\n.ADDRESS 1\n.THREADS 4\n.I1 tbl\n.I2 0x77\n.CODE\n"
      "        xp 2\n        (p1) loop 2 #\n        brk #\nL2:\n"  // L2 names the end of the code
      ".DATA 0x1001\ntbl: .i8 1, 2, 3\nmid: .i16 0x102\n .zero 40\n .i32 -1\nend:\n"
      ".DATA 0x4000\nempty:\n",
      "g.par");
  ASSERT_TRUE(r.ok()) << r.messages();
  const std::string listing = disassemble_program(*r.program);
  EXPECT_NE(listing.find(".ADDRESS 1"), std::string::npos) << listing;
  EXPECT_NE(listing.find("xp L2_"), std::string::npos) << listing;  // L2 is taken by another address
  EXPECT_NE(listing.find(".I1 tbl"), std::string::npos) << listing;
  EXPECT_NE(listing.find(".I2 0x77"), std::string::npos) << listing;
  EXPECT_NE(listing.find(".zero 40"), std::string::npos) << listing;
  check_round_trip(*r.program, "generated");
}

TEST(Disassembler, RandomProgramsRoundTrip) {
  std::mt19937 rng(4242);
  for (int k = 0; k < 40; ++k) {
    Program p;
    p.kind = ProgramKind::Master;  // par, sync and any loop count are legal
    const std::size_t n = 20 + rng() % 200;
    for (std::size_t pc = 0; pc < n; ++pc) {
      const auto op = static_cast<Opcode>(rng() % kOpcodeCount);
      Instruction in = test::random_instruction(rng, op, rng() % 2 == 0);
      // Targets inside the program; pt != pf (the assembler rejects equal targets).
      if (op == Opcode::Xp || op == Opcode::Loop || op == Opcode::LoopR || op == Opcode::Par)
        in.imm = static_cast<std::int64_t>(rng() % n);
      if (in.pt == in.pf && in.pt != 0) in.pf = static_cast<std::uint8_t>((in.pt + 1) % 8);
      in.stop = in.stop || pc + 1 == n;
      p.code.push_back(encode(in));
    }
    p.start = rng() % n;
    for (std::size_t i = 1; i < 16; ++i) p.inherited[i] = rng() % 3 == 0 ? (std::uint64_t{rng()} << 32 | rng()) : 0;
    std::uint64_t addr = rng() % 64;
    for (int s = 0; s < 3; ++s) {
      DataSection d;
      d.address = addr;
      const std::size_t len = rng() % 100;
      for (std::size_t i = 0; i < len; ++i) d.bytes.push_back(rng() % 3 == 0 ? 0 : static_cast<std::uint8_t>(rng()));
      addr += len + rng() % 32;
      p.data.push_back(d);
    }
    p.data_labels["d0"] = p.data[0].address;
    check_round_trip(p, "random " + std::to_string(k));
  }
}

Program assembled(const std::string& source) {
  const AssemblyResult r = assemble(source, "a.par");
  EXPECT_TRUE(r.ok()) << r.messages();
  return r.ok() ? *r.program : Program{};
}

// 1-based number of the first line of `text` that contains `what`.
std::size_t line_of(const std::string& text, const std::string& what) {
  const std::size_t at = text.find(what);
  return at == std::string::npos ? 0 : 1 + static_cast<std::size_t>(std::count(text.begin(), text.begin() + at, '\n'));
}

// What an image may hold but source cannot say is left out and said at the top of the listing;
// the rest still assembles back.
TEST(Disassembler, ListingSaysWhichLabelsItLeavesOut) {
  Program p = assembled(".PAR\n.ADDRESS main\n.THREADS 2\n.CODE\nmain: add r1 = i0, 1 #\n.DATA 0x100\nv: .i64 5\n");
  p.source_file = "two\nlines.par";  // would end the comment that names it
  p.data_labels["far"] = 0x5000;       // outside every data section
  p.data_labels["main"] = 0x100;       // one namespace in source: the code label wins
  p.code_labels["late"] = 9;           // past the end of the code
  std::string error;
  const std::optional<Program> loaded = read_image(write_image(p), &error);
  ASSERT_TRUE(loaded.has_value()) << error;  // the loader accepts all of it
  std::vector<std::string> problems;
  const std::string listing = disassemble_program(*loaded, &problems);
  const std::vector<std::string> expected = {
      "code label 'late' (0x9) is left out: past the end of the code",
      "data label 'far' (0x5000) is left out: outside every data section",
      "data label 'main' (0x100) is left out: a code label has the same name"};
  EXPECT_EQ(problems, expected);
  EXPECT_EQ(listing.substr(0, listing.find(".PAR")),
            "// PAR packet program disassembled from two\\x0alines.par\n"
            "// This listing does not assemble back to the same program:\n"
            "//   " + expected[0] + "\n//   " + expected[1] + "\n//   " + expected[2] + "\n");
  const AssemblyResult again = assemble(listing, "again.par");
  ASSERT_TRUE(again.ok()) << again.messages();
  Program without = p;
  without.code_labels.erase("late");
  without.data_labels.erase("far");
  without.data_labels.erase("main");
  EXPECT_EQ(program_differences(without, *again.program), std::vector<std::string>{});
}

TEST(Disassembler, ListingNamesTheLineTheAssemblerRefuses) {
  Program p = assembled(".PAR\n.ADDRESS main\n.THREADS 2\n.CODE\nmain: add r1 = i0, 1\n add r2 = r1, 1 #\n");
  p.code.back() = encode([&] {
    Instruction in = *decode(p.code.back());
    in.stop = false;  // the loader accepts a program without a final stop bit; source cannot say it
    return in;
  }());
  std::vector<std::string> problems;
  const std::string listing = disassemble_program(p, &problems);
  ASSERT_EQ(problems.size(), 1u) << listing;
  EXPECT_EQ(problems[0], "line " + std::to_string(line_of(listing, "add r2 = r1, 1")) +
                             ": last instruction has no stop bit '#'");
  EXPECT_NE(listing.find("//   " + problems[0] + "\n"), std::string::npos) << listing;
  // A packet program with an instruction only a .MASTER file may hold.
  Program q = assembled(".PAR\n.ADDRESS main\n.THREADS 2\n.CODE\nmain: add r1 = i0, 1 #\n");
  Instruction sync;
  sync.op = Opcode::Sync;
  sync.stop = true;
  q.code.push_back(encode(sync));
  const std::string listing_q = disassemble_program(q, &problems);
  EXPECT_EQ(problems, std::vector<std::string>{"line " + std::to_string(line_of(listing_q, "sync #")) +
                                               ": 'sync' is only allowed in a .MASTER file"});
}

TEST(Disassembler, ProgramDifferencesNameEachPart) {
  const Program a = assembled(".PAR\n.ADDRESS main\n.THREADS 2\n.CODE\nmain: add r1 = i0, 1 #\n.DATA 0x10\nv: .i8 1\n");
  Program b = a;
  EXPECT_EQ(program_differences(a, b), std::vector<std::string>{});
  b.source_file = "elsewhere.par";
  b.source_lines.clear();
  EXPECT_EQ(program_differences(a, b), std::vector<std::string>{});
  b.threads = 3;
  b.inherited[4] = 0x20;
  b.data[0].bytes[0] = 2;
  b.data_labels["w"] = 0x11;
  EXPECT_EQ(program_differences(a, b),
            (std::vector<std::string>{".THREADS 3 instead of 2", ".I4 0x20 instead of 0x0",
                                      "data section 0 (0x10, 1 bytes) differs", "data label 'w' (0x11) is extra"}));
}

TEST(Disassembler, ProgramListingShowsHeaderAndSections) {
  const AssemblyResult r = assemble(
      ".PAR\n.ADDRESS main\n.THREADS 6\n.I2 8\n.CODE\nmain:   loop i2, body\n        brk #\n"
      "body:   brk 1 #\n.DATA 0x2000\nv:      .i64 3, 14\n",
      "s.par");
  ASSERT_TRUE(r.ok()) << r.messages();
  const std::string listing = disassemble_program(*r.program);
  for (const char* want : {".PAR\n", ".ADDRESS main\n", ".THREADS 6\n", ".I2 0x8\n", ".CODE\n",
                           "main:   loop i2, body", "body:   brk 1 #", ".DATA 0x2000\n", "v:      .i64 0x3, 0xE\n"})
    EXPECT_NE(listing.find(want), std::string::npos) << want << "\n" << listing;
  EXPECT_EQ(listing.find(".MASTER"), std::string::npos);
}

}  // namespace
}  // namespace par::isa
