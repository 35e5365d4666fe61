#include "timing_model.hpp"

#include <algorithm>

#include "timing_replay.hpp"

namespace par::core {

using isa::RegId;
using isa::Unit;

namespace {
// Rings of recent instructions are a power of two long, so a position is a mask, not a division.
int ring_size(int n) {
  int r = 1;
  while (r < n) r *= 2;
  return r;
}

// The rules every shipped configuration uses (the option defaults): dispatch_impl can then fold
// the rule choices away.
bool default_rules(const CoreConfig& c) {
  return c.queue_release == QueueRelease::Issue && c.store_issue == StoreIssue::Address &&
         c.output_buffer_release == OutputBufferRelease::Commit && c.rob_allocation == RobAllocation::Dispatch &&
         c.rob_release == RobRelease::Commit && c.commit_order == CommitOrder::Program && c.commit_per_fu == 1 &&
         c.store_uses_output_buffer && c.contexts == 1;
}

int fast_threads(const CoreConfig& c) {
  const int t = c.threads_per_lane;
  return default_rules(c) && (t == 1 || t == 2 || t == 4 || t == 8) ? t : 0;
}
}  // namespace

const char* stall_cause_name(StallCause c) {
  switch (c) {
    case StallCause::RobFull: return "rob_full";
    case StallCause::QueueFullAlu: return "queue_full.alu";
    case StallCause::QueueFullFpu: return "queue_full.fpu";
    case StallCause::QueueFullLs: return "queue_full.ls";
    case StallCause::QueueFullCmp: return "queue_full.cmp";
    case StallCause::PredicateWait: return "predicate_wait";
    case StallCause::RegisterWait: return "register_wait";
    case StallCause::XpDisqualified: return "xp_disqualified";
    case StallCause::MemoryWait: return "memory_wait";
    case StallCause::FuWait: return "fu_wait";
    case StallCause::OperandWait: return "operand_wait";
    case StallCause::Count: break;
  }
  return "?";
}

TimingOp TimingOp::from(const isa::Instruction& in, const CoreConfig& cfg) {
  TimingOp t;
  t.unit = in.unit();
  t.qp = in.qp;
  t.is_store = in.is_store();
  t.is_memory = in.is_memory();
  t.regs = isa::operands(in);
  switch (t.unit) {
    case Unit::Alu: t.latency = cfg.alu_latency; break;
    case Unit::Cmp: t.latency = cfg.cmp_latency; break;
    case Unit::Ls: t.latency = cfg.dcache_latency; break;
    case Unit::Fpu:
      t.latency = (in.meta().flags & isa::kLongLatency) ? cfg.div_latency() : cfg.fpu_latency;
      break;
    case Unit::Control: break;
  }
  if (in.is_stream()) {  // the LS unit's stream port: conditions needed at issue, as for memory
    t.is_memory = true;
    t.latency = cfg.stream.latency;
  }
  return t;
}

Cycle DispatchWaits::ready(Cycle from) const { return std::max({from, memory, fu, operand, rob, queue}); }

TimingModel::FuHistory::FuHistory(const CoreConfig& cfg, int history)
    : issue(static_cast<std::size_t>(history), 0),
      complete(static_cast<std::size_t>(history), 0),
      commit(static_cast<std::size_t>(history), 0),
      ob_commit(static_cast<std::size_t>(history), 0),
      ob_complete(static_cast<std::size_t>(history), 0),
      queue_commits(cfg.queue_size),
      ob_releases(cfg.output_buffers) {}

TimingModel::Scoreboard::Scoreboard(int threads)
    : avail(static_cast<std::size_t>(isa::kRegIdCount) * static_cast<std::size_t>(threads), 0) {
  commit.fill(-1);
  fu_commit.fill(-1);
  fu_complete.fill(0);
}

TimingModel::TimingModel(const CoreConfig& cfg)
    : cfg_(cfg),
      T_(cfg.threads_per_lane),
      history_(ring_size(std::max({cfg.queue_size, cfg.output_buffers, cfg.commit_per_fu}))),
      history_mask_(history_ - 1),
      shared_(cfg.contexts > 1),
      fast_threads_(fast_threads(cfg)),
      fu_wait_mask_(cfg.fu_wait_mask()),
      fu_{FuHistory(cfg, history_), FuHistory(cfg, history_), FuHistory(cfg, history_), FuHistory(cfg, history_)},
      rob_release_(static_cast<std::size_t>(ring_size(cfg.rob_size)), 0),
      rob_mask_(static_cast<std::int64_t>(rob_release_.size()) - 1),
      rob_pool_(cfg.rob_size),
      ready_(static_cast<std::size_t>(T_)),
      start_(static_cast<std::size_t>(T_)),
      results_(static_cast<std::size_t>(T_)),
      store_data_(static_cast<std::size_t>(T_)) {
  ctx_.reserve(static_cast<std::size_t>(cfg.contexts));
  for (int c = 0; c < cfg.contexts; ++c) ctx_.emplace_back(T_);
  // Only the dispatch_single() specialisations replay (fast_threads_ implies the default rules
  // and one context).
  if (fast_threads_ != 0) replay_ = std::make_unique<RoundReplay>();
}

TimingModel::~TimingModel() = default;

void TimingModel::reset() {
  if (replay_phase_ == ReplayPhase::Record) abandon_record();
  replay_phase_ = ReplayPhase::Off;  // a replayed round's end state is moot: everything restarts
  replay_next_ = replay_end_ = nullptr;
  deferred_ = -1;
  if (replay_) {
    replay_->fresh = true;
    replay_->previous = -1;  // no round chains across packets
  }
  // Every write to the rings, the FU scalars and the release pools comes with an instruction
  // added to the counts (a dispatch, a replayed round's end state): with all counts zero they
  // still hold what the last reset() left. A core whose packets are one replayed round each (its
  // end state deferred, then dropped above) writes none of it, and this walk over the rings of
  // every FU would only pull them into the host's caches.
  bool touched = rob_count_ != 0;
  for (const FuHistory& h : fu_) touched |= h.count != 0 || h.ob_count != 0;
  if (touched) clear_histories();
  rob_releases_sorted_ = true;
  rob_held_from_ = 0;
  rob_last_allocated_ = 0;
  rob_count_ = 0;
  last_commit_ = -1;
  for (int c = 0; c < static_cast<int>(ctx_.size()); ++c) {
    start_round(c);
    Scoreboard& sb = ctx_[static_cast<std::size_t>(c)];
    sb.fu_commit.fill(-1);
    sb.fu_complete.fill(0);
    sb.last_commit = -1;
  }
  context_ = 0;
  for (std::vector<Cycle>* v : {&ready_, &start_, &results_, &store_data_}) std::fill(v->begin(), v->end(), Cycle{0});
  stalls_.fill(0);
  rob_occupancy_sum_ = 0;
  rob_max_occupancy_ = 0;
}

// Out of line for the same reason as the test above: what a packet share that wrote none of it
// runs of reset() stays small (README "Host cost").
void TimingModel::clear_histories() {
  for (FuHistory& h : fu_) {
    for (std::vector<Cycle>* v : {&h.issue, &h.complete, &h.commit, &h.ob_commit, &h.ob_complete})
      std::fill(v->begin(), v->end(), Cycle{0});
    h.count = h.ob_count = 0;
    h.free_at = 0;
    h.queue_commits.clear();
    h.ob_releases.clear();
    h.ports.clear();
  }
  std::fill(rob_release_.begin(), rob_release_.end(), Cycle{0});
  rob_pool_.clear();
}

void TimingModel::start_round(int context) {
  if (replay_phase_ != ReplayPhase::Off) end_replay_round();
  if (replay_ && replay_->enabled) {
    // A replayed round never reads the scoreboard: it is cleared once a round runs for real.
    replay_phase_ = ReplayPhase::Pending;
    scoreboard_stale_ = true;
    return;
  }
  clear_scoreboard(context);
}

void TimingModel::clear_scoreboard(int context) {
  scoreboard_stale_ = false;
  Scoreboard& sb = ctx_[static_cast<std::size_t>(context)];
  std::fill(sb.avail.begin(), sb.avail.end(), Cycle{0});
  sb.commit.fill(-1);
  sb.from_load.fill(0);
}

// Value of `v` for the n-th most recent instruction of the FU (n = 1: the previous one), or
// "long ago" when the FU has executed fewer than n instructions.
inline Cycle TimingModel::fu_history_back(const FuHistory& h, const std::vector<Cycle>& v, int n) const {
  if (h.count < n) return -1;
  return v[static_cast<std::size_t>((h.count - n) & history_mask_)];
}

// An output buffer is free once the output_buffers-th most recent instruction that took one has
// given it back (after this cycle's commits).
Cycle TimingModel::output_buffer_free(const FuHistory& h, OutputBufferRelease release) const {
  const int n = cfg_.output_buffers;
  if (h.ob_count < n) return -1;
  const std::size_t i = static_cast<std::size_t>((h.ob_count - n) & history_mask_);
  return release == OutputBufferRelease::Commit ? h.ob_commit[i] : h.ob_complete[i];
}

// First cycle a ROB entry is free when entries are released in program order (one context,
// program-order commit): instruction i's entry is reused by instruction i + R once released.
inline Cycle TimingModel::rob_ring_free() const {
  const int R = cfg_.rob_size;
  return rob_count_ >= R ? rob_release_[static_cast<std::size_t>((rob_count_ - R) & rob_mask_)] + 1 : 0;
}

// First cycle a ROB entry is free for an instruction fetched in `fetch` (entries freed in c are
// usable from c+1).
inline Cycle TimingModel::rob_entry_free(Cycle fetch) const {
  if (cfg_.commit_order != CommitOrder::PerFu && !shared_) return rob_ring_free();
  // Entries are freed out of program order: one is free once fewer than R are held.
  const Cycle held_until = rob_pool_.kth();
  return held_until >= fetch ? held_until + 1 : 0;
}

// First cycle the FU's waiting queue has a free entry (freed in c, usable from c+1).
inline Cycle TimingModel::queue_free(const FuHistory& h) const {
  if (cfg_.queue_release == QueueRelease::Issue) return fu_history_back(h, h.issue, cfg_.queue_size) + 1;
  return (shared_ ? h.queue_commits.kth() : fu_history_back(h, h.commit, cfg_.queue_size)) + 1;
}

// The ROB gates dispatch only when entries are claimed at dispatch; the waiting-queue entry
// always. Only the ring's position needs `fetch`; 0 keeps every held pool entry.
Cycle TimingModel::rob_wait() const {
  return cfg_.rob_allocation == RobAllocation::Dispatch ? rob_entry_free(0) : 0;
}

Cycle TimingModel::queue_wait(Unit unit) const { return queue_free(fu_[static_cast<std::size_t>(unit)]); }

DispatchWaits TimingModel::dispatch_waits(const TimingOp& op, int context) const {
  const int u = static_cast<int>(op.unit);
  const Scoreboard& sb = ctx_[static_cast<std::size_t>(context)];
  DispatchWaits w;
  w.rob = rob_wait();
  w.queue = queue_wait(op.unit);
  if (fu_wait_mask_ & (1u << u)) w.fu = sb.fu_complete[static_cast<std::size_t>(u)];
  const ContextReady rule = cfg_.context_ready;
  if (rule == ContextReady::Dispatch) return w;
  // Operands as issue needs them (§4.2): thread 0's for `operands`, every thread's for
  // `complete`; a store's data only when it gates issue there, or under `complete`.
  const bool all_threads = rule == ContextReady::Complete;
  const bool data_counts = all_threads || cfg_.store_issue == StoreIssue::AllOperands;
  const int threads = all_threads ? T_ : 1;
  for (int i = 0; i < op.regs.num_src; ++i) {
    if (i == op.regs.store_data_src && !data_counts) continue;
    const RegId r = op.regs.src[static_cast<std::size_t>(i)];
    Cycle a = 0;
    for (int k = 0; k < threads; ++k) a = std::max(a, avail(sb, r, k));
    Cycle& wait = sb.from_load[r] ? w.memory : w.operand;
    wait = std::max(wait, a);
  }
  // The qualifying predicate: memory instructions need its committed value to issue (§4.2);
  // under `complete` every instruction waits until it exists for all threads.
  if (op.qp != 0) {
    const RegId q = isa::pred_reg(op.qp);
    if (op.is_memory) w.operand = std::max(w.operand, sb.commit[q]);
    if (all_threads)
      for (int k = 0; k < T_; ++k) w.operand = std::max(w.operand, avail(sb, q, k));
  }
  return w;
}

Cycle TimingModel::wait_for_committed(Cycle fetch, RegId reg, StallCause cause, int context) {
  if (replay_phase_ != ReplayPhase::Off) return replay_wait(fetch, reg, cause);
  return wait_for_committed_now(fetch, reg, cause, context);
}

Cycle TimingModel::wait_for_committed_now(Cycle fetch, RegId reg, StallCause cause, int context) {
  const Cycle t = std::max(fetch, committed_visible(reg, context));
  stalls_[static_cast<int>(cause)] += t - fetch;
  if (listener_ != nullptr && t > fetch) listener_->stall(cause, fetch, t);
  return t;
}

// The statistics of a round being replayed include the dispatches replayed so far (a replayed
// round adds its dispatches' statistics at its end).
std::int64_t TimingModel::stall_cycles(StallCause c) const {
  const int i = static_cast<int>(c);
  return stalls_[static_cast<std::size_t>(i)] +
         (i < ReplayTotals::kCauses ? replayed_so_far().stalls[static_cast<std::size_t>(i)] : 0);
}

std::int64_t TimingModel::total_stall_cycles() const {
  std::int64_t s = 0;
  for (int c = 0; c < kStallCauses; ++c) s += stall_cycles(static_cast<StallCause>(c));
  return s;
}

void TimingModel::add_statistics(std::array<std::int64_t, kStallCauses>& stalls, std::int64_t& occupancy_sum,
                                 int& occupancy_max) const {
  const ReplayTotals t = replayed_so_far();
  for (std::size_t c = 0; c < stalls.size(); ++c)
    stalls[c] += stalls_[c] + (c < static_cast<std::size_t>(ReplayTotals::kCauses) ? t.stalls[c] : 0);
  occupancy_sum += rob_occupancy_sum_ + t.occupancy_sum;
  occupancy_max = std::max({occupancy_max, rob_max_occupancy_, t.occupancy_max});
}

std::int64_t TimingModel::rob_occupancy_sum() const { return rob_occupancy_sum_ + replayed_so_far().occupancy_sum; }

int TimingModel::rob_max_occupancy() const { return std::max(rob_max_occupancy_, replayed_so_far().occupancy_max); }

Cycle TimingModel::last_commit() const {
  const ReplayTotals t = replayed_so_far();
  return t.occupancy_max > 0 ? std::max(last_commit_, replay_base_ + t.commit) : last_commit_;
}

inline int TimingModel::rob_occupancy(Cycle allocated) {
  const std::int64_t window_start = std::max<std::int64_t>(0, rob_count_ - (cfg_.rob_size - 1));
  if (rob_releases_sorted_) {
    if (allocated < rob_last_allocated_ || rob_held_from_ < window_start) rob_held_from_ = window_start;
    rob_last_allocated_ = allocated;
    while (rob_held_from_ < rob_count_ &&
           rob_release_[static_cast<std::size_t>(rob_held_from_ & rob_mask_)] < allocated)
      ++rob_held_from_;
    return 1 + static_cast<int>(rob_count_ - rob_held_from_);
  }
  int occupancy = 1;
  for (std::int64_t i = window_start; i < rob_count_; ++i)
    occupancy += rob_release_[static_cast<std::size_t>(i & rob_mask_)] >= allocated;
  return occupancy;
}

// kShared: several contexts, whose instructions commit (and free output buffers, queue entries
// held until commit, ROB entries and commit ports) out of dispatch order. kSelect: the frontend
// selects among contexts and asks dispatch_waits().
template <bool kShared, bool kSelect, bool kDefaultRules, int kT>
OpSchedule TimingModel::dispatch_impl(const TimingOp& op, Cycle fetch, const Cycle* min_result,
                                      ThreadTiming* global) {
  Scoreboard& sb = ctx_[kShared ? static_cast<std::size_t>(context_) : 0];
  const int u = static_cast<int>(op.unit);
  FuHistory& fu = fu_[static_cast<std::size_t>(u)];

  // Dispatch (§4.1): a free ROB entry and a free queue entry at the start of the cycle; entries
  // freed in cycle c are usable from c+1.
  // Under the default rules: program-order commit with one context frees ROB entries in order
  // (the ring), queue entries are freed at issue, one commit per FU and cycle.
  const bool per_fu = !kDefaultRules && cfg_.commit_order == CommitOrder::PerFu;
  const Cycle rob_free_at = kDefaultRules ? rob_ring_free() : rob_entry_free(fetch);
  const bool rob_at_dispatch = kDefaultRules || cfg_.rob_allocation == RobAllocation::Dispatch;
  const Cycle rob_free = rob_at_dispatch ? rob_free_at : 0;
  const Cycle queue_at = kDefaultRules ? fu_history_back(fu, fu.issue, cfg_.queue_size) + 1 : queue_free(fu);
  const Cycle d = std::max({fetch, rob_free, queue_at});
  if (d > fetch) {
    const Cycle rob_wait = std::max<Cycle>(0, std::min(d, rob_free) - fetch);
    stalls_[static_cast<int>(StallCause::RobFull)] += rob_wait;
    stalls_[static_cast<int>(StallCause::QueueFullAlu) + u] += (d - fetch) - rob_wait;
    if (listener_ != nullptr) {
      if (rob_wait > 0) listener_->stall(StallCause::RobFull, fetch, fetch + rob_wait);
      if (d > fetch + rob_wait)
        listener_->stall(static_cast<StallCause>(static_cast<int>(StallCause::QueueFullAlu) + u),
                         fetch + rob_wait, d);
    }
  }

  // Operand availability per thread slot (§4.4). A store issues on its address operands unless
  // core.store_issue = all_operands; its data is needed only to complete.
  // Local copies of the per-thread arrays: the loops below then keep them in registers.
  const bool data_gates_issue = !kDefaultRules && cfg_.store_issue == StoreIssue::AllOperands;
  const int T = kT > 0 ? kT : T_;
  Cycle* const ready = ready_.data();
  Cycle* const store_data = store_data_.data();
  Cycle* const start = start_.data();
  Cycle* const results = results_.data();
  for (int k = 0; k < T; ++k) ready[k] = 0;
  bool has_store_data = false;
  for (int i = 0; i < op.regs.num_src; ++i) {
    const RegId r = op.regs.src[static_cast<std::size_t>(i)];
    const Cycle* const a = &sb.avail[static_cast<std::size_t>(r) * static_cast<std::size_t>(T)];
    if (i == op.regs.store_data_src) {
      has_store_data = true;
      for (int k = 0; k < T; ++k) store_data[k] = a[k];
      if (!data_gates_issue) continue;
    }
    for (int k = 0; k < T; ++k) ready[k] = std::max(ready[k], a[k]);
  }

  // Issue (§4.2): FU free, an output buffer free after this cycle's commits, thread 0 ready,
  // and for memory instructions a known qp.
  const OutputBufferRelease ob_release = kDefaultRules ? OutputBufferRelease::Commit : cfg_.output_buffer_release;
  Cycle issue = std::max({d + cfg_.frontend_latency, fu.free_at, ready[0]});
  const bool takes_output_buffer = global == nullptr && (!op.is_store || kDefaultRules || cfg_.store_uses_output_buffer);
  if (takes_output_buffer) issue = std::max(issue, kShared ? fu.ob_releases.kth() : output_buffer_free(fu, ob_release));
  // A ROB entry claimed at issue (program order) is free once its previous owner committed,
  // possibly earlier in the same cycle.
  if (!rob_at_dispatch) issue = std::max(issue, rob_free_at - 1);
  const Cycle qp_known = op.qp != 0 ? sb.commit[isa::pred_reg(op.qp)] : -1;
  if (op.is_memory) issue = std::max(issue, qp_known);

  // Execution (§4.3): one thread per cycle, late operands delay that thread and later ones.
  Cycle last = 0;
  Cycle prev = issue - 1;
  const Cycle latency = op.latency;
  if (global != nullptr) {
    for (int k = 0; k < T; ++k) {
      const Cycle s = global->start_thread(k, std::max(prev + 1, ready[k]), has_store_data ? store_data[k] : 0);
      start[k] = s;
      prev = s;
    }
    global->finish();
    for (int k = 0; k < T; ++k) {
      Cycle r = std::max(start[k] + latency, global->thread_result(k));
      if (min_result != nullptr) r = std::max(r, min_result[k]);
      results[k] = r;
      last = std::max(last, r);
      if (has_store_data) {
        store_data[k] = std::max(store_data[k], start[k]);
        last = std::max(last, store_data[k]);
      }
    }
  } else {
    // The common case (registers, local memory) without the calls.
    for (int k = 0; k < T; ++k) {
      const Cycle s = std::max(prev + 1, ready[k]);
      start[k] = s;
      prev = s;
      Cycle r = s + latency;
      if (min_result != nullptr) r = std::max(r, min_result[k]);
      results[k] = r;
      last = std::max(last, r);
    }
    if (has_store_data)
      for (int k = 0; k < T; ++k) {
        store_data[k] = std::max(store_data[k], start[k]);
        last = std::max(last, store_data[k]);
      }
  }
  fu.free_at = prev + 1;

  // Commit (§4.6): in ROB order (of the context), at most commit_per_fu per FU per cycle, after
  // the last thread.
  const std::size_t uu = static_cast<std::size_t>(u);
  const Cycle in_order_after = per_fu ? sb.fu_commit[uu] : sb.last_commit;
  Cycle commit;
  if constexpr (kShared) {
    fu.ports.forget_before(fetch);  // every later commit is at or after its dispatch
    commit = fu.ports.reserve(std::max(last, in_order_after), cfg_.commit_per_fu);
  } else {
    commit = std::max({last, in_order_after, fu_history_back(fu, fu.commit, kDefaultRules ? 1 : cfg_.commit_per_fu) + 1});
  }

  // Destinations: forwarding per thread slot; a predicated producer forwards only once its qp is
  // known and the old value is available (the forwarded value merges both).
  const std::uint8_t is_load = op.unit == Unit::Ls && !op.is_store;
  for (int i = 0; i < op.regs.num_dst; ++i) {
    const RegId r = op.regs.dst[static_cast<std::size_t>(i)];
    Cycle* a = &sb.avail[static_cast<std::size_t>(r) * static_cast<std::size_t>(T)];
    if (op.qp == 0) {
      for (int k = 0; k < T; ++k) a[k] = results[k];
    } else {
      for (int k = 0; k < T; ++k) a[k] = std::max({results[k], qp_known, a[k]});
    }
    sb.commit[r] = commit;
    if constexpr (kSelect) sb.from_load[r] = is_load;
  }
  sb.fu_commit[uu] = commit;
  if constexpr (kSelect) sb.fu_complete[uu] = last;
  sb.last_commit = std::max(sb.last_commit, commit);

  // Book-keeping and statistics.
  const std::size_t slot = static_cast<std::size_t>(fu.count & history_mask_);
  fu.issue[slot] = issue;
  fu.commit[slot] = commit;
  fu.complete[slot] = last;
  ++fu.count;
  if (kShared && !kDefaultRules && cfg_.queue_release == QueueRelease::Commit) fu.queue_commits.push(commit);
  if (takes_output_buffer) {
    if constexpr (kShared) {
      fu.ob_releases.push(ob_release == OutputBufferRelease::Commit ? commit : last);
    } else {
      const std::size_t ob = static_cast<std::size_t>(fu.ob_count & history_mask_);
      fu.ob_commit[ob] = commit;
      fu.ob_complete[ob] = last;
      ++fu.ob_count;
    }
  }
  const Cycle allocated = rob_at_dispatch ? d : issue;
  const Cycle rob_release = kDefaultRules || cfg_.rob_release == RobRelease::Commit ? commit : last;
  const int occupancy = kShared ? 1 + rob_pool_.count_from(allocated) : rob_occupancy(allocated);
  rob_max_occupancy_ = std::max(rob_max_occupancy_, occupancy);
  last_occupancy_ = occupancy;
  if (rob_count_ > 0 && rob_release < rob_release_[static_cast<std::size_t>((rob_count_ - 1) & rob_mask_)])
    rob_releases_sorted_ = false;
  rob_release_[static_cast<std::size_t>(rob_count_ & rob_mask_)] = rob_release;
  if (per_fu || kShared) rob_pool_.push(rob_release);
  ++rob_count_;
  rob_occupancy_sum_ += rob_release - allocated + 1;
  last_commit_ = std::max(last_commit_, commit);
  return OpSchedule{d, issue, commit};
}

template OpSchedule TimingModel::dispatch_impl<false, false>(const TimingOp&, Cycle, const Cycle*, ThreadTiming*);
template OpSchedule TimingModel::dispatch_impl<false, false, true, 1>(const TimingOp&, Cycle, const Cycle*, ThreadTiming*);
template OpSchedule TimingModel::dispatch_impl<false, false, true, 2>(const TimingOp&, Cycle, const Cycle*, ThreadTiming*);
template OpSchedule TimingModel::dispatch_impl<false, false, true, 4>(const TimingOp&, Cycle, const Cycle*, ThreadTiming*);
template OpSchedule TimingModel::dispatch_impl<false, false, true, 8>(const TimingOp&, Cycle, const Cycle*, ThreadTiming*);
template OpSchedule TimingModel::dispatch_impl<false, true>(const TimingOp&, Cycle, const Cycle*, ThreadTiming*);
template OpSchedule TimingModel::dispatch_impl<true, true>(const TimingOp&, Cycle, const Cycle*, ThreadTiming*);

}  // namespace par::core
