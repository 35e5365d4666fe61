#include "simt_executor.hpp"

#include <algorithm>
#include <cstdio>

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

SimtExecutor::SimtExecutor(SlotState& state, LocalMemory& local, GlobalMemoryPath* global)
    : st_(state), local_(local), global_(global), S_(state.slots()) {
  const auto n = static_cast<std::size_t>(S_);
  q_.resize(n);
  b_.resize(n);
  c_.resize(n);
  zero_.assign(n, 0);
  addr_.resize(n);
}

const u64* SimtExecutor::broadcast(std::vector<u64>& buf, u64 v) {
  std::fill(buf.begin(), buf.end(), v);
  return buf.data();
}

// Second operand: rb, or the immediate for I forms; unary shapes read nothing.
const u64* SimtExecutor::operand_b(const Instruction& in) {
  switch (in.meta().shape) {
    case Shape::Unary:
    case Shape::Const:
      return zero_.data();
    default:
      return in.imm_form ? broadcast(b_, static_cast<u64>(in.imm)) : st_.reg(in.rb);
  }
}

template <bool kWritesP7, class F>
void SimtExecutor::run_value(F fn, const Instruction& in) {
  const u64* a = in.meta().shape == Shape::Const ? zero_.data() : st_.reg(in.ra);
  const u64* b = operand_b(in);
  const u64* c = zero_.data();
  const std::uint16_t flags = in.meta().flags;
  if (flags & isa::kReadsRd) {
    c = st_.reg(in.rd);
  } else if (flags & isa::kReadsP7) {
    const std::uint8_t* p7 = st_.pred(7);
    for (int s = 0; s < S_; ++s) c_[s] = p7[s];
    c = c_.data();
  }
  u64* d = st_.reg(in.rd);
  std::uint8_t* p7 = st_.pred(7);
  const std::uint8_t* q = q_.data();
  const std::int64_t k = in.imm;
  for (int s = 0; s < S_; ++s) {
    bool flag = false;
    const u64 r = fn(a[s], b[s], c[s], k, flag);
    if (q[s]) {
      d[s] = r;
      if constexpr (kWritesP7) p7[s] = flag;
    }
  }
}

template <class F>
void SimtExecutor::run_compare(F fn, const Instruction& in) {
  std::uint8_t* pt = st_.pred(in.pt);
  std::uint8_t* pf = st_.pred(in.pf);
  const std::uint8_t* q = q_.data();
  const bool write_t = in.pt != 0, write_f = in.pf != 0;
  auto store = [&](int s, bool c) {
    if (!q[s]) return;
    if (write_t) pt[s] = c;
    if (write_f) pf[s] = !c;  // pf last: it wins when pt == pf (ISA §6.6)
  };
  if (in.meta().shape == Shape::PredLogic) {
    const std::uint8_t* pa = st_.pred(in.pa);
    const std::uint8_t* pb = st_.pred(in.pb);
    for (int s = 0; s < S_; ++s) store(s, fn(pa[s], pb[s]));
  } else {
    const u64* a = st_.reg(in.ra);
    const u64* b = operand_b(in);
    for (int s = 0; s < S_; ++s) store(s, fn(a[s], b[s]));
  }
}

std::optional<MemoryFault> SimtExecutor::run_memory(const Instruction& in) {
  const int size = isa::access_size(in.op);
  const bool write = in.is_store();
  const u64* a = st_.reg(in.ra);
  const u64* b = operand_b(in);
  const u64 align = static_cast<u64>(size) - 1;
  u64* d = st_.reg(in.rd);
  for (int s = 0; s < S_; ++s) {
    if (!q_[s]) continue;
    const u64 addr = a[s] + b[s];
    addr_[s] = addr;
    if (addr & align) return MemoryFault{MemoryFault::Kind::Misaligned, s, addr, size, write};
    if (local_.contains(addr, static_cast<u64>(size))) {
      if (write) local_.store(addr, size, d[s]);
      else d[s] = isa::sem::extend_load(in.op, local_.load(addr, size));
      continue;
    }
    bool ok = false;
    if (global_ != nullptr) {
      if (write) {
        ok = global_->store(addr, size, d[s]);
      } else {
        u64 raw = 0;
        ok = global_->load(addr, size, raw);
        if (ok) d[s] = isa::sem::extend_load(in.op, raw);
      }
    }
    if (!ok) return MemoryFault{MemoryFault::Kind::Unmapped, s, addr, size, write};
  }
  return std::nullopt;
}

std::optional<MemoryFault> SimtExecutor::execute(const Instruction& in, const std::uint8_t* mask) {
  const std::uint8_t* p = st_.pred(in.qp);
  for (int s = 0; s < S_; ++s) q_[s] = mask[s] & p[s];

  if (in.is_memory()) return run_memory(in);
  const bool writes_p7 = (in.meta().flags & isa::kWritesP7) != 0;
  if (isa::sem::dispatch_value_op(in.op, [&](auto fn) {
        if (writes_p7) run_value<true>(fn, in);
        else run_value<false>(fn, in);
      }))
    return std::nullopt;
  isa::sem::dispatch_compare_op(in.op, [&](auto fn) { run_compare(fn, in); });
  return std::nullopt;
}

}  // namespace par::core
