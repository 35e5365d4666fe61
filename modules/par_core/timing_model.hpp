// Cycle timing of a PAR core's backend (docs/core-timing.md §3.2, §4).
//
// Every timing rule of the core refers only to older instructions: dispatch waits for older
// instructions to leave the ROB and the waiting queue, issue waits for the previous instruction
// of the same FU and for older producers, commit is in program order. The schedule of each
// instruction (dispatch cycle, the cycle each thread enters its FU, result and commit cycles) is
// therefore fully determined when the instruction is dispatched, and this model computes it once,
// in program order, instead of stepping every pipeline stage every cycle. The result is identical
// to a cycle-by-cycle simulation of the same rules and costs O(T) per instruction.
//
// Lanes work in lock step and, with fixed-latency memory, behave identically, so one timing state
// serves all lanes (§4.8). Where per-thread memory latencies differ between lanes, the caller
// passes the latest lane's value for each thread slot.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <queue>
#include <vector>

#include "core_config.hpp"
#include "par/isa/instruction.hpp"

namespace par::core {

using Cycle = std::int64_t;

// Why the frontend made no progress in a cycle (docs/core-timing.md §8.1 metric 9).
enum class StallCause : std::uint8_t {
  RobFull,
  QueueFullAlu,
  QueueFullFpu,
  QueueFullLs,
  QueueFullCmp,
  PredicateWait,
  RegisterWait,
  XpDisqualified,
  Count
};
inline constexpr int kStallCauses = static_cast<int>(StallCause::Count);
const char* stall_cause_name(StallCause c);

// Told about every frontend stall as it is counted: cycles [from, to) lost to `cause`, in
// frontend order (from is non-decreasing). Tracing uses it (core_trace.hpp); null when off.
class StallListener {
 public:
  virtual ~StallListener() = default;
  virtual void stall(StallCause cause, Cycle from, Cycle to) = 0;
};

// What the timing model needs to know about a backend instruction.
struct TimingOp {
  isa::Unit unit = isa::Unit::Alu;
  int latency = 1;
  std::uint8_t qp = 0;
  bool is_store = false;
  bool is_memory = false;
  isa::Operands regs;  // sources and destinations in the unified numbering

  static TimingOp from(const isa::Instruction& in, const CoreConfig& cfg);
};

// Per-thread timing of a memory instruction whose accesses leave the core (the load/store unit's
// global path supplies it). Called in thread order during dispatch.
class ThreadTiming {
 public:
  virtual ~ThreadTiming() = default;
  // Thread k may enter the LS unit at `earliest`; its store data is available at `data_ready`.
  // Returns the cycle it enters (later when the unit cannot accept it).
  virtual Cycle start_thread(int k, Cycle earliest, Cycle data_ready) = 0;
  // All threads have entered: writes may leave now.
  virtual void finish() = 0;
  // Cycle thread k's load result is back, or its write accepted (0: no global access).
  virtual Cycle thread_result(int k) = 0;
};

// Schedule of one dispatched instruction.
struct OpSchedule {
  Cycle dispatch = 0;
  Cycle issue = 0;
  Cycle commit = 0;
};

class TimingModel {
 public:
  explicit TimingModel(const CoreConfig& cfg);

  // Thread start state at a round boundary: every register is available at once (docs/isa.md §2.2).
  void start_round();

  // Dispatches a backend instruction that the frontend fetched in cycle `fetch`. For memory
  // instructions `min_result`, when given, holds per thread slot the earliest cycle its result
  // may be available (stores the load must wait for, §4.7), and `global`, when given, times the
  // accesses that leave the core (they hold no output buffer: the load/store unit's table of
  // outstanding requests bounds them). Returns the schedule.
  OpSchedule dispatch(const TimingOp& op, Cycle fetch, const Cycle* min_result = nullptr,
                      ThreadTiming* global = nullptr);

  // Cycle from which the frontend sees the committed value of `reg` (a commit in c is visible
  // in c+1, §3.2). Never-written registers of the current round are visible at once.
  Cycle committed_visible(isa::RegId reg) const { return commit_[reg] + 1; }

  // Earliest cycle >= fetch at which a control instruction reading `reg` may execute; counts
  // the wait as `cause` stall cycles.
  Cycle wait_for_committed(Cycle fetch, isa::RegId reg, StallCause cause);
  // Counts the frontend cycles [from, from + cycles) as lost to `cause` (disqualified-xp penalty).
  void add_stall(StallCause cause, Cycle from, Cycle cycles) {
    stalls_[static_cast<int>(cause)] += cycles;
    if (listener_ != nullptr && cycles > 0) listener_->stall(cause, from, from + cycles);
  }
  // Reports every stall to `listener` from now on (null: none). Not owned.
  void set_stall_listener(StallListener* listener) { listener_ = listener; }

  // Result availability of thread slot k of the last dispatched instruction (data operand of a
  // store: the cycle its data is available), used for store-to-load ordering.
  const std::vector<Cycle>& last_results() const { return results_; }
  const std::vector<Cycle>& last_store_data() const { return store_data_; }

  Cycle last_commit() const { return last_commit_; }

  // Statistics over everything dispatched so far.
  std::int64_t stall_cycles(StallCause c) const { return stalls_[static_cast<int>(c)]; }
  std::int64_t total_stall_cycles() const;
  std::int64_t rob_occupancy_sum() const { return rob_occupancy_sum_; }  // entry-cycles
  int rob_max_occupancy() const { return rob_max_occupancy_; }

 private:
  struct FuHistory {  // the most recent instructions of one FU, newest last (ring buffer)
    std::vector<Cycle> issue, complete, commit;
    std::int64_t count = 0;
    std::vector<Cycle> ob_commit, ob_complete;  // instructions that took an output buffer
    std::int64_t ob_count = 0;
    Cycle free_at = 0;  // first cycle the FU can accept a new instruction's thread 0
  };
  Cycle fu_history_back(const FuHistory& h, const std::vector<Cycle>& v, int n) const;
  Cycle output_buffer_free(const FuHistory& h, OutputBufferRelease release) const;
  Cycle avail(isa::RegId r, int k) const { return avail_[static_cast<std::size_t>(r) * T_ + k]; }

  const CoreConfig& cfg_;
  const int T_;
  const int history_;
  std::array<FuHistory, isa::kBackendUnits> fu_;
  std::vector<Cycle> rob_release_;  // release cycles of the last rob_size instructions (ring)
  // Release cycles of occupied ROB entries when they are freed out of program order.
  std::priority_queue<Cycle, std::vector<Cycle>, std::greater<Cycle>> rob_pool_;
  std::int64_t rob_count_ = 0;
  Cycle last_commit_ = -1;

  std::vector<Cycle> avail_;                 // [reg][thread slot]: cycle the value is available
  std::array<Cycle, isa::kRegIdCount> commit_{};  // commit cycle of each register's last writer

  std::vector<Cycle> ready_, start_, results_, store_data_;  // scratch, one per thread slot

  std::array<std::int64_t, kStallCauses> stalls_{};
  StallListener* listener_ = nullptr;
  std::int64_t rob_occupancy_sum_ = 0;
  int rob_max_occupancy_ = 0;
};

}  // namespace par::core
