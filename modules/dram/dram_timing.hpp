// The DRAM timing engine: plain C++ (no SystemC), so it can be unit-tested cycle by cycle.
//
// The platform is loosely timed: an initiator calls b_transport and must get the completion time
// back at once, without the target calling wait(). The engine therefore does not simulate a
// controller cycle by cycle; it *reserves* every resource a burst needs on timelines and returns
// the times at which its commands issue and its data moves:
//
//   bank    : row epochs [ACT, PRE) with the open row; tRCD, tRAS, tRC, tRP, tRTP, tWR windows
//   rank    : ACT times (tRRD, tFAW over the last four ACTs), RD/WR times (tWTR), refresh windows
//   channel : command-bus slots (one command per clock), data-bus bursts (tCCD, turnaround),
//             the request queue (entries held from admission to data completion)
//
// Bursts are scheduled in call order. Each resource may be reserved in any gap that satisfies
// every timing constraint against both earlier and later reservations (FR-FCFS), or only after
// the latest reservation of its timeline (FCFS). See README.md, "Scheduling policy".
//
// Time unit: a Tick is half a clock cycle, so DDR data beats and half-cycle latencies (DDR-333's
// CL 2.5) are integers. Commands issue on clock edges (even ticks); data may start on either.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "timeline.hpp"

namespace par::dram {

using Tick = std::int64_t;
// "No such time": a reservation that does not exist or a search that found no slot.
inline constexpr Tick kNever = std::numeric_limits<Tick>::max() / 4;

enum class Op { Read, Write };
enum class RowOutcome { Hit, Miss, Conflict };
// FR-FCFS: gaps anywhere; row hits may use any epoch of their row. FCFS: in call order.
enum class Scheduler { FrFcfs, Fcfs };
// Open: a row stays open until a conflict or a refresh closes it. Closed: every access
// precharges its row as soon as its timing allows (auto-precharge).
enum class PagePolicy { Open, Closed };

const char* to_string(RowOutcome o);
const char* to_string(Scheduler s);
const char* to_string(PagePolicy p);

// Everything the engine needs, in ticks (half clock cycles). Built from a resolved DramConfig by
// engine_params() (dram_config.hpp); tests may fill it directly.
struct EngineParams {
  unsigned channels = 1;
  unsigned ranks = 1;     // per channel
  unsigned banks = 8;     // per rank
  unsigned bank_groups = 1;  // bank b is in group b % bank_groups
  Tick burst = 8;         // data-bus ticks of one burst = burst length (one beat per tick)
  Tick tCL = 22, tCWL = 16, tRCD = 22, tRP = 22, tRPab = 22, tRAS = 56, tRC = 78;
  Tick tRRD = 10, tRRD_L = 10, tFAW = 48, tWR = 24, tWTR = 12, tWTR_L = 12, tRTP = 12;
  Tick tCCD = 8, tCCD_L = 8, tDQSCK = 0, tRTRS = 2;
  Tick tREFI = 12480, tRFC = 416;
  bool refresh = true;
  Scheduler scheduler = Scheduler::FrFcfs;
  PagePolicy page_policy = PagePolicy::Open;
  unsigned queue_depth = 32;  // bursts per channel between admission and data completion
};

struct BurstRequest {
  unsigned channel = 0;
  unsigned rank = 0;
  unsigned bank = 0;
  std::uint64_t row = 0;
  Op op = Op::Read;
  Tick arrival = 0;  // when the controller sees the request (any tick, not necessarily an edge)
};

struct BurstResult {
  RowOutcome outcome = RowOutcome::Miss;
  Tick admitted = 0;        // arrival, or later when the channel's queue was full
  Tick precharge = kNever;  // PRE of the conflicting open row (conflicts only)
  Tick activate = kNever;   // ACT of this burst's row (misses and conflicts)
  Tick column = 0;          // RD or WR command
  Tick data_start = 0;
  Tick data_end = 0;        // completion: last beat of the burst
  Tick auto_precharge = kNever;  // closed-page policy: the PRE issued after this access
};

class TimingEngine {
 public:
  explicit TimingEngine(const EngineParams& params);

  const EngineParams& params() const { return p_; }

  // Reserves the commands and the data transfer of one burst and returns their times. Requests
  // are processed in call order; `arrival` may be earlier than earlier calls' arrivals (initiators
  // run ahead within a quantum) but must not be before the last retire() point.
  BurstResult schedule(const BurstRequest& request);

  // Schedules `count` bursts of one request (the bursts of a line: same channel, rank, bank, row,
  // direction and arrival) into results[0, count), exactly as `count` successive schedule(request)
  // calls would. Cheaper: the location is looked up once, and each burst's row-hit search starts
  // at the activation the burst before it used (see README.md, "How the slot searches run").
  void schedule_line(const BurstRequest& request, unsigned count, BurstResult* results);

  // Forgets reservations that can no longer constrain a request arriving at or after `now`
  // (SystemC time never goes back and annotated delays are not negative). Keeps memory bounded.
  void retire(Tick now);

  // Refresh commands issued by every rank of every channel at or before `t` (all-bank refresh
  // every tREFI, the first one at tREFI; rank r of a channel is staggered by r * tREFI / ranks).
  std::uint64_t refreshes_until(Tick t) const;
  // refreshes_until(t), and the first tick after t at which that count changes (the next REF of
  // any rank; kNever without refresh): a caller whose t only grows asks again only from there.
  struct RefreshCount {
    std::uint64_t count = 0;
    Tick changes_at = kNever;
  };
  RefreshCount refresh_count(Tick t) const;

  // The refresh window of `rank` that contains `t` ([start, end): precharge-all then tRFC), or
  // {kNever, kNever}. For tests and for statistics.
  struct Window {
    Tick start = kNever;
    Tick end = kNever;
  };
  Window refresh_window_at(unsigned rank, Tick t) const;
  // The first refresh window of `rank` that starts after `t`.
  Window next_refresh_window(unsigned rank, Tick t) const;

  // Reservations currently held (for tests of retire()).
  std::size_t reservations() const;

 private:
  struct Epoch {  // one row activation of a bank: ACT at `act`, PRE at `pre` (kNever = open)
    std::uint64_t row = 0;
    Tick act = 0;
    Tick pre = kNever;
    Tick pre_min = 0;  // earliest legal PRE: tRAS after ACT, tRTP after RD, tWR after write data
    // The close bound: `pre`, or while that is kNever the start of the first refresh window after
    // `act` (kNever without refresh). Kept with the epoch: the hit search and retire() ask often.
    Tick close = kNever;
    // Per direction (read, write): the earliest start from which a row-hit search of this epoch
    // found no column slot. Reservations are only ever added and its close bound only moves
    // earlier, so a search from there or later cannot succeed either and is not made again.
    Tick no_hit_from[2] = {kNever, kNever};
  };
  // A stretch of time in which a search found no slot for one kind of command (an activate of a
  // rank's bank group, a read or a write column command of a bank group): every candidate in
  // [from, to) broke some constraint. Reservations are only ever added (and retire() forgets only
  // what can no longer constrain a request), so a slot that was not free stays taken, and a later
  // search of the same kind that starts inside the stretch may start at its end instead: the
  // backlog's gaps that a kind cannot use are walked once, not by every search.
  struct Blocked {
    Tick from = -kNever;
    Tick to = -kNever;
    Tick skip(Tick t) const { return t >= from && t < to ? to : t; }
    // A search from `start` found nothing before `end`.
    void found(Tick start, Tick end) {
      if (start >= from && start <= to) {  // it went on from this stretch (or from its end)
        to = std::max(to, end);
      } else if (end >= to) {  // keep the stretch that reaches further
        from = start;
        to = end;
      }
    }
  };
  struct Bank {
    RetiringVector<Epoch> epochs;  // in time order; only the last may be open
    // The column searches of this bank's bursts, by direction: they share their rank's and bank
    // group's Blocked stretches (columns_blocked), but a line's bursts, which follow each other to
    // the same bank, would often find those replaced by another bank's meanwhile.
    Blocked columns_blocked[2];
    Blocked& column_blocked(Op op) { return columns_blocked[op == Op::Write ? 1 : 0]; }
  };
  struct Rank {
    Timeline<unsigned> acts;   // ACT tick -> bank group
    Timeline<unsigned> reads;  // RD tick -> bank group
    struct Write {
      Tick data_end;
      unsigned group;
    };
    Timeline<Write> writes;  // WR tick -> data end, group
    Tick refresh_offset = 0;
    struct Period {  // next_window()'s cache: times in [from, next.start) have `next` as next window
      Tick from = 0;
      Window next{0, 0};
    };
    mutable Period period;
    Tick last_act = -kNever;  // FCFS: activates in call order
    // What the searches found last, per kind of command (see Blocked): column commands by
    // [bank group][read, write], activates by bank group.
    mutable std::vector<Blocked> columns_blocked;
    mutable std::vector<Blocked> activates_blocked;
    std::vector<Bank> banks;
  };
  struct Burst {  // a data-bus reservation
    Tick end;
    unsigned rank;
    unsigned group;
    Op op;
  };
  struct Channel {
    SlotBitmap commands;                // command-bus slots in use
    Timeline<Burst> data;               // data start -> burst
    struct Entry {                      // a request-queue entry, held over [admitted, end)
      Tick end;
      Tick admitted;
      // For upper_bound by end: entries that end after t.
      static bool ends_after(Tick t, const Entry& x) { return t < x.end; }
      // For partition points: true on the entries that end at or before t.
      static auto ended_by(Tick t) {
        return [t](const Entry& x) { return x.end <= t; };
      }
    };
    std::vector<Entry> queue;           // sorted by end
    std::vector<Tick> admissions;       // the queue's admission times, sorted
    Tick latest_admission = -kNever;    // no entry was admitted after this
    Tick last_column = -kNever;         // FCFS: column commands in call order
    Tick last_data = -kNever;           // FCFS: start of the latest data burst
    Burst last_burst{-kNever, 0, 0, Op::Read};
    // Shortcuts over the backlog, so that a search does not walk it reservation by reservation.
    // Each names times that no request can use; adding reservations only keeps it true, and
    // retiring removes nothing at or after the retire point, before which no request arrives.
    //  - data bus: every start in [dense_first, dense_last + min_spacing) is taken (consecutive
    //    bursts from dense_first to dense_last less than two minimum spacings apart);
    //  - queue: held >= queue_depth all over [full_from, full_until) (full_until is an end).
    Tick dense_first = kNever;
    Tick dense_last = kNever;
    Tick full_from = kNever;
    Tick full_until = kNever;
    // Where admission found the queue's and the admissions' partition points last (a start only).
    std::size_t queue_hint = 0;
    std::size_t admission_hint = 0;
    std::vector<Rank> ranks;
  };

  Tick admit(Channel& ch, Tick arrival) const;
  // schedule() on a located bank. `after`: null, or the activation of this bank the same request's
  // previous burst used (FR-FCFS), where the row-hit search may start. Returns the activation
  // this burst used.
  Epoch* schedule_at(Channel& ch, Rank& rank, Bank& bank, const BurstRequest& req, Epoch* after,
                     BurstResult& r);
  Tick column_latency(Op op) const { return latency_[op == Op::Read ? 0 : 1]; }
  // Ticks after a column command before its bank may be precharged.
  Tick column_to_precharge(Op op) const { return to_precharge_[op == Op::Read ? 0 : 1]; }
  // Minimum distance from the start of data burst `a` to the start of a later burst `b`.
  Tick data_spacing(const Burst& a, Tick a_start, unsigned b_rank, unsigned b_group, Op b_op) const;

  // The earliest data start >= ds (with its command lat earlier on a clock edge) that keeps the
  // data-bus spacing to the bursts on both sides; once past `limit`, some start past it (the
  // caller has no use for a later one). `next`: a cursor at or before the first burst that
  // starts after ds, moved forward with ds.
  Tick first_data_fit(const Channel& ch, Timeline<Burst>::const_iterator& next, Tick ds, Tick lat,
                      unsigned rank_index, unsigned group, Op op, Tick limit) const;
  // The earliest column command in [lo, hi - column_to_precharge(op)], or kNever. `data_pos`: where
  // its data burst goes in the channel's data timeline (after every burst starting at or before it).
  Tick find_column(const Channel& ch, const Rank& rank, Bank& bank, unsigned rank_index, unsigned group, Op op,
                   Tick lo, Tick hi, std::size_t& data_pos) const;
  Tick find_activate(const Channel& ch, const Rank& rank, unsigned group, Tick lo) const;
  Tick find_precharge(const Channel& ch, Tick lo, Tick hi) const;
  void commit_column(Channel& ch, Rank& rank, Bank& bank, unsigned rank_index, unsigned group, Epoch& e, Op op,
                     Tick column, std::size_t data_pos, BurstResult& result);

  Blocked& column_blocked(const Rank& rank, unsigned group, Op op) const {
    return rank.columns_blocked[2 * group + (op == Op::Write ? 1 : 0)];
  }

  const Window& next_window(const Rank& rank, Tick t) const;  // refresh on
  Window window_at(const Rank& rank, Tick t) const;
  Window window_after(const Rank& rank, Tick t) const;

  EngineParams p_;
  Tick min_spacing_ = 0;  // the least data_spacing() can be
  // No data_spacing() exceeds 2 x min_spacing_: a data start that keeps the spacing to the bursts
  // just before and just after it keeps it to all (first_data_fit looks no further).
  bool neighbours_suffice_ = false;
  // Per direction (read, write), fixed by the parameters: column_latency(), column_to_precharge().
  Tick latency_[2] = {0, 0};
  Tick to_precharge_[2] = {0, 0};
  Tick wtr_max_ = 0;  // the longer of tWTR and tWTR_L
  // RD to WR in a rank: the write data starts tRTRS after the last read beat (DDR3's
  // RL + tCCD + 2 - WL with tRTRS = 2).
  Tick read_to_write_ = 0;
  Tick same_kind_spacing_ = 0;  // data_spacing() between bursts of one rank, bank group and direction
  Tick data_span_ = 0;  // first_data_fit: a burst further than this from a start never constrains it
  Tick lookback_;  // longest distance over which a reservation constrains another one
  std::vector<Channel> channels_;
};

// Command ticks are clock edges: even ticks.
inline Tick align_to_clock(Tick t) { return t + (t & 1); }

}  // namespace par::dram
