// The value kernels of the SIMT executor (rd <- f(a, b, c) for every value opcode, in four
// variants each: writes p7 or not, b a register or the immediate, and two widths). They are most of
// the executor's object code, so they are compiled in two translation units, one per form of b
// (simt_value_kernels_imm.cpp, simt_value_kernels_reg.cpp), which build in parallel; this header
// is included by those two files only.
#pragma once

#include <cstdint>
#include <optional>

#include "par/isa/semantics.hpp"
#include "simt_executor.hpp"

namespace par::core {

using u64 = std::uint64_t;

// rd <- f(a, b, c) in qualified slots. b is a register or, for I forms, the immediate (kImmB);
// unary and constant shapes read zeros. The write enable is a blend, not a branch.
template <int kN, bool kWritesP7, bool kImmB, class F>
void SimtExecutor::run_value(F fn, const isa::Instruction& in) {
  const isa::Shape shape = in.meta().shape;
  const bool no_b = shape == isa::Shape::Unary || shape == isa::Shape::Const;
  const u64* a = shape == isa::Shape::Const ? zero_.data() : st_.reg(in.ra);
  const u64* b = no_b ? zero_.data() : st_.reg(in.rb);
  const u64 bimm = no_b ? 0 : static_cast<u64>(in.imm);
  const u64* c = zero_.data();
  const std::uint16_t flags = in.meta().flags;
  if (flags & isa::kReadsRd) {
    c = st_.reg(in.rd);
  } else if (flags & isa::kReadsP7) {
    const std::uint8_t* p7 = st_.pred(7);
    for (int s = 0, n = kN ? kN : n_; s < n; ++s) c_[s] = p7[s];
    c = c_.data();
  }
  // Results go to a scratch array first: rd is often also a source (add r1 = r1, 8), and a
  // separate write-enable pass keeps both loops free of aliasing so they vectorise.
  const std::int64_t k = in.imm;
  const int n = kN ? kN : n_;
  u64* d = st_.reg(in.rd);
  if (all_qualified_) {
    // Every slot writes: one pass, which vectorises even in place (rd == ra). The predicate file
    // never overlaps the register file, hence __restrict on p7.
    std::uint8_t* __restrict p7 = st_.pred(7);
    for (int s = 0; s < n; ++s) {
      u64 flag = 0;
      d[s] = fn(a[s], kImmB ? bimm : b[s], c[s], k, flag);
      if constexpr (kWritesP7) p7[s] = static_cast<std::uint8_t>(flag);
    }
    return;
  }
  u64* __restrict t = tmp_.data();
  std::uint8_t* __restrict f = flags_.data();
  for (int s = 0; s < n; ++s) {
    u64 flag = 0;
    t[s] = fn(a[s], kImmB ? bimm : b[s], c[s], k, flag);
    if constexpr (kWritesP7) f[s] = static_cast<std::uint8_t>(flag);
  }
  const std::uint8_t* __restrict q = q_;
  for (int s = 0; s < n; ++s) {
    const u64 m = u64{0} - q[s];  // all ones in qualified slots
    d[s] = (t[s] & m) | (d[s] & ~m);
  }
  if constexpr (kWritesP7) {
    std::uint8_t* __restrict p7 = st_.pred(7);
    for (int s = 0; s < n; ++s) {
      const std::uint8_t m = static_cast<std::uint8_t>(0 - q[s]);
      p7[s] = static_cast<std::uint8_t>((f[s] & m) | (p7[s] & ~m));
    }
  }
}

template <int kN, class F, bool kWritesP7, bool kImmB>
std::optional<MemoryFault> SimtExecutor::value_kernel(SimtExecutor& x, const isa::Instruction& in) {
  x.run_value<kN, kWritesP7, kImmB>(F{}, in);
  return std::nullopt;
}

template <bool kImmB>
bool SimtExecutor::value_kernels(const isa::Instruction& in, Kernel& k) {
  const bool writes_p7 = (in.meta().flags & isa::kWritesP7) != 0;
  return isa::sem::dispatch_value_op(in.op, [&](auto fn) {
    using F = decltype(fn);
    if (writes_p7)
      k = Kernel{&value_kernel<0, F, true, kImmB>, &value_kernel<kShortWidth, F, true, kImmB>};
    else
      k = Kernel{&value_kernel<0, F, false, kImmB>, &value_kernel<kShortWidth, F, false, kImmB>};
  });
}

}  // namespace par::core
