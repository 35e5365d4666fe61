// Binary encoding and decoding (docs/isa.md §5). Every opcode number, x and f value comes from the
// opcode table in instruction.cpp; this file only knows the field positions of the formats.
#include "par/isa/encoding.hpp"

#include <array>
#include <cassert>
#include <string>

namespace par::isa {

namespace {

using u32 = std::uint32_t;

// Field positions (docs/isa.md §5).
constexpr int kStopBit = 0;
constexpr int kQpPos = 1;
constexpr int kFPos = 4;
constexpr int kXPos = 6;
constexpr int kImm9Pos = 6;
constexpr int kImm16Pos = 4;
constexpr int kImm26Pos = 4;
constexpr int kRbPos = 10;
constexpr int kRaPos = 15;
constexpr int kRdPos = 20;
constexpr int kPfPos = 20;
constexpr int kPtPos = 23;
constexpr int kOp6Pos = 25;
constexpr int kOp5Pos = 26;
constexpr u32 kXpBit = 1u << 31;
constexpr u32 kSelBit = 1u << 6;  // `sel`: bit 6 of imm9 in the shift-immediate form

constexpr u32 field(u32 word, int pos, int bits) { return (word >> pos) & ((1u << bits) - 1); }

std::int64_t sext(u32 v, int bits) {
  const u32 sign = 1u << (bits - 1);
  return static_cast<std::int64_t>(v ^ sign) - static_cast<std::int64_t>(sign);
}

bool is_s_shape(Shape s) {
  switch (s) {
    case Shape::Const: case Shape::XpReg: case Shape::LoopCount: case Shape::LoopCond:
    case Shape::Brk: case Shape::Par: case Shape::None:
      return true;
    default:
      return false;
  }
}

bool is_compare_shape(Shape s) { return s == Shape::Compare || s == Shape::PredLogic; }

// Immutable reverse index of the opcode table, built once on first use.
struct DecodeIndex {
  static constexpr std::int16_t kNone = -1;
  std::array<std::int16_t, 64 * 16 * 4> r;  // [op6][x][f]: R format
  std::array<std::int16_t, 64 * 4> i;       // [op6][f]: I format (shift/rotate when sel = 0)
  std::array<std::int16_t, 64 * 4> ext;     // [op6][f]: shift-immediate op6 with sel = 1
  std::array<std::int16_t, 64> s;           // [op6]: S format
  std::array<std::int16_t, 16 * 4> cmp_r;   // [x][f]: CMP-R and PLOG
  std::array<std::int16_t, 4 * 4> cmp_i;    // [op5][f]: CMP-I
  std::array<bool, 64> r_op6{}, i_op6{};
  std::uint8_t cmp_r_op5 = 0;  // op5 of the register compares and predicate logic
  std::uint8_t shift_op6 = 0;  // op6 of the shift-immediate / extend form
  std::uint8_t plog_x = 0;     // x of predicate logic

  DecodeIndex() {
    r.fill(kNone);
    i.fill(kNone);
    ext.fill(kNone);
    s.fill(kNone);
    cmp_r.fill(kNone);
    cmp_i.fill(kNone);
    cmp_r_op5 = info(Opcode::Eq).r_op6;
    shift_op6 = info(Opcode::Ext).i_op6;
    plog_x = info(Opcode::PAnd).x;
    for (const OpInfo& m : opcode_table()) {
      const auto id = static_cast<std::int16_t>(m.op);
      if (m.shape == Shape::XpLabel) continue;  // bit 31 format, no table slot
      if (is_compare_shape(m.shape)) {
        if (m.r_op6 != kNoOp6) cmp_r[m.x * 4u + m.f] = id;
        if (m.i_op6 != kNoOp6) cmp_i[m.i_op6 * 4u + m.f] = id;
        continue;
      }
      if (is_s_shape(m.shape)) {
        s[m.r_op6] = id;
        continue;
      }
      if (m.r_op6 != kNoOp6) {
        r_op6[m.r_op6] = true;
        if (m.shape == Shape::Sla) {
          for (unsigned f = 0; f < 4; ++f) r[(m.r_op6 * 16u + m.x) * 4u + f] = id;  // f = n
        } else {
          r[(m.r_op6 * 16u + m.x) * 4u + m.f] = id;
        }
      }
      if (m.i_op6 != kNoOp6) {
        i_op6[m.i_op6] = true;
        (m.shape == Shape::Ext ? ext : i)[m.i_op6 * 4u + m.f] = id;
      }
    }
  }
};

const DecodeIndex& index() {
  static const DecodeIndex kIndex;
  return kIndex;
}

bool fail(std::string* why, std::string reason) {
  if (why) *why = std::move(reason);
  return false;
}

std::string num(u32 v) { return std::to_string(v); }

bool is_shift(const OpInfo& m) { return m.shape == Shape::Binary && m.i_op6 == index().shift_op6; }

u32 qp_stop(const Instruction& in) {
  return (static_cast<u32>(in.qp & 7) << kQpPos) | (in.stop ? 1u << kStopBit : 0u);
}

u32 reg(std::uint8_t r, int pos) { return static_cast<u32>(r & 31) << pos; }

// The checks below mirror the ranges of the decoded form documented in instruction.hpp; they
// only fire for callers that build an Instruction by hand with impossible values.
void check_fields(const Instruction& in) {
  assert(in.qp < 8 && in.rd < 32 && in.ra < 32 && in.rb < 32);
  assert(in.pt < 8 && in.pf < 8 && in.pa < 8 && in.pb < 8);
  (void)in;
}

}  // namespace

u32 encode(const Instruction& in) {
  check_fields(in);
  const OpInfo& m = in.meta();
  u32 w = qp_stop(in);
  const auto imm = static_cast<std::uint64_t>(in.imm);
  switch (m.shape) {
    case Shape::XpLabel:
      assert(in.imm >= 0 && in.imm < (1 << 26));
      return w | kXpBit | static_cast<u32>((imm & 0x3FFFFFFu) << kImm26Pos);
    case Shape::Const: case Shape::XpReg: case Shape::LoopCount: case Shape::LoopCond:
    case Shape::Brk: case Shape::Par: case Shape::None:
      assert(in.imm >= -32768 && in.imm <= 65535);
      return w | static_cast<u32>(m.r_op6) << kOp6Pos | reg(in.rd, kRdPos) |
             static_cast<u32>((imm & 0xFFFFu) << kImm16Pos);
    case Shape::Compare:
      w |= static_cast<u32>(in.pt & 7) << kPtPos | static_cast<u32>(in.pf & 7) << kPfPos |
           reg(in.ra, kRaPos) | static_cast<u32>(m.f) << kFPos;
      if (in.imm_form) {
        assert(in.imm >= -256 && in.imm <= 255);
        return w | static_cast<u32>(m.i_op6) << kOp5Pos | static_cast<u32>((imm & 0x1FFu) << kImm9Pos);
      }
      return w | static_cast<u32>(m.r_op6) << kOp5Pos | reg(in.rb, kRbPos) |
             static_cast<u32>(m.x) << kXPos;
    case Shape::PredLogic:
      return w | static_cast<u32>(m.r_op6) << kOp5Pos | static_cast<u32>(in.pt & 7) << kPtPos |
             static_cast<u32>(in.pf & 7) << kPfPos | static_cast<u32>(in.pa & 7) << kRaPos |
             static_cast<u32>(in.pb & 7) << kRbPos | static_cast<u32>(m.x) << kXPos |
             static_cast<u32>(m.f) << kFPos;
    case Shape::Ext:
      assert(in.imm >= 0 && in.imm <= 63);
      return w | static_cast<u32>(m.i_op6) << kOp6Pos | reg(in.rd, kRdPos) | reg(in.ra, kRaPos) |
             (kSelBit | static_cast<u32>(imm & 63)) << kImm9Pos | static_cast<u32>(m.f) << kFPos;
    case Shape::Sla:
      assert(in.imm >= 0 && in.imm <= 3);
      return w | static_cast<u32>(m.r_op6) << kOp6Pos | reg(in.rd, kRdPos) | reg(in.ra, kRaPos) |
             reg(in.rb, kRbPos) | static_cast<u32>(m.x) << kXPos |
             static_cast<u32>(imm & 3) << kFPos;
    case Shape::StreamGet: case Shape::StreamPut:
      assert(in.imm >= 0 && in.imm < kStreamChannels);
      return w | static_cast<u32>(m.r_op6) << kOp6Pos | reg(in.rd, kRdPos) |
             static_cast<u32>(imm & 31) << kRaPos | static_cast<u32>(m.x) << kXPos |
             static_cast<u32>(m.f) << kFPos;
    case Shape::Binary: case Shape::Unary: case Shape::Load: case Shape::Store:
      w |= reg(in.rd, kRdPos) | reg(in.ra, kRaPos) | static_cast<u32>(m.f) << kFPos;
      if (in.imm_form) {
        assert(m.i_op6 != kNoOp6);
        if (is_shift(m)) {
          assert(in.imm >= 0 && in.imm <= 63);
          return w | static_cast<u32>(m.i_op6) << kOp6Pos | static_cast<u32>(imm & 63) << kImm9Pos;
        }
        assert(in.imm >= -256 && in.imm <= 255);
        return w | static_cast<u32>(m.i_op6) << kOp6Pos | static_cast<u32>((imm & 0x1FFu) << kImm9Pos);
      }
      assert(m.r_op6 != kNoOp6);
      return w | static_cast<u32>(m.r_op6) << kOp6Pos | reg(in.rb, kRbPos) |
             static_cast<u32>(m.x) << kXPos;
  }
  return w;
}

namespace {

bool decode_xp(u32 word, Instruction& in, std::string* why) {
  if (word & (1u << 30)) return fail(why, "reserved bit 30 of the expand format not zero");
  in.op = Opcode::Xp;
  in.imm = field(word, kImm26Pos, 26);
  return true;
}

bool decode_compare(u32 word, Instruction& in, std::string* why) {
  const DecodeIndex& ix = index();
  const u32 op5 = field(word, kOp5Pos, 5);
  const u32 f = field(word, kFPos, 2);
  in.pt = static_cast<std::uint8_t>(field(word, kPtPos, 3));
  in.pf = static_cast<std::uint8_t>(field(word, kPfPos, 3));
  if (op5 == ix.cmp_r_op5) {
    const u32 x = field(word, kXPos, 4);
    const std::int16_t id = ix.cmp_r[x * 4 + f];
    if (id < 0) return fail(why, "unassigned compare x " + num(x) + ", f " + num(f));
    in.op = static_cast<Opcode>(id);
    if (x == ix.plog_x) {
      if (field(word, 18, 2) != 0) return fail(why, "reserved field bits 19..18 not zero");
      if (field(word, 13, 2) != 0) return fail(why, "reserved field bits 14..13 not zero");
      in.pa = static_cast<std::uint8_t>(field(word, kRaPos, 3));
      in.pb = static_cast<std::uint8_t>(field(word, kRbPos, 3));
      return true;
    }
    in.ra = static_cast<std::uint8_t>(field(word, kRaPos, 5));
    in.rb = static_cast<std::uint8_t>(field(word, kRbPos, 5));
    return true;
  }
  const std::int16_t id = op5 < 4 ? ix.cmp_i[op5 * 4 + f] : DecodeIndex::kNone;
  if (id < 0) return fail(why, "unassigned opcode " + num(field(word, kOp6Pos, 6)));
  in.op = static_cast<Opcode>(id);
  in.imm_form = true;
  in.ra = static_cast<std::uint8_t>(field(word, kRaPos, 5));
  in.imm = sext(field(word, kImm9Pos, 9), 9);
  return true;
}

bool decode_s(u32 word, Opcode op, Instruction& in, std::string* why) {
  in.op = op;
  const u32 rd = field(word, kRdPos, 5);
  const u32 imm16 = field(word, kImm16Pos, 16);
  in.rd = static_cast<std::uint8_t>(rd);
  switch (in.meta().shape) {
    case Shape::Const:
      if (rd >= 16) return fail(why, "destination is an inherited register");
      in.imm = op == Opcode::Set ? sext(imm16, 16) : static_cast<std::int64_t>(imm16);
      return true;
    case Shape::XpReg:
      if (imm16 != 0) return fail(why, "reserved field bits 19..4 not zero");
      return true;
    case Shape::LoopCount: case Shape::Par:
      in.imm = imm16;
      return true;
    case Shape::LoopCond:
      if (rd != 0) return fail(why, "reserved field bits 24..20 not zero");
      in.imm = imm16;
      return true;
    case Shape::Brk:
      if (rd != 0) return fail(why, "reserved field bits 24..20 not zero");
      in.imm = imm16;
      return true;
    default:  // sync
      if (rd != 0) return fail(why, "reserved field bits 24..20 not zero");
      if (imm16 != 0) return fail(why, "reserved field bits 19..4 not zero");
      return true;
  }
}

bool decode_r(u32 word, u32 op6, Instruction& in, std::string* why) {
  const u32 x = field(word, kXPos, 4);
  const u32 f = field(word, kFPos, 2);
  const std::int16_t id = index().r[(op6 * 16 + x) * 4 + f];
  if (id < 0)
    return fail(why, "unassigned combination op6 " + num(op6) + ", x " + num(x) + ", f " + num(f));
  in.op = static_cast<Opcode>(id);
  in.rd = static_cast<std::uint8_t>(field(word, kRdPos, 5));
  in.ra = static_cast<std::uint8_t>(field(word, kRaPos, 5));
  in.rb = static_cast<std::uint8_t>(field(word, kRbPos, 5));
  const Shape shape = in.meta().shape;
  const bool rd_is_source = shape == Shape::Store || shape == Shape::StreamPut;
  if (!rd_is_source && in.rd >= 16) return fail(why, "destination is an inherited register");
  if (shape == Shape::StreamGet || shape == Shape::StreamPut) {
    if (in.rb != 0) return fail(why, "unused field rb (bits 14..10) not zero");
    in.imm = in.ra;  // the channel
    in.ra = 0;
    return true;
  }
  if (shape == Shape::Unary && in.rb != 0) return fail(why, "unused field rb (bits 14..10) not zero");
  if (shape == Shape::Sla) in.imm = f;
  return true;
}

bool decode_i(u32 word, u32 op6, Instruction& in, std::string* why) {
  const DecodeIndex& ix = index();
  const u32 f = field(word, kFPos, 2);
  const u32 imm9 = field(word, kImm9Pos, 9);
  std::int16_t id = ix.i[op6 * 4 + f];
  if (op6 == ix.shift_op6) {
    if ((imm9 >> 7) != 0) return fail(why, "reserved field bits 14..13 not zero");
    if (imm9 & kSelBit) id = ix.ext[op6 * 4 + f];
  }
  if (id < 0) return fail(why, "unassigned combination op6 " + num(op6) + ", f " + num(f));
  in.op = static_cast<Opcode>(id);
  in.imm_form = true;
  in.rd = static_cast<std::uint8_t>(field(word, kRdPos, 5));
  in.ra = static_cast<std::uint8_t>(field(word, kRaPos, 5));
  if (in.meta().shape != Shape::Store && in.rd >= 16)
    return fail(why, "destination is an inherited register");
  in.imm = op6 == ix.shift_op6 ? static_cast<std::int64_t>(imm9 & 63) : sext(imm9, 9);
  return true;
}

}  // namespace

std::optional<Instruction> decode(u32 word, std::string* why) {
  Instruction in;
  in.stop = (word >> kStopBit) & 1;
  in.qp = static_cast<std::uint8_t>(field(word, kQpPos, 3));
  const u32 op6 = field(word, kOp6Pos, 6);
  const DecodeIndex& ix = index();
  bool ok = false;
  if (word & kXpBit) {
    ok = decode_xp(word, in, why);
  } else if (op6 < 8) {
    ok = decode_compare(word, in, why);
  } else if (ix.s[op6] >= 0) {
    ok = decode_s(word, static_cast<Opcode>(ix.s[op6]), in, why);
  } else if (ix.r_op6[op6]) {
    ok = decode_r(word, op6, in, why);
  } else if (ix.i_op6[op6]) {
    ok = decode_i(word, op6, in, why);
  } else {
    ok = fail(why, "unassigned opcode " + num(op6));
  }
  if (!ok) return std::nullopt;
  return in;
}

}  // namespace par::isa
