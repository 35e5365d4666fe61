#include "dram_timing.hpp"

#include <algorithm>
#include <iterator>
#include <stdexcept>
#include <string>

namespace par::dram {

namespace {

// Each search loop moves strictly forward; this only guards against a bug turning into a hang.
constexpr int kMaxSteps = 1 << 22;
// Admission: a jump over fewer queue entries than this walks instead of searching.
constexpr std::size_t kLinearSkip = 16;

Tick floor_div(Tick a, Tick b) {
  const Tick q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

[[noreturn]] void no_progress(const char* what) {
  throw std::logic_error(std::string("dram timing engine: no progress while searching for ") + what);
}

}  // namespace

const char* to_string(RowOutcome o) {
  switch (o) {
    case RowOutcome::Hit: return "hit";
    case RowOutcome::Miss: return "miss";
    case RowOutcome::Conflict: return "conflict";
  }
  return "?";
}

const char* to_string(Scheduler s) { return s == Scheduler::FrFcfs ? "frfcfs" : "fcfs"; }
const char* to_string(PagePolicy p) { return p == PagePolicy::Open ? "open" : "closed"; }

TimingEngine::TimingEngine(const EngineParams& params) : p_(params) {
  if (p_.channels == 0 || p_.ranks == 0 || p_.banks == 0 || p_.bank_groups == 0 ||
      p_.banks % p_.bank_groups != 0 || p_.burst <= 0 || p_.queue_depth == 0 ||
      (p_.refresh && (p_.tREFI <= p_.tRFC + p_.tRPab)))
    throw std::invalid_argument("dram timing engine: inconsistent parameters (validate the config)");
  latency_[0] = p_.tCL + p_.tDQSCK;
  latency_[1] = p_.tCWL;
  to_precharge_[0] = p_.tRTP;
  to_precharge_[1] = p_.tCWL + p_.burst + p_.tWR;
  wtr_max_ = std::max(p_.tWTR, p_.tWTR_L);
  read_to_write_ = std::max<Tick>(2, p_.tCL + p_.tDQSCK + p_.burst + p_.tRTRS - p_.tCWL);
  same_kind_spacing_ = std::max(p_.burst, p_.bank_groups > 1 ? p_.tCCD_L : p_.tCCD);
  data_span_ = std::max({p_.burst, p_.tCCD, p_.tCCD_L}) + p_.burst + p_.tRTRS;
  min_spacing_ = std::max<Tick>(1, p_.burst + std::min<Tick>(0, p_.tRTRS));
  neighbours_suffice_ =
      std::max({p_.burst, p_.tCCD, p_.tCCD_L, p_.burst + p_.tRTRS}) <= 2 * min_spacing_;
  // Upper bound of the distance over which one reservation constrains another (sum of every
  // window), so retire() never forgets something a future request still has to respect.
  lookback_ = p_.tRC + p_.tFAW + p_.tRAS + p_.tRP + p_.tRCD + p_.tCL + p_.tDQSCK + p_.tCWL +
              2 * p_.burst + p_.tWR + p_.tWTR + p_.tWTR_L + p_.tRTP + p_.tCCD + p_.tCCD_L +
              p_.tRTRS + p_.tRRD + p_.tRRD_L + 16;
  channels_.resize(p_.channels);
  for (Channel& ch : channels_) {
    ch.ranks.resize(p_.ranks);
    for (unsigned r = 0; r < p_.ranks; ++r) {
      // Ranks of a channel refresh staggered so that they are not all unavailable at once.
      ch.ranks[r].refresh_offset = align_to_clock(p_.tREFI * r / p_.ranks);
      ch.ranks[r].banks.resize(p_.banks);
      ch.ranks[r].columns_blocked.resize(2 * std::size_t{p_.bank_groups});
      ch.ranks[r].activates_blocked.resize(p_.bank_groups);
    }
  }
}

// --- refresh windows ------------------------------------------------------------------------
// Refresh k >= 1 of a rank is the REF command at R_k = k * tREFI + offset. The rank is
// unavailable over [R_k - tRPab, R_k + tRFC): precharge-all, then the refresh itself.

// Searches ask about nearby times again and again: each rank keeps the refresh period last asked
// about, [start of window k - 1, start of window k), with window k, and computes another only when
// asked outside it.
const TimingEngine::Window& TimingEngine::next_window(const Rank& rank, Tick t) const {
  Rank::Period& c = rank.period;
  if (t < c.from || t >= c.next.start) {
    const Tick k = std::max<Tick>(1, floor_div(t - rank.refresh_offset + p_.tRPab, p_.tREFI) + 1);
    const Tick start = k * p_.tREFI + rank.refresh_offset - p_.tRPab;
    c.from = k == 1 ? -kNever : start - p_.tREFI;
    c.next = {start, start + p_.tRPab + p_.tRFC};
  }
  return c.next;
}

TimingEngine::Window TimingEngine::window_at(const Rank& rank, Tick t) const {
  if (!p_.refresh) return {};
  next_window(rank, t);
  const Tick from = rank.period.from;  // window k - 1 starts there, if k > 1
  if (from == -kNever || t >= from + p_.tRPab + p_.tRFC) return {};
  return {from, from + p_.tRPab + p_.tRFC};
}

TimingEngine::Window TimingEngine::window_after(const Rank& rank, Tick t) const {
  if (!p_.refresh) return {};
  return next_window(rank, t);
}

TimingEngine::Window TimingEngine::refresh_window_at(unsigned rank, Tick t) const {
  return window_at(channels_.at(0).ranks.at(rank), t);
}

TimingEngine::Window TimingEngine::next_refresh_window(unsigned rank, Tick t) const {
  return window_after(channels_.at(0).ranks.at(rank), t);
}

std::uint64_t TimingEngine::refreshes_until(Tick t) const { return refresh_count(t).count; }

TimingEngine::RefreshCount TimingEngine::refresh_count(Tick t) const {
  RefreshCount r;
  if (!p_.refresh) return r;
  for (const Channel& ch : channels_)
    for (const Rank& rank : ch.ranks) {
      // REF k of this rank (k >= 1) is at k * tREFI + offset: k of them at or before t, and the
      // next one (refresh 1 while none has been) is the first tick at which the count changes.
      const Tick k = std::max<Tick>(0, floor_div(t - rank.refresh_offset, p_.tREFI));
      r.count += static_cast<std::uint64_t>(k);
      r.changes_at = std::min(r.changes_at, (k + 1) * p_.tREFI + rank.refresh_offset);
    }
  return r;
}

// --- helpers ---------------------------------------------------------------------------------

Tick TimingEngine::data_spacing(const Burst& a, Tick a_start, unsigned b_rank, unsigned b_group,
                                Op b_op) const {
  if (a.rank == b_rank && a.op == b_op) {
    // Same rank and direction: column commands tCCD apart (tCCD_L inside a bank group); the
    // latencies are equal, so the data bursts are as far apart as the commands.
    const bool same_group = p_.bank_groups > 1 && a.group == b_group;
    return std::max(p_.burst, same_group ? p_.tCCD_L : p_.tCCD);
  }
  // Another rank or the other direction: the bus idles tRTRS after the last beat.
  return (a.end - a_start) + p_.tRTRS;
}

Tick TimingEngine::admit(Channel& ch, Tick arrival) const {
  // An entry is held from its burst's admission until its data completes, and only then: a burst
  // called earlier but arriving later (a posted write handed over ahead of its arrival) does not
  // occupy the queue before it arrives. Every entry is admitted before it ends, so the number held
  // at t is (admissions <= t) - (ends <= t). The request is admitted at the first t >= arrival,
  // among arrival and the ends after it, where fewer than queue_depth are held: a forward search
  // over both sorted lists that jumps over the ends that cannot free enough entries.
  // A stretch over which the queue is known to be full is skipped at once: its end is an end time
  // (a candidate) and no time inside it can be.
  if (ch.queue.size() < p_.queue_depth) return arrival;
  const bool in_full = arrival >= ch.full_from && arrival < ch.full_until;
  const Tick from = in_full ? ch.full_from : arrival;
  Tick t = in_full ? ch.full_until : arrival;
  // Entries ending after t bound the number held, and they are the queue's tail (sorted by end):
  // fewer than queue_depth of them is the fast case, which needs no search.
  const Tick depth_end = ch.queue[ch.queue.size() - p_.queue_depth].end;  // the queue_depth-th latest
  if (depth_end <= t) return t;
  // Every entry admitted at or before t (arrivals in time order, admitted in turn as entries free,
  // the common case): all of them are held at any time from t until they end, so fewer than
  // queue_depth are held exactly from the queue_depth-th latest end on.
  if (ch.latest_admission <= t) {
    ch.full_from = from;
    ch.full_until = depth_end;
    return depth_end;
  }
  // Arrivals come mostly in time order: the points found last time are near.
  auto end = partition_point_near(ch.queue.begin(), ch.queue.end(),
                                  ch.queue.begin() + static_cast<std::ptrdiff_t>(std::min(ch.queue_hint, ch.queue.size())),
                                  Channel::Entry::ended_by(t));
  auto adm = partition_point_near(
      ch.admissions.begin(), ch.admissions.end(),
      ch.admissions.begin() + static_cast<std::ptrdiff_t>(std::min(ch.admission_hint, ch.admissions.size())),
      [t](Tick x) { return x <= t; });
  auto held = [&] {
    return static_cast<std::size_t>(adm - ch.admissions.begin()) -
           static_cast<std::size_t>(end - ch.queue.begin());
  };
  while (held() >= p_.queue_depth) {
    // At least held - depth + 1 of the entries held now must end before one is free, and
    // admissions meanwhile only add to the count: no end before that many ends can be the time.
    const std::size_t skip = held() - p_.queue_depth;
    t = end[static_cast<std::ptrdiff_t>(skip)].end;
    if (skip < kLinearSkip) {  // a short step: walking beats a binary search
      while (end != ch.queue.end() && end->end <= t) ++end;
      while (adm != ch.admissions.end() && *adm <= t) ++adm;
    } else {
      end = std::upper_bound(end, ch.queue.end(), t, Channel::Entry::ends_after);
      adm = std::upper_bound(adm, ch.admissions.end(), t);
    }
  }
  ch.queue_hint = static_cast<std::size_t>(end - ch.queue.begin());
  ch.admission_hint = static_cast<std::size_t>(adm - ch.admissions.begin());
  if (t > from) {  // full over [from, t): every time before t that the loop passed was
    ch.full_from = from;
    ch.full_until = t;
  }
  return t;
}

// --- searches ---------------------------------------------------------------------------------

Tick TimingEngine::find_precharge(const Channel& ch, Tick lo, Tick hi) const {
  const Tick t = ch.commands.first_free(align_to_clock(lo));
  return t < hi ? t : kNever;
}

Tick TimingEngine::find_activate(const Channel& ch, const Rank& rank, unsigned group, Tick lo) const {
  Blocked& blocked = rank.activates_blocked[group];
  const Tick start = align_to_clock(lo);
  Tick x = blocked.skip(start);
  if (p_.scheduler == Scheduler::Fcfs) x = std::max(x, align_to_clock(rank.last_act + 2));
  const Tick rrd_max = std::max(p_.tRRD, p_.tRRD_L);
  // x only moves forward: the activates are searched once, then walked by two cursors (the first
  // within tRRD of x, the first within tFAW of x).
  const auto acts_end = rank.acts.end();
  auto rrd_from = rank.acts.lower_bound(x - std::max(rrd_max - 1, p_.tFAW));
  auto faw_from = rrd_from;
  for (int step = 0; step < kMaxSteps; ++step) {
    if (p_.refresh) {
      const Window in = window_at(rank, x);
      if (in.start != kNever) {
        x = align_to_clock(in.end);
        continue;
      }
      // The row must be able to close (tRAS) before the next refresh precharges the rank.
      const Window next = window_after(rank, x);
      if (x + p_.tRAS > next.start) {
        x = align_to_clock(next.end);
        continue;
      }
    }
    if (const Tick free = ch.commands.first_free(x); free != x) {
      x = free;
      continue;
    }
    Tick move = -1;
    // tRRD against activates on both sides (an ACT may go into a gap before later ones).
    while (rrd_from != acts_end && rrd_from->first < x - rrd_max + 1) ++rrd_from;
    for (auto it = rrd_from; it != acts_end && it->first < x + rrd_max; ++it) {
      const Tick rrd = (p_.bank_groups > 1 && it->second == group) ? p_.tRRD_L : p_.tRRD;
      const Tick d = it->first > x ? it->first - x : x - it->first;
      if (d < rrd) move = std::max(move, it->first + rrd);
    }
    if (move >= 0) {
      x = align_to_clock(move);
      continue;
    }
    // tFAW: every five consecutive activates (with x among them) span at least tFAW. Only the
    // activates within tFAW of x can be in a window too short; fewer than four of them cannot.
    if (p_.tFAW > 0) {
      while (faw_from != acts_end && faw_from->first <= x - p_.tFAW) ++faw_from;
      const auto first = faw_from;
      auto last = first;
      while (last != acts_end && last->first < x + p_.tFAW) ++last;
      const std::ptrdiff_t n = last - first;
      if (n >= 4) {
        // The activates with x inserted before those at or after it: element k of that list.
        std::ptrdiff_t pos = 0;
        while (pos < n && first[pos].first < x) ++pos;
        auto at = [&](std::ptrdiff_t k) { return k < pos ? first[k].first : k == pos ? x : first[k - 1].first; };
        for (std::ptrdiff_t i = pos >= 4 ? pos - 4 : 0; i <= pos && i + 4 <= n; ++i) {
          if (at(i + 4) - at(i) >= p_.tFAW) continue;
          // x last in the window: wait for the oldest to leave it; otherwise go past the window.
          move = std::max(move, i + 4 == pos ? at(i) + p_.tFAW : at(i + 4) + 2);
        }
        if (move >= 0) {
          x = align_to_clock(move);
          continue;
        }
      }
    }
    blocked.found(start, x);
    return x;
  }
  no_progress("an activate slot");
}

// Inlined into its one caller, the column search's loop: a call per step costs more than its
// common case (two neighbour checks).
__attribute__((always_inline)) inline Tick TimingEngine::first_data_fit(const Channel& ch, Timeline<Burst>::const_iterator& next, Tick ds,
                                  Tick lat, unsigned rank_index, unsigned group, Op op,
                                  Tick limit) const {
  // Every move below skips only starts that break the spacing to some burst, so the first start
  // that keeps it to all of them is found, however the walk gets there. A burst further than
  // `span` from ds never constrains it.
  const Tick span = data_span_;
  auto place = [lat](Tick x) { return align_to_clock(x - lat) + lat; };  // command on an edge
  for (int step = 0; step < kMaxSteps; ++step) {
    if (ds > limit) return ds;
    if (ds >= ch.dense_first && ds < ch.dense_last + min_spacing_) {  // a booked stretch: past it
      ds = place(ch.dense_last + min_spacing_);
      next = ch.data.upper_bound(ds);
      continue;
    }
    while (next != ch.data.end() && next->first <= ds) ++next;
    // The two neighbours first: in a densely booked stretch this walks from burst to burst
    // without looking at the whole window each time.
    if (next != ch.data.begin()) {
      const auto& [s, b] = *std::prev(next);
      const Tick after = s + data_spacing(b, s, rank_index, group, op);
      if (ds < after) {
        ds = place(after);
        continue;
      }
    }
    const Burst mine{ds + p_.burst, rank_index, group, op};
    if (next != ch.data.end()) {
      const auto& [s, b] = *next;
      if (s < ds + data_spacing(mine, ds, b.rank, b.group, b.op)) {
        ds = place(s + data_spacing(b, s, rank_index, group, op));  // does not fit before it
        continue;
      }
    }
    // Both neighbours keep their spacing: when no spacing exceeds two minimum spacings, no burst
    // further away can be closer than they are (bursts are at least min_spacing apart).
    if (neighbours_suffice_) return ds;
    // Otherwise every burst within span on either side.
    auto from = next;
    while (from != ch.data.begin() && std::prev(from)->first >= ds - span) --from;
    Tick move = -1;
    for (auto it = from; it != ch.data.end() && it->first < ds + span; ++it) {
      const Tick s = it->first;
      const Burst& b = it->second;
      const Tick after_b = s + data_spacing(b, s, rank_index, group, op);
      if (s <= ds) {
        if (ds < after_b) move = std::max(move, after_b);
      } else if (s < ds + data_spacing(mine, ds, b.rank, b.group, b.op)) {
        move = std::max(move, after_b);  // does not fit before b: go after it
      }
    }
    if (move < 0) return ds;
    ds = place(move);
  }
  no_progress("a data-bus slot");
}

Tick TimingEngine::find_column(const Channel& ch, const Rank& rank, Bank& bank, unsigned rank_index,
                               unsigned group, Op op, Tick lo, Tick hi, std::size_t& data_pos) const {
  const Tick lat = column_latency(op);
  const Tick post = column_to_precharge(op);
  Blocked& blocked = column_blocked(rank, group, op);
  Blocked& bank_blocked = bank.column_blocked(op);
  const Tick start = align_to_clock(lo);
  Tick c = blocked.skip(bank_blocked.skip(start));
  if (p_.scheduler == Scheduler::Fcfs) {
    // In call order: after the latest column command and after the latest data burst.
    c = std::max(c, align_to_clock(ch.last_column + 2));
    if (ch.last_data > -kNever)
      c = std::max(c, align_to_clock(ch.last_data +
                                     data_spacing(ch.last_burst, ch.last_data, rank_index, group, op) -
                                     lat));
  }
  // c only moves forward: a row that would have to stay open past its precharge now always would
  // (the loop below returns the same at once, but only after searching every timeline).
  if (c + post > hi) return kNever;
  const Tick wtr_max = wtr_max_;
  const Tick read_to_write = read_to_write_;
  // c only moves forward: each timeline is binary-searched once, then walked by a cursor.
  auto burst = ch.data.upper_bound(c + lat);
  // A read only looks at the rank's writes and a write at its reads: search only that one.
  auto write = op == Op::Read ? rank.writes.lower_bound(c - (p_.tCWL + p_.burst + wtr_max))
                              : rank.writes.end();
  auto read = op == Op::Write ? rank.reads.lower_bound(c - read_to_write + 1) : rank.reads.end();
  for (int step = 0; step < kMaxSteps; ++step) {
    if (c + post > hi) {  // the row would have to stay open past its precharge
      blocked.found(start, c);
      bank_blocked.found(start, c);
      return kNever;
    }
    if (const Tick free = ch.commands.first_free(c); free != c) {
      c = free;
      continue;
    }
    // Data bus: the first position at or after c + lat that keeps the spacing to the bursts on
    // both sides (gaps may be used); no need to look past the last column command that fits.
    const Tick fit = first_data_fit(ch, burst, c + lat, lat, rank_index, group, op, hi - post + lat);
    if (fit != c + lat) {
      c = fit - lat;
      continue;
    }
    Tick move = -1;
    // Turnarounds inside the rank, against commands on both sides: a RD goes tWTR after the
    // last beat of an earlier write; a WR goes read_to_write after an earlier RD, which keeps the
    // data in command order (the device cannot return read data after the data of a later WR).
    if (op == Op::Read) {
      while (write != rank.writes.end() && write->first < c - (p_.tCWL + p_.burst + wtr_max)) ++write;
      for (auto it = write; it != rank.writes.end() && it->first < c + read_to_write; ++it) {
        const Tick wtr = (p_.bank_groups > 1 && it->second.group == group) ? p_.tWTR_L : p_.tWTR;
        // A later WR too close after this RD: the read has to go after that write instead.
        if (it->first >= c || c < it->second.data_end + wtr)
          move = std::max(move, it->second.data_end + wtr);
      }
    } else {
      const Tick de = c + lat + p_.burst;
      while (read != rank.reads.end() && read->first < c - read_to_write + 1) ++read;
      for (auto it = read; it != rank.reads.end() && it->first < de + wtr_max; ++it) {
        if (it->first < c) {
          move = std::max(move, it->first + read_to_write);
        } else {
          const Tick wtr = (p_.bank_groups > 1 && it->second == group) ? p_.tWTR_L : p_.tWTR;
          if (it->first < de + wtr) move = std::max(move, it->first + 2);  // after that read
        }
      }
    }
    if (move >= 0) {
      c = align_to_clock(move);
      continue;
    }
    // The data fit left its cursor on the first burst that starts after c + lat.
    data_pos = static_cast<std::size_t>(burst - ch.data.begin());
    blocked.found(start, c);
    bank_blocked.found(start, c);
    return c;
  }
  no_progress("a column slot");
}

void TimingEngine::commit_column(Channel& ch, Rank& rank, Bank& bank, unsigned rank_index, unsigned group,
                                 Epoch& e, Op op, Tick column, std::size_t data_pos, BurstResult& result) {
  const Tick ds = column + column_latency(op);
  const Burst b{ds + p_.burst, rank_index, group, op};
  ch.commands.book(column);
  // Its data burst keeps every other column command of its kind (same rank, bank group and
  // direction) at least one same-kind data spacing away on either side.
  const Tick blocked_until = align_to_clock(column + same_kind_spacing_);
  column_blocked(rank, group, op).found(column, blocked_until);
  bank.column_blocked(op).found(column, blocked_until);
  if (ch.data.empty() || ch.data.back().first <= ds) {
    // Appended: it extends the booked stretch that ends with the last burst, or starts one.
    const Tick last = ch.data.empty() ? -kNever : ch.data.back().first;
    if (ch.data.empty() || ds - last >= 2 * min_spacing_)
      ch.dense_first = ds;
    else if (ch.dense_last != last)
      ch.dense_first = last;
    ch.dense_last = ds;
  }
  ch.data.insert_at(data_pos, ds, b);
  if (op == Op::Read)
    rank.reads.insert(column, group);
  else
    rank.writes.insert(column, Rank::Write{b.end, group});
  e.pre_min = std::max(e.pre_min, column + column_to_precharge(op));
  ch.last_column = std::max(ch.last_column, column);
  if (ds > ch.last_data) {
    ch.last_data = ds;
    ch.last_burst = b;
  }
  result.column = column;
  result.data_start = ds;
  result.data_end = b.end;
}

// --- scheduling ----------------------------------------------------------------------------------

// Inlined into both callers: schedule_line's bursts would pay a call and its frame each.
__attribute__((always_inline)) inline TimingEngine::Epoch* TimingEngine::schedule_at(
    Channel& ch, Rank& rank, Bank& bank, const BurstRequest& req, Epoch* after, BurstResult& r) {
  const unsigned group = req.bank % p_.bank_groups;
  r.admitted = admit(ch, req.arrival);
  const Tick a = align_to_clock(r.admitted);

  auto finish = [&](Epoch& e) {
    if (p_.page_policy == PagePolicy::Closed && e.pre == kNever) {
      const Tick pre = find_precharge(ch, e.pre_min, e.close);
      if (pre != kNever) {  // else the next refresh closes the row
        ch.commands.book(pre);
        e.pre = e.close = pre;
        r.auto_precharge = pre;
      }
    }
    ch.queue.insert(partition_point_from_back(ch.queue.begin(), ch.queue.end(), Channel::Entry::ended_by(r.data_end)),
                    Channel::Entry{r.data_end, r.admitted});
    const Tick admitted = r.admitted;
    ch.latest_admission = std::max(ch.latest_admission, admitted);
    ch.admissions.insert(partition_point_from_back(ch.admissions.begin(), ch.admissions.end(),
                                                   [admitted](Tick x) { return x <= admitted; }),
                         admitted);
    return &e;
  };

  // 1. Row hit: FR-FCFS tries every activation of the row, oldest first, so a hit is served from
  //    a row that is open at its arrival even if a conflict called earlier has already reserved
  //    that row's precharge, as long as the access fits before it. FCFS: only the open row.
  // Epochs are in time order with increasing close bounds: skip those closed before arrival. The
  // bank's epochs are not added or removed meanwhile (only the one a hit uses is updated), so the
  // walk runs on plain pointers, and most epochs it passes (those of other rows) cost a compare.
  Epoch* const stop = bank.epochs.end();
  Epoch* e = stop;
  if (after != nullptr) {
    // The same request's previous burst (arrival and location alike) used `after`: admission
    // never moves earlier (held entries are only added), so this burst's start is no earlier and
    // every activation before `after` is skipped below as it was for that burst (closed before
    // it, another row, or no hit found from an earlier start). The activations that close by
    // the start are the first ones from `after` on.
    e = after;
    while (e != stop && e->close <= a) ++e;
  } else if (p_.scheduler == Scheduler::FrFcfs) {
    e = partition_point_from_back(bank.epochs.begin(), stop, [a](const Epoch& x) { return x.close <= a; });
  } else if (!bank.epochs.empty() && bank.epochs.back().pre == kNever && bank.epochs.back().close > a) {
    e = stop - 1;  // FCFS: only the open row
  }
  const int dir = req.op == Op::Read ? 0 : 1;
  for (; e != stop; ++e) {
    if (e->row != req.row) continue;
    const Tick hi = e->close;
    const Tick lo = std::max(a, e->act + p_.tRCD);
    Tick& no_hit_from = e->no_hit_from[dir];
    if (lo >= no_hit_from) continue;
    std::size_t data_pos = 0;
    const Tick c = find_column(ch, rank, bank, req.rank, group, req.op, lo, hi, data_pos);
    if (c == kNever) {
      no_hit_from = lo;  // lower than before (else the search would not have been made)
      continue;
    }
    r.outcome = RowOutcome::Hit;
    commit_column(ch, rank, bank, req.rank, group, *e, req.op, c, data_pos, r);
    return finish(*e);
  }

  // 2. A new activation after the bank's last one (misses and conflicts never go into a gap
  //    between two activations of the bank).
  Epoch* prev = bank.epochs.empty() ? nullptr : &bank.epochs.back();
  Tick lo = a;
  Tick pre = kNever;
  Window prev_window;
  r.outcome = RowOutcome::Miss;
  if (prev != nullptr) {
    lo = std::max(lo, prev->act + p_.tRC);
    if (prev->pre != kNever) {
      lo = std::max(lo, prev->pre + p_.tRP);
    } else {
      prev_window = window_after(rank, prev->act);
      pre = find_precharge(ch, std::max(a, prev->pre_min), prev_window.start);
      if (pre != kNever) {
        lo = std::max(lo, pre + p_.tRP);
        r.outcome = RowOutcome::Conflict;
      } else {
        lo = std::max(lo, prev_window.end);  // the refresh closes the row before we could
      }
    }
  }
  Tick act = kNever;
  Tick col = kNever;
  Window next;
  std::size_t data_pos = 0;
  for (int step = 0; step < kMaxSteps && col == kNever; ++step) {
    act = find_activate(ch, rank, group, lo);
    next = window_after(rank, act);
    col = find_column(ch, rank, bank, req.rank, group, req.op, act + p_.tRCD, next.start, data_pos);
    if (col == kNever) lo = next.end;  // no room before the next refresh: after it
  }
  if (col == kNever) no_progress("an activation");
  if (r.outcome == RowOutcome::Conflict && act >= prev_window.end) {
    r.outcome = RowOutcome::Miss;  // a refresh closed the row first; no PRE needed
    pre = kNever;
  }
  if (pre != kNever) {
    ch.commands.book(pre);
    prev->pre = prev->close = pre;
    r.precharge = pre;
  }
  ch.commands.book(act);
  // tRRD (tRRD_L) keeps every other activate of its bank group that far away on either side.
  rank.activates_blocked[group].found(act, align_to_clock(act + (p_.bank_groups > 1 ? p_.tRRD_L : p_.tRRD)));
  rank.acts.insert(act, group);
  rank.last_act = std::max(rank.last_act, act);
  bank.epochs.push_back(Epoch{req.row, act, kNever, act + p_.tRAS, next.start});
  r.activate = act;
  commit_column(ch, rank, bank, req.rank, group, bank.epochs.back(), req.op, col, data_pos, r);
  return finish(bank.epochs.back());
}

BurstResult TimingEngine::schedule(const BurstRequest& req) {
  Channel& ch = channels_.at(req.channel);
  Rank& rank = ch.ranks.at(req.rank);
  Bank& bank = rank.banks.at(req.bank);
  BurstResult r;
  schedule_at(ch, rank, bank, req, nullptr, r);
  return r;
}

void TimingEngine::schedule_line(const BurstRequest& req, unsigned count, BurstResult* results) {
  if (count == 0) return;
  Channel& ch = channels_.at(req.channel);
  Rank& rank = ch.ranks.at(req.rank);
  Bank& bank = rank.banks.at(req.bank);
  // FCFS looks only at the open row, which its own test finds at once: nothing to carry over.
  const bool carry = p_.scheduler == Scheduler::FrFcfs;
  Epoch* used = nullptr;
  for (unsigned k = 0; k < count; ++k) {
    results[k] = BurstResult{};
    used = schedule_at(ch, rank, bank, req, carry ? used : nullptr, results[k]);
  }
}

void TimingEngine::retire(Tick now) {
  const Tick h = now - lookback_;
  for (Channel& ch : channels_) {
    auto before_h = [h](const auto& e) { return e.first < h; };
    ch.commands.retire_before(h);
    ch.data.erase_front_while([h](const auto& e) { return e.second.end < h; });
    const auto retired = std::upper_bound(ch.queue.begin(), ch.queue.end(), now, Channel::Entry::ends_after);
    // admit() only counts admissions <= t for t >= now, and every retired entry was admitted
    // before its end <= now: dropping as many of the earliest admissions (all <= now as well)
    // leaves every such count as it was, in one move instead of one per entry.
    ch.admissions.erase(ch.admissions.begin(), ch.admissions.begin() + (retired - ch.queue.begin()));
    ch.queue.erase(ch.queue.begin(), retired);
    for (Rank& rank : ch.ranks) {
      rank.acts.erase_front_while(before_h);
      rank.reads.erase_front_while(before_h);
      rank.writes.erase_front_while([h](const auto& e) { return e.second.data_end < h; });
      for (Bank& bank : rank.banks) {
        std::size_t n = 0;
        while (n + 1 < bank.epochs.size() && bank.epochs[n].close < h) ++n;
        if (n != 0) bank.epochs.drop_front(n);
      }
    }
  }
}

std::size_t TimingEngine::reservations() const {
  std::size_t n = 0;
  for (const Channel& ch : channels_) {
    n += ch.commands.size() + ch.data.size() + ch.queue.size();
    for (const Rank& rank : ch.ranks) {
      n += rank.acts.size() + rank.reads.size() + rank.writes.size();
      for (const Bank& bank : rank.banks) n += bank.epochs.size();
    }
  }
  return n;
}

}  // namespace par::dram
