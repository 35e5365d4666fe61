// A reservation timeline: entries sorted by tick in a deque. Reservations are nearly always made
// close to the end and retired from the front, so this beats a std::map (no node allocation or
// rebalancing) while keeping ordered, binary-searchable access for gap searches.
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <utility>

namespace par::dram {

template <class V>
class Timeline {
 public:
  using Entry = std::pair<std::int64_t, V>;
  using const_iterator = typename std::deque<Entry>::const_iterator;

  const_iterator begin() const { return entries_.begin(); }
  const_iterator end() const { return entries_.end(); }
  bool empty() const { return entries_.empty(); }
  std::size_t size() const { return entries_.size(); }
  const Entry& front() const { return entries_.front(); }

  // First entry with tick >= t / > t.
  const_iterator lower_bound(std::int64_t t) const {
    return std::partition_point(begin(), end(), [t](const Entry& e) { return e.first < t; });
  }
  const_iterator upper_bound(std::int64_t t) const {
    return std::partition_point(begin(), end(), [t](const Entry& e) { return e.first <= t; });
  }
  bool contains(std::int64_t t) const {
    const auto it = lower_bound(t);
    return it != end() && it->first == t;
  }
  // Keeps the order (after entries with the same tick).
  void insert(std::int64_t t, V v) {
    if (entries_.empty() || entries_.back().first <= t) {
      entries_.emplace_back(t, std::move(v));
      return;
    }
    const auto pos = upper_bound(t) - begin();
    entries_.emplace(entries_.begin() + pos, t, std::move(v));
  }
  // Drops entries from the front while `pred(entry)` holds.
  template <class Pred>
  void erase_front_while(Pred pred) {
    while (!entries_.empty() && pred(entries_.front())) entries_.pop_front();
  }

 private:
  std::deque<Entry> entries_;
};

}  // namespace par::dram
