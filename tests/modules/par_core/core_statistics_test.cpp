// The core's statistics group (CoreStatistics): every update sets every counter from the
// statistics it is given alone, the thread-context counters included, so a core that got no
// threads (no context entries yet) shows zeros and null ratios, never an earlier update's values.
#include <gtest/gtest.h>

#include <string>

#include "core_statistics.hpp"

namespace par::core {
namespace {

const std::string kMemoryWait = idle_cause_name(IdleCause::MemoryWait);

CoreStats two_contexts_ran() {
  CoreStats s;
  s.cycles = 100;
  s.rounds = 2;
  s.threads = 8;
  s.contexts.resize(2);
  s.contexts[0].slots = 5;
  s.contexts[0].rounds = 1;
  s.contexts[1].slots = 7;
  s.contexts[1].rounds = 1;
  s.contexts[1].idle[0][static_cast<std::size_t>(IdleCause::MemoryWait)] = 30;
  return s;
}

TEST(CoreStatistics, ACoreWithoutThreadsShowsZerosWhateverCameBefore) {
  CoreStatistics stats("core0", 1, 4, 16, 2);
  stats.update(two_contexts_ran());
  simkit::Json j = stats.group().to_json();
  EXPECT_EQ(j["contexts"]["c1"]["slots"]["value"].get<std::int64_t>(), 7);
  EXPECT_EQ(j["contexts"]["c1"]["idle"]["alu"][kMemoryWait]["value"].get<std::int64_t>(), 30);
  EXPECT_EQ(j["contexts"]["idle"]["alu"][kMemoryWait]["value"].get<std::int64_t>(), 30);
  EXPECT_DOUBLE_EQ(j["contexts"]["idle"]["alu"][kMemoryWait + "_share"]["value"].get<double>(), 30.0 / (2 * 100));

  stats.update(CoreStats());  // no packet: no context entries
  j = stats.group().to_json();
  EXPECT_EQ(j["cycles"]["value"].get<std::int64_t>(), 0);
  EXPECT_EQ(j["threads"]["value"].get<std::int64_t>(), 0);
  for (const char* c : {"c0", "c1"}) {
    EXPECT_EQ(j["contexts"][c]["slots"]["value"].get<std::int64_t>(), 0) << c;
    EXPECT_EQ(j["contexts"][c]["rounds"]["value"].get<std::int64_t>(), 0) << c;
    EXPECT_EQ(j["contexts"][c]["idle"]["alu"][kMemoryWait]["value"].get<std::int64_t>(), 0) << c;
  }
  EXPECT_EQ(j["contexts"]["idle"]["alu"][kMemoryWait]["value"].get<std::int64_t>(), 0);
  EXPECT_TRUE(j["contexts"]["idle"]["alu"][kMemoryWait + "_share"]["value"].is_null());  // 0 / 0 cycles
  EXPECT_TRUE(j["ipc"]["value"].is_null());
}

}  // namespace
}  // namespace par::core
