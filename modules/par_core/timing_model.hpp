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
//
// Thread contexts (README "Thread contexts") share the FUs, waiting queues, output buffers and
// the ROB; each has its own register scoreboard and commits in its own program order. The
// instructions of all contexts are dispatched one per cycle, so the dispatch order is still a
// time order and every rule still refers to earlier-dispatched instructions only.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "core_config.hpp"
#include "par/isa/instruction.hpp"
#include "timing_resources.hpp"

namespace par::core {

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
  // Selection rules of thread contexts (core.context_ready, core.context_fu_wait): the next
  // instruction waits for a value from an outstanding load, for its context's previous
  // instruction of the same FU, or for another operand.
  MemoryWait,
  FuWait,
  OperandWait,
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

// What a context's next backend instruction waits for before it may be dispatched: the cycle
// until which each condition holds (a value <= the asking cycle does not hold). Listed in the
// order in which waiting cycles are attributed to causes (the first condition still holding).
struct DispatchWaits {
  Cycle memory = 0;   // a source from an outstanding load (core.context_ready)
  Cycle fu = 0;       // the context's previous instruction of the FU (core.context_fu_wait)
  Cycle operand = 0;  // any other source (core.context_ready)
  Cycle rob = 0;      // a free ROB entry
  Cycle queue = 0;    // a free waiting-queue entry of the FU
  Cycle ready(Cycle from) const;
};

struct RoundReplay;  // timing_replay.hpp
struct RoundRecord;

// One call of the frontend within a round (round replay, timing_replay.hpp), its inputs and
// results; cycles relative to the round. Here, not in timing_replay.hpp, because the replayed
// dispatch is inline (TimingModel::dispatch_single); the fields it reads come first.
struct ReplayEvent {
  enum Kind : std::uint8_t { Dispatch, WaitCommitted, AddStall };
  // A dispatch without per-thread result limits: its op, the one thing besides the fetch cycle
  // the inline replay compares. Null for every other event.
  const TimingOp* plain_op = nullptr;
  Cycle fetch = 0;         // input cycle (AddStall: from)
  // Results: the schedule (WaitCommitted: the cycle in `dispatch`).
  Cycle dispatch = 0, issue = 0, commit = 0;
  std::int32_t store_data = -1;  // Dispatch of a store: pool index of T data-ready cycles
  std::int32_t min_result = -1;  // Dispatch: pool index of T per-thread limits (clamped), -1: none
  Kind kind = Dispatch;
  std::uint8_t reg = 0;    // WaitCommitted: the register
  std::uint8_t cause = 0;  // WaitCommitted, AddStall: the stall cause
  std::uint8_t unit = 0;   // Dispatch: the FU
  int occupancy = 0;       // Dispatch: ROB occupancy sample
  const TimingOp* op = nullptr;  // Dispatch (null otherwise)
  Cycle cycles = 0;        // AddStall: the cycles
  std::int32_t pool_end = 0;     // pool size after this event
  // The statistics a dispatch adds (added per round, see RoundRecord::totals).
  Cycle rob_stall = 0, queue_stall = 0;
  std::int64_t occupancy_sum = 0;
};

// What the dispatches of a stretch of replayed events add to the statistics: stall cycles of
// the causes dispatch counts (ROB full, queue full per FU), ROB occupancy sum and maximum, and
// the latest commit (relative; meaningful when occupancy_max > 0, i.e. some dispatch).
struct ReplayTotals {
  static constexpr int kCauses = static_cast<int>(StallCause::QueueFullCmp) + 1;
  std::array<std::int64_t, kCauses> stalls{};
  std::int64_t occupancy_sum = 0;
  int occupancy_max = 0;
  Cycle commit = 0;
  static ReplayTotals of(const ReplayEvent* begin, const ReplayEvent* end);
};

class TimingModel {
 public:
  // One register scoreboard per context (cfg.contexts).
  explicit TimingModel(const CoreConfig& cfg);
  ~TimingModel();

  // The state after construction (a new packet): the model is built once per core, not per
  // packet, so a core's short share of a packet does not pay for its allocations.
  void reset();

  // Thread start state of `context` at a round boundary: every register is available at once
  // (docs/isa.md §2.2).
  void start_round(int context = 0);

  // Dispatches a backend instruction of `context` that the frontend fetched in cycle `fetch`.
  // For memory instructions `min_result`, when given, holds per thread slot the earliest cycle
  // its result may be available (stores the load must wait for, §4.7), and `global`, when given,
  // times the accesses that leave the core (they hold no output buffer: the load/store unit's
  // table of outstanding requests bounds them). Returns the schedule.
  OpSchedule dispatch(const TimingOp& op, Cycle fetch, const Cycle* min_result = nullptr,
                      ThreadTiming* global = nullptr, int context = 0) {
    if (!shared_) return dispatch_impl<false, true>(op, fetch, min_result, global);
    context_ = context;
    return dispatch_impl<true, true>(op, fetch, min_result, global);
  }

  // dispatch() for the plain PAR core's loop: one context, no selection (dispatch_waits() is
  // never asked, so what only it reads is not kept). Under the default timing rules (every
  // configuration shipped uses them) and a common T the rules and the per-thread loops are
  // fixed at compile time: this is the simulator's innermost call.
  // A replayed dispatch is a comparison of the call with the record's next event: the
  // statistics it adds are added once the round has ended (or when asked for).
  OpSchedule dispatch_single(const TimingOp& op, Cycle fetch, const Cycle* min_result, ThreadTiming* global) {
    if (replay_phase_ == ReplayPhase::Off) return dispatch_fast(op, fetch, min_result, global);
    const ReplayEvent* e = replay_next_;  // == replay_end_ unless a round is being replayed
    if (e != replay_end_ && e->plain_op == &op && e->fetch == fetch - replay_base_ && min_result == nullptr &&
        global == nullptr) {
      replay_next_ = e + 1;
      return replay_event(*e);
    }
    return replay_dispatch_slow(op, fetch, min_result, global);
  }

  // Round replay (timing_replay.hpp): rounds that start from the same timing state relative to
  // their first cycle and make the same calls take their schedule from a record. The results are
  // those without replay. Only for the single-stream loop (dispatch_single, start_round,
  // wait_for_committed, add_stall; last_starts() is not kept), under the default timing rules
  // and T = 1, 2, 4 or 8, without a stall listener; otherwise `on` is ignored. Off at
  // construction; takes effect at the next start_round(). A record names a call's TimingOp by
  // its address: with replay on, the ops passed must not change for the model's life (the
  // engine's LoadedProgram is fixed).
  void set_replay(bool on);
  // The packet has ended after its last round (not stopped or failed in one): that round's
  // record is finished as at a round start, so that later packets replay it too (a core's share
  // of a launch may be one round), and its statistics are added as at a round start. Call after
  // the packet's last call, before reset(); the statistics and last_commit() stay as they were.
  void end_packet();
  // Rounds replayed to their end, and replays that found a call different from the record (and
  // dispatched the round for real), over the model's life; and the start states it computed a
  // fingerprint of (rounds that found their record without one are not counted).
  struct ReplayCounts {
    std::int64_t replayed = 0, diverged = 0, fingerprints = 0;
  };
  ReplayCounts replay_counts() const;
  // The shared timing state later rounds read (counts, ROB ring, every FU's rings and cycles, the
  // ROB-occupancy window, the context's last commits) between rounds, with a replayed round's
  // deferred end state written first: tests compare it with and without replay.
  std::vector<Cycle> shared_state();

 private:
  OpSchedule dispatch_fast(const TimingOp& op, Cycle fetch, const Cycle* min_result, ThreadTiming* global) {
    switch (fast_threads_) {
      case 1: return dispatch_impl<false, false, true, 1>(op, fetch, min_result, global);
      case 2: return dispatch_impl<false, false, true, 2>(op, fetch, min_result, global);
      case 4: return dispatch_impl<false, false, true, 4>(op, fetch, min_result, global);
      case 8: return dispatch_impl<false, false, true, 8>(op, fetch, min_result, global);
      default: return dispatch_impl<false, false, false, 0>(op, fetch, min_result, global);
    }
  }

 public:

  // What `context`'s next instruction `op` waits for, under core.context_ready and
  // core.context_fu_wait, if it were dispatched next (no other instruction dispatched first).
  DispatchWaits dispatch_waits(const TimingOp& op, int context) const;
  // The part of dispatch_waits() that other contexts' dispatches change: the cycles from which
  // the ROB and the waiting queue of `unit` have a free entry.
  Cycle rob_wait() const;
  Cycle queue_wait(isa::Unit unit) const;
  // Instructions dispatched so far: the shared waits change only when it does.
  std::int64_t dispatched() const { return rob_count_; }

  // Cycle from which the frontend sees the committed value of `reg` (a commit in c is visible
  // in c+1, §3.2). Never-written registers of the current round are visible at once.
  Cycle committed_visible(isa::RegId reg, int context = 0) const {
    return ctx_[static_cast<std::size_t>(context)].commit[reg] + 1;
  }

  // Earliest cycle >= fetch at which a control instruction reading `reg` may execute; counts
  // the wait as `cause` stall cycles.
  Cycle wait_for_committed(Cycle fetch, isa::RegId reg, StallCause cause, int context = 0);
  // Counts the frontend cycles [from, from + cycles) as lost to `cause` (disqualified-xp penalty).
  void add_stall(StallCause cause, Cycle from, Cycle cycles) {
    if (replay_phase_ != ReplayPhase::Off) return replay_stall(cause, from, cycles);
    add_stall_now(cause, from, cycles);
  }
  // Reports every stall to `listener` from now on (null: none). Not owned.
  void set_stall_listener(StallListener* listener);

 private:
  void add_stall_now(StallCause cause, Cycle from, Cycle cycles) {
    stalls_[static_cast<int>(cause)] += cycles;
    if (listener_ != nullptr && cycles > 0) listener_->stall(cause, from, from + cycles);
  }
  Cycle wait_for_committed_now(Cycle fetch, isa::RegId reg, StallCause cause, int context);

 public:

  // The cycle each thread slot's data operand of the last dispatched store is available, used
  // for store-to-load ordering.
  const std::vector<Cycle>& last_store_data() const { return store_data_; }
  // The cycle each thread slot of the last dispatched instruction entered its FU.
  const std::vector<Cycle>& last_starts() const { return start_; }

  Cycle last_commit() const;

  // Statistics over everything dispatched so far.
  std::int64_t stall_cycles(StallCause c) const;
  std::int64_t total_stall_cycles() const;
  std::int64_t rob_occupancy_sum() const;  // entry-cycles
  int rob_max_occupancy() const;
  // All of the above at once: adds the stall cycles per cause to `stalls` and the occupancy sum,
  // and raises `occupancy_max`. The getters each sum the part of a round replayed so far; this
  // sums it once.
  void add_statistics(std::array<std::int64_t, kStallCauses>& stalls, std::int64_t& occupancy_sum,
                      int& occupancy_max) const;

 private:
  struct FuHistory {  // the most recent instructions of one FU, newest last (ring buffer)
    FuHistory(const CoreConfig& cfg, int history);
    std::vector<Cycle> issue, complete, commit;
    std::int64_t count = 0;
    std::vector<Cycle> ob_commit, ob_complete;  // instructions that took an output buffer
    std::int64_t ob_count = 0;
    Cycle free_at = 0;  // first cycle the FU can accept a new instruction's thread 0
    // Several contexts commit out of dispatch order: releases of queue entries held until
    // commit and of output buffers, and the commit ports.
    LargestK queue_commits, ob_releases;
    CommitPorts ports;
  };
  // One context's registers: when each value is available and committed, and its commit order.
  struct Scoreboard {
    explicit Scoreboard(int threads);
    std::vector<Cycle> avail;                       // [reg][thread slot]: cycle the value is available
    std::array<Cycle, isa::kRegIdCount> commit{};   // commit cycle of each register's last writer
    std::array<std::uint8_t, isa::kRegIdCount> from_load{};  // last writer is a load
    std::array<Cycle, isa::kBackendUnits> fu_commit{};    // commit of the last instruction per FU
    std::array<Cycle, isa::kBackendUnits> fu_complete{};  // completion of the last instruction per FU
    Cycle last_commit = -1;
  };
  // kShared: several contexts (the scoreboard of context_); else the only one. kSelect: keep
  // what dispatch_waits() reads. kDefaultRules: the configuration has the default timing rules
  // (default_rules()); kT: T when known at compile time, else 0.
  template <bool kShared, bool kSelect, bool kDefaultRules = false, int kT = 0>
  OpSchedule dispatch_impl(const TimingOp& op, Cycle fetch, const Cycle* min_result, ThreadTiming* global);
  Cycle fu_history_back(const FuHistory& h, const std::vector<Cycle>& v, int n) const;
  Cycle output_buffer_free(const FuHistory& h, OutputBufferRelease release) const;
  Cycle rob_ring_free() const;
  Cycle rob_entry_free(Cycle fetch) const;
  Cycle queue_free(const FuHistory& h) const;
  Cycle avail(const Scoreboard& sb, isa::RegId r, int k) const {
    return sb.avail[static_cast<std::size_t>(r) * T_ + k];
  }

  // Round replay (timing_replay.cpp).
  enum class ReplayPhase : std::uint8_t {
    Off,      // this round runs without replay
    Pending,  // a round has started; its first call decides
    Replay,   // answering from records_[record]; the shared state is the round's start state
    Record,   // running as usual and recording
  };
  OpSchedule replay_dispatch_slow(const TimingOp& op, Cycle fetch, const Cycle* min_result, ThreadTiming* global);
  bool replay_matches(const ReplayEvent& e, const TimingOp& op, Cycle fetch, const Cycle* min_result,
                      ThreadTiming* global) const;
  OpSchedule replay_event(const ReplayEvent& e) {
    const Cycle base = replay_base_;
    if (e.store_data >= 0) replay_store_data(e);
    return OpSchedule{base + e.dispatch, base + e.issue, base + e.commit};
  }
  void replay_store_data(const ReplayEvent& e);
  // The dispatches replayed so far in the round being replayed.
  ReplayTotals replayed_so_far() const;
  Cycle replay_wait(Cycle fetch, isa::RegId reg, StallCause cause);
  void replay_stall(StallCause cause, Cycle from, Cycle cycles);
  const ReplayEvent* replay_control(ReplayEvent& e);
  void record_control(ReplayEvent& e, Cycle result);
  void begin_replay_round(Cycle base);
  void end_replay_round();
  void replay_diverged();
  void abandon_record();
  void finish_record();
  // A fully replayed round's end state is written when something reads it (settle_replay()):
  // a chain of replayed rounds whose records overwrite all of their predecessor's state writes
  // only the last one's.
  void apply_record(const RoundRecord& rec, Cycle base);
  void skip_record(const RoundRecord& rec);
  void defer_record(int record, Cycle base);
  void settle_replay();
  void snapshot_counts();
  void replay_outcome(bool replayed);
  void take_fingerprint();
  void update_replay_enabled();
  void clear_scoreboard(int context);
  [[gnu::noinline, gnu::cold]] void clear_histories();  // the rings, FU scalars and release pools
  void clear_stale_scoreboard() {
    if (scoreboard_stale_) clear_scoreboard(0);
  }

  // Entries held in cycle `allocated` by the last rob_size - 1 instructions plus the new one (the
  // rob_max_occupancy statistic), counted before the new one enters the ring (one context).
  int rob_occupancy(Cycle allocated);

  const CoreConfig& cfg_;
  const int T_;
  // Ring size of each FU's history: a power of two >= the deepest look-back (masks, not divisions).
  const int history_;
  const std::int64_t history_mask_;
  // More than one context: resources are freed out of dispatch order (dispatch_impl<true>).
  const bool shared_;
  // T when dispatch_single() has a specialisation for it and the default rules apply, else 0.
  const int fast_threads_;
  const unsigned fu_wait_mask_;
  std::array<FuHistory, isa::kBackendUnits> fu_;
  std::vector<Cycle> rob_release_;  // release cycles of at least the last rob_size instructions (ring)
  std::int64_t rob_mask_;           // rob_release_.size() - 1 (a power of two)
  // The occupancy count without a scan of the ring: while release cycles arrive in non-decreasing
  // order (commit in program order), those of the last rob_size - 1 instructions still held in a
  // cycle are a suffix of the ring, which starts at rob_held_from_ and only moves forward while
  // allocation cycles do not decrease.
  bool rob_releases_sorted_ = true;
  std::int64_t rob_held_from_ = 0;
  Cycle rob_last_allocated_ = 0;
  // Release cycles of ROB entries when they are freed out of program order (per-FU commit
  // order, several contexts): an entry is free once fewer than rob_size are held.
  LargestK rob_pool_;
  std::int64_t rob_count_ = 0;
  Cycle last_commit_ = -1;  // over all contexts

  std::vector<Scoreboard> ctx_;
  int context_ = 0;  // the context dispatch_impl<true> works for

  std::vector<Cycle> ready_, start_, results_, store_data_;  // scratch, one per thread slot

  std::array<std::int64_t, kStallCauses> stalls_{};
  StallListener* listener_ = nullptr;
  std::int64_t rob_occupancy_sum_ = 0;
  int rob_max_occupancy_ = 0;
  int last_occupancy_ = 0;  // the sample of the last dispatch (replay records it)

  ReplayPhase replay_phase_ = ReplayPhase::Off;
  bool scoreboard_stale_ = false;  // context 0's round start is not yet applied (replay)
  // Replay: the record's first, next and end event, its pool and the round's first cycle.
  // Outside a replayed round replay_next_ == replay_end_.
  const ReplayEvent* replay_first_ = nullptr;
  const ReplayEvent* replay_next_ = nullptr;
  const ReplayEvent* replay_end_ = nullptr;
  // The record whose end state is not yet written (-1: none), and its round's first cycle. Only
  // with replay, so never while the selection loop reads the state between calls (dispatched(),
  // rob_wait(), queue_wait(), dispatch_waits()).
  int deferred_ = -1;
  Cycle deferred_base_ = 0;
  const Cycle* replay_pool_ = nullptr;
  Cycle replay_base_ = 0;
  std::unique_ptr<RoundReplay> replay_;
};

}  // namespace par::core
