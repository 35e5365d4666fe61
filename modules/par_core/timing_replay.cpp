// Round replay of the timing model: see timing_replay.hpp.
#include "timing_replay.hpp"

#include <algorithm>
#include <initializer_list>

namespace par::core {

namespace {
// Every cycle of the start state at or before base - 1 is dominated in every rule of the round
// (module comment): such values are all one "old" value, -1 relative to the round.
inline Cycle rel(Cycle v, Cycle base) { return std::max<Cycle>(v - base, -1); }

inline std::uint64_t mix(std::uint64_t h, Cycle v) {
  return (h ^ static_cast<std::uint64_t>(v)) * 0x100000001b3ull;
}
}  // namespace

void TimingModel::set_replay(bool on) {
  if (!replay_) return;
  replay_->wanted = on;
  update_replay_enabled();
}

void TimingModel::set_stall_listener(StallListener* listener) {
  listener_ = listener;
  update_replay_enabled();
}

void TimingModel::update_replay_enabled() {
  if (!replay_) return;
  replay_->enabled = replay_->wanted && listener_ == nullptr;
  if (replay_->enabled) return;
  if (replay_phase_ != ReplayPhase::Off) end_replay_round();
  settle_replay();
  clear_stale_scoreboard();
}

void TimingModel::end_packet() {
  if (!replay_) return;
  if (replay_phase_ != ReplayPhase::Off) end_replay_round();
  // reset() puts the model back to its start state, not to this round's end state: the next
  // packet's first round must be looked up by its fingerprint, not chained to this round.
  replay_->previous = -1;
}

TimingModel::ReplayCounts TimingModel::replay_counts() const {
  return replay_ ? ReplayCounts{replay_->replayed, replay_->diverged, replay_->fingerprints} : ReplayCounts{};
}

std::vector<Cycle> TimingModel::shared_state() {
  if (replay_) settle_replay();
  std::vector<Cycle> s{rob_count_, rob_releases_sorted_, rob_held_from_, rob_last_allocated_, ctx_[0].last_commit};
  s.insert(s.end(), rob_release_.begin(), rob_release_.end());
  for (std::size_t u = 0; u < fu_.size(); ++u) {
    const FuHistory& h = fu_[u];
    s.insert(s.end(), {h.count, h.ob_count, h.free_at, ctx_[0].fu_commit[u]});
    for (const std::vector<Cycle>* v : {&h.issue, &h.complete, &h.commit, &h.ob_commit, &h.ob_complete})
      s.insert(s.end(), v->begin(), v->end());
  }
  return s;
}

// The start state relative to `base`: everything the rules of the default timing read and that a
// round does not reset (the register scoreboard starts fresh).
void TimingModel::take_fingerprint() {
  RoundReplay& r = *replay_;
  ++r.fingerprints;
  const Cycle base = r.base;
  std::vector<Cycle>& f = r.fingerprint;
  f.clear();
  const int R = cfg_.rob_size;
  for (int j = 1; j <= R; ++j)
    f.push_back(rob_count_ >= j ? rel(rob_release_[static_cast<std::size_t>((rob_count_ - j) & rob_mask_)], base) : -1);
  f.push_back(rob_releases_sorted_);
  if (rob_releases_sorted_) {
    // rob_occupancy(): a held-from position more than R - 1 back is reset at the next dispatch.
    f.push_back(std::min<std::int64_t>(rob_count_ - rob_held_from_, R));
    f.push_back(rel(rob_last_allocated_, base));
  }
  f.push_back(rel(ctx_[0].last_commit, base));
  // The n-th most recent entry of an FU's ring, -1 when there is none.
  auto back = [this, base](const std::vector<Cycle>& v, std::int64_t count, int n) {
    return count >= n ? rel(v[static_cast<std::size_t>((count - n) & history_mask_)], base) : Cycle{-1};
  };
  for (const FuHistory& h : fu_) {
    for (int j = 1; j <= cfg_.queue_size; ++j) f.push_back(back(h.issue, h.count, j));
    f.push_back(back(h.commit, h.count, 1));
    for (int j = 1; j <= cfg_.output_buffers; ++j) f.push_back(back(h.ob_commit, h.ob_count, j));
    f.push_back(rel(h.free_at, base));
  }
  std::uint64_t hash = 0xcbf29ce484222325ull;
  for (Cycle v : f) hash = mix(hash, v);
  r.hash = hash;
}

// The counts at the round's start, for finish_record() (the end state is written).
void TimingModel::snapshot_counts() {
  RoundReplay& r = *replay_;
  r.rob_count = rob_count_;
  for (int u = 0; u < isa::kBackendUnits; ++u) {
    r.fu_count[static_cast<std::size_t>(u)] = fu_[static_cast<std::size_t>(u)].count;
    r.ob_count[static_cast<std::size_t>(u)] = fu_[static_cast<std::size_t>(u)].ob_count;
  }
}

void TimingModel::begin_replay_round(Cycle base) {
  RoundReplay& r = *replay_;
  r.base = base;
  replay_base_ = base;
  const int previous = r.previous;
  r.previous = -1;
  const bool fresh = r.fresh;
  r.fresh = false;
  if (r.skip > 0) {
    --r.skip;
    settle_replay();
    replay_phase_ = ReplayPhase::Off;
    clear_stale_scoreboard();
    return;
  }
  RoundRecord* before = previous >= 0 ? &r.records[static_cast<std::size_t>(previous)] : nullptr;
  const Cycle delta = base - r.previous_base;
  int found = -1;
  if (before != nullptr && before->next >= 0 && before->next_delta == delta &&
      r.records[static_cast<std::size_t>(before->next)].generation == before->next_generation &&
      r.records[static_cast<std::size_t>(before->next)].valid) {
    found = before->next;
  } else if (fresh && r.fresh_record >= 0 && r.fresh_base == base &&
             r.records[static_cast<std::size_t>(r.fresh_record)].generation == r.fresh_generation &&
             r.records[static_cast<std::size_t>(r.fresh_record)].valid) {
    found = r.fresh_record;  // reset() left no deferred record to settle
  } else {
    settle_replay();
    take_fingerprint();
    for (int i = 0; i < RoundReplay::kRecords && found < 0; ++i) {
      const RoundRecord& rec = r.records[static_cast<std::size_t>(i)];
      if (rec.valid && rec.hash == r.hash && rec.start == r.fingerprint) found = i;
    }
    if (fresh && found >= 0) {
      r.fresh_record = found;
      r.fresh_generation = r.records[static_cast<std::size_t>(found)].generation;
      r.fresh_base = base;
    }
  }
  if (found >= 0) {
    RoundRecord& rec = r.records[static_cast<std::size_t>(found)];
    replay_phase_ = ReplayPhase::Replay;
    r.record = found;
    rec.last_used = ++r.clock;
    replay_first_ = replay_next_ = rec.events.data();
    replay_end_ = replay_next_ + rec.events.size();
    replay_pool_ = rec.pool.data();
    r.stalls = stalls_;
  } else {
    // Record this round in place of the least recently used record (the deferred one's end
    // state is written first: it may be the victim).
    settle_replay();
    snapshot_counts();
    int victim = previous == 0 ? 1 : 0;
    for (int i = victim + 1; i < RoundReplay::kRecords; ++i)
      if (i != previous)
      if (r.records[static_cast<std::size_t>(i)].last_used < r.records[static_cast<std::size_t>(victim)].last_used) victim = i;
    RoundRecord& rec = r.records[static_cast<std::size_t>(victim)];
    rec.valid = false;
    rec.hash = r.hash;
    rec.start = r.fingerprint;
    rec.events.clear();
    rec.pool.clear();
    rec.last_used = ++r.clock;
    rec.next = -1;
    rec.generation = ++r.clock;
    r.record = victim;
    replay_phase_ = ReplayPhase::Record;
    clear_stale_scoreboard();
    found = victim;
    if (fresh) {  // valid once the round has ended
      r.fresh_record = victim;
      r.fresh_generation = rec.generation;
      r.fresh_base = base;
    }
  }
  if (before != nullptr && (before->next != found || before->next_delta != delta)) {
    before->next = found;
    before->next_generation = r.records[static_cast<std::size_t>(found)].generation;
    before->next_delta = delta;
  }
}

// The round has ended (the next one starts).
void TimingModel::end_replay_round() {
  RoundReplay& r = *replay_;
  r.previous = -1;
  if (replay_phase_ == ReplayPhase::Replay) {
    if (replay_next_ == replay_end_) {
      const RoundRecord& rec = r.records[static_cast<std::size_t>(r.record)];
      const ReplayTotals& t = rec.totals;
      for (int c = 0; c < ReplayTotals::kCauses; ++c) stalls_[static_cast<std::size_t>(c)] += t.stalls[static_cast<std::size_t>(c)];
      rob_occupancy_sum_ += t.occupancy_sum;
      rob_max_occupancy_ = std::max(rob_max_occupancy_, t.occupancy_max);
      if (t.occupancy_max > 0) last_commit_ = std::max(last_commit_, r.base + t.commit);
      defer_record(r.record, r.base);
      ++r.replayed;
      replay_outcome(true);
    } else {
      replay_diverged();  // fewer calls than recorded; the round ends recorded as it ran
      finish_record();
    }
  } else if (replay_phase_ == ReplayPhase::Record) {
    finish_record();
    replay_outcome(false);
  }
  if (replay_phase_ == ReplayPhase::Replay || replay_phase_ == ReplayPhase::Record) {
    r.previous = r.record;
    r.previous_base = r.base;
  }
  replay_phase_ = ReplayPhase::Off;
  replay_next_ = replay_end_ = nullptr;
}

void TimingModel::replay_outcome(bool replayed) {
  RoundReplay& r = *replay_;
  r.streak = replayed ? 0 : r.streak + 1;
  r.skip = r.streak < 8 ? 0 : 1 << std::min(r.streak - 8, 6);
}

void TimingModel::abandon_record() {
  RoundReplay& r = *replay_;
  RoundRecord& rec = r.records[static_cast<std::size_t>(r.record)];
  rec.valid = false;
  rec.last_used = 0;
  replay_phase_ = ReplayPhase::Off;
  replay_outcome(false);
}

// The recorded round has ended: keep the state it leaves, relative to its start.
void TimingModel::finish_record() {
  RoundReplay& r = *replay_;
  RoundRecord& rec = r.records[static_cast<std::size_t>(r.record)];
  const Cycle base = r.base;
  rec.rob_added = rob_count_ - r.rob_count;
  const std::int64_t rob_n = std::min<std::int64_t>(rec.rob_added, rob_mask_ + 1);
  rec.rob_tail.clear();
  for (std::int64_t i = rob_count_ - rob_n; i < rob_count_; ++i)
    rec.rob_tail.push_back(rob_release_[static_cast<std::size_t>(i & rob_mask_)] - base);
  for (int u = 0; u < isa::kBackendUnits; ++u) {
    const FuHistory& h = fu_[static_cast<std::size_t>(u)];
    FuTail& t = rec.fu[static_cast<std::size_t>(u)];
    t.added = h.count - r.fu_count[static_cast<std::size_t>(u)];
    t.ob_added = h.ob_count - r.ob_count[static_cast<std::size_t>(u)];
    t.entries.clear();
    t.ob_entries.clear();
    for (std::int64_t i = h.count - std::min<std::int64_t>(t.added, history_); i < h.count; ++i) {
      const std::size_t s = static_cast<std::size_t>(i & history_mask_);
      t.entries.insert(t.entries.end(), {h.issue[s] - base, h.complete[s] - base, h.commit[s] - base});
    }
    for (std::int64_t i = h.ob_count - std::min<std::int64_t>(t.ob_added, history_); i < h.ob_count; ++i) {
      const std::size_t s = static_cast<std::size_t>(i & history_mask_);
      t.ob_entries.insert(t.ob_entries.end(), {h.ob_commit[s] - base, h.ob_complete[s] - base});
    }
    t.free_at = h.free_at - base;
    t.fu_commit = ctx_[0].fu_commit[static_cast<std::size_t>(u)] - base;
  }
  rec.last_commit = ctx_[0].last_commit - base;
  rec.sorted = rob_releases_sorted_;
  rec.held_rel = rob_count_ - rob_held_from_;
  rec.last_allocated = rob_last_allocated_ - base;
  rec.touches = rec.rob_added > 0 ? RoundRecord::kRob : 0;
  rec.covers = rec.rob_added > rob_mask_ ? RoundRecord::kRob : 0;
  for (int u = 0; u < isa::kBackendUnits; ++u) {
    const FuTail& t = rec.fu[static_cast<std::size_t>(u)];
    if (t.added > 0) rec.touches |= RoundRecord::kFu << u;
    if (t.ob_added > 0) rec.touches |= RoundRecord::kOb << u;
    if (t.added >= history_) rec.covers |= RoundRecord::kFu << u;
    if (t.ob_added >= history_) rec.covers |= RoundRecord::kOb << u;
  }
  rec.totals = ReplayTotals::of(rec.events.data(), rec.events.data() + rec.events.size());
  rec.valid = true;
}

ReplayTotals ReplayTotals::of(const ReplayEvent* begin, const ReplayEvent* end) {
  ReplayTotals t;
  bool any = false;
  for (const ReplayEvent* e = begin; e != end; ++e) {
    if (e->kind != ReplayEvent::Dispatch) continue;
    t.stalls[static_cast<std::size_t>(StallCause::RobFull)] += e->rob_stall;
    t.stalls[static_cast<std::size_t>(StallCause::QueueFullAlu) + e->unit] += e->queue_stall;
    t.occupancy_sum += e->occupancy_sum;
    t.occupancy_max = std::max(t.occupancy_max, e->occupancy);
    t.commit = any ? std::max(t.commit, e->commit) : e->commit;
    any = true;
  }
  return t;
}

ReplayTotals TimingModel::replayed_so_far() const {
  if (replay_phase_ != ReplayPhase::Replay) return {};
  return ReplayTotals::of(replay_first_, replay_next_);
}

// A deferred record's end state is written when another record's would not overwrite all of it.
void TimingModel::defer_record(int record, Cycle base) {
  RoundReplay& r = *replay_;
  if (deferred_ >= 0) {
    const RoundRecord& d = r.records[static_cast<std::size_t>(deferred_)];
    if ((d.touches & ~r.records[static_cast<std::size_t>(record)].covers) == 0)
      skip_record(d);
    else
      apply_record(d, deferred_base_);
  }
  deferred_ = record;
  deferred_base_ = base;
}

void TimingModel::settle_replay() {
  if (deferred_ < 0) return;
  apply_record(replay_->records[static_cast<std::size_t>(deferred_)], deferred_base_);
  deferred_ = -1;
}

// A record whose end state the next one's overwrites: only the counts move (and whether the ROB
// releases are sorted, which the next record's update reads).
void TimingModel::skip_record(const RoundRecord& rec) {
  rob_count_ += rec.rob_added;
  rob_releases_sorted_ = rec.sorted;
  for (int u = 0; u < isa::kBackendUnits; ++u) {
    FuHistory& h = fu_[static_cast<std::size_t>(u)];
    h.count += rec.fu[static_cast<std::size_t>(u)].added;
    h.ob_count += rec.fu[static_cast<std::size_t>(u)].ob_added;
  }
}

// The replayed round has ended: the shared state becomes the recorded end state (what the
// round's dispatches would have written; what they would not have touched stays as it is).
void TimingModel::apply_record(const RoundRecord& rec, Cycle base) {
  const std::int64_t rob_end = rob_count_ + rec.rob_added;
  const std::int64_t rob_n = static_cast<std::int64_t>(rec.rob_tail.size());
  for (std::int64_t i = 0; i < rob_n; ++i)
    rob_release_[static_cast<std::size_t>((rob_end - rob_n + i) & rob_mask_)] = base + rec.rob_tail[static_cast<std::size_t>(i)];
  if (rec.rob_added > 0) {
    ctx_[0].last_commit = base + rec.last_commit;
    // rob_occupancy() keeps its window only while the releases are sorted (the start state's
    // sortedness is part of the fingerprint).
    if (rob_releases_sorted_) {
      rob_held_from_ = rob_end - rec.held_rel;
      rob_last_allocated_ = base + rec.last_allocated;
    }
  }
  rob_count_ = rob_end;
  rob_releases_sorted_ = rec.sorted;
  // The recorded newest entries of rings that share a count: `tail` holds one value per ring
  // and entry, oldest entry first; the last entry lands at count `end` - 1.
  auto write_tail = [this, base](std::int64_t end, const std::vector<Cycle>& tail,
                                 std::initializer_list<std::vector<Cycle>*> rings) {
    const Cycle* v = tail.data();
    for (std::int64_t i = end - static_cast<std::int64_t>(tail.size() / rings.size()); i < end; ++i)
      for (std::vector<Cycle>* ring : rings) (*ring)[static_cast<std::size_t>(i & history_mask_)] = base + *v++;
  };
  for (int u = 0; u < isa::kBackendUnits; ++u) {
    FuHistory& h = fu_[static_cast<std::size_t>(u)];
    const FuTail& t = rec.fu[static_cast<std::size_t>(u)];
    if (t.added == 0) continue;
    h.count += t.added;
    write_tail(h.count, t.entries, {&h.issue, &h.complete, &h.commit});
    h.ob_count += t.ob_added;
    write_tail(h.ob_count, t.ob_entries, {&h.ob_commit, &h.ob_complete});
    h.free_at = base + t.free_at;
    ctx_[0].fu_commit[static_cast<std::size_t>(u)] = base + t.fu_commit;
  }
}

// A call differs from the record (or the round ended early): put the statistics back, dispatch
// the calls replayed so far for real from the start state (untouched), and record the rest of
// the round in the same record.
void TimingModel::replay_diverged() {
  RoundReplay& r = *replay_;
  RoundRecord& rec = r.records[static_cast<std::size_t>(r.record)];
  const std::size_t pos = static_cast<std::size_t>(replay_next_ - rec.events.data());
  ++r.diverged;
  stalls_ = r.stalls;  // the replayed control calls' stalls (a dispatch's are added at the end)
  replay_phase_ = ReplayPhase::Off;
  replay_next_ = replay_end_ = nullptr;
  settle_replay();
  snapshot_counts();
  clear_stale_scoreboard();
  const Cycle base = r.base;
  for (std::size_t i = 0; i < pos; ++i) {
    const ReplayEvent& e = rec.events[i];
    switch (e.kind) {
      case ReplayEvent::Dispatch: {
        const Cycle* limits = nullptr;
        if (e.min_result >= 0) {
          r.limits.resize(static_cast<std::size_t>(T_));
          for (int k = 0; k < T_; ++k)
            r.limits[static_cast<std::size_t>(k)] = base + rec.pool[static_cast<std::size_t>(e.min_result + k)];
          limits = r.limits.data();
        }
        dispatch_fast(*e.op, base + e.fetch, limits, nullptr);
        break;
      }
      case ReplayEvent::WaitCommitted:
        wait_for_committed_now(base + e.fetch, e.reg, static_cast<StallCause>(e.cause), 0);
        break;
      case ReplayEvent::AddStall:
        add_stall_now(static_cast<StallCause>(e.cause), base + e.fetch, e.cycles);
        break;
    }
  }
  // The record keeps its start state and the calls that matched; it goes on with this round's.
  rec.pool.resize(static_cast<std::size_t>(pos == 0 ? 0 : rec.events[pos - 1].pool_end));
  rec.events.resize(pos);
  rec.valid = false;
  rec.next = -1;
  rec.last_used = ++r.clock;
  replay_phase_ = ReplayPhase::Record;
  replay_outcome(false);
}

bool TimingModel::replay_matches(const ReplayEvent& e, const TimingOp& op, Cycle fetch, const Cycle* min_result,
                                 ThreadTiming* global) const {
  if (e.op != &op || e.fetch != fetch - replay_base_ || global != nullptr || (e.min_result >= 0) != (min_result != nullptr))
    return false;
  if (min_result != nullptr)
    for (int k = 0; k < T_; ++k)
      if (replay_pool_[e.min_result + k] != rel(min_result[k], replay_base_)) return false;
  return true;
}

// A replayed store: last_store_data() as the dispatch would leave it.
void TimingModel::replay_store_data(const ReplayEvent& e) {
  const Cycle* data = replay_pool_ + e.store_data;
  for (int k = 0; k < T_; ++k) store_data_[static_cast<std::size_t>(k)] = replay_base_ + data[k];
}

[[gnu::noinline]] OpSchedule TimingModel::replay_dispatch_slow(const TimingOp& op, Cycle fetch, const Cycle* min_result,
                                                              ThreadTiming* global) {
  RoundReplay& r = *replay_;
  if (replay_phase_ == ReplayPhase::Pending) begin_replay_round(fetch);
  const Cycle base = r.base;
  if (replay_phase_ == ReplayPhase::Replay) {
    if (replay_next_ != replay_end_ && replay_matches(*replay_next_, op, fetch, min_result, global))
      return replay_event(*replay_next_++);
    replay_diverged();
  }
  if (replay_phase_ != ReplayPhase::Record) return dispatch_fast(op, fetch, min_result, global);

  const int u = static_cast<int>(op.unit);
  const std::int64_t rob0 = stalls_[static_cast<int>(StallCause::RobFull)];
  const std::int64_t queue0 = stalls_[static_cast<int>(StallCause::QueueFullAlu) + u];
  const std::int64_t sum0 = rob_occupancy_sum_;
  const OpSchedule s = dispatch_fast(op, fetch, min_result, global);
  RoundRecord& rec = r.records[static_cast<std::size_t>(r.record)];
  // Accesses that leave the core have effects of their own; a store without a data operand
  // would leave last_store_data() from an older instruction.
  if (global != nullptr || (op.is_store && op.regs.store_data_src < 0) || rec.events.size() >= RoundReplay::kMaxEvents) {
    abandon_record();
    return s;
  }
  ReplayEvent e;
  e.kind = ReplayEvent::Dispatch;
  e.unit = static_cast<std::uint8_t>(u);
  e.op = &op;
  e.plain_op = min_result == nullptr ? &op : nullptr;
  e.fetch = fetch - base;
  if (min_result != nullptr) {
    e.min_result = static_cast<std::int32_t>(rec.pool.size());
    for (int k = 0; k < T_; ++k) rec.pool.push_back(rel(min_result[k], base));
  }
  if (op.regs.store_data_src >= 0) {
    e.store_data = static_cast<std::int32_t>(rec.pool.size());
    for (int k = 0; k < T_; ++k) rec.pool.push_back(store_data_[static_cast<std::size_t>(k)] - base);
  }
  e.pool_end = static_cast<std::int32_t>(rec.pool.size());
  e.dispatch = s.dispatch - base;
  e.issue = s.issue - base;
  e.commit = s.commit - base;
  e.rob_stall = stalls_[static_cast<int>(StallCause::RobFull)] - rob0;
  e.queue_stall = stalls_[static_cast<int>(StallCause::QueueFullAlu) + u] - queue0;
  e.occupancy_sum = rob_occupancy_sum_ - sum0;
  e.occupancy = last_occupancy_;
  rec.events.push_back(e);
  return s;
}

// A control call of the round (wait_for_committed, add_stall) with its inputs in `e` (cycles
// absolute): the recorded event when it is replayed, else null (the round runs for real).
const ReplayEvent* TimingModel::replay_control(ReplayEvent& e) {
  if (replay_phase_ == ReplayPhase::Pending) begin_replay_round(e.fetch);
  e.fetch -= replay_base_;
  if (replay_phase_ != ReplayPhase::Replay) return nullptr;
  const ReplayEvent* m = replay_next_;
  if (m != replay_end_ && m->kind == e.kind && m->fetch == e.fetch && m->reg == e.reg && m->cause == e.cause &&
      m->cycles == e.cycles) {
    ++replay_next_;
    return m;
  }
  replay_diverged();
  return nullptr;
}

// Adds the control call `e` (from replay_control()) with its result cycle to the record.
void TimingModel::record_control(ReplayEvent& e, Cycle result) {
  if (replay_phase_ != ReplayPhase::Record) return;
  RoundRecord& rec = replay_->records[static_cast<std::size_t>(replay_->record)];
  if (rec.events.size() >= RoundReplay::kMaxEvents) return abandon_record();
  e.dispatch = result - replay_base_;
  e.pool_end = static_cast<std::int32_t>(rec.pool.size());
  rec.events.push_back(e);
}

Cycle TimingModel::replay_wait(Cycle fetch, isa::RegId reg, StallCause cause) {
  ReplayEvent e;
  e.kind = ReplayEvent::WaitCommitted;
  e.reg = reg;
  e.cause = static_cast<std::uint8_t>(cause);
  e.fetch = fetch;
  if (const ReplayEvent* m = replay_control(e)) {
    stalls_[static_cast<int>(cause)] += m->dispatch - m->fetch;
    return replay_base_ + m->dispatch;
  }
  const Cycle t = wait_for_committed_now(fetch, reg, cause, 0);
  record_control(e, t);
  return t;
}

void TimingModel::replay_stall(StallCause cause, Cycle from, Cycle cycles) {
  ReplayEvent e;
  e.kind = ReplayEvent::AddStall;
  e.cause = static_cast<std::uint8_t>(cause);
  e.fetch = from;
  e.cycles = cycles;
  if (replay_control(e) != nullptr) {
    stalls_[static_cast<int>(cause)] += cycles;
    return;
  }
  add_stall_now(cause, from, cycles);
  record_control(e, replay_base_);
}

}  // namespace par::core
