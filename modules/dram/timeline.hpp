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

// The rare branch of a hot inline function: kept out of line so that the common case stays a few
// instructions without a stack frame.
#define PAR_DRAM_COLD __attribute__((noinline, cold))

// std::partition_point (the first element for which `before`, true on a prefix, is false), found
// from the back: the engine asks mostly about times near its latest reservations, so this takes a
// few steps where a binary search over the whole backlog takes log2 of its length. The point is
// most often the end itself or a few elements before it (an append, a search near the latest
// booking): the last 16 are looked at one by one, which costs less than a gallop's first steps and
// its binary search (16 measured fewer host instructions on l2-dram-bench than 8 or 32); beyond
// them, it gallops.
template <class It, class Before>
It partition_point_from_back(It first, It last, Before before) {
  constexpr int kWalk = 16;
  It hi = last;  // every element from hi on is past the point
  for (int k = 0; k < kWalk; ++k) {
    if (hi == first || before(*(hi - 1))) return hi;
    --hi;
  }
  std::ptrdiff_t step = 1;
  while (hi - first > step && !before(*(hi - step))) {
    hi -= step;
    step *= 2;
  }
  return std::partition_point(hi - first > step ? hi - step : first, hi, before);
}

// The same, galloping from `hint` in whichever direction the point lies: for a caller whose
// successive questions are about nearby times, with the point last found as the hint.
template <class It, class Before>
It partition_point_near(It first, It last, It hint, Before before) {
  if (hint < first || hint > last) hint = first;
  std::ptrdiff_t step = 1;
  if (hint != last && before(*hint)) {  // the point is after hint
    It lo = hint + 1;  // every element before lo is before the point
    while (last - lo > step && before(*(lo + step - 1))) {
      lo += step;
      step *= 2;
    }
    return std::partition_point(lo, last - lo > step ? lo + step : last, before);
  }
  It hi = hint;  // every element from hi on is past the point
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
  void pop_front() { drop_front(1); }
  // Retires the first n live items.
  void drop_front(std::size_t n) {
    head_ += n;
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

// The command bus: a set of clock edges (even ticks), one bit each in 64-bit words over the booked
// span, so that "is this slot taken" and "the first free slot from here" take a few instructions
// (a word and a count of trailing ones) instead of a search and a walk over a sorted timeline.
// Bookings are nearly always within a few thousand ticks of the retire point; one that would
// stretch the words beyond kMaxWords (an arrival far ahead with no retire in between) is kept in a
// sorted overflow list instead, so memory stays bounded whatever the times.
class SlotBitmap {
 public:
  bool booked(std::int64_t t) const {
    const std::int64_t s = t >> 1;
    const std::int64_t w = (s >> 6) - base_;
    if (w >= 0 && w < words()) return (words_[static_cast<std::size_t>(w)] >> (s & 63)) & 1;
    return std::binary_search(far_.begin(), far_.end(), t);
  }
  // The first free slot at or after the clock edge t.
  std::int64_t first_free(std::int64_t t) const {
    const std::int64_t s = t >> 1;
    const std::int64_t w = (s >> 6) - base_;
    if (w >= 0 && w < words()) {  // nearly always: a free slot later in t's own word
      const std::uint64_t free = ~words_[static_cast<std::size_t>(w)] >> (s & 63);
      if (free != 0) return t + 2 * __builtin_ctzll(free);
    }
    return first_free_beyond(t);
  }
  // first_free() where t's word has no free slot from t on, or t is outside the words.
  PAR_DRAM_COLD std::int64_t first_free_beyond(std::int64_t t) const {
    for (;;) {
      std::int64_t s = t >> 1;
      std::int64_t w = (s >> 6) - base_;
      if (w >= 0 && w < words()) {
        std::uint64_t free = ~words_[static_cast<std::size_t>(w)] >> (s & 63);  // bit 0: slot s
        while (free == 0) {  // the rest of the word is booked
          s = (s | 63) + 1;
          if (++w == words()) break;
          free = ~words_[static_cast<std::size_t>(w)];
        }
        if (free != 0) return (s + __builtin_ctzll(free)) * 2;
        t = s * 2;  // booked to the end of the words
      }
      // Outside the words: only the overflow list can hold t.
      if (!std::binary_search(far_.begin(), far_.end(), t)) return t;
      t += 2;
    }
  }
  void book(std::int64_t t) {
    const std::int64_t s = t >> 1;
    const std::int64_t w = (s >> 6) - base_;
    if (w >= 0 && w < words())  // within the words (nearly always)
      words_[static_cast<std::size_t>(w)] |= std::uint64_t{1} << (s & 63);
    else
      book_outside(t);
  }
  // Forgets every slot before h.
  void retire_before(std::int64_t h) {
    const std::int64_t s = (h + 1) >> 1;  // the first slot at or after h
    while (!words_.empty() && (base_ + 1) * 64 <= s) {
      words_.pop_front();
      ++base_;
    }
    if (!words_.empty() && (s >> 6) == base_) words_.front() &= ~std::uint64_t{0} << (s & 63);
    far_.erase(far_.begin(), std::lower_bound(far_.begin(), far_.end(), h));
  }
  std::size_t size() const {
    std::size_t n = far_.size();
    for (std::uint64_t w : words_) n += static_cast<std::size_t>(__builtin_popcountll(w));
    return n;
  }

 private:
  static constexpr std::int64_t kMaxWords = std::int64_t{1} << 16;  // 4 M slots
  std::int64_t words() const { return static_cast<std::int64_t>(words_.size()); }
  void add_far(std::int64_t t) { far_.insert(std::upper_bound(far_.begin(), far_.end(), t), t); }
  // A booking outside the words: they grow (at either end) to hold it, or it goes to far_. No
  // far_ booking ever lies within the words' span (those move into the words as they grow).
  PAR_DRAM_COLD void book_outside(std::int64_t t) {
    const std::int64_t w = t >> 1 >> 6;
    if (words_.empty()) base_ = w;
    const std::int64_t first = std::min(w, base_);
    const std::int64_t last = std::max(w, base_ + words() - 1);
    if (last - first >= kMaxWords) return add_far(t);
    for (; base_ > first; --base_) words_.insert(0, 0);
    while (base_ + words() <= last) words_.push_back(0);
    const auto lo = std::lower_bound(far_.begin(), far_.end(), base_ * 128);
    const auto hi = std::lower_bound(lo, far_.end(), (base_ + words()) * 128);
    for (auto it = lo; it != hi; ++it) set(*it);
    far_.erase(lo, hi);
    set(t);
  }
  void set(std::int64_t t) {
    const std::int64_t s = t >> 1;
    words_[static_cast<std::size_t>((s >> 6) - base_)] |= std::uint64_t{1} << (s & 63);
  }

  RetiringVector<std::uint64_t> words_;
  std::int64_t base_ = 0;       // word index of words_[0] (slot / 64)
  std::vector<std::int64_t> far_;  // sorted bookings outside the words' span
};

// A reservation timeline: entries sorted by tick.
template <class V>
class Timeline {
 public:
  // A plain aggregate, not a std::pair (whose assignment is user-provided): inserting before the
  // end moves the entries after it with one memmove instead of one assignment each.
  struct Entry {
    std::int64_t first;
    V second;
  };
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
      entries_.push_back(Entry{t, std::move(v)});
      return;
    }
    entries_.insert(static_cast<std::size_t>(upper_bound(t) - begin()), Entry{t, std::move(v)});
  }
  // insert() where the caller knows the position: `pos` is upper_bound(t) - begin().
  void insert_at(std::size_t pos, std::int64_t t, V v) { entries_.insert(pos, Entry{t, std::move(v)}); }
  // Drops entries from the front while `pred(entry)` holds.
  template <class Pred>
  void erase_front_while(Pred pred) {
    std::size_t n = 0;
    while (n < entries_.size() && pred(entries_[n])) ++n;
    if (n != 0) entries_.drop_front(n);
  }

 private:
  template <class Before>
  const_iterator search_from_back(Before before) const {
    return partition_point_from_back(begin(), end(), before);
  }

  RetiringVector<Entry> entries_;
};

}  // namespace par::dram
