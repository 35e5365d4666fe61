// Functional execution of one non-control instruction over all slots of a core (docs/isa.md §4, §6).
//
// The timing model decides when things happen; this class decides what happens. Results are
// computed in program order at dispatch (docs/core-timing.md §4.4, implementation note), which is
// exact because the only speculation of the machine, the qualifying predicate, never needs undoing.
// The loops run over contiguous per-slot arrays with branch-free write enables so the compiler
// can vectorise them: functional mode runs ~1000 slots side by side.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "local_memory.hpp"
#include "par/isa/instruction.hpp"
#include "slot_state.hpp"

namespace par::core {

// A memory access that cannot be performed (docs/isa.md §9.2).
struct MemoryFault {
  enum class Kind { Misaligned, Unmapped } kind;
  int slot;
  std::uint64_t address;
  int size;
  bool write;
  std::string describe() const;  // e.g. "misaligned 8-byte load at 0x1004"
};

class SimtExecutor {
 public:
  // The code that runs one instruction over the slots, chosen from its opcode and form once
  // (kernel_for, when a program is loaded) so that execute() does no opcode switch or table
  // lookup per call: the value loops with the operation inlined, the loads and stores with their
  // access size and extension fixed at compile time.
  // The value and memory kernels have a second copy of their loops compiled for kShortWidth
  // slots, the plain core at L = 1, T = 4: with the count known the loops compile to a few moves,
  // where the general loops' set-up (alias checks, vector prologue and tail) would cost more than
  // the work of 4 slots.
  static constexpr int kShortWidth = 4;
  using KernelFn = std::optional<MemoryFault> (*)(SimtExecutor&, const isa::Instruction&);
  struct Kernel {
    KernelFn any = nullptr;    // any width
    KernelFn short_width = nullptr;  // kShortWidth slots
  };
  // A kernel for any opcode: control instructions (which the control unit executes) get one that
  // does nothing, like stream instructions (the stream unit moves their data).
  static Kernel kernel_for(const isa::Instruction& in);

  // With `global_path` false, accesses outside the local window are faults; otherwise they are
  // left to the load/store unit (global_slots()).
  SimtExecutor(SlotState& state, LocalMemory& local, bool global_path = false);

  // Only slots [0, n) may hold threads until the next call (the round's threads fill a prefix of
  // the slots): the loops skip the rest, whose qualified() and global_slots() entries stay 0.
  void set_width(int n);
  int width() const { return n_; }

  // Executes `in` for the slots where mask AND p[qp] is set; `active` is the number of set slots
  // of `mask`. `kernel` is kernel_for(in). Memory faults stop at the first faulting slot (slot
  // order) and are returned; the run is then aborted by the caller.
  std::optional<MemoryFault> execute(const isa::Instruction& in, Kernel kernel, const std::uint8_t* mask,
                                     int active) {
    qualify(in.qp, mask, active);
    return (n_ == kShortWidth ? kernel.short_width : kernel.any)(*this, in);
  }
  std::optional<MemoryFault> execute(const isa::Instruction& in, const std::uint8_t* mask, int active) {
    return execute(in, kernel_for(in), mask, active);
  }

  // Qualified slots (mask AND p[qp]) of the last executed instruction, and how many there are.
  const std::uint8_t* qualified() const { return q_; }
  int qualified_count() const { return q_count_; }
  // Addresses of the last memory instruction, per slot (valid where qualified()).
  const std::uint64_t* addresses() const { return addr_.data(); }
  // Qualified slots of the last memory instruction whose address lies outside the local window.
  bool has_global() const { return has_global_; }
  const std::uint8_t* global_slots() const { return global_.data(); }
  // Memory instructions so far that stored for some thread or went to global memory (whose
  // contents other agents may change): the endless-loop check needs an iteration without any.
  std::uint64_t effects() const { return effects_; }

 private:
  void qualify(std::uint8_t qp, const std::uint8_t* mask, int active) {
    if (qp == 0) {
      q_ = mask;  // p0 reads 1 everywhere
      q_count_ = active;
    } else {
      const std::uint8_t* p = st_.pred(qp);
      std::uint8_t* __restrict q = qbuf_.data();
      int c = 0;
      for (int s = 0, n = n_; s < n; ++s) {
        q[s] = mask[s] & p[s];
        c += q[s];
      }
      q_ = q;
      q_count_ = c;
    }
    all_qualified_ = q_count_ == n_;
  }
  template <int kN, class F, bool kWritesP7, bool kImmB>
  static std::optional<MemoryFault> value_kernel(SimtExecutor& x, const isa::Instruction& in);
  template <class F>
  static std::optional<MemoryFault> compare_kernel(SimtExecutor& x, const isa::Instruction& in);
  static std::optional<MemoryFault> fma_kernel(SimtExecutor& x, const isa::Instruction& in);
  template <int kN, bool kWrite, bool kImm, int kSize, bool kSigned>
  static std::optional<MemoryFault> memory_kernel(SimtExecutor& x, const isa::Instruction& in);
  static std::optional<MemoryFault> no_kernel(SimtExecutor& x, const isa::Instruction& in);
  // kernel_for() for the value opcodes with b an immediate (kImmB) or a register: false for any
  // other opcode. Defined in simt_value_kernels.hpp, compiled in two files.
  template <bool kImmB>
  static bool value_kernels(const isa::Instruction& in, Kernel& k);

  // kN: the number of slots when known at compile time, else 0 (set_width()'s).
  template <int kN, bool kWritesP7, bool kImmB, class F>
  void run_value(F fn, const isa::Instruction& in);
  template <class F>
  void run_compare(F fn, const isa::Instruction& in);
  // MacD/MacF with the host's FMA instructions (a portable build would call libm per slot).
  void run_fma(const isa::Instruction& in);
  template <int kN, bool kWrite, bool kImm, int kSize, bool kSigned>
  std::optional<MemoryFault> run_memory(const isa::Instruction& in);

  SlotState& st_;
  LocalMemory& local_;
  bool global_path_;
  bool has_global_ = false;
  std::uint64_t effects_ = 0;
  std::vector<std::uint8_t> global_;
  const int S_;
  int n_;  // set_width()
  const std::uint8_t* q_ = nullptr;  // the mask itself when qp = p0, else qbuf_
  int q_count_ = 0;
  bool all_qualified_ = false;
  std::vector<std::uint8_t> qbuf_;
  std::vector<std::uint64_t> c_, zero_, addr_, tmp_;
  std::vector<std::uint8_t> flags_;
};

}  // namespace par::core
