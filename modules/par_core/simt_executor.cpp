#include "simt_executor.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <type_traits>

#include "par/isa/semantics.hpp"

namespace par::core {

using isa::Instruction;
using isa::Opcode;
using isa::Shape;
using u64 = std::uint64_t;

std::string MemoryFault::describe() const {
  char buf[96];
  std::snprintf(buf, sizeof buf, "%s %d-byte %s at 0x%llx",
                kind == Kind::Misaligned ? "misaligned" : "unmapped", size, write ? "store" : "load",
                static_cast<unsigned long long>(address));
  return buf;
}

SimtExecutor::SimtExecutor(SlotState& state, LocalMemory& local, bool global_path)
    : st_(state), local_(local), global_path_(global_path), S_(state.slots()), n_(S_) {
  const auto n = static_cast<std::size_t>(S_);
  qbuf_.resize(n);
  c_.resize(n);
  zero_.assign(n, 0);
  addr_.resize(n);
  tmp_.resize(n);
  flags_.resize(n);
  global_.resize(n);
}

template <class F>
void SimtExecutor::run_compare(F fn, const Instruction& in) {
  std::uint8_t* pt = st_.pred(in.pt);
  std::uint8_t* pf = st_.pred(in.pf);
  const std::uint8_t* q = q_;
  const bool write_t = in.pt != 0, write_f = in.pf != 0;
  auto store = [&](int s, bool c) {
    if (!q[s]) return;
    if (write_t) pt[s] = c;
    if (write_f) pf[s] = !c;  // pf last: it wins when pt == pf (docs/isa.md §6.6)
  };
  if (in.meta().shape == Shape::PredLogic) {
    const std::uint8_t* pa = st_.pred(in.pa);
    const std::uint8_t* pb = st_.pred(in.pb);
    for (int s = 0, n = n_; s < n; ++s) store(s, fn(pa[s], pb[s]));
  } else if (in.imm_form) {
    const u64* a = st_.reg(in.ra);
    const u64 b = static_cast<u64>(in.imm);
    for (int s = 0, n = n_; s < n; ++s) store(s, fn(a[s], b));
  } else {
    const u64* a = st_.reg(in.ra);
    const u64* b = st_.reg(in.rb);
    for (int s = 0, n = n_; s < n; ++s) store(s, fn(a[s], b[s]));
  }
}

namespace {

// Fused multiply-add loops compiled for the FMA instruction set, used when the host CPU has it
// (checked at run time): the portable build would call the C library's fma() once per slot.
// out = a * b + c; out may be c.
__attribute__((target("avx2,fma"))) void fma_loop_f64(u64* out, const u64* a, const u64* b, const u64* c, int n) {
  for (int s = 0; s < n; ++s) {
    double x, y, z;
    std::memcpy(&x, &a[s], 8);
    std::memcpy(&y, &b[s], 8);
    std::memcpy(&z, &c[s], 8);
    const double r = __builtin_fma(x, y, z);
    // Canonical NaN (docs/isa.md §6.7) without a branch: a NaN compares unequal to itself.
    u64 bits;
    std::memcpy(&bits, &r, 8);
    out[s] = r == r ? bits : isa::sem::kCanonicalNan64;
  }
}

__attribute__((target("avx2,fma"))) void fma_loop_f32(u64* out, const u64* a, const u64* b, const u64* c, int n) {
  for (int s = 0; s < n; ++s) {
    float x, y, z;
    const std::uint32_t xa = static_cast<std::uint32_t>(a[s]), yb = static_cast<std::uint32_t>(b[s]),
                        zd = static_cast<std::uint32_t>(c[s]);
    std::memcpy(&x, &xa, 4);
    std::memcpy(&y, &yb, 4);
    std::memcpy(&z, &zd, 4);
    const float r = __builtin_fmaf(x, y, z);
    std::uint32_t bits;
    std::memcpy(&bits, &r, 4);
    out[s] = r == r ? bits : isa::sem::kCanonicalNan32;
  }
}

const bool kHostHasFma = __builtin_cpu_supports("fma") && __builtin_cpu_supports("avx2");

// Loads and stores of one access size with the extension fixed at compile time: each access is
// a single move.
template <bool kWrite, int kSize, bool kSigned>
void access_loop(std::uint8_t* mem, std::uint64_t base, const std::uint64_t* addr,
                 const std::uint8_t* q, u64* d, int slots, bool all) {
  using Word = std::conditional_t<kSize == 1, std::uint8_t,
               std::conditional_t<kSize == 2, std::uint16_t,
               std::conditional_t<kSize == 4, std::uint32_t, std::uint64_t>>>;
  using SWord = std::make_signed_t<Word>;
  for (int s = 0; s < slots; ++s) {
    if (!all && !q[s]) continue;
    std::uint8_t* p = mem + (addr[s] - base);
    if constexpr (kWrite) {
      const Word w = static_cast<Word>(d[s]);
      std::memcpy(p, &w, kSize);
    } else {
      Word w;
      std::memcpy(&w, p, kSize);
      d[s] = kSigned ? static_cast<u64>(static_cast<std::int64_t>(static_cast<SWord>(w))) : static_cast<u64>(w);
    }
  }
}

}  // namespace

// Loads and stores: a first pass computes and checks every qualified slot's address, a second
// pass accesses local memory directly. Addresses outside the window go to the global path.
template <int kN, bool kWrite, bool kImm, int kSize, bool kSigned>
std::optional<MemoryFault> SimtExecutor::run_memory(const Instruction& in) {
  constexpr int size = kSize;
  const u64* a = st_.reg(in.ra);
  const u64* b = kImm ? nullptr : st_.reg(in.rb);
  const u64 imm = static_cast<u64>(in.imm);
  const u64 align = static_cast<u64>(size) - 1;
  const u64 base = local_.base();
  // addr - base <= last_ok: in the window. A window smaller than the access holds no address at
  // all (its last_ok would wrap around to ~0 and let every address in).
  const bool fits = local_.size() >= static_cast<u64>(size);
  const u64 last_ok = fits ? local_.size() - static_cast<u64>(size) : 0;
  const std::uint8_t* q = q_;
  u64* addr = addr_.data();
  // Non-zero if some qualified slot is misaligned or outside the window. "Outside" is the borrow
  // of last_ok - (x - base), computed with bit operations: baseline x86-64 vectors have no
  // 64-bit compare, and this pass runs for every memory instruction.
  auto outside = [last_ok, base](u64 x) {
    const u64 off = x - base, diff = last_ok - off;
    return ((~last_ok & off) | ((~last_ok | off) & diff)) >> 63;
  };
  u64 bad = 0;
  const int n = kN ? kN : n_;
  if (kN != 0 && all_qualified_) {  // a few slots: plain compares beat the vector form's set-up
    for (int s = 0; s < n; ++s) {
      const u64 x = a[s] + (kImm ? imm : b[s]);
      addr[s] = x;
      bad |= (x & align) | static_cast<u64>(x - base > last_ok);
    }
  } else if (all_qualified_) {
    for (int s = 0; s < n; ++s) {
      const u64 x = a[s] + (kImm ? imm : b[s]);
      addr[s] = x;
      bad |= (x & align) | outside(x);
    }
  } else {
    for (int s = 0; s < n; ++s) {
      const u64 x = a[s] + (kImm ? imm : b[s]);
      addr[s] = x;
      bad |= (u64{0} - q[s]) & ((x & align) | outside(x));
    }
  }
  const bool all_local = bad == 0 && fits;
  u64* d = st_.reg(in.rd);
  if (all_local) {
    access_loop<kWrite, kSize, kSigned>(local_.at(base), base, addr, q, d, n, all_qualified_);
    return std::nullopt;
  }
  // Mixed or global: check every slot first so that a fault leaves memory untouched, then do
  // the local accesses; the global ones are left to the load/store unit.
  for (int s = 0; s < n; ++s) {
    global_[s] = 0;
    if (!q[s]) continue;
    const u64 x = addr[s];
    if (x & align) return MemoryFault{MemoryFault::Kind::Misaligned, s, x, size, kWrite};
    if (!fits || x - base > last_ok) {
      if (!global_path_) return MemoryFault{MemoryFault::Kind::Unmapped, s, x, size, kWrite};
      global_[s] = 1;
      has_global_ = true;
    }
  }
  for (int s = 0; s < n; ++s) {
    if (!q[s] || global_[s]) continue;
    if constexpr (kWrite) local_.store(addr[s], size, d[s]);
    else d[s] = isa::sem::extend_load(in.op, local_.load(addr[s], size));
  }
  return std::nullopt;
}

// Every slot computes (no FP exceptions are trapped); only qualified slots keep the result.
void SimtExecutor::run_fma(const Instruction& in) {
  auto* loop = in.op == Opcode::MacD ? fma_loop_f64 : fma_loop_f32;
  u64* d = st_.reg(in.rd);
  if (all_qualified_) {
    loop(d, st_.reg(in.ra), st_.reg(in.rb), d, n_);
    return;
  }
  u64* __restrict t = tmp_.data();
  loop(t, st_.reg(in.ra), st_.reg(in.rb), d, n_);
  const std::uint8_t* __restrict q = q_;
  for (int s = 0, n = n_; s < n; ++s) {
    const u64 m = u64{0} - q[s];
    d[s] = (t[s] & m) | (d[s] & ~m);
  }
}

void SimtExecutor::set_width(int n) {
  n_ = n;
  std::fill(qbuf_.begin() + n, qbuf_.end(), std::uint8_t{0});
  std::fill(global_.begin() + n, global_.end(), std::uint8_t{0});
}

template <class F>
std::optional<MemoryFault> SimtExecutor::compare_kernel(SimtExecutor& x, const Instruction& in) {
  x.run_compare(F{}, in);
  return std::nullopt;
}

std::optional<MemoryFault> SimtExecutor::fma_kernel(SimtExecutor& x, const Instruction& in) {
  x.run_fma(in);
  return std::nullopt;
}

template <int kN, bool kWrite, bool kImm, int kSize, bool kSigned>
std::optional<MemoryFault> SimtExecutor::memory_kernel(SimtExecutor& x, const Instruction& in) {
  x.has_global_ = false;
  if constexpr (kWrite) x.effects_ += x.q_count_ > 0;
  std::optional<MemoryFault> fault = x.run_memory<kN, kWrite, kImm, kSize, kSigned>(in);
  x.effects_ += x.has_global_;
  return fault;
}

std::optional<MemoryFault> SimtExecutor::no_kernel(SimtExecutor&, const Instruction&) { return std::nullopt; }

SimtExecutor::Kernel SimtExecutor::kernel_for(const Instruction& in) {
  if (kHostHasFma && (in.op == Opcode::MacD || in.op == Opcode::MacF)) return {&fma_kernel, &fma_kernel};
  const bool imm = in.imm_form;
  switch (in.op) {
#define PAR_MEMORY_FORM(kImm, kWrite, kSize, kSigned) \
  Kernel{&memory_kernel<0, kWrite, kImm, kSize, kSigned>, &memory_kernel<kShortWidth, kWrite, kImm, kSize, kSigned>}
#define PAR_MEMORY(E, kWrite, kSize, kSigned) \
  case Opcode::E: return imm ? PAR_MEMORY_FORM(true, kWrite, kSize, kSigned) : PAR_MEMORY_FORM(false, kWrite, kSize, kSigned);
    PAR_MEMORY(Ld1, false, 1, true) PAR_MEMORY(Ld2, false, 2, true) PAR_MEMORY(Ld4, false, 4, true)
    PAR_MEMORY(Ld8, false, 8, false) PAR_MEMORY(Ld1u, false, 1, false) PAR_MEMORY(Ld2u, false, 2, false)
    PAR_MEMORY(Ld4u, false, 4, false)
    PAR_MEMORY(St1, true, 1, false) PAR_MEMORY(St2, true, 2, false) PAR_MEMORY(St4, true, 4, false)
    PAR_MEMORY(St8, true, 8, false)
#undef PAR_MEMORY
#undef PAR_MEMORY_FORM
    default: break;
  }
  Kernel k{&no_kernel, &no_kernel};
  if (imm ? value_kernels<true>(in, k) : value_kernels<false>(in, k)) return k;
  isa::sem::dispatch_compare_op(in.op, [&](auto fn) { k = Kernel{&compare_kernel<decltype(fn)>, &compare_kernel<decltype(fn)>}; });
  return k;
}

}  // namespace par::core
