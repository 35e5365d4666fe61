#include "timing_model.hpp"

#include <algorithm>

namespace par::core {

using isa::RegId;
using isa::Unit;

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
  return t;
}

TimingModel::TimingModel(const CoreConfig& cfg)
    : cfg_(cfg),
      T_(cfg.threads_per_lane),
      history_(std::max({cfg.queue_size, cfg.output_buffers, cfg.commit_per_fu})),
      rob_release_(static_cast<std::size_t>(cfg.rob_size), 0),
      avail_(static_cast<std::size_t>(isa::kRegIdCount) * cfg.threads_per_lane, 0),
      ready_(static_cast<std::size_t>(T_)),
      start_(static_cast<std::size_t>(T_)),
      results_(static_cast<std::size_t>(T_)),
      store_data_(static_cast<std::size_t>(T_)) {
  for (FuHistory& h : fu_) {
    h.issue.assign(static_cast<std::size_t>(history_), 0);
    h.complete.assign(static_cast<std::size_t>(history_), 0);
    h.ob_commit.assign(static_cast<std::size_t>(history_), 0);
    h.ob_complete.assign(static_cast<std::size_t>(history_), 0);
    h.commit.assign(static_cast<std::size_t>(history_), 0);
  }
  commit_.fill(-1);
}

void TimingModel::start_round() {
  std::fill(avail_.begin(), avail_.end(), Cycle{0});
  commit_.fill(-1);
}

// Value of `v` for the n-th most recent instruction of the FU (n = 1: the previous one), or
// "long ago" when the FU has executed fewer than n instructions.
Cycle TimingModel::fu_history_back(const FuHistory& h, const std::vector<Cycle>& v, int n) const {
  if (h.count < n) return -1;
  return v[static_cast<std::size_t>((h.count - n) % history_)];
}

// An output buffer is free once the output_buffers-th most recent instruction that took one has
// given it back (after this cycle's commits).
Cycle TimingModel::output_buffer_free(const FuHistory& h, OutputBufferRelease release) const {
  const int n = cfg_.output_buffers;
  if (h.ob_count < n) return -1;
  const std::size_t i = static_cast<std::size_t>((h.ob_count - n) % history_);
  return release == OutputBufferRelease::Commit ? h.ob_commit[i] : h.ob_complete[i];
}

Cycle TimingModel::wait_for_committed(Cycle fetch, RegId reg, StallCause cause) {
  const Cycle t = std::max(fetch, committed_visible(reg));
  stalls_[static_cast<int>(cause)] += t - fetch;
  if (listener_ != nullptr && t > fetch) listener_->stall(cause, fetch, t);
  return t;
}

std::int64_t TimingModel::total_stall_cycles() const {
  std::int64_t s = 0;
  for (std::int64_t v : stalls_) s += v;
  return s;
}

OpSchedule TimingModel::dispatch(const TimingOp& op, Cycle fetch, const Cycle* min_result, ThreadTiming* global) {
  const int u = static_cast<int>(op.unit);
  FuHistory& fu = fu_[static_cast<std::size_t>(u)];
  const int R = cfg_.rob_size;

  // Dispatch (§4.1): a free ROB entry and a free queue entry at the start of the cycle; entries
  // freed in cycle c are usable from c+1.
  const bool per_fu = cfg_.commit_order == CommitOrder::PerFu;
  // Entry i of the ring is reused by instruction i + R once it is released.
  Cycle rob_entry_free =
      rob_count_ >= R ? rob_release_[static_cast<std::size_t>(rob_count_ % R)] + 1 : 0;
  if (per_fu) {
    // Entries are freed out of program order: a pool whose earliest release frees first.
    while (!rob_pool_.empty() && rob_pool_.top() < fetch) rob_pool_.pop();
    rob_entry_free = 0;
    if (static_cast<int>(rob_pool_.size()) >= R) {
      rob_entry_free = rob_pool_.top() + 1;
      rob_pool_.pop();
    }
  }
  const bool rob_at_dispatch = cfg_.rob_allocation == RobAllocation::Dispatch;
  const Cycle rob_free = rob_at_dispatch ? rob_entry_free : 0;
  const std::vector<Cycle>& released =
      cfg_.queue_release == QueueRelease::Issue ? fu.issue : fu.commit;
  const Cycle queue_free = fu_history_back(fu, released, cfg_.queue_size) + 1;
  const Cycle d = std::max({fetch, rob_free, queue_free});
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
  const bool data_gates_issue = cfg_.store_issue == StoreIssue::AllOperands;
  std::fill(ready_.begin(), ready_.end(), Cycle{0});
  bool has_store_data = false;
  for (int i = 0; i < op.regs.num_src; ++i) {
    const RegId r = op.regs.src[static_cast<std::size_t>(i)];
    if (i == op.regs.store_data_src) {
      has_store_data = true;
      for (int k = 0; k < T_; ++k) store_data_[k] = avail(r, k);
      if (!data_gates_issue) continue;
    }
    for (int k = 0; k < T_; ++k) ready_[k] = std::max(ready_[k], avail(r, k));
  }

  // Issue (§4.2): FU free, an output buffer free after this cycle's commits, thread 0 ready,
  // and for memory instructions a known qp.
  const OutputBufferRelease ob_release = cfg_.output_buffer_release;
  Cycle issue = std::max({d + cfg_.frontend_latency, fu.free_at, ready_[0]});
  const bool takes_output_buffer = global == nullptr && (!op.is_store || cfg_.store_uses_output_buffer);
  if (takes_output_buffer) issue = std::max(issue, output_buffer_free(fu, ob_release));
  // A ROB entry claimed at issue (program order) is free once its previous owner committed,
  // possibly earlier in the same cycle.
  if (!rob_at_dispatch) issue = std::max(issue, rob_entry_free - 1);
  const Cycle qp_known = op.qp != 0 ? commit_[isa::pred_reg(op.qp)] : -1;
  if (op.is_memory) issue = std::max(issue, qp_known);

  // Execution (§4.3): one thread per cycle, late operands delay that thread and later ones.
  Cycle last = 0;
  Cycle prev = issue - 1;
  if (global != nullptr) {
    for (int k = 0; k < T_; ++k) {
      const Cycle s = global->start_thread(k, std::max(prev + 1, ready_[k]), has_store_data ? store_data_[k] : 0);
      start_[k] = s;
      prev = s;
    }
    global->finish();
  }
  for (int k = 0; k < T_; ++k) {
    const Cycle s = global != nullptr ? start_[k] : std::max(prev + 1, ready_[k]);
    start_[k] = s;
    prev = s;
    Cycle r = s + op.latency;
    if (global != nullptr) r = std::max(r, global->thread_result(k));
    if (min_result != nullptr) r = std::max(r, min_result[k]);
    results_[k] = r;
    if (has_store_data) {
      store_data_[k] = std::max(store_data_[k], s);
      last = std::max(last, std::max(r, store_data_[k]));
    } else {
      last = std::max(last, r);
    }
  }
  fu.free_at = prev + 1;

  // Commit (§4.6): in ROB order, at most commit_per_fu per FU per cycle, after the last thread.
  const Cycle in_order_after = per_fu ? fu_history_back(fu, fu.commit, 1) : last_commit_;
  const Cycle commit = std::max({last, in_order_after,
                                 fu_history_back(fu, fu.commit, cfg_.commit_per_fu) + 1});

  // Destinations: forwarding per thread slot; a predicated producer forwards only once its qp is
  // known and the old value is available (the forwarded value merges both).
  for (int i = 0; i < op.regs.num_dst; ++i) {
    const RegId r = op.regs.dst[static_cast<std::size_t>(i)];
    Cycle* a = &avail_[static_cast<std::size_t>(r) * T_];
    if (op.qp == 0) {
      for (int k = 0; k < T_; ++k) a[k] = results_[k];
    } else {
      for (int k = 0; k < T_; ++k) a[k] = std::max({results_[k], qp_known, a[k]});
    }
    commit_[r] = commit;
  }

  // Book-keeping and statistics.
  const std::size_t slot = static_cast<std::size_t>(fu.count % history_);
  fu.issue[slot] = issue;
  fu.commit[slot] = commit;
  fu.complete[slot] = last;
  ++fu.count;
  if (takes_output_buffer) {
    const std::size_t ob = static_cast<std::size_t>(fu.ob_count % history_);
    fu.ob_commit[ob] = commit;
    fu.ob_complete[ob] = last;
    ++fu.ob_count;
  }
  const Cycle allocated = rob_at_dispatch ? d : issue;
  int occupancy = 1;
  for (int j = 1; j <= std::min<std::int64_t>(R - 1, rob_count_); ++j)
    if (rob_release_[static_cast<std::size_t>((rob_count_ - j) % R)] >= allocated) ++occupancy;
  rob_max_occupancy_ = std::max(rob_max_occupancy_, occupancy);
  const Cycle rob_release = cfg_.rob_release == RobRelease::Commit ? commit : last;
  rob_release_[static_cast<std::size_t>(rob_count_ % R)] = rob_release;
  if (per_fu) rob_pool_.push(rob_release);
  ++rob_count_;
  rob_occupancy_sum_ += rob_release - allocated + 1;
  last_commit_ = std::max(last_commit_, commit);
  return OpSchedule{d, issue, commit};
}

}  // namespace par::core
