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
  // With `global_path` false, accesses outside the local window are faults; otherwise they are
  // left to the load/store unit (global_slots()).
  SimtExecutor(SlotState& state, LocalMemory& local, bool global_path = false);

  // Only slots [0, n) may hold threads until the next call (the round's threads fill a prefix of
  // the slots): the loops skip the rest, whose qualified() and global_slots() entries stay 0.
  void set_width(int n);

  // Executes `in` for the slots where mask AND p[qp] is set; `active` is the number of set slots
  // of `mask`. Memory faults stop at the first faulting slot (slot order) and are returned; the
  // run is then aborted by the caller.
  std::optional<MemoryFault> execute(const isa::Instruction& in, const std::uint8_t* mask, int active);

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
  template <bool kWritesP7, bool kImmB, class F>
  void run_value(F fn, const isa::Instruction& in);
  template <class F>
  void run_compare(F fn, const isa::Instruction& in);
  // MacD/MacF with the host's FMA instructions (a portable build would call libm per slot).
  void run_fma(const isa::Instruction& in);
  template <bool kWrite, bool kImm>
  std::optional<MemoryFault> run_memory(const isa::Instruction& in);
  template <bool kWrite>
  void local_access(isa::Opcode op, std::uint64_t* d);

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
