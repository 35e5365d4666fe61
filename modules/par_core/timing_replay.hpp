// Round replay of the timing model (README "Host cost").
//
// A round starts with a fresh register scoreboard, and every timing rule is a max, a sum with a
// constant or a comparison of cycles, so the schedule of a round depends only on the shared state
// (ROB ring, FU histories, the context's last commit) *relative to the cycle the round starts*,
// and on the calls the frontend makes. Values older than the round's first fetch are dominated in
// every rule (each is compared with, or raised to, something at or after that fetch), so they all
// count as one "old" value. Consecutive rounds of a straight-line kernel usually start from the
// same relative state and make the same calls, so the model keeps a few rounds' records: the
// relative start state (the fingerprint), every call with its inputs and results, and the state
// the round leaves behind. A round whose fingerprint matches a record is replayed: each call is
// compared with the recorded one and answered from the record; the statistics a dispatch adds
// are added per round from the record's totals (the getters add the part replayed so far, so they
// are exact at any point); the shared state is left as it was at the round's start and set to the
// recorded end state once the round has ended and something reads it (a later replayed round
// whose record rewrites all of it makes that write unnecessary: TimingModel::defer_record). On
// the first call that differs, the statistics are put back, the calls so far are dispatched for
// real from the untouched start
// state, and the round goes on (and is recorded) as usual, so the result is always exactly that
// of the model without replay.
//
// Only the single-stream loop under the default timing rules uses it (TimingModel::dispatch_single
// with a compile-time T, no stall listener): the selection among thread contexts reads the shared
// state between calls.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "timing_model.hpp"

namespace par::core {

// What a recorded round changed in one FU's history: how many entries it added and the newest
// of them (at most the ring's size), relative to the round.
struct FuTail {
  std::int64_t added = 0, ob_added = 0;
  std::vector<Cycle> entries;     // issue, complete, commit of each entry, oldest first
  std::vector<Cycle> ob_entries;  // commit, complete of each output-buffer entry
  Cycle free_at = 0, fu_commit = 0;
};

struct RoundRecord {
  bool valid = false;        // complete (its round has ended)
  std::uint64_t hash = 0;    // of `start`
  std::vector<Cycle> start;  // the fingerprint of the start state
  std::vector<ReplayEvent> events;
  std::vector<Cycle> pool;
  // End state.
  std::int64_t rob_added = 0;
  std::vector<Cycle> rob_tail;
  std::array<FuTail, isa::kBackendUnits> fu;
  Cycle last_commit = 0, last_allocated = 0;
  bool sorted = true;
  std::int64_t held_rel = 0;  // rob_count_ - rob_held_from_
  // What writing the end state changes (kRob: the ROB ring and the scalars that go with it,
  // kFu << u: FU u's rings of all instructions and its scalars, kOb << u: its output-buffer
  // rings) and what it rewrites entirely (every entry a later round could read): a deferred
  // record whose `touches` the next record's `covers` include need not be written.
  static constexpr unsigned kRob = 1, kFu = 2, kOb = 2u << isa::kBackendUnits;
  unsigned touches = 0, covers = 0;
  ReplayTotals totals;  // of all its dispatches
  std::uint64_t last_used = 0;
  // The record whose start state the next round had, when it started `next_delta` cycles after
  // this one (the state this round leaves, seen from a later start, is a function of this
  // record): that round needs no fingerprint. -1: not known.
  int next = -1;
  std::uint64_t next_generation = 0;
  Cycle next_delta = 0;
  std::uint64_t generation = 0;  // changes when the slot takes another start state
};

struct RoundReplay {
  static constexpr int kRecords = 16;
  // Longer rounds are not recorded: recording costs a little on every call, and a kernel with
  // long rounds (loops) has few rounds to replay.
  static constexpr std::size_t kMaxEvents = 512;
  bool wanted = false;   // set_replay()
  bool enabled = false;  // wanted, default rules, fast T, no stall listener
  Cycle base = 0;        // the round's first call's cycle
  int record = 0;
  int previous = -1;     // the record of the previous round, when it ran recorded or replayed
  Cycle previous_base = 0;
  std::vector<RoundRecord> records = std::vector<RoundRecord>(kRecords);
  std::vector<Cycle> fingerprint;
  std::uint64_t hash = 0;
  // State at the round's start.
  std::int64_t rob_count = 0;
  std::array<std::int64_t, isa::kBackendUnits> fu_count{}, ob_count{};
  std::array<std::int64_t, kStallCauses> stalls{};
  // The state after TimingModel::reset() is always the same, so the fingerprint of a packet's
  // first round depends only on its first cycle: the record it matched (or was recorded in) the
  // last time that round started at `fresh_base` serves again while its slot holds that start
  // state (same generation, valid). `fresh`: no round has started since reset().
  bool fresh = false;
  int fresh_record = -1;
  std::uint64_t fresh_generation = 0;
  Cycle fresh_base = 0;
  // Back-off: after 8 rounds in a row that were not replayed, attempts become rarer.
  int streak = 0, skip = 0;
  std::uint64_t clock = 0;
  std::int64_t replayed = 0, diverged = 0, fingerprints = 0;
  std::vector<Cycle> limits;  // scratch: a recorded event's per-thread limits, absolute
};

}  // namespace par::core
