// Timeline recording: interning, bounds, time window. The JSON writer is timeline_json.cpp.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <set>
#include <stdexcept>

#include "par/trace/timeline.hpp"

namespace par::trace {

namespace {

constexpr std::size_t kMaxArgs = std::numeric_limits<std::uint8_t>::max();
constexpr std::size_t kMaxCategories = std::numeric_limits<std::uint16_t>::max() + std::size_t{1};

std::uint64_t bits_of(double value) {
  std::uint64_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

}  // namespace

Timeline::Timeline(TimelineLimits limits) : limits_(std::move(limits)) {
  counter_category_ = category("counter").index;
}

TrackId Timeline::track(std::string_view process, std::string_view thread) {
  const auto key = std::make_pair(std::string(process), std::string(thread));
  if (const auto it = track_ids_.find(key); it != track_ids_.end()) return TrackId{it->second};
  std::uint32_t p = 0;
  while (p < processes_.size() && processes_[p].name != process) ++p;
  if (p == processes_.size()) processes_.push_back(Process{std::string(process), {}});
  const auto id = static_cast<std::uint32_t>(tracks_.size());
  tracks_.push_back(Track{p, std::string(thread)});
  processes_[p].tracks.push_back(id);
  track_ids_.emplace(key, id);
  return TrackId{id};
}

void Timeline::set_process_sort_index(std::string_view process, int index) {
  process_sort_index_[std::string(process)] = index;
}

CategoryId Timeline::category(std::string_view text) {
  const std::uint32_t id = categories_.intern(text);
  if (id == category_counts_.size()) {
    if (id == kMaxCategories) throw std::invalid_argument("timeline: more than 65536 categories");
    const auto cap = limits_.category_max.find(text);
    const bool enabled = limits_.categories.empty() || limits_.categories.count(text) != 0;
    category_counts_.push_back(
        CategoryCount{cap == limits_.category_max.end() ? kEndOfTime : cap->second, enabled});
  }
  return CategoryId{id};
}

void Timeline::check_track(TrackId track) const {
  if (track.index >= tracks_.size()) {
    throw std::invalid_argument("timeline: unknown track id " + std::to_string(track.index));
  }
}

void Timeline::check_ids(NameId name, CategoryId category) const {
  if (name.index >= names_.size()) {
    throw std::invalid_argument("timeline: unknown name id " + std::to_string(name.index));
  }
  if (category.index >= category_counts_.size()) {
    throw std::invalid_argument("timeline: unknown category id " + std::to_string(category.index));
  }
}

bool Timeline::in_window(Ps begin, Ps end) const noexcept {
  if (begin >= limits_.to) return false;
  // Overlap of [begin, end) with [from, to); a zero-length interval is a point.
  return end > limits_.from || (begin == end && begin >= limits_.from);
}

bool Timeline::wanted(std::uint32_t category) {
  if (category_counts_[category].enabled) return true;
  ++filtered_out_;
  return false;
}

bool Timeline::admit(std::uint32_t category, Ps t) {
  CategoryCount& c = category_counts_[category];
  if (events_.size() >= limits_.max_events || c.recorded >= c.cap) {
    ++c.dropped;
    ++dropped_;
    first_dropped_ = std::min(first_dropped_, t);
    return false;
  }
  ++c.recorded;
  return true;
}

void Timeline::push(Phase phase, TrackId track, std::uint32_t name, std::uint32_t category, Ps ts,
                    std::uint64_t extra, Args args) {
  if (args.size() > kMaxArgs) throw std::invalid_argument("timeline: more than 255 arguments");
  const auto args_begin = static_cast<std::uint32_t>(args_.size());
  for (const Arg& a : args) {
    std::uint64_t bits = 0;
    switch (a.kind()) {
      case Arg::Kind::Int: bits = static_cast<std::uint64_t>(a.int_value()); break;
      case Arg::Kind::Uint:
      case Arg::Kind::Hex: bits = a.uint_value(); break;
      case Arg::Kind::Real: bits = bits_of(a.real_value()); break;
      case Arg::Kind::Bool: bits = a.bool_value() ? 1 : 0; break;
      case Arg::Kind::Text: bits = names_.intern(a.text()); break;
    }
    args_.push_back(StoredArg{bits, names_.intern(a.key()), a.kind()});
  }
  events_.push_back(Event{ts, extra, track.index, name, args_begin,
                          static_cast<std::uint16_t>(category),
                          static_cast<std::uint8_t>(args.size()), phase});
}

void Timeline::interval(TrackId track, std::string_view name, std::string_view category_text,
                        Ps begin, Ps end, Args args) {
  check_track(track);
  const std::uint32_t cat = category(category_text).index;
  if (!wanted(cat)) return;
  if (end < begin) end = begin;
  if (!in_window(begin, end)) {
    ++outside_window_;
    return;
  }
  if (!admit(cat, begin)) return;
  push(Phase::Complete, track, names_.intern(name), cat, begin, end - begin, args);
}

void Timeline::interval(TrackId track, NameId name, CategoryId cat, Ps begin, Ps end, Args args) {
  check_track(track);
  check_ids(name, cat);
  if (!wanted(cat.index)) return;
  if (end < begin) end = begin;
  if (!in_window(begin, end)) {
    ++outside_window_;
    return;
  }
  if (!admit(cat.index, begin)) return;
  push(Phase::Complete, track, name.index, cat.index, begin, end - begin, args);
}

void Timeline::instant(TrackId track, std::string_view name, std::string_view category_text, Ps t,
                       Args args) {
  check_track(track);
  const std::uint32_t cat = category(category_text).index;
  if (!wanted(cat)) return;
  if (!in_window(t, t)) {
    ++outside_window_;
    return;
  }
  if (!admit(cat, t)) return;
  push(Phase::Instant, track, names_.intern(name), cat, t, 0, args);
}

void Timeline::instant(TrackId track, NameId name, CategoryId cat, Ps t, Args args) {
  check_track(track);
  check_ids(name, cat);
  if (!wanted(cat.index)) return;
  if (!in_window(t, t)) {
    ++outside_window_;
    return;
  }
  if (!admit(cat.index, t)) return;
  push(Phase::Instant, track, name.index, cat.index, t, 0, args);
}

void Timeline::counter(TrackId track, std::string_view name, Ps t, double value) {
  check_track(track);
  record_counter(track, names_.intern(name), t, value);
}

void Timeline::counter(TrackId track, NameId name, Ps t, double value) {
  check_track(track);
  check_ids(name, CategoryId{counter_category_});
  record_counter(track, name.index, t, value);
}

void Timeline::record_counter(TrackId track, std::uint32_t name, Ps t, double value) {
  counter_used_ = true;
  if (!wanted(counter_category_)) return;
  if (!std::isfinite(value)) {  // not a bound: the trace stays complete
    ++category_counts_[counter_category_].dropped;
    ++dropped_;
    return;
  }
  if (t < limits_.from) {
    // Remember the latest value before the window (calls may arrive out of time order).
    ++outside_window_;
    const std::uint64_t key = (std::uint64_t{track.index} << 32) | name;
    auto [it, fresh] = counters_before_window_.try_emplace(key, CounterBeforeWindow{t, value});
    if (!fresh && t >= it->second.t) it->second = CounterBeforeWindow{t, value};
    return;
  }
  if (!in_window(t, t)) {
    ++outside_window_;
    return;
  }
  if (limits_.counter_interval > 0) {
    sample_counter(track, name, t, value);
    return;
  }
  keep_counter(track, name, t, value);
}

bool Timeline::keep_counter(TrackId track, std::uint32_t name, Ps t, double value) {
  if (!admit(counter_category_, t)) return false;
  push(Phase::Counter, track, name, counter_category_, t, bits_of(value), {});
  return true;
}

// Counters under counter_interval (README "Counters"): one sample per series and interval of time
// (buckets [k * interval, (k + 1) * interval)). The first sample of a bucket is kept at its time;
// later samples of the bucket (in any call order) update that sample to the value of the latest
// of them in time. A bucket's first sample that equals the series' latest value is merged.
void Timeline::sample_counter(TrackId track, std::uint32_t name, Ps t, double value) {
  const std::uint64_t series = (std::uint64_t{track.index} << 32) | name;
  const BucketKey key{series, t / limits_.counter_interval};
  CounterSeries& c = series_[series];
  const auto update_latest = [&] {
    if (!c.kept || t >= c.t) c = CounterSeries{t, value, true};
  };
  if (const auto it = buckets_.find(key); it != buckets_.end()) {
    ++counters_merged_;
    CounterBucket& b = it->second;
    if (t >= b.latest) {
      b.latest = t;
      events_.at(b.event).extra = bits_of(value);
    }
    update_latest();
    return;
  }
  if (c.kept && t >= c.t && value == c.value) {
    ++counters_merged_;
    return;
  }
  if (!keep_counter(track, name, t, value)) return;
  buckets_.emplace(key, CounterBucket{events_.size() - 1, t});
  update_latest();
}

void Timeline::set_info(std::string_view key, std::string_view value) {
  if (key == "trace") throw std::invalid_argument("timeline: info key 'trace' is reserved");
  for (auto& kv : info_) {
    if (kv.first == key) {
      kv.second = std::string(value);
      return;
    }
  }
  info_.emplace_back(std::string(key), std::string(value));
}

std::uint64_t Timeline::recorded(std::string_view category_text) const {
  const auto id = categories_.find(category_text);
  return id ? category_counts_[*id].recorded : 0;
}

std::uint64_t Timeline::dropped(std::string_view category_text) const {
  const auto id = categories_.find(category_text);
  return id ? category_counts_[*id].dropped : 0;
}

std::vector<std::pair<std::string, std::uint64_t>> Timeline::dropped_by_category() const {
  std::vector<std::pair<std::string, std::uint64_t>> out;
  for (std::uint32_t c = 0; c < category_counts_.size(); ++c) {
    if (category_counts_[c].dropped != 0) {
      out.emplace_back(categories_.text(c), category_counts_[c].dropped);
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> Timeline::unused_categories() const {
  std::set<std::string> named(limits_.categories.begin(), limits_.categories.end());
  for (const auto& [cat, cap] : limits_.category_max) named.insert(cat);
  std::vector<std::string> out;
  for (const std::string& cat : named) {
    // "counter" is interned by the constructor; it counts as used once counter() was called.
    const auto id = categories_.find(cat);
    const bool used = id && (*id != counter_category_ || counter_used_);
    if (!used) out.push_back(cat);
  }
  return out;
}

std::size_t Timeline::memory_bytes() const noexcept {
  return events_.memory_bytes() + args_.memory_bytes() +
         names_.memory_bytes() + categories_.memory_bytes() +
         category_counts_.capacity() * sizeof(CategoryCount);
}

}  // namespace par::trace
