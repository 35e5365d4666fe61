// The engine's reservation containers: the search from the back must find exactly the partition
// point std::partition_point finds, wherever it lies, on sorted timelines with repeated ticks and
// a retired prefix.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "timeline.hpp"

namespace par::dram {
namespace {

TEST(DramTimeline, SearchFromTheBackFindsThePartitionPointOfABinarySearch) {
  std::mt19937_64 rnd(7);
  for (int round = 0; round < 300; ++round) {
    std::vector<std::int64_t> v(rnd() % 70);
    for (auto& x : v) x = static_cast<std::int64_t>(rnd() % 50);
    std::sort(v.begin(), v.end());
    for (std::int64_t t = -2; t <= 52; ++t) {
      const auto before = [t](std::int64_t x) { return x < t; };
      EXPECT_EQ(partition_point_from_back(v.begin(), v.end(), before),
                std::partition_point(v.begin(), v.end(), before))
          << "size " << v.size() << ", t " << t;
    }
  }
}

TEST(DramTimeline, BoundsAndInsertionOrderMatchASortedVector) {
  std::mt19937_64 rnd(11);
  Timeline<int> line;
  std::vector<std::pair<std::int64_t, int>> model;  // the same entries, kept by std algorithms
  for (int i = 0; i < 2000; ++i) {
    // Mostly near the end, sometimes well before it (a back-fill), sometimes a retire.
    const std::int64_t last = model.empty() ? 0 : model.back().first;
    const std::int64_t t = last - static_cast<std::int64_t>(rnd() % (rnd() % 8 == 0 ? 200 : 6)) + 3;
    line.insert(t, i);
    model.insert(std::upper_bound(model.begin(), model.end(), t,
                                  [](std::int64_t x, const auto& e) { return x < e.first; }),
                 {t, i});
    if (rnd() % 16 == 0) {
      const std::int64_t h = model.front().first + static_cast<std::int64_t>(rnd() % 40);
      line.erase_front_while([h](const auto& e) { return e.first < h; });
      while (!model.empty() && model.front().first < h) model.erase(model.begin());
    }
    ASSERT_EQ(line.size(), model.size());
    const std::int64_t q = t - 20 + static_cast<std::int64_t>(rnd() % 40);
    const auto lo = std::lower_bound(model.begin(), model.end(), q,
                                     [](const auto& e, std::int64_t x) { return e.first < x; });
    const auto hi = std::upper_bound(model.begin(), model.end(), q,
                                     [](std::int64_t x, const auto& e) { return x < e.first; });
    EXPECT_EQ(line.lower_bound(q) - line.begin(), lo - model.begin()) << "step " << i;
    EXPECT_EQ(line.upper_bound(q) - line.begin(), hi - model.begin()) << "step " << i;
  }
  ASSERT_EQ(line.size(), model.size());
  for (std::size_t i = 0; i < model.size(); ++i) {
    EXPECT_EQ(line.begin()[i].first, model[i].first);
    EXPECT_EQ(line.begin()[i].second, model[i].second);  // equal ticks keep their insertion order
  }
}

}  // namespace
}  // namespace par::dram
