// Functional semantics of the non-control instructions (docs/isa.md §6), one functor per opcode.
//
// The functors work on one slot's values. Callers that execute many slots (the SIMT lanes of a
// PAR core) switch on the opcode once with dispatch_value_op / dispatch_compare_op and run a
// tight loop with the functor inlined, so the semantics are written exactly once.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "par/isa/instruction.hpp"

namespace par::isa::sem {

using u64 = std::uint64_t;
using s64 = std::int64_t;

inline double as_f64(u64 v) { double d; std::memcpy(&d, &v, 8); return d; }
inline u64 from_f64(double d) { u64 v; std::memcpy(&v, &d, 8); return v; }
inline float as_f32(u64 v) { auto w = static_cast<std::uint32_t>(v); float f; std::memcpy(&f, &w, 4); return f; }
inline u64 from_f32(float f) { std::uint32_t w; std::memcpy(&w, &f, 4); return w; }

// 128-bit products for mulh/mulhu (a GCC/Clang extension, hence __extension__ under -Wpedantic).
__extension__ using s128 = __int128;
__extension__ using u128 = unsigned __int128;

inline constexpr u64 kCanonicalNan64 = 0x7FF8000000000000ull;
inline constexpr u64 kCanonicalNan32 = 0x7FC00000ull;

// Arithmetic FP results: NaN becomes the canonical quiet NaN (docs/isa.md §6.7).
inline u64 fp64(double d) { return std::isnan(d) ? kCanonicalNan64 : from_f64(d); }
inline u64 fp32(float f) { return std::isnan(f) ? kCanonicalNan32 : from_f32(f); }

inline u64 sext(u64 v, int bits) {
  if (bits >= 64) return v;
  const int sh = 64 - bits;
  return static_cast<u64>(static_cast<s64>(v << sh) >> sh);
}
inline u64 zext(u64 v, int bits) { return bits >= 64 ? v : v & ((u64{1} << bits) - 1); }

// ---------------------------------------------------------------------------------------------
// Value-producing operations: rd <- f(a, b, c, k); `flag` receives the implicit p7 result (0 or 1)
// for the opcodes with kWritesP7. It is an integer, not a bool, so that loops over many slots
// vectorise (compilers have no vector type for bool). a = ra, b = rb or sext(imm), c = old rd (kReadsRd) or p7 (addx),
// k = the instruction's imm (shift/extend amount, sla n, imm16).
// ---------------------------------------------------------------------------------------------

#define PAR_SEM_OP(Name, ...)                                                                \
  struct Name {                                                                              \
    u64 operator()([[maybe_unused]] u64 a, [[maybe_unused]] u64 b, [[maybe_unused]] u64 c,   \
                   [[maybe_unused]] s64 k, [[maybe_unused]] u64& flag) const __VA_ARGS__     \
  };

PAR_SEM_OP(OpAdd, {
  const u64 r = a + b;
  flag = (~(a ^ b) & (a ^ r)) >> 63;
  return r;
})
PAR_SEM_OP(OpAddu, {
  const u64 r = a + b;
  flag = r < a;
  return r;
})
PAR_SEM_OP(OpSubf, {
  const u64 r = b - a;
  flag = ((b ^ a) & (b ^ r)) >> 63;
  return r;
})
PAR_SEM_OP(OpSubfu, {
  flag = b < a;
  return b - a;
})
PAR_SEM_OP(OpAnd, { return a & b; })
PAR_SEM_OP(OpOr, { return a | b; })
PAR_SEM_OP(OpXor, { return a ^ b; })
PAR_SEM_OP(OpNor, { return ~(a | b); })
PAR_SEM_OP(OpSll, { return a << (b & 63); })
PAR_SEM_OP(OpSrl, { return a >> (b & 63); })
PAR_SEM_OP(OpSra, { return static_cast<u64>(static_cast<s64>(a) >> (b & 63)); })
PAR_SEM_OP(OpRor, {
  const unsigned s = static_cast<unsigned>(b & 63);
  return s == 0 ? a : (a >> s) | (a << (64 - s));
})
PAR_SEM_OP(OpExt, { return sext(a, static_cast<int>(k) + 1); })
PAR_SEM_OP(OpExtu, { return zext(a, static_cast<int>(k) + 1); })
PAR_SEM_OP(OpMin, {
  flag = static_cast<s64>(a) < static_cast<s64>(b);
  return flag ? a : b;
})
PAR_SEM_OP(OpMinu, {
  flag = a < b;
  return flag ? a : b;
})
PAR_SEM_OP(OpMax, {
  flag = static_cast<s64>(a) > static_cast<s64>(b);
  return flag ? a : b;
})
PAR_SEM_OP(OpMaxu, {
  flag = a > b;
  return flag ? a : b;
})
PAR_SEM_OP(OpAndc, { return a & ~b; })
PAR_SEM_OP(OpOrc, { return a | ~b; })
PAR_SEM_OP(OpXnor, { return ~(a ^ b); })
PAR_SEM_OP(OpNand, { return ~(a & b); })
PAR_SEM_OP(OpAbs, { return static_cast<s64>(a) < 0 ? u64{0} - a : a; })
PAR_SEM_OP(OpPopc, { return static_cast<u64>(__builtin_popcountll(a)); })
PAR_SEM_OP(OpClz, { return a == 0 ? 64 : static_cast<u64>(__builtin_clzll(a)); })
PAR_SEM_OP(OpSla, { return a + (b << (k & 3)); })
PAR_SEM_OP(OpAddx, {
  const u64 s = a + b;
  const u64 r = s + (c & 1);
  flag = static_cast<u64>(s < a) | static_cast<u64>(r < s);
  return r;
})
PAR_SEM_OP(OpSet, { return static_cast<u64>(k); })
PAR_SEM_OP(OpSli, { return (c << 16) | (static_cast<u64>(k) & 0xFFFF); })

PAR_SEM_OP(OpMul, { return a * b; })
PAR_SEM_OP(OpMulh, {
  const s128 p = static_cast<s128>(static_cast<s64>(a)) * static_cast<s64>(b);
  return static_cast<u64>(static_cast<u128>(p) >> 64);
})
PAR_SEM_OP(OpMulhu, {
  const u128 p = static_cast<u128>(a) * b;
  return static_cast<u64>(p >> 64);
})
PAR_SEM_OP(OpMac, {
  const u64 p = static_cast<u64>(static_cast<s64>(sext(a, 32)) * static_cast<s64>(sext(b, 32)));
  const u64 r = c + p;
  flag = (~(c ^ p) & (c ^ r)) >> 63;
  return r;
})
PAR_SEM_OP(OpMacu, {
  const u64 p = zext(a, 32) * zext(b, 32);
  const u64 r = c + p;
  flag = r < c;
  return r;
})
PAR_SEM_OP(OpDiv, {
  const s64 x = static_cast<s64>(a), y = static_cast<s64>(b);
  if (y == 0) return 0;
  if (y == -1) return u64{0} - a;  // INT64_MIN / -1 wraps to INT64_MIN
  return static_cast<u64>(x / y);
})
PAR_SEM_OP(OpDivu, { return b == 0 ? 0 : a / b; })
PAR_SEM_OP(OpRem, {
  const s64 x = static_cast<s64>(a), y = static_cast<s64>(b);
  if (y == 0) return a;
  if (y == -1) return 0;
  return static_cast<u64>(x % y);
})
PAR_SEM_OP(OpRemu, { return b == 0 ? a : a % b; })

// min/max with -0 < +0 and NaN handling (docs/isa.md §6.7), for double or float.
template <class F>
inline bool fp_less(F x, F y) {
  if (x == y) return std::signbit(x) && !std::signbit(y);
  return x < y;
}
template <class F>
inline int fp_minmax_nan(F x, F y) {  // 0: no NaN, 1: return y, 2: return x, 3: canonical
  const bool nx = std::isnan(x), ny = std::isnan(y);
  return nx && ny ? 3 : nx ? 1 : ny ? 2 : 0;
}

template <class F>
inline s64 fp_to_int(F x) {
  if (std::isnan(x)) return 0;
  if (x >= static_cast<F>(9223372036854775808.0)) return std::numeric_limits<s64>::max();
  if (x < static_cast<F>(-9223372036854775808.0)) return std::numeric_limits<s64>::min();
  return static_cast<s64>(x);
}

PAR_SEM_OP(OpAddD, { return fp64(as_f64(a) + as_f64(b)); })
PAR_SEM_OP(OpSubD, { return fp64(as_f64(a) - as_f64(b)); })
PAR_SEM_OP(OpMulD, { return fp64(as_f64(a) * as_f64(b)); })
PAR_SEM_OP(OpDivD, { return fp64(as_f64(a) / as_f64(b)); })
PAR_SEM_OP(OpMacD, { return fp64(std::fma(as_f64(a), as_f64(b), as_f64(c))); })
PAR_SEM_OP(OpMinD, {
  const double x = as_f64(a), y = as_f64(b);
  switch (fp_minmax_nan(x, y)) {
    case 1: return b;
    case 2: return a;
    case 3: return kCanonicalNan64;
    default: return fp_less(y, x) ? b : a;
  }
})
PAR_SEM_OP(OpMaxD, {
  const double x = as_f64(a), y = as_f64(b);
  switch (fp_minmax_nan(x, y)) {
    case 1: return b;
    case 2: return a;
    case 3: return kCanonicalNan64;
    default: return fp_less(x, y) ? b : a;
  }
})
PAR_SEM_OP(OpNegD, { return a ^ 0x8000000000000000ull; })
PAR_SEM_OP(OpAbsD, { return a & ~0x8000000000000000ull; })
PAR_SEM_OP(OpSqrtD, { return fp64(std::sqrt(as_f64(a))); })
PAR_SEM_OP(OpCvtDL, { return fp64(static_cast<double>(static_cast<s64>(a))); })
PAR_SEM_OP(OpCvtLD, { return static_cast<u64>(fp_to_int(as_f64(a))); })
PAR_SEM_OP(OpCvtDF, { return fp64(static_cast<double>(as_f32(a))); })

PAR_SEM_OP(OpAddF, { return fp32(as_f32(a) + as_f32(b)); })
PAR_SEM_OP(OpSubF, { return fp32(as_f32(a) - as_f32(b)); })
PAR_SEM_OP(OpMulF, { return fp32(as_f32(a) * as_f32(b)); })
PAR_SEM_OP(OpDivF, { return fp32(as_f32(a) / as_f32(b)); })
PAR_SEM_OP(OpMacF, { return fp32(std::fma(as_f32(a), as_f32(b), as_f32(c))); })
PAR_SEM_OP(OpMinF, {
  const float x = as_f32(a), y = as_f32(b);
  switch (fp_minmax_nan(x, y)) {
    case 1: return zext(b, 32);
    case 2: return zext(a, 32);
    case 3: return kCanonicalNan32;
    default: return zext(fp_less(y, x) ? b : a, 32);
  }
})
PAR_SEM_OP(OpMaxF, {
  const float x = as_f32(a), y = as_f32(b);
  switch (fp_minmax_nan(x, y)) {
    case 1: return zext(b, 32);
    case 2: return zext(a, 32);
    case 3: return kCanonicalNan32;
    default: return zext(fp_less(x, y) ? b : a, 32);
  }
})
PAR_SEM_OP(OpNegF, { return zext(a ^ 0x80000000ull, 32); })
PAR_SEM_OP(OpAbsF, { return zext(a & 0x7FFFFFFFull, 32); })
PAR_SEM_OP(OpSqrtF, { return fp32(std::sqrt(as_f32(a))); })
PAR_SEM_OP(OpCvtFL, { return fp32(static_cast<float>(static_cast<s64>(a))); })
PAR_SEM_OP(OpCvtLF, { return static_cast<u64>(fp_to_int(as_f32(a))); })
PAR_SEM_OP(OpCvtFD, { return fp32(static_cast<float>(as_f64(a))); })

#undef PAR_SEM_OP

// Calls v(Functor{}) for a value-producing opcode and returns true; returns false for opcodes
// that are not value operations (compares, memory, control).
template <class V>
inline bool dispatch_value_op(Opcode op, V&& v) {
  switch (op) {
#define PAR_CASE(E, F) case Opcode::E: v(F{}); return true;
    PAR_CASE(Add, OpAdd) PAR_CASE(Addu, OpAddu) PAR_CASE(Subf, OpSubf) PAR_CASE(Subfu, OpSubfu)
    PAR_CASE(And, OpAnd) PAR_CASE(Or, OpOr) PAR_CASE(Xor, OpXor) PAR_CASE(Nor, OpNor)
    PAR_CASE(Sll, OpSll) PAR_CASE(Srl, OpSrl) PAR_CASE(Sra, OpSra) PAR_CASE(Ror, OpRor)
    PAR_CASE(Ext, OpExt) PAR_CASE(Extu, OpExtu) PAR_CASE(Min, OpMin) PAR_CASE(Minu, OpMinu)
    PAR_CASE(Max, OpMax) PAR_CASE(Maxu, OpMaxu) PAR_CASE(Andc, OpAndc) PAR_CASE(Orc, OpOrc)
    PAR_CASE(Xnor, OpXnor) PAR_CASE(Nand, OpNand) PAR_CASE(Abs, OpAbs) PAR_CASE(Popc, OpPopc)
    PAR_CASE(Clz, OpClz) PAR_CASE(Sla, OpSla) PAR_CASE(Addx, OpAddx) PAR_CASE(Set, OpSet)
    PAR_CASE(Sli, OpSli)
    PAR_CASE(Mul, OpMul) PAR_CASE(Mulh, OpMulh) PAR_CASE(Mulhu, OpMulhu) PAR_CASE(Mac, OpMac)
    PAR_CASE(Macu, OpMacu) PAR_CASE(Div, OpDiv) PAR_CASE(Divu, OpDivu) PAR_CASE(Rem, OpRem)
    PAR_CASE(Remu, OpRemu)
    PAR_CASE(AddD, OpAddD) PAR_CASE(SubD, OpSubD) PAR_CASE(MulD, OpMulD) PAR_CASE(DivD, OpDivD)
    PAR_CASE(MacD, OpMacD) PAR_CASE(MinD, OpMinD) PAR_CASE(MaxD, OpMaxD) PAR_CASE(NegD, OpNegD)
    PAR_CASE(AbsD, OpAbsD) PAR_CASE(SqrtD, OpSqrtD) PAR_CASE(CvtDL, OpCvtDL)
    PAR_CASE(CvtLD, OpCvtLD) PAR_CASE(CvtDF, OpCvtDF)
    PAR_CASE(AddF, OpAddF) PAR_CASE(SubF, OpSubF) PAR_CASE(MulF, OpMulF) PAR_CASE(DivF, OpDivF)
    PAR_CASE(MacF, OpMacF) PAR_CASE(MinF, OpMinF) PAR_CASE(MaxF, OpMaxF) PAR_CASE(NegF, OpNegF)
    PAR_CASE(AbsF, OpAbsF) PAR_CASE(SqrtF, OpSqrtF) PAR_CASE(CvtFL, OpCvtFL)
    PAR_CASE(CvtLF, OpCvtLF) PAR_CASE(CvtFD, OpCvtFD)
#undef PAR_CASE
    default: return false;
  }
}

// ---------------------------------------------------------------------------------------------
// Compares: c = cond(a, b); then pt <- c, pf <- !c. Predicate logic: c = f(pa, pb).
// ---------------------------------------------------------------------------------------------

#define PAR_CMP_OP(Name, expr)                                         \
  struct Name {                                                        \
    bool operator()([[maybe_unused]] u64 a, [[maybe_unused]] u64 b) const { return expr; } \
  };
PAR_CMP_OP(CmpEqW, static_cast<std::uint32_t>(a) == static_cast<std::uint32_t>(b))
PAR_CMP_OP(CmpBitW, static_cast<std::uint32_t>(a & b) != 0)
PAR_CMP_OP(CmpLtW, static_cast<std::int32_t>(a) < static_cast<std::int32_t>(b))
PAR_CMP_OP(CmpLtuW, static_cast<std::uint32_t>(a) < static_cast<std::uint32_t>(b))
PAR_CMP_OP(CmpEq, a == b)
PAR_CMP_OP(CmpBit, (a & b) != 0)
PAR_CMP_OP(CmpLt, static_cast<s64>(a) < static_cast<s64>(b))
PAR_CMP_OP(CmpLtu, a < b)
PAR_CMP_OP(CmpEqD, as_f64(a) == as_f64(b))
PAR_CMP_OP(CmpLtD, as_f64(a) < as_f64(b))
PAR_CMP_OP(CmpEqF, as_f32(a) == as_f32(b))
PAR_CMP_OP(CmpLtF, as_f32(a) < as_f32(b))
PAR_CMP_OP(CmpNanD, std::isnan(as_f64(a)) || std::isnan(as_f64(b)))
PAR_CMP_OP(CmpNanF, std::isnan(as_f32(a)) || std::isnan(as_f32(b)))
PAR_CMP_OP(PredAnd, (a & b) != 0)
PAR_CMP_OP(PredOr, (a | b) != 0)
PAR_CMP_OP(PredXor, (a ^ b) != 0)
PAR_CMP_OP(PredAndc, (a & ~b & 1) != 0)
#undef PAR_CMP_OP

// Calls v(Functor{}) for a compare or predicate-logic opcode (predicate-logic functors take the
// predicate values 0/1 as a and b).
template <class V>
inline bool dispatch_compare_op(Opcode op, V&& v) {
  switch (op) {
#define PAR_CASE(E, F) case Opcode::E: v(F{}); return true;
    PAR_CASE(EqW, CmpEqW) PAR_CASE(BitW, CmpBitW) PAR_CASE(LtW, CmpLtW) PAR_CASE(LtuW, CmpLtuW)
    PAR_CASE(Eq, CmpEq) PAR_CASE(Bit, CmpBit) PAR_CASE(Lt, CmpLt) PAR_CASE(Ltu, CmpLtu)
    PAR_CASE(EqD, CmpEqD) PAR_CASE(LtD, CmpLtD) PAR_CASE(EqF, CmpEqF) PAR_CASE(LtF, CmpLtF)
    PAR_CASE(NanD, CmpNanD) PAR_CASE(NanF, CmpNanF)
    PAR_CASE(PAnd, PredAnd) PAR_CASE(POr, PredOr) PAR_CASE(PXor, PredXor) PAR_CASE(PAndc, PredAndc)
#undef PAR_CASE
    default: return false;
  }
}

// Loads: value loaded from little-endian bytes, extended as the opcode says.
inline u64 extend_load(Opcode op, u64 raw) {
  switch (op) {
    case Opcode::Ld1: return sext(raw, 8);
    case Opcode::Ld2: return sext(raw, 16);
    case Opcode::Ld4: return sext(raw, 32);
    case Opcode::Ld1u: return zext(raw, 8);
    case Opcode::Ld2u: return zext(raw, 16);
    case Opcode::Ld4u: return zext(raw, 32);
    default: return raw;
  }
}

// Convenience for scalar callers (master core, tests): executes a value op on one slot.
// Returns false if `in` is not a value op.
inline bool execute_value(const Instruction& in, u64 a, u64 b, u64 c, u64& result, bool& flag) {
  u64 f = 0;
  const bool ok = dispatch_value_op(in.op, [&](auto fn) { result = fn(a, b, c, in.imm, f); });
  flag = f != 0;
  return ok;
}
inline bool execute_compare(const Instruction& in, u64 a, u64 b, bool& cond) {
  return dispatch_compare_op(in.op, [&](auto fn) { cond = fn(a, b); });
}

}  // namespace par::isa::sem
