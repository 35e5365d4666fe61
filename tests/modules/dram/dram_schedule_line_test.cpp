// TimingEngine::schedule_line (the bursts of a line in one call) against successive schedule()
// calls: over random request streams every result must be the same, field by field, and the
// engines must stay the same (the next request, whichever call makes it, gets the same times).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "dram_config.hpp"
#include "dram_timing.hpp"
#include "random_streams.hpp"

namespace par::dram {
namespace {

using testing::same;
using testing::show;

// What the streams went through, so that a test can check they covered the cases it is about.
struct Seen {
  int later_hits = 0;       // a line's later burst served as a row hit
  int later_misses = 0;     // ... by a new activation (its row closed or could not take it)
  int later_waits = 0;      // ... admitted after its arrival (the queue was full)
  int old_epoch_hits = 0;   // ... a hit in an activation that is not the bank's latest
};

// One stream of lines (1 to 4 bursts, mostly 2) into two engines: one call per line into one,
// one schedule() per burst into the other. Returns the first difference.
std::string compare_lines(const EngineParams& p, std::uint64_t seed, int lines, Seen& seen) {
  TimingEngine by_line(p);
  TimingEngine by_burst(p);
  testing::RandomStream stream(p, seed);
  std::vector<BurstResult> got(4);
  std::vector<Tick> last_act(p.channels * p.ranks * p.banks, -1);
  for (int i = 0; i < lines; ++i) {
    if (stream.advance()) {
      by_line.retire(stream.now());
      by_burst.retire(stream.now());
    }
    const BurstRequest r = stream.next();
    testing::SplitMix& rnd = stream.rnd();
    const unsigned count = rnd.below(4) == 0 ? 1 + static_cast<unsigned>(rnd.below(4)) : 2;
    by_line.schedule_line(r, count, got.data());
    Tick& bank_act = last_act[(r.channel * p.ranks + r.rank) * p.banks + r.bank];
    for (unsigned k = 0; k < count; ++k) {
      const BurstResult want = by_burst.schedule(r);
      if (!same(got[k], want))
        return "seed " + std::to_string(seed) + " line " + std::to_string(i) + " burst " + std::to_string(k) +
               " of " + std::to_string(count) + " (" + testing::show(r) + "): line " + show(got[k]) +
               ", bursts " + show(want);
      if (want.activate != kNever) bank_act = std::max(bank_act, want.activate);
      if (k == 0) continue;
      if (want.outcome == RowOutcome::Hit) {
        ++seen.later_hits;
        if (want.column < bank_act) ++seen.old_epoch_hits;
      } else {
        ++seen.later_misses;
      }
      if (want.admitted > r.arrival) ++seen.later_waits;
    }
  }
  return "";
}

TEST(DramScheduleLine, EqualsSuccessiveSchedulesOverRandomStreams) {
  Seen seen;
  int streams = 0;
  std::uint64_t seed = 7000;
  for (Preset preset : {Preset::Lpddr3_1866, Preset::Ddr4_2400})  // one and four bank groups
    for (Scheduler s : {Scheduler::FrFcfs, Scheduler::Fcfs})
      for (PagePolicy page : {PagePolicy::Open, PagePolicy::Closed})
        for (bool refresh : {true, false})
          for (unsigned depth : {2u, 3u, 32u}) {  // small queues fill: admission waits
            EngineParams p = testing::preset_engine(preset, 2, 1 + static_cast<unsigned>(seed & 1), s, page);
            p.refresh = refresh;
            p.queue_depth = depth;
            const std::string diff = compare_lines(p, seed++, 400, seen);
            ASSERT_EQ(diff, "") << to_string(s) << ", " << to_string(page) << ", refresh " << refresh
                                << ", queue depth " << depth << ", " << p.bank_groups << " bank groups";
            ++streams;
          }
  EXPECT_EQ(streams, 48);
  // The streams went where the shortcuts are: later bursts of lines as hits (also in older
  // activations of their row), as new activations, and behind a full queue.
  EXPECT_GT(seen.later_hits, 1000);
  EXPECT_GT(seen.later_misses, 100);
  EXPECT_GT(seen.old_epoch_hits, 10);
  EXPECT_GT(seen.later_waits, 1000);
}

// A queue of depth 2 holds exactly 2 entries when a line of two bursts arrives: its first burst
// is admitted when the earliest entry completes, its second when the next one does.
TEST(DramScheduleLine, ALineArrivingAtAFullQueueWaitsForItsEntries) {
  EngineParams p = testing::preset_engine(Preset::Lpddr3_1866, 1, 1, Scheduler::FrFcfs, PagePolicy::Open);
  p.queue_depth = 2;
  TimingEngine line(p);
  TimingEngine bursts(p);
  BurstRequest r;
  r.row = 3;
  BurstResult first[2];
  line.schedule_line(r, 2, first);
  EXPECT_EQ(first[0].admitted, 0);
  EXPECT_EQ(first[1].admitted, 0);  // the queue had one free entry left
  EXPECT_EQ(first[0].outcome, RowOutcome::Miss);
  EXPECT_EQ(first[1].outcome, RowOutcome::Hit);
  EXPECT_EQ(first[1].column - first[0].column, std::max(p.burst, p.tCCD));
  for (const BurstResult& want : first) EXPECT_PRED2(same, bursts.schedule(r), want);
  BurstRequest other = r;
  other.bank = 1;
  BurstResult second[2];
  line.schedule_line(other, 2, second);
  EXPECT_EQ(second[0].admitted, first[0].data_end);
  EXPECT_EQ(second[1].admitted, first[1].data_end);
  for (const BurstResult& want : second) EXPECT_PRED2(same, bursts.schedule(other), want);
}

// A line whose first burst fills the queue: its second burst waits for the earliest entry.
TEST(DramScheduleLine, ALineThatFillsTheQueueWaitsWithinItself) {
  EngineParams p = testing::preset_engine(Preset::Ddr4_2400, 1, 1, Scheduler::FrFcfs, PagePolicy::Closed);
  p.queue_depth = 2;
  TimingEngine line(p);
  TimingEngine bursts(p);
  BurstRequest one;
  one.bank = 5;
  BurstResult single;
  line.schedule_line(one, 1, &single);
  EXPECT_PRED2(same, bursts.schedule(one), single);
  BurstRequest r;
  r.row = 9;
  r.op = Op::Write;
  BurstResult got[3];
  line.schedule_line(r, 3, got);
  EXPECT_EQ(got[0].admitted, 0);
  EXPECT_EQ(got[1].admitted, single.data_end);
  EXPECT_EQ(got[2].admitted, got[0].data_end);
  for (const BurstResult& want : got) EXPECT_PRED2(same, bursts.schedule(r), want);
}

}  // namespace
}  // namespace par::dram
