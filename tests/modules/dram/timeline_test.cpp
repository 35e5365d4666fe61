// The engine's reservation containers: the searches from the back and from a hint must find
// exactly the partition point std::partition_point finds, wherever it lies, on sorted timelines
// with repeated ticks and a retired prefix; the command-bus bitmap must answer like a sorted set
// of slots, across word boundaries, far bookings and retirement.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <set>
#include <vector>

#include "timeline.hpp"

namespace par::dram {
namespace {

TEST(DramTimeline, SearchesFromTheBackAndFromAHintFindThePartitionPointOfABinarySearch) {
  std::mt19937_64 rnd(7);
  for (int round = 0; round < 300; ++round) {
    std::vector<std::int64_t> v(rnd() % 70);
    for (auto& x : v) x = static_cast<std::int64_t>(rnd() % 50);
    std::sort(v.begin(), v.end());
    for (std::int64_t t = -2; t <= 52; ++t) {
      const auto before = [t](std::int64_t x) { return x < t; };
      const auto want = std::partition_point(v.begin(), v.end(), before);
      const auto hint = v.begin() + static_cast<std::ptrdiff_t>(rnd() % (v.size() + 1));
      EXPECT_EQ(partition_point_from_back(v.begin(), v.end(), before), want) << "size " << v.size() << ", t " << t;
      EXPECT_EQ(partition_point_near(v.begin(), v.end(), hint, before), want)
          << "size " << v.size() << ", t " << t << ", hint " << hint - v.begin();
    }
  }
}

TEST(DramTimeline, SlotBitmapAnswersLikeASortedSetOfSlots) {
  std::mt19937_64 rnd(12);
  SlotBitmap bus;
  std::set<std::int64_t> model;
  std::int64_t retired = 0;
  for (int i = 0; i < 4000; ++i) {
    // Mostly runs of slots near a moving front, sometimes far ahead (beyond the bitmap's reach:
    // the overflow list) or a retire.
    const std::int64_t front = retired + (retired & 1) + 600;  // slots are even ticks
    std::int64_t t = front + 2 * static_cast<std::int64_t>(rnd() % 300);
    if (rnd() % 200 == 0) t = front + 2 * static_cast<std::int64_t>((std::int64_t{1} << 23) + rnd() % 1000);
    if (rnd() % 300 == 0) t = front - 600 + 2 * static_cast<std::int64_t>(rnd() % 8);  // just at the retire point
    bus.book(t);
    model.insert(t);
    if (rnd() % 40 == 0) {
      retired += 2 * static_cast<std::int64_t>(rnd() % 200) + static_cast<std::int64_t>(rnd() % 2);
      bus.retire_before(retired);
      model.erase(model.begin(), model.lower_bound(retired));
    }
    ASSERT_EQ(bus.size(), model.size()) << "step " << i;
    for (int k = 0; k < 4; ++k) {
      std::int64_t q = retired + (retired & 1) + 2 * static_cast<std::int64_t>(rnd() % 1200);
      if (k == 3 && !model.empty()) q = *std::prev(model.end()) - 2 * static_cast<std::int64_t>(rnd() % 4);
      EXPECT_EQ(bus.booked(q), model.count(q) == 1) << "step " << i << ", slot " << q;
      std::int64_t free = q;
      while (model.count(free) != 0) free += 2;
      EXPECT_EQ(bus.first_free(q), free) << "step " << i << ", from " << q;
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
