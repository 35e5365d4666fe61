// The plain timing engine, cycle by cycle. Expectations are derived by hand in the comments, in
// clock cycles of DDR3-1600K (tCK 1.25 ns): tCL 11, tCWL 8, tRCD 11, tRP 11, tRAS 28, tRC 39,
// tRRD 5, tFAW 24, tWR 12, tWTR 6, tRTP 6, tCCD 4, BL8 = 4 cycles on the bus, tRTRS 2.
// The engine counts half cycles (ticks); C(n) converts.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "dram_config.hpp"
#include "dram_timing.hpp"

namespace par::dram {
namespace {

constexpr Tick C(double cycles) { return static_cast<Tick>(cycles * 2); }

EngineParams ddr3(bool refresh = false, Scheduler s = Scheduler::FrFcfs) {
  DramConfig c;
  c.preset = Preset::Ddr3_1600;
  c.refresh = refresh;
  c.scheduler = s;
  return engine_params(c.resolved());
}

BurstRequest rd(unsigned bank, std::uint64_t row, Tick at, unsigned rank = 0) {
  BurstRequest r;
  r.bank = bank;
  r.rank = rank;
  r.row = row;
  r.arrival = at;
  return r;
}

BurstRequest wr(unsigned bank, std::uint64_t row, Tick at) {
  BurstRequest r = rd(bank, row, at);
  r.op = Op::Write;
  return r;
}

TEST(DramTiming, IdleReadToAClosedRowIsTrcdPlusClPlusBurst) {
  TimingEngine e(ddr3());
  const BurstResult r = e.schedule(rd(0, 5, 0));
  EXPECT_EQ(r.outcome, RowOutcome::Miss);
  EXPECT_EQ(r.activate, C(0));
  EXPECT_EQ(r.column, C(11));      // tRCD
  EXPECT_EQ(r.data_start, C(22));  // + tCL
  EXPECT_EQ(r.data_end, C(26));    // + BL8 / 2
  EXPECT_EQ(r.precharge, kNever);
}

TEST(DramTiming, RowHitIsFasterThanMissWhichIsFasterThanConflict) {
  TimingEngine e(ddr3());
  const BurstResult miss = e.schedule(rd(0, 5, 0));
  // Hit at 100: RD at once, data 100 + 11 .. + 4 = 115: latency tCL + 4 = 15.
  const BurstResult hit = e.schedule(rd(0, 5, C(100)));
  EXPECT_EQ(hit.outcome, RowOutcome::Hit);
  EXPECT_EQ(hit.activate, kNever);
  EXPECT_EQ(hit.data_end - C(100), C(15));
  // Conflict at 200: the row may close (tRAS from 0, tRTP from 100 passed): PRE 200, ACT 211,
  // RD 222, data 233..237: latency tRP + tRCD + tCL + 4 = 37.
  const BurstResult conflict = e.schedule(rd(0, 6, C(200)));
  EXPECT_EQ(conflict.outcome, RowOutcome::Conflict);
  EXPECT_EQ(conflict.precharge, C(200));
  EXPECT_EQ(conflict.activate, C(211));
  EXPECT_EQ(conflict.column, C(222));
  EXPECT_EQ(conflict.data_end - C(200), C(37));
  EXPECT_LT(hit.data_end - C(100), miss.data_end);
  EXPECT_LT(miss.data_end, conflict.data_end - C(200));
}

TEST(DramTiming, ConflictWaitsForTrasOfTheOpenRow) {
  TimingEngine e(ddr3());
  e.schedule(rd(0, 1, 0));  // ACT 0, RD 11
  // PRE no earlier than max(tRAS = 28, RD + tRTP = 17) = 28; ACT at max(28 + tRP, tRC) = 39.
  const BurstResult r = e.schedule(rd(0, 2, 0));
  EXPECT_EQ(r.precharge, C(28));
  EXPECT_EQ(r.activate, C(39));
  EXPECT_EQ(r.data_end, C(39 + 11 + 11 + 4));
}

TEST(DramTiming, TrrdAndTfawLimitActivates) {
  // Five banks at once: ACTs tRRD = 5 apart, but the fifth waits for the tFAW window of the
  // first four: 0, 5, 10, 15, then max(20, 0 + 24) = 24.
  TimingEngine e(ddr3());
  std::vector<Tick> acts;
  for (unsigned b = 0; b < 5; ++b) acts.push_back(e.schedule(rd(b, 0, 0)).activate);
  EXPECT_EQ(acts, (std::vector<Tick>{C(0), C(5), C(10), C(15), C(24)}));

  EngineParams no_faw = ddr3();
  no_faw.tFAW = 0;
  TimingEngine f(no_faw);
  acts.clear();
  for (unsigned b = 0; b < 5; ++b) acts.push_back(f.schedule(rd(b, 0, 0)).activate);
  EXPECT_EQ(acts, (std::vector<Tick>{C(0), C(5), C(10), C(15), C(20)}));
}

TEST(DramTiming, WriteToReadTurnaroundIsTwtrAfterTheWriteData) {
  TimingEngine e(ddr3());
  const BurstResult w = e.schedule(wr(0, 0, 0));  // ACT 0, WR 11, data 19..23
  EXPECT_EQ(w.column, C(11));
  EXPECT_EQ(w.data_start, C(19));
  EXPECT_EQ(w.data_end, C(23));
  // A read hit arriving at 12 would issue at 14 for the bus (data 25 = 23 + tRTRS), but tWTR
  // holds it until 23 + 6 = 29.
  const BurstResult r = e.schedule(rd(0, 0, C(12)));
  EXPECT_EQ(r.outcome, RowOutcome::Hit);
  EXPECT_EQ(r.column, C(29));
  EXPECT_EQ(r.data_end, C(29 + 11 + 4));
}

TEST(DramTiming, ReadToWriteTurnaroundIdlesTheBusForTrtrs) {
  TimingEngine e(ddr3());
  e.schedule(rd(0, 0, 0));  // RD 11, data 22..26
  // Write hit at 12: write data must start >= 26 + tRTRS = 28, so WR at 28 - tCWL = 20.
  const BurstResult w = e.schedule(wr(0, 0, C(12)));
  EXPECT_EQ(w.column, C(20));
  EXPECT_EQ(w.data_start, C(28));
}

TEST(DramTiming, BackToBackColumnCommandsAreTccdApart) {
  TimingEngine e(ddr3());
  EXPECT_EQ(e.schedule(rd(0, 0, 0)).column, C(11));
  EXPECT_EQ(e.schedule(rd(0, 0, 0)).column, C(15));  // tCCD = 4 = the burst
  EXPECT_EQ(e.schedule(rd(0, 0, 0)).column, C(19));

  EngineParams slow = ddr3();
  slow.tCCD = C(6);
  TimingEngine f(slow);
  EXPECT_EQ(f.schedule(rd(0, 0, 0)).column, C(11));
  EXPECT_EQ(f.schedule(rd(0, 0, 0)).column, C(17));  // tCCD 6 > burst 4: a 2-cycle bubble
}

TEST(DramTiming, BankGroupsUseTccdLInsideAGroup) {
  DramConfig c;
  c.preset = Preset::Ddr4_2400;  // tCCD_S 4, tCCD_L 6, tRCD 16, tCL 16, groups = bank % 4
  c.refresh = false;
  TimingEngine e(engine_params(c.resolved()));
  for (unsigned b : {0u, 1u, 4u}) e.schedule(rd(b, 0, 0));  // open the rows
  // Row hits at 1000: bank 0 then bank 4 (same group 0): 6 apart; bank 0 then bank 1: 4 apart.
  const Tick a = e.schedule(rd(0, 0, C(1000))).column;
  EXPECT_EQ(e.schedule(rd(4, 0, C(1000))).column - a, C(6));
  TimingEngine f(engine_params(c.resolved()));
  for (unsigned b : {0u, 1u, 4u}) f.schedule(rd(b, 0, 0));
  const Tick b0 = f.schedule(rd(0, 0, C(1000))).column;
  EXPECT_EQ(f.schedule(rd(1, 0, C(1000))).column - b0, C(4));
}

TEST(DramTiming, ManyConcurrentReadsSerialiseOnTheDataBusAtPeakRate) {
  // 8 reads to each of 8 banks, all at 0. Bank 0's data starts at 22; the bus is then never idle
  // (bank 7's ACT at 39 after tFAW lets its first data start at 61, long before its turn), so the
  // 64 bursts end at 22 + 64 x 4 = 278.
  TimingEngine e(ddr3());
  std::vector<BurstResult> rs;
  for (unsigned b = 0; b < 8; ++b)
    for (int i = 0; i < 8; ++i) rs.push_back(e.schedule(rd(b, 0, 0)));
  std::sort(rs.begin(), rs.end(),
            [](const BurstResult& x, const BurstResult& y) { return x.data_start < y.data_start; });
  EXPECT_EQ(rs.front().data_start, C(22));
  for (std::size_t i = 1; i < rs.size(); ++i) EXPECT_EQ(rs[i].data_start, rs[i - 1].data_end);
  EXPECT_EQ(rs.back().data_end, C(22 + 64 * 4));
}

TEST(DramTiming, ARequestDuringARefreshWaitsForTrfc) {
  // tREFI 6240, tRFC 208, tRPab 11: refresh 1 at 6240, the rank is unavailable over
  // [6229, 6448). A read arriving at 6300: ACT 6448, RD 6459, data 6470..6474.
  TimingEngine e(ddr3(true));
  const TimingEngine::Window w = e.refresh_window_at(0, C(6300));
  EXPECT_EQ(w.start, C(6229));
  EXPECT_EQ(w.end, C(6448));
  const BurstResult r = e.schedule(rd(0, 0, C(6300)));
  EXPECT_EQ(r.activate, C(6448));
  EXPECT_EQ(r.data_end, C(6474));
}

TEST(DramTiming, AnActivationThatCannotCloseBeforeTheRefreshWaitsForIt) {
  // At 6210 the row could not stay open tRAS = 28 before the precharge-all at 6229.
  TimingEngine e(ddr3(true));
  EXPECT_EQ(e.schedule(rd(0, 0, C(6210))).activate, C(6448));
  // At 6190 it can (6190 + 28 <= 6229), and the read's RD + tRTP = 6207 fits too.
  TimingEngine f(ddr3(true));
  EXPECT_EQ(f.schedule(rd(0, 0, C(6190))).activate, C(6190));
}

TEST(DramTiming, RefreshClosesOpenRowsAndHappensEveryTrefi) {
  TimingEngine e(ddr3(true));
  e.schedule(rd(0, 3, C(100)));
  EXPECT_EQ(e.schedule(rd(0, 3, C(7000))).outcome, RowOutcome::Miss);  // closed by refresh 1
  EXPECT_EQ(e.refreshes_until(C(6239)), 0u);
  EXPECT_EQ(e.refreshes_until(C(6240)), 1u);
  EXPECT_EQ(e.refreshes_until(C(6240 * 10 + 5)), 10u);
}

TEST(DramTiming, RanksRefreshStaggered) {
  DramConfig c;
  c.preset = Preset::Ddr_333;  // 2 ranks, tREFI 1300, tRFC 12, tRPab 3
  TimingEngine e(engine_params(c.resolved()));
  // Refresh k >= 1 of rank r at k x tREFI + r x tREFI / ranks.
  EXPECT_EQ(e.next_refresh_window(0, 0).start, C(1300 - 3));
  EXPECT_EQ(e.next_refresh_window(1, 0).start, C(1950 - 3));
  EXPECT_EQ(e.refreshes_until(C(1300)), 1u);
  EXPECT_EQ(e.refreshes_until(C(1950)), 2u);
  EXPECT_EQ(e.refreshes_until(C(2600)), 3u);
}

// The count and the tick at which it next changes, at and around each rank's REF, with several
// channels (each refreshes its ranks at the same ticks).
TEST(DramTiming, RefreshCountChangesExactlyAtTheNextRefOfAnyRank) {
  DramConfig c;
  c.preset = Preset::Ddr_333;  // 2 ranks, tREFI 1300: REF k of rank 0 at 1300k, of rank 1 at 1300k + 650
  EngineParams p = engine_params(c.resolved());
  p.channels = 3;
  TimingEngine e(p);
  const auto expect = [&e](Tick t, std::uint64_t count, Tick changes_at) {
    const TimingEngine::RefreshCount r = e.refresh_count(t);
    EXPECT_EQ(r.count, count) << "at tick " << t;
    EXPECT_EQ(r.changes_at, changes_at) << "at tick " << t;
    EXPECT_EQ(e.refreshes_until(t), count) << "at tick " << t;
  };
  expect(-C(5000), 0, C(1300));  // before any refresh, rank 0's first is next
  expect(0, 0, C(1300));
  expect(C(1300) - 1, 0, C(1300));
  expect(C(1300), 3, C(1950));      // rank 0 of each of the 3 channels
  expect(C(1300) + 1, 3, C(1950));
  expect(C(1950) - 1, 3, C(1950));
  expect(C(1950), 6, C(2600));      // rank 1 as well
  expect(C(2600), 9, C(3250));
  expect(C(13000) + 7, 3 * (10 + 9), C(13650));

  // Tick by tick over several periods of an uneven stagger (4 ranks, tREFI 1001 ticks: offsets
  // 0, 250, 500, 750 after clock alignment): the count holds until changes_at and changes there.
  EngineParams q = ddr3(true);
  q.channels = 2;
  q.ranks = 4;
  q.tREFI = 1001;
  TimingEngine f(q);
  TimingEngine::RefreshCount held = f.refresh_count(-1);
  EXPECT_EQ(held.count, 0u);
  EXPECT_EQ(held.changes_at, 1001);
  std::uint64_t changes = 0;
  for (Tick t = 0; t < 5000; ++t) {
    const TimingEngine::RefreshCount now = f.refresh_count(t);
    if (t < held.changes_at) {
      EXPECT_EQ(now.count, held.count) << "at tick " << t;
      EXPECT_EQ(now.changes_at, held.changes_at) << "at tick " << t;
    } else {
      EXPECT_EQ(t, held.changes_at);
      EXPECT_EQ(now.count, held.count + 2) << "at tick " << t;  // one rank, both channels
      EXPECT_GT(now.changes_at, t);
      held = now;
      ++changes;
    }
  }
  // REFs of rank r at 1001k + {0, 250, 500, 750}[r] up to 4999: ranks 0-3 have 4, 4, 4, 4.
  EXPECT_EQ(changes, 16u);
  EXPECT_EQ(held.count, 32u);

  TimingEngine off(ddr3(false));
  EXPECT_EQ(off.refresh_count(C(1e6)).count, 0u);
  EXPECT_EQ(off.refresh_count(C(1e6)).changes_at, kNever);
}

TEST(DramTiming, FrFcfsServesARowHitBeforeAnEarlierCalledConflict) {
  // Same bank: A (row 1), B (row 2), C (row 1), all at 0, called in that order.
  // A: ACT 0, RD 11, data 22..26. B: PRE 28 (tRAS), ACT 39, RD 50, data 61..65.
  // FR-FCFS: row 1 stays open until B's PRE at 28; C's RD fits at 15 (bus after A's data;
  //   15 + tRTP = 21 <= 28): data 26..30, a hit.
  // FCFS: C goes after B: PRE max(39 + tRAS, 50 + tRTP) = 67, ACT 78, RD 89, data 100..104.
  for (Scheduler s : {Scheduler::FrFcfs, Scheduler::Fcfs}) {
    TimingEngine e(ddr3(false, s));
    e.schedule(rd(0, 1, 0));
    const BurstResult b = e.schedule(rd(0, 2, 0));
    EXPECT_EQ(b.data_end, C(65));
    const BurstResult c = e.schedule(rd(0, 1, 0));
    if (s == Scheduler::FrFcfs) {
      EXPECT_EQ(c.outcome, RowOutcome::Hit);
      EXPECT_EQ(c.column, C(15));
      EXPECT_EQ(c.data_end, C(30));
    } else {
      EXPECT_EQ(c.outcome, RowOutcome::Conflict);
      EXPECT_EQ(c.precharge, C(67));
      EXPECT_EQ(c.data_end, C(104));
    }
  }
}

TEST(DramTiming, OutOfOrderArrivalIsServedFromTheRowOpenAtItsArrival) {
  // A opens row 1 at 0. B (row 2) is called first but arrives at 100: PRE 100, ACT 111.
  // C (row 1) is called second but arrives at 50, while row 1 is still open: FR-FCFS serves it
  // there (RD 50, 50 + tRTP <= 100), data 61..65. FCFS keeps call order: after B.
  TimingEngine e(ddr3());
  e.schedule(rd(0, 1, 0));
  EXPECT_EQ(e.schedule(rd(0, 2, C(100))).precharge, C(100));
  const BurstResult c = e.schedule(rd(0, 1, C(50)));
  EXPECT_EQ(c.outcome, RowOutcome::Hit);
  EXPECT_EQ(c.data_end, C(65));

  TimingEngine f(ddr3(false, Scheduler::Fcfs));
  f.schedule(rd(0, 1, 0));
  f.schedule(rd(0, 2, C(100)));
  EXPECT_EQ(f.schedule(rd(0, 1, C(50))).outcome, RowOutcome::Conflict);
}

TEST(DramTiming, FcfsKeepsDataInCallOrder) {
  // A miss to bank 0 then a hit to an open row of bank 1: FR-FCFS lets the hit's data go first,
  // FCFS returns it after the miss's data.
  for (Scheduler s : {Scheduler::FrFcfs, Scheduler::Fcfs}) {
    TimingEngine e(ddr3(false, s));
    e.schedule(rd(1, 0, 0));                            // opens bank 1, data ends at 26
    const BurstResult miss = e.schedule(rd(0, 0, C(100)));  // data 122..126
    // The hit's RD: slot 100 holds the miss's ACT, so 101 (FR-FCFS: data 112..116, before the
    // miss's data); FCFS: its data after the miss's, 126..130, so RD at 115.
    const BurstResult hit = e.schedule(rd(1, 0, C(100)));
    EXPECT_EQ(miss.data_end, C(126));
    EXPECT_EQ(hit.data_end, s == Scheduler::FrFcfs ? C(116) : C(130));
  }
}

TEST(DramTiming, AFullQueueDelaysAdmission) {
  EngineParams p = ddr3();
  p.queue_depth = 2;
  TimingEngine e(p);
  e.schedule(rd(0, 0, 0));  // data ends 26
  e.schedule(rd(0, 0, 0));  // data ends 30
  const BurstResult third = e.schedule(rd(0, 0, 0));
  EXPECT_EQ(third.admitted, C(26));  // the first entry frees at its completion
  EXPECT_EQ(third.column, C(26));
}

// Writes handed over ahead of their arrival (the HT link posts them to host memory with the link's
// latency still to come) hold no queue entry before they arrive: a read arriving earlier is
// admitted at once, and the entries count again from their arrival on.
TEST(DramTiming, QueueEntriesAreHeldOnlyFromArrival) {
  EngineParams p = ddr3();
  p.queue_depth = 2;
  TimingEngine e(p);
  e.schedule(wr(1, 0, C(500)));
  e.schedule(wr(2, 0, C(500)));
  const BurstResult early = e.schedule(rd(0, 0, C(100)));
  EXPECT_EQ(early.admitted, C(100));  // before the fix: held up until the first write's completion
  EXPECT_EQ(early.data_end, C(126));  // tRCD + tCL + 4
  // Arriving while both writes are in the queue, a read waits for the first to complete: ACT 500,
  // WR 511 (tRCD), data 519..523 (tCWL, BL8).
  const BurstResult late = e.schedule(rd(3, 0, C(501)));
  EXPECT_EQ(late.admitted, C(523));
}

// A request that must wait looks again after each completion: entries admitted in the meantime
// count too.
TEST(DramTiming, AWaitingRequestCountsEntriesAdmittedWhileItWaits) {
  EngineParams p = ddr3();
  p.queue_depth = 1;
  TimingEngine e(p);
  const BurstResult a = e.schedule(rd(0, 0, 0));         // held [0, 26)
  const BurstResult b = e.schedule(rd(1, 0, a.data_end));  // held from 26
  const BurstResult c = e.schedule(rd(2, 0, C(10)));      // waits for a, then finds b: waits for b too
  EXPECT_EQ(a.data_end, C(26));
  EXPECT_EQ(b.admitted, C(26));
  EXPECT_EQ(c.admitted, b.data_end);
}

TEST(DramTiming, ClosedPagePrechargesAfterEachAccess) {
  EngineParams p = ddr3();
  p.page_policy = PagePolicy::Closed;
  TimingEngine e(p);
  const BurstResult a = e.schedule(rd(0, 0, 0));
  EXPECT_EQ(a.auto_precharge, C(28));  // max(tRAS, RD + tRTP = 17)
  const BurstResult b = e.schedule(rd(0, 0, C(100)));
  EXPECT_EQ(b.outcome, RowOutcome::Miss);
  EXPECT_EQ(b.data_end - C(100), C(26));
}

TEST(DramTiming, HalfCycleLatencies) {
  // DDR-333: tRCD 3, CL 2.5, BL4 = 2 cycles: an idle read ends at 7.5 cycles = 45 ns.
  DramConfig c;
  c.preset = Preset::Ddr_333;
  TimingEngine e(engine_params(c.resolved()));
  const BurstResult r = e.schedule(rd(0, 0, 0));
  EXPECT_EQ(r.data_start, C(5.5));
  EXPECT_EQ(r.data_end, C(7.5));
}

TEST(DramTiming, RetireKeepsTheHistoryBounded) {
  TimingEngine e(ddr3(true));
  std::size_t most = 0;
  for (int i = 0; i < 20000; ++i) {
    const Tick t = C(10) * i;
    e.retire(t);
    e.schedule(rd(static_cast<unsigned>(i % 8), static_cast<std::uint64_t>(i / 64), t));
    most = std::max(most, e.reservations());
  }
  EXPECT_LT(most, 200u);
}

TEST(DramTiming, LatencyRisesWithTcl) {
  // A fixed mixed pattern (hits, misses, conflicts, writes) issued at once; the sum of
  // latencies grows strictly with tCL.
  Tick previous = 0;
  for (int cl = 6; cl <= 20; ++cl) {
    EngineParams p = ddr3();
    p.tCL = C(cl);
    TimingEngine e(p);
    Tick sum = 0;
    for (int i = 0; i < 64; ++i) {
      BurstRequest r = rd(static_cast<unsigned>(i * 3 % 8), static_cast<std::uint64_t>(i % 5), C(i * 7));
      if (i % 4 == 3) r.op = Op::Write;
      sum += e.schedule(r).data_end - r.arrival;
    }
    EXPECT_GT(sum, previous) << "tCL " << cl;
    previous = sum;
  }
}

}  // namespace
}  // namespace par::dram
