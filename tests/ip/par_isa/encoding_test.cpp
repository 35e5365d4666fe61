// Instruction encoding and decoding (docs/isa.md §5).
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "isa_test_support.hpp"
#include "par/isa/disassembler.hpp"
#include "par/isa/encoding.hpp"

namespace par::isa {
namespace {

struct Golden {
  const char* source;  // as written in docs/isa.md §5.3
  std::uint32_t word;
  const char* machine;  // disassembly (machine form)
};

// docs/isa.md §5.3, every row.
constexpr Golden kGolden[] = {
    {"add r1 = r2, 5", 0x20110140, "add r1 = r2, 5"},
    {"add r1 = r2, -1", 0x20117FC0, "add r1 = r2, -1"},
    {"(p3) ld8 r4 = i1[r2] #", 0x46488937, "(p3) ld8 r4 = i1[r2] #"},
    {"st8 i3[r1] = r5 #", 0x465985B1, "st8 i3[r1] = r5 #"},
    {"eq p12 = r1, r2", 0x0CA08880, "eq p12 = r1, r2"},
    {"lt p34 = r5, -3", 0x05C2FF60, "lt p34 = r5, -3"},
    {"null", 0x04000000, "eq p00 = r0, 0"},
    {"and p12 = p3, p4", 0x0CA193C0, "and p12 = p3, p4"},
    {"sll r1 = i0, 3", 0x241800C0, "sll r1 = i0, 3"},
    {"ext r2 = r3, 7", 0x242191C0, "ext r2 = r3, 7"},
    {"sla r1 = r2, r3, 3", 0x3E110DB0, "sla r1 = r2, r3, 3"},
    {"mul.d r5 = r4, r2", 0x50520820, "mul.d r5 = r4, r2"},
    {"mac.d r5 = r6, r7 #", 0x50531C41, "mac.d r5 = r6, r7 #"},
    {"set r1 = -2", 0x601FFFE0, "set r1 = -2"},
    {"sli r1 = 0xABCD", 0x621ABCD0, "sli r1 = 0xABCD"},
    {"xp 12", 0x800000C0, "xp 12"},
    {"(p2) xp 300 #", 0x800012C5, "(p2) xp 300 #"},
    {"loop i4, 9", 0x65400090, "loop i4, 9"},
    {"(p1) loop 6 #", 0x66000063, "(p1) loop 6 #"},
    {"brk 1", 0x68000010, "brk 1"},
    {"(p4) brk 1 #", 0x68000019, "(p4) brk 1 #"},
    {"xp r3", 0x6A300000, "xp r3"},
    {"par r5, 20", 0x6C500140, "par r5, 20"},
    {"sync #", 0x6E000001, "sync #"},
    {"get r1 = s3", 0x4E118000, "get r1 = s3"},
    {"(p2) put s5 = i1 #", 0x4F128015, "(p2) put s5 = i1 #"},
};

TEST(Encoding, GoldenWordsAssembleEncodeAndDecode) {
  for (const Golden& g : kGolden) {
    SCOPED_TRACE(g.source);
    EXPECT_EQ(test::assemble_one(std::string("        ") + g.source), g.word);
    std::string why;
    const std::optional<Instruction> in = decode(g.word, &why);
    ASSERT_TRUE(in.has_value()) << why;
    EXPECT_EQ(encode(*in), g.word);
    EXPECT_EQ(disassemble(*in), g.machine);
  }
}

TEST(Encoding, GoldenWordsDecodeToDocumentedFields) {
  Instruction ld = *decode(0x46488937);  // (p3) ld8 r4 = i1[r2] #
  EXPECT_EQ(ld.op, Opcode::Ld8);
  EXPECT_FALSE(ld.imm_form);
  EXPECT_EQ(ld.qp, 3);
  EXPECT_TRUE(ld.stop);
  EXPECT_EQ(ld.rd, 4);
  EXPECT_EQ(ld.ra, 17);
  EXPECT_EQ(ld.rb, 2);
  EXPECT_EQ(ld.imm, 0);

  Instruction lt = *decode(0x05C2FF60);  // lt p34 = r5, -3
  EXPECT_EQ(lt.op, Opcode::Lt);
  EXPECT_TRUE(lt.imm_form);
  EXPECT_EQ(lt.pt, 3);
  EXPECT_EQ(lt.pf, 4);
  EXPECT_EQ(lt.ra, 5);
  EXPECT_EQ(lt.rd, 0);
  EXPECT_EQ(lt.imm, -3);

  Instruction pl = *decode(0x0CA193C0);  // and p12 = p3, p4
  EXPECT_EQ(pl.op, Opcode::PAnd);
  EXPECT_EQ(pl.pa, 3);
  EXPECT_EQ(pl.pb, 4);
  EXPECT_EQ(pl.ra, 0);
  EXPECT_EQ(pl.rb, 0);

  Instruction sll = *decode(0x241800C0);  // sll r1 = i0, 3
  EXPECT_EQ(sll.op, Opcode::Sll);
  EXPECT_TRUE(sll.imm_form);
  EXPECT_EQ(sll.ra, 16);
  EXPECT_EQ(sll.imm, 3);

  Instruction ext = *decode(0x242191C0);  // ext r2 = r3, 7
  EXPECT_EQ(ext.op, Opcode::Ext);
  EXPECT_TRUE(ext.imm_form);
  EXPECT_EQ(ext.imm, 7);

  Instruction sla = *decode(0x3E110DB0);  // sla r1 = r2, r3, 3
  EXPECT_EQ(sla.op, Opcode::Sla);
  EXPECT_FALSE(sla.imm_form);
  EXPECT_EQ(sla.imm, 3);

  EXPECT_EQ(decode(0x601FFFE0)->imm, -2);       // set: sign-extended
  EXPECT_EQ(decode(0x621FFFF0)->imm, 0xFFFF);   // sli r1 = 0xFFFF: zero-extended
  EXPECT_EQ(decode(0x800012C5)->imm, 300);      // xp target
  EXPECT_EQ(decode(0x800012C5)->rd, 0);
  Instruction loop = *decode(0x65400090);       // loop i4, 9
  EXPECT_EQ(loop.op, Opcode::LoopR);
  EXPECT_EQ(loop.rd, 20);
  EXPECT_EQ(loop.imm, 9);
  EXPECT_EQ(decode(0x66000063)->op, Opcode::Loop);
  EXPECT_EQ(decode(0x68000010)->imm, 1);        // brk 1
  EXPECT_EQ(decode(0x6A300000)->op, Opcode::XpR);
  EXPECT_EQ(decode(0x6A300000)->imm, 0);
  EXPECT_EQ(decode(0x6C500140)->op, Opcode::Par);
  EXPECT_EQ(decode(0x6E000001)->op, Opcode::Sync);
}

TEST(Encoding, EveryOpcodeRoundTripsInBothForms) {
  std::mt19937 rng(12345);
  int checked = 0;
  for (const OpInfo& m : opcode_table()) {
    for (bool imm_form : {false, true}) {
      for (int k = 0; k < 64; ++k) {
        const Instruction in = test::random_instruction(rng, m.op, imm_form);
        const std::uint32_t w = encode(in);
        std::string why;
        const std::optional<Instruction> back = decode(w, &why);
        ASSERT_TRUE(back.has_value()) << m.mnemonic << " " << std::hex << w << ": " << why;
        EXPECT_EQ(*back, in) << m.mnemonic << " word 0x" << std::hex << w;
        EXPECT_EQ(encode(*back), w);
        ++checked;
      }
    }
  }
  EXPECT_EQ(checked, kOpcodeCount * 2 * 64);
}

TEST(Encoding, FieldExtremesRoundTrip) {
  Instruction in;
  in.op = Opcode::Add;
  in.imm_form = true;
  for (std::int64_t imm : {-256, -1, 0, 1, 255}) {
    in.imm = imm;
    EXPECT_EQ(decode(encode(in))->imm, imm);
  }
  in.op = Opcode::Xp;
  in.imm_form = false;
  in.imm = (1 << 26) - 1;
  EXPECT_EQ(encode(in), 0xBFFFFFF0u);
  EXPECT_EQ(decode(encode(in))->imm, (1 << 26) - 1);
  in = Instruction{};
  in.op = Opcode::Set;
  in.imm = -32768;
  EXPECT_EQ(decode(encode(in))->imm, -32768);
  in.imm = 32767;
  EXPECT_EQ(decode(encode(in))->imm, 32767);
}

struct Illegal {
  std::uint32_t word;
  const char* what;
};

TEST(Encoding, DecodeRejectsReservedAndIllegalWords) {
  const Illegal cases[] = {
      {8u << 25, "reserved op6 8"},
      {15u << 25, "reserved op6 15"},
      {20u << 25, "reserved op6 20"},
      {30u << 25, "reserved op6 30"},
      {(39u << 25) | (2u << 4), "op6 39 f 2"},
      {(39u << 25) | (1u << 6), "op6 39 x 1"},
      {(39u << 25) | (3u << 10), "get with rb"},
      {(39u << 25) | (16u << 20), "get rd = i0"},
      {42u << 25, "reserved op6 42"},
      {56u << 25, "reserved op6 56"},
      {63u << 25, "reserved op6 63"},
      {4u << 25, "compare op5 2"},
      {5u << 25, "compare op5 2 (pt bit 2)"},
      {(6u << 25) | (1u << 6), "CMP-R x 1"},
      {(6u << 25) | (4u << 6), "CMP-R x 4"},
      {(6u << 25) | (12u << 6), "CMP-R x 12"},
      {(6u << 25) | (6u << 6) | (2u << 4), "eq.d/lt.d f 2"},
      {(6u << 25) | (8u << 6) | (1u << 4), "nan.d f 1"},
      {(6u << 25) | (15u << 6) | (1u << 18), "PLOG bit 18"},
      {(6u << 25) | (15u << 6) | (1u << 19), "PLOG bit 19"},
      {(6u << 25) | (15u << 6) | (1u << 13), "PLOG bit 13"},
      {(6u << 25) | (15u << 6) | (1u << 14), "PLOG bit 14"},
      {(31u << 25) | (5u << 6) | (3u << 4), "op6 31 x 5 f 3"},
      {(31u << 25) | (7u << 6) | (1u << 4), "addx f 1"},
      {(31u << 25) | (8u << 6), "op6 31 x 8"},
      {(31u << 25) | (5u << 6) | (1u << 10), "abs with rb != 0"},
      {(31u << 25) | (16u << 20), "add rd = i0"},
      {(35u << 25) | (1u << 4), "op6 35 x 0 f 1 (mulu)"},
      {(35u << 25) | (1u << 6) | (2u << 4), "op6 35 x 1 f 2"},
      {(35u << 25) | (3u << 6), "op6 35 x 3"},
      {(35u << 25) | (5u << 6) | (3u << 4), "ld8u"},
      {(35u << 25) | (7u << 6), "op6 35 x 7"},
      {(35u << 25) | (1u << 6) | (17u << 20), "mac rd = i1"},
      {(35u << 25) | (4u << 6) | (16u << 20), "load rd = i0"},
      {(32u << 25) | (1u << 4), "op6 32 f 1"},
      {(37u << 25) | (3u << 4), "op6 37 f 3"},
      {(36u << 25) | (31u << 20), "load I rd = i15"},
      {(18u << 25) | (1u << 13), "shift imm bit 7"},
      {(18u << 25) | (1u << 14), "shift imm bit 8"},
      {(18u << 25) | (1u << 12) | (2u << 4), "ext sel 1 f 2"},
      {(18u << 25) | (1u << 12) | (3u << 4), "ext sel 1 f 3"},
      {(40u << 25) | (1u << 6) | (3u << 4), "op6 40 x 1 f 3"},
      {(40u << 25) | (2u << 6) | (3u << 4), "op6 40 x 2 f 3"},
      {(40u << 25) | (2u << 6) | (5u << 10), "sqrt.d... with rb"},
      {(40u << 25) | (4u << 6), "op6 40 x 4"},
      {(40u << 25) | (1u << 6) | (16u << 20), "mac.d rd = i0"},
      {(41u << 25) | (1u << 6) | (20u << 20), "mac.f rd = i4"},
      {(41u << 25) | (3u << 6) | (3u << 4), "cvt f 3"},
      {(48u << 25) | (16u << 20), "set rd = i0"},
      {(49u << 25) | (17u << 20), "sli rd = i1"},
      {(51u << 25) | (1u << 20), "loop label rd != 0"},
      {(52u << 25) | (2u << 20), "brk rd != 0"},
      {(53u << 25) | (3u << 20) | (1u << 4), "xp r imm16 != 0"},
      {(55u << 25) | (1u << 4), "sync imm16 != 0"},
      {(55u << 25) | (1u << 20), "sync rd != 0"},
      {0xC0000000u, "XP bit 30"},
  };
  for (const Illegal& c : cases) {
    std::string why;
    EXPECT_FALSE(decode(c.word, &why).has_value()) << c.what;
    EXPECT_FALSE(why.empty()) << c.what;
    EXPECT_FALSE(decode(c.word).has_value()) << c.what << " (without reason)";
  }
}

TEST(Encoding, RandomWordsNeverCrashAndLegalOnesRoundTrip) {
  std::mt19937 rng(2024);
  int legal = 0;
  for (int k = 0; k < 500; ++k) {
    const std::uint32_t w = static_cast<std::uint32_t>(rng());
    std::string why;
    const std::optional<Instruction> in = decode(w, &why);
    if (in) {
      ++legal;
      EXPECT_EQ(encode(*in), w) << std::hex << w;
      EXPECT_EQ(*decode(encode(*in)), *in);
    } else {
      EXPECT_FALSE(why.empty());
    }
  }
  EXPECT_GT(legal, 0);
  EXPECT_LT(legal, 500);
}

// Sweeps every opcode position (bit 31, op6) against every x/f/qp/s combination with random
// middle bits: a decoder that ignored a reserved field would accept a word it cannot re-encode.
TEST(Encoding, StructuredSweepAcceptsOnlyReencodableWords) {
  std::mt19937 rng(7);
  int legal = 0;
  for (std::uint32_t top = 0; top < 128; ++top) {
    for (std::uint32_t low = 0; low < 1024; ++low) {
      const std::uint32_t mid = static_cast<std::uint32_t>(rng()) & 0x01FFFC00u;
      // Half of the words keep the middle bits zero so that sparse legal encodings show up.
      const std::uint32_t w = (top << 25) | ((low & 1) ? mid : 0u) | low;
      const std::optional<Instruction> in = decode(w);
      if (!in) continue;
      ++legal;
      ASSERT_EQ(encode(*in), w) << std::hex << w;
    }
  }
  EXPECT_GT(legal, 10000);
}

}  // namespace
}  // namespace par::isa
