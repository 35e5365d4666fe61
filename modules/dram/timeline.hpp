// Reservation containers of the timing engine. Reservations are nearly always made close to the
// end and retired from the front, and the gap searches binary-search them several times per burst:
// one contiguous array whose retired prefix is only skipped (dropped once it is as long as the live
// part) keeps those searches on plain pointers, far cheaper than on a std::deque, and an insertion
// before the end moves only the few entries after it.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace par::dram {

// std::partition_point (the first element for which `before`, true on a prefix, is false), found
// by galloping from the back: the engine asks mostly about times near its latest reservations, so
// this takes a few steps where a binary search over the whole backlog takes log2 of its length.
template <class It, class Before>
It partition_point_from_back(It first, It last, Before before) {
  It hi = last;  // every element from hi on is past the point
  std::ptrdiff_t step = 1;
  while (hi - first > step && !before(*(hi - step))) {
    hi -= step;
    step *= 2;
  }
  return std::partition_point(hi - first > step ? hi - step : first, hi, before);
}

// A vector that is retired from the front in O(1) amortised.
template <class T>
class RetiringVector {
 public:
  using iterator = T*;
  using const_iterator = const T*;

  iterator begin() { return items_.data() + head_; }
  iterator end() { return items_.data() + items_.size(); }
  const_iterator begin() const { return items_.data() + head_; }
  const_iterator end() const { return items_.data() + items_.size(); }
  bool empty() const { return head_ == items_.size(); }
  std::size_t size() const { return items_.size() - head_; }
  T& operator[](std::size_t i) { return items_[head_ + i]; }
  const T& operator[](std::size_t i) const { return items_[head_ + i]; }
  T& front() { return items_[head_]; }
  const T& front() const { return items_[head_]; }
  T& back() { return items_.back(); }
  const T& back() const { return items_.back(); }

  void push_back(T x) { items_.push_back(std::move(x)); }
  // Inserts before position `pos` (0 = the first live item).
  void insert(std::size_t pos, T x) {
    items_.insert(items_.begin() + static_cast<std::ptrdiff_t>(head_ + pos), std::move(x));
  }
  void pop_front() {
    ++head_;
    if (head_ == items_.size()) {
      items_.clear();
      head_ = 0;
    } else if (head_ >= kCompactAt && 2 * head_ >= items_.size()) {
      items_.erase(items_.begin(), items_.begin() + static_cast<std::ptrdiff_t>(head_));
      head_ = 0;
    }
  }

 private:
  static constexpr std::size_t kCompactAt = 64;  // retired items kept before they are dropped
  std::vector<T> items_;
  std::size_t head_ = 0;  // first live item
};

// A reservation timeline: entries sorted by tick.
template <class V>
class Timeline {
 public:
  using Entry = std::pair<std::int64_t, V>;
  using const_iterator = const Entry*;

  const_iterator begin() const { return entries_.begin(); }
  const_iterator end() const { return entries_.end(); }
  bool empty() const { return entries_.empty(); }
  std::size_t size() const { return entries_.size(); }
  const Entry& front() const { return entries_.front(); }
  const Entry& back() const { return entries_.back(); }

  // First entry with tick >= t / > t.
  const_iterator lower_bound(std::int64_t t) const {
    return search_from_back([t](const Entry& e) { return e.first < t; });
  }
  const_iterator upper_bound(std::int64_t t) const {
    return search_from_back([t](const Entry& e) { return e.first <= t; });
  }
  bool contains(std::int64_t t) const {
    const auto it = lower_bound(t);
    return it != end() && it->first == t;
  }
  // Keeps the order (after entries with the same tick).
  void insert(std::int64_t t, V v) {
    if (entries_.empty() || entries_.back().first <= t) {
      entries_.push_back(Entry(t, std::move(v)));
      return;
    }
    entries_.insert(static_cast<std::size_t>(upper_bound(t) - begin()), Entry(t, std::move(v)));
  }
  // Drops entries from the front while `pred(entry)` holds.
  template <class Pred>
  void erase_front_while(Pred pred) {
    while (!entries_.empty() && pred(entries_.front())) entries_.pop_front();
  }

 private:
  template <class Before>
  const_iterator search_from_back(Before before) const {
    return partition_point_from_back(begin(), end(), before);
  }

  RetiringVector<Entry> entries_;
};

}  // namespace par::dram
