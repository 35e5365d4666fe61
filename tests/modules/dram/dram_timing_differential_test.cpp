// The timing engine against a brute-force model of its rules (reference_engine.hpp) over many
// short random request streams: every preset, both schedulers, both page policies, several ranks
// and channels, spacings longer than two bursts, refresh on and off. Every field of every result
// must be equal; the engine's fast paths (shortcuts over its reservations) may never change a
// single time.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "dram_config.hpp"
#include "dram_timing.hpp"
#include "random_streams.hpp"
#include "reference_engine.hpp"

namespace par::dram {
namespace {

using testing::preset_engine;

using testing::same;
using testing::show;

// One random stream (testing::RandomStream) into both. Returns the first difference.
std::string compare(const EngineParams& p, std::uint64_t seed, int requests) {
  TimingEngine engine(p);
  testing::ReferenceEngine reference(p);
  testing::RandomStream stream(p, seed);
  for (int i = 0; i < requests; ++i) {
    if (stream.advance()) engine.retire(stream.now());
    const BurstRequest r = stream.next();
    const BurstResult got = engine.schedule(r);
    const BurstResult want = reference.schedule(r);
    if (!same(got, want))
      return "seed " + std::to_string(seed) + " request " + std::to_string(i) + " (" + testing::show(r) +
             "): engine " + show(got) + ", reference " + show(want);
  }
  return "";
}

TEST(DramTimingDifferential, EveryPresetSchedulerAndPagePolicyMatchesTheBruteForceModel) {
  int streams = 0;
  std::uint64_t seed = 100;
  for (Preset preset : {Preset::Lpddr3_1866, Preset::Ddr_333, Preset::Ddr3_1600, Preset::Ddr4_2400})
    for (Scheduler s : {Scheduler::FrFcfs, Scheduler::Fcfs})
      for (PagePolicy page : {PagePolicy::Open, PagePolicy::Closed})
        for (unsigned ranks : {1u, 2u})
          for (int i = 0; i < 3; ++i) {
            EngineParams p = preset_engine(preset, 1 + (i & 1), ranks, s, page);
            p.queue_depth = i == 2 ? 4 : p.queue_depth;  // a small queue: admission waits
            const std::string diff = compare(p, seed++, 300);
            ASSERT_EQ(diff, "") << to_string(s) << ", " << to_string(page) << ", " << ranks << " ranks";
            ++streams;
          }
  EXPECT_EQ(streams, 96);
}

// Spacings no preset has (a turnaround or a tCCD_L longer than two bursts), odd latencies, no
// refresh, no tFAW.
TEST(DramTimingDifferential, UnusualTimingsMatchTheBruteForceModel) {
  std::uint64_t seed = 1000;
  for (int variant = 0; variant < 6; ++variant)
    for (Scheduler s : {Scheduler::FrFcfs, Scheduler::Fcfs})
      for (PagePolicy page : {PagePolicy::Open, PagePolicy::Closed}) {
        EngineParams p;
        p.channels = 2;
        p.ranks = 2;
        p.scheduler = s;
        p.page_policy = page;
        switch (variant) {
          case 0: p.tRTRS = 12; break;
          case 1: p.banks = 16; p.bank_groups = 4; p.tCCD_L = 20; break;
          case 2: p.refresh = false; p.tFAW = 0; break;
          case 3: p.tCL = 23; p.tDQSCK = 3; p.tCWL = 9; p.queue_depth = 2; break;
          case 4: p.tREFI = 900; p.tRFC = 300; break;  // refresh often in the way
          case 5: p.banks = 4; p.tRTRS = 0; p.tCCD = 12; break;
        }
        const std::string diff = compare(p, seed++, 300);
        ASSERT_EQ(diff, "") << "variant " << variant << ", " << to_string(s) << ", " << to_string(page);
      }
}

}  // namespace
}  // namespace par::dram
