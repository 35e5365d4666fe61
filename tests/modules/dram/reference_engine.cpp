#include "reference_engine.hpp"

#include <algorithm>
#include <stdexcept>

namespace par::dram::testing {

namespace {

Tick floor_div(Tick a, Tick b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

template <class T>
void insert_sorted(std::vector<T>& v, T x) {
  v.insert(std::upper_bound(v.begin(), v.end(), x), x);
}

}  // namespace

ReferenceEngine::ReferenceEngine(const EngineParams& p) : p_(p), channels_(p.channels) {
  for (Channel& ch : channels_) {
    ch.ranks.resize(p_.ranks);
    for (unsigned r = 0; r < p_.ranks; ++r) {
      ch.ranks[r].offset = align_to_clock(p_.tREFI * r / p_.ranks);
      ch.ranks[r].banks.resize(p_.banks);
    }
  }
}

// Refresh k >= 1 of a rank is at k * tREFI + offset; the rank is unavailable over
// [REF - tRPab, REF + tRFC).
ReferenceEngine::Window ReferenceEngine::window_after(const Rank& r, Tick t) const {
  if (!p_.refresh) return {kNever, kNever};
  for (Tick k = std::max<Tick>(1, floor_div(t - r.offset, p_.tREFI));; ++k) {
    const Tick ref = k * p_.tREFI + r.offset;
    if (ref - p_.tRPab > t) return {ref - p_.tRPab, ref + p_.tRFC};
  }
}

bool ReferenceEngine::in_window(const Rank& r, Tick t) const {
  if (!p_.refresh) return false;
  for (Tick k = std::max<Tick>(1, floor_div(t - r.offset, p_.tREFI) - 1); k <= floor_div(t - r.offset, p_.tREFI) + 2;
       ++k) {
    const Tick ref = k * p_.tREFI + r.offset;
    if (t >= ref - p_.tRPab && t < ref + p_.tRFC) return true;
  }
  return false;
}

Tick ReferenceEngine::close_bound(const Rank& r, const Epoch& e) const {
  return e.pre != kNever ? e.pre : window_after(r, e.act).start;
}

// Least distance from the start of burst a to the start of a later burst (rank, group, op).
Tick ReferenceEngine::spacing(const Burst& a, unsigned rank, unsigned group, Op op) const {
  if (a.rank == rank && a.op == op)
    return std::max(p_.burst, p_.bank_groups > 1 && a.group == group ? p_.tCCD_L : p_.tCCD);
  return (a.end - a.start) + p_.tRTRS;
}

bool ReferenceEngine::command_free(const Channel& ch, Tick t) const {
  return !std::binary_search(ch.commands.begin(), ch.commands.end(), t);
}

bool ReferenceEngine::activate_ok(const Channel& ch, const Rank& r, unsigned group, Tick x) const {
  if (in_window(r, x) || x + p_.tRAS > window_after(r, x).start || !command_free(ch, x)) return false;
  std::vector<Tick> all;
  for (const auto& [t, g] : r.acts) {
    const Tick rrd = p_.bank_groups > 1 && g == group ? p_.tRRD_L : p_.tRRD;
    if ((t > x ? t - x : x - t) < rrd) return false;
    all.push_back(t);
  }
  if (p_.tFAW <= 0) return true;
  const auto pos = static_cast<std::size_t>(std::lower_bound(all.begin(), all.end(), x) - all.begin());
  all.insert(all.begin() + static_cast<std::ptrdiff_t>(pos), x);
  // Every five consecutive activates that include x span at least tFAW.
  for (std::size_t i = 0; i + 4 < all.size(); ++i)
    if (i <= pos && pos <= i + 4 && all[i + 4] - all[i] < p_.tFAW) return false;
  return true;
}

bool ReferenceEngine::column_ok(const Channel& ch, const Rank& r, unsigned rank, unsigned group, Op op,
                                Tick c) const {
  if (!command_free(ch, c)) return false;
  const Tick lat = op == Op::Read ? p_.tCL + p_.tDQSCK : p_.tCWL;
  const Burst mine{c + lat, c + lat + p_.burst, rank, group, op};
  // Bursts sorted by start; none further away than the longest spacing can constrain this one.
  const Tick reach = std::max({p_.burst, p_.tCCD, p_.tCCD_L, p_.burst + p_.tRTRS});
  auto b_first = std::partition_point(ch.data.begin(), ch.data.end(),
                                      [&](const Burst& b) { return b.start < mine.start - reach; });
  for (auto it = b_first; it != ch.data.end() && it->start <= mine.start + reach; ++it) {
    const Burst& b = *it;
    if (b.start <= mine.start ? mine.start < b.start + spacing(b, rank, group, op)
                              : b.start < mine.start + spacing(mine, b.rank, b.group, b.op))
      return false;
  }
  const Tick read_to_write = std::max<Tick>(2, p_.tCL + p_.tDQSCK + p_.burst + p_.tRTRS - p_.tCWL);
  if (op == Op::Read) {
    for (const Column& w : r.writes) {
      const Tick wtr = p_.bank_groups > 1 && w.group == group ? p_.tWTR_L : p_.tWTR;
      if (w.at < c + read_to_write && (w.at >= c || c < w.data_end + wtr)) return false;
    }
  } else {
    for (const Column& rd : r.reads) {
      const Tick wtr = p_.bank_groups > 1 && rd.group == group ? p_.tWTR_L : p_.tWTR;
      if (rd.at < c ? c < rd.at + read_to_write : rd.at < mine.end + wtr) return false;
    }
  }
  return true;
}

Tick ReferenceEngine::find_activate(const Channel& ch, const Rank& r, unsigned group, Tick lo) const {
  Tick x = align_to_clock(lo);
  if (p_.scheduler == Scheduler::Fcfs) x = std::max(x, align_to_clock(r.last_act + 2));
  while (!activate_ok(ch, r, group, x)) x += 2;
  return x;
}

Tick ReferenceEngine::find_column(const Channel& ch, const Rank& r, unsigned rank, unsigned group, Op op,
                                  Tick lo, Tick hi) const {
  const Tick lat = op == Op::Read ? p_.tCL + p_.tDQSCK : p_.tCWL;
  const Tick post = op == Op::Read ? p_.tRTP : p_.tCWL + p_.burst + p_.tWR;
  Tick c = align_to_clock(lo);
  if (p_.scheduler == Scheduler::Fcfs) {
    c = std::max(c, align_to_clock(ch.last_column + 2));
    if (ch.last.start > -kNever)
      c = std::max(c, align_to_clock(ch.last.start + spacing(ch.last, rank, group, op) - lat));
  }
  for (; c + post <= hi; c += 2)
    if (column_ok(ch, r, rank, group, op, c)) return c;
  return kNever;
}

Tick ReferenceEngine::find_precharge(const Channel& ch, Tick lo, Tick hi) const {
  Tick t = align_to_clock(lo);
  while (t < hi && !command_free(ch, t)) t += 2;
  return t < hi ? t : kNever;
}

// The first t >= arrival, among arrival and the ends after it, where fewer than queue_depth
// entries are held.
Tick ReferenceEngine::admit(const Channel& ch, Tick arrival) const {
  std::vector<Tick> candidates{arrival};
  for (const auto& [admitted, end] : ch.held)
    if (end > arrival) candidates.push_back(end);
  std::sort(candidates.begin(), candidates.end());
  for (Tick t : candidates) {
    std::size_t held = 0;
    for (const auto& [admitted, end] : ch.held) held += admitted <= t && t < end;
    if (held < p_.queue_depth) return t;
  }
  throw std::logic_error("reference engine: no admission");
}

void ReferenceEngine::commit_column(Channel& ch, Rank& r, unsigned rank, unsigned group, Epoch& e, Op op,
                                    Tick c, BurstResult& res) {
  const Tick lat = op == Op::Read ? p_.tCL + p_.tDQSCK : p_.tCWL;
  const Burst b{c + lat, c + lat + p_.burst, rank, group, op};
  insert_sorted(ch.commands, c);
  ch.data.insert(std::partition_point(ch.data.begin(), ch.data.end(),
                                     [&](const Burst& x) { return x.start <= b.start; }),
                 b);
  (op == Op::Read ? r.reads : r.writes).push_back(Column{c, group, b.end});
  e.pre_min = std::max(e.pre_min, c + (op == Op::Read ? p_.tRTP : p_.tCWL + p_.burst + p_.tWR));
  ch.last_column = std::max(ch.last_column, c);
  if (b.start > ch.last.start) ch.last = b;
  res.column = c;
  res.data_start = b.start;
  res.data_end = b.end;
}

BurstResult ReferenceEngine::schedule(const BurstRequest& req) {
  Channel& ch = channels_.at(req.channel);
  Rank& rank = ch.ranks.at(req.rank);
  std::vector<Epoch>& epochs = rank.banks.at(req.bank);
  const unsigned group = req.bank % p_.bank_groups;
  BurstResult res;
  res.admitted = admit(ch, req.arrival);
  const Tick a = align_to_clock(res.admitted);

  auto finish = [&](Epoch& e) {
    if (p_.page_policy == PagePolicy::Closed && e.pre == kNever) {
      const Tick pre = find_precharge(ch, e.pre_min, close_bound(rank, e));
      if (pre != kNever) {
        insert_sorted(ch.commands, pre);
        e.pre = pre;
        res.auto_precharge = pre;
      }
    }
    ch.held.emplace_back(res.admitted, res.data_end);
    return res;
  };

  // Row hit in any activation of the row open at the arrival (FCFS: the open last one only).
  for (std::size_t i = 0; i < epochs.size(); ++i) {
    Epoch& e = epochs[i];
    if (p_.scheduler == Scheduler::Fcfs && (i + 1 != epochs.size() || e.pre != kNever)) continue;
    const Tick hi = close_bound(rank, e);
    if (e.row != req.row || hi <= a) continue;
    const Tick c = find_column(ch, rank, req.rank, group, req.op, std::max(a, e.act + p_.tRCD), hi);
    if (c == kNever) continue;
    res.outcome = RowOutcome::Hit;
    commit_column(ch, rank, req.rank, group, e, req.op, c, res);
    return finish(e);
  }

  // A new activation after the bank's last one.
  Epoch* prev = epochs.empty() ? nullptr : &epochs.back();
  Tick lo = a;
  Tick pre = kNever;
  Window prev_window{kNever, kNever};
  res.outcome = RowOutcome::Miss;
  if (prev != nullptr) {
    lo = std::max(lo, prev->act + p_.tRC);
    if (prev->pre != kNever) {
      lo = std::max(lo, prev->pre + p_.tRP);
    } else {
      prev_window = window_after(rank, prev->act);
      pre = find_precharge(ch, std::max(a, prev->pre_min), prev_window.start);
      if (pre != kNever) {
        lo = std::max(lo, pre + p_.tRP);
        res.outcome = RowOutcome::Conflict;
      } else {
        lo = std::max(lo, prev_window.end);
      }
    }
  }
  Tick act = kNever;
  Tick col = kNever;
  while (col == kNever) {
    act = find_activate(ch, rank, group, lo);
    const Window next = window_after(rank, act);
    col = find_column(ch, rank, req.rank, group, req.op, act + p_.tRCD, next.start);
    if (col == kNever) lo = next.end;
  }
  if (res.outcome == RowOutcome::Conflict && act >= prev_window.end) {
    res.outcome = RowOutcome::Miss;
    pre = kNever;
  }
  if (pre != kNever) {
    insert_sorted(ch.commands, pre);
    prev->pre = pre;
    res.precharge = pre;
  }
  insert_sorted(ch.commands, act);
  rank.acts.insert(std::upper_bound(rank.acts.begin(), rank.acts.end(), std::make_pair(act, ~0u)),
                   std::make_pair(act, group));
  rank.last_act = std::max(rank.last_act, act);
  epochs.push_back(Epoch{req.row, act, kNever, act + p_.tRAS});
  res.activate = act;
  commit_column(ch, rank, req.rank, group, epochs.back(), req.op, col, res);
  return finish(epochs.back());
}

}  // namespace par::dram::testing
