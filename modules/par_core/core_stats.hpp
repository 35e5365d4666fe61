// Counters of a PAR core and the metrics derived from them (docs/core-timing.md §8).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "par/isa/instruction.hpp"
#include "prefetch/prefetch_counts.hpp"
#include "timing_model.hpp"

namespace par::core {

enum class ControlKind : std::uint8_t { Xp, XpIndirect, Loop, Brk, Count };
inline constexpr int kControlKinds = static_cast<int>(ControlKind::Count);
const char* control_kind_name(ControlKind k);

// Why a thread context gave an FU nothing in a cycle in which that FU accepted no thread
// (README "Thread contexts"; the XD1000 study's idle-cycle breakdown: Semwait, Inside ALU,
// NotALU). The context's next instruction is the one at its PC, not yet selected.
enum class IdleCause : std::uint8_t {
  MemoryWait,  // it is for this FU and waits for a value from an outstanding load
  FuWait,      // it is for this FU and waits for the context's previous instruction of the FU
  OtherUnit,   // it is for another FU or a control instruction
  Other,       // it is for this FU and waits for something else, or is ready but not selected
  Finished,    // the context has no round left
  Count
};
inline constexpr int kIdleCauses = static_cast<int>(IdleCause::Count);
const char* idle_cause_name(IdleCause c);

// Counters of one thread context.
struct ContextCounters {
  std::int64_t slots = 0;   // issue slots it used (instructions fetched, control included)
  std::int64_t rounds = 0;  // rounds it ran
  // [FU][cause]: cycles in which the FU accepted no thread, by the context's state.
  std::array<std::array<std::int64_t, kIdleCauses>, isa::kBackendUnits> idle{};
};

struct CoreStats {
  // Shape of the core the counters were taken on (needed by the derived metrics).
  int lanes = 1;
  int threads_per_lane = 1;
  int rob_size = 1;

  std::int64_t cycles = 0;    // execution time C (timing mode)
  std::int64_t rounds = 0;
  std::int64_t threads = 0;   // threads executed (valid slots over all rounds)
  std::int64_t fetched = 0;   // instructions fetched, control included
  // Per backend unit (isa::Unit::Alu .. Cmp).
  std::array<std::int64_t, isa::kBackendUnits> instructions{};
  std::array<std::int64_t, isa::kBackendUnits> thread_instructions{};
  std::array<std::int64_t, isa::kBackendUnits> qualified_thread_instructions{};
  std::array<std::int64_t, kControlKinds> control{};
  std::array<std::int64_t, kStallCauses> stalls{};
  std::int64_t rob_occupancy_sum = 0;  // entry-cycles of one lane
  int rob_max_occupancy = 0;

  // The load/store unit's global path (cumulative over the engine's lifetime).
  std::int64_t global_accesses = 0;       // thread accesses outside the local window
  std::int64_t global_transactions = 0;   // coalesced transactions sent
  std::int64_t global_bytes = 0;
  std::int64_t global_latency_sum = 0;    // cycles from leaving the core to the response
  std::int64_t ls_limit_stall_cycles = 0; // threads held back by core.ls_max_outstanding

  // Per thread context, when the frontend selects among contexts (CoreConfig::selects_contexts);
  // empty for the plain PAR core.
  std::vector<ContextCounters> contexts;

  double host_seconds = 0;
  PrefetchCounts prefetch;  // the packet prefetcher (zero when it is off)

  std::int64_t stall_total() const;
  std::int64_t total_thread_instructions() const;  // ALU + FPU + LS + CMP
  double ipc() const;           // (ALU + FPU + LS) thread-instructions / C, as the 2011 tables
  double ipc_with_cmp() const;  // the same with compare-unit instructions
  double fpu_throughput() const;  // FPU thread-operations per cycle per lane
  // Busy cycles (one thread entering per cycle, every slot stepped) over C * L.
  double utilization(isa::Unit u) const;
  double rob_utilization() const;
  double thread_instructions_per_host_second() const;
  double cycles_per_host_second() const;

  // Adds the counters of another packet run on the same core shape.
  void accumulate(const CoreStats& other);

 private:
  [[gnu::noinline, gnu::cold]] void accumulate_contexts(const std::vector<ContextCounters>& other);
};

}  // namespace par::core
