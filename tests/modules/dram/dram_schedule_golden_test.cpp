// The timing engine's whole schedule over long random request streams, pinned by a checksum of
// every result field. The streams run far ahead of the retire point (as initiators do within a
// quantum), so the command and data buses are booked densely and the gap searches have to skip
// long runs of reservations, find gaps between them, and give up at a row's close bound. Any
// change of the search code must leave these schedules exactly as they were: a speed change may
// not move a single command. The checksums were recorded with the step-by-step searches (every
// command slot and every booked burst visited one at a time); the step-by-step engine is the
// reference the faster searches must reproduce.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "dram_config.hpp"
#include "dram_timing.hpp"
#include "random_streams.hpp"

namespace par::dram {
namespace {

using testing::preset_engine;
using Random = testing::SplitMix;

struct Fold {
  std::uint64_t sum = 1469598103934665603ull;  // FNV-1a over 64-bit words
  void add(std::int64_t v) {
    sum ^= static_cast<std::uint64_t>(v);
    sum *= 1099511628211ull;
  }
};

struct Summary {
  std::uint64_t checksum = 0;
  unsigned hits = 0, misses = 0, conflicts = 0, stalls = 0;  // stalls: waited for a queue entry
  Tick last_end = 0;
};

// `ahead`: how far past the retire point arrivals may lie (ticks); `pace`: the retire point moves
// by up to pace bursts every eight requests on average (small = an overloaded controller);
// `rows`: distinct rows per bank (few rows = many hits); `writes`: percentage of writes.
Summary run(const EngineParams& p, std::uint64_t seed, int requests, Tick ahead, unsigned pace,
            unsigned rows, unsigned writes) {
  TimingEngine e(p);
  Random rnd{seed};
  Fold f;
  Summary s;
  Tick now = 0;
  for (int i = 0; i < requests; ++i) {
    if (rnd.below(8) == 0) {
      now += static_cast<Tick>(rnd.below(static_cast<std::uint64_t>(p.burst) * pace));
      e.retire(now);
    }
    BurstRequest r;
    r.channel = static_cast<unsigned>(rnd.below(p.channels));
    r.rank = static_cast<unsigned>(rnd.below(p.ranks));
    r.bank = static_cast<unsigned>(rnd.below(p.banks));
    r.row = rnd.below(rows);
    r.op = rnd.below(100) < writes ? Op::Write : Op::Read;
    r.arrival = now + static_cast<Tick>(rnd.below(static_cast<std::uint64_t>(ahead)));
    const BurstResult b = e.schedule(r);
    for (Tick v : {static_cast<Tick>(b.outcome), b.admitted, b.precharge, b.activate, b.column,
                   b.data_start, b.data_end, b.auto_precharge})
      f.add(v);
    s.hits += b.outcome == RowOutcome::Hit;
    s.misses += b.outcome == RowOutcome::Miss;
    s.conflicts += b.outcome == RowOutcome::Conflict;
    s.stalls += b.admitted > r.arrival;
    s.last_end = std::max(s.last_end, b.data_end);
  }
  s.checksum = f.sum;
  return s;
}

struct Case {
  const char* name;
  EngineParams p;
  Tick ahead;
  unsigned pace;
  unsigned rows;
  unsigned writes;
  std::uint64_t checksum;
};

std::string describe(const Summary& s) {
  return "checksum " + std::to_string(s.checksum) + "ull, hits " + std::to_string(s.hits) +
         ", misses " + std::to_string(s.misses) + ", conflicts " + std::to_string(s.conflicts) +
         ", queue stalls " + std::to_string(s.stalls) + ", last data end " + std::to_string(s.last_end);
}

TEST(DramScheduleGolden, RandomStreamsKeepTheirExactSchedule) {
  using P = Preset;
  using S = Scheduler;
  using G = PagePolicy;
  // name, engine, ahead, pace, rows, writes %, checksum
  const Case cases[] = {
      {"lpddr3 2ch frfcfs open", preset_engine(P::Lpddr3_1866, 2, 1, S::FrFcfs, G::Open), 4000, 6, 4, 30,
       17533296714935697984ull},
      {"lpddr3 1ch frfcfs open far ahead", preset_engine(P::Lpddr3_1866, 1, 1, S::FrFcfs, G::Open), 20000, 6, 2, 10,
       7586688365514510461ull},
      {"lpddr3 2ch frfcfs open sparse", preset_engine(P::Lpddr3_1866, 2, 1, S::FrFcfs, G::Open), 3000, 60, 4, 30,
       4745078505084711668ull},
      {"ddr3 2 ranks fcfs open", preset_engine(P::Ddr3_1600, 1, 2, S::Fcfs, G::Open), 3000, 6, 3, 40,
       8211450881213427109ull},
      {"ddr3 frfcfs closed", preset_engine(P::Ddr3_1600, 1, 1, S::FrFcfs, G::Closed), 3000, 6, 8, 25,
       16531719958834541409ull},
      {"ddr4 groups 2 ranks frfcfs", preset_engine(P::Ddr4_2400, 2, 2, S::FrFcfs, G::Open), 6000, 6, 3, 35,
       7197904675824591750ull},
      {"ddr-333 half-cycle frfcfs", preset_engine(P::Ddr_333, 1, 1, S::FrFcfs, G::Open), 2000, 6, 2, 50,
       4865633986327010186ull},
      {"ddr4 fcfs closed", preset_engine(P::Ddr4_2400, 1, 1, S::Fcfs, G::Closed), 2500, 6, 4, 20,
       7038335748295971069ull},
  };
  std::uint64_t seed = 1;
  for (const Case& c : cases) {
    const Summary s = run(c.p, seed++, 4000, c.ahead, c.pace, c.rows, c.writes);
    EXPECT_EQ(s.checksum, c.checksum) << c.name << ": " << describe(s);
  }
}

// Spacings no preset has: a turnaround (burst + tRTRS) or a same-group tCCD_L longer than two
// bursts, so that a burst further away than a neighbour can still be the one a data start must keep
// clear of, and the data-bus search has to look at every burst within reach, not only at the two
// beside the start. Checksums recorded with the step-by-step engine, like the ones above.
TEST(DramScheduleGolden, SpacingsLongerThanTwoBurstsKeepTheirExactSchedule) {
  EngineParams turnaround;  // the struct's LPDDR3-like defaults, 2 channels x 2 ranks
  turnaround.channels = 2;
  turnaround.ranks = 2;
  turnaround.tRTRS = 12;  // burst 8 + 12 > 2 x 8
  EngineParams groups;
  groups.banks = 16;
  groups.bank_groups = 4;
  groups.tCCD_L = 20;  // > 2 x burst 8
  const Summary t = run(turnaround, 9, 4000, 4000, 6, 4, 30);
  EXPECT_EQ(t.checksum, 8300967308597012106ull) << describe(t);
  const Summary g = run(groups, 10, 4000, 4000, 6, 4, 30);
  EXPECT_EQ(g.checksum, 13614811686482635760ull) << describe(g);
}

// The cases the streams above reach rarely: a small request queue that is full most of the time
// while arrivals come out of order (admission has to count the entries held at each candidate
// time), refresh off, a closed page under FCFS with a small queue, and the l2-dram-bench's shape
// (arrivals in time order, many requests in flight, the queue full nearly always, two rows per
// bank ping-ponging). Recorded with the engine of the session that added them (before its speed
// changes), like the ones above: re-record by running the test and copying the printed checksums,
// but only for a change that is meant to move simulated results - a differing checksum means the
// schedule changed.
TEST(DramScheduleGolden, FullQueuesAndRefreshOffKeepTheirExactSchedule) {
  using P = Preset;
  using S = Scheduler;
  using G = PagePolicy;
  auto with_queue = [](EngineParams p, unsigned depth) {
    p.queue_depth = depth;
    return p;
  };
  auto without_refresh = [](EngineParams p) {
    p.refresh = false;
    return p;
  };
  // name, engine, ahead, pace, rows, writes %, checksum
  const Case cases[] = {
      {"lpddr3 2ch frfcfs open queue 4 out of order",
       with_queue(preset_engine(P::Lpddr3_1866, 2, 1, S::FrFcfs, G::Open), 4), 3000, 6, 4, 30, 18282009693282472017ull},
      {"ddr4 2 ranks frfcfs closed queue 6",
       with_queue(preset_engine(P::Ddr4_2400, 1, 2, S::FrFcfs, G::Closed), 6), 4000, 3, 3, 40, 9218947510595983777ull},
      {"ddr3 fcfs closed queue 4", with_queue(preset_engine(P::Ddr3_1600, 2, 1, S::Fcfs, G::Closed), 4), 2000,
       6, 4, 25, 10383304828557068922ull},
      {"lpddr3 frfcfs open no refresh", without_refresh(preset_engine(P::Lpddr3_1866, 1, 2, S::FrFcfs, G::Open)),
       4000, 6, 3, 30, 5538053440398434245ull},
      {"ddr4 fcfs open no refresh", without_refresh(preset_engine(P::Ddr4_2400, 2, 1, S::Fcfs, G::Open)), 3000,
       6, 2, 20, 944276418728021442ull},
      // Nearly in time order (ahead small against the pace): the bench's shape.
      {"lpddr3 2ch frfcfs open in order", preset_engine(P::Lpddr3_1866, 2, 1, S::FrFcfs, G::Open), 40, 2, 2,
       25, 675544078753069782ull},
      {"ddr3 2 ranks frfcfs open in order queue 8",
       with_queue(preset_engine(P::Ddr3_1600, 1, 2, S::FrFcfs, G::Open), 8), 20, 3, 2, 25, 4495346096063098738ull},
  };
  std::uint64_t seed = 21;
  for (const Case& c : cases) {
    const Summary s = run(c.p, seed++, 6000, c.ahead, c.pace, c.rows, c.writes);
    EXPECT_EQ(s.checksum, c.checksum) << c.name << ": " << describe(s);
  }
}

}  // namespace
}  // namespace par::dram
