// A Chrome / Perfetto timeline of a run (Trace Event Format, JSON object form).
//
// The modules record intervals, instants and counter samples on named tracks while they simulate;
// the platform writes the file at the end. Open it at https://ui.perfetto.dev or chrome://tracing.
//
//   Timeline tl;                                      // platform, only when --trace-timeline
//   TrackId busy = tl.track("core0", "busy");         // module constructor
//   tl.interval(busy, "thread 3", "core", begin_ps, end_ps, {{"pc", 12}});
//   tl.counter(tl.track("link", "h2d"), "queue", t_ps, 3);
//   tl.write_json_file("run.json");
//
// Modules hold a `Timeline*` that is null when tracing is off and test it before every call, or
// hold a TrackRef (below) that does the test inline. Recording is amortised O(1): names and
// categories are interned, an event is 32 bytes, an argument 16 bytes, both in append-only blocks.
//
// Tracks: a track is a (process, thread) pair; processes group rows in the viewer ("core0"),
// threads are the rows ("busy"). Intervals on one track may overlap arbitrarily (outstanding DRAM
// transactions, modules running ahead of each other): when the JSON is written, every track's
// intervals are packed into as few lanes as possible such that each lane is properly nested, and
// each extra lane becomes its own thread row ("ch0 #2", "ch0 #3", ...). See README.md for why this
// and not async events.
//
// Bounds: at most `max_events` events (and optionally at most N per category) are kept; later ones
// are counted as dropped per category, reported by dropped() and in the file's "otherData". An
// optional time window [from, to) keeps only events that touch it, and an optional category list
// keeps only the categories named in it (the others are "filtered out", not "dropped").
//
// Not thread-safe (SystemC runs one process at a time). Misuse by the calling code (an unknown
// track, name or category id, more than 255 arguments) throws std::invalid_argument.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iosfwd>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

#include "par/trace/detail/chunked_vector.hpp"
#include "par/trace/detail/string_table.hpp"
#include "par/trace/time.hpp"

namespace par::trace {

inline constexpr std::uint32_t kInvalidId = 0xffffffffu;

// A (process, thread) row; from Timeline::track().
struct TrackId {
  std::uint32_t index = kInvalidId;
  bool valid() const noexcept { return index != kInvalidId; }
};
// An interned event name or argument key; from Timeline::name(). Saves a hash per call.
struct NameId {
  std::uint32_t index = kInvalidId;
};
// An interned category; from Timeline::category().
struct CategoryId {
  std::uint32_t index = kInvalidId;
};

// One event argument: a key and an integer, real, boolean, text or hexadecimal value. Built at
// the call site ({"bytes", 64}, {"op", "read"}, Arg::hex("addr", a)); keys and texts are interned
// when the event is recorded, so the views only need to live for the call.
class Arg {
 public:
  enum class Kind : std::uint8_t { Int, Uint, Real, Bool, Text, Hex };

  template <class T, std::enable_if_t<std::is_integral_v<T> && std::is_signed_v<T>, int> = 0>
  Arg(std::string_view key, T value) : key_(key), kind_(Kind::Int), int_(value) {}
  template <class T, std::enable_if_t<std::is_integral_v<T> && std::is_unsigned_v<T> &&
                                          !std::is_same_v<T, bool>,
                                      int> = 0>
  Arg(std::string_view key, T value) : key_(key), kind_(Kind::Uint), uint_(value) {}
  Arg(std::string_view key, bool value) : key_(key), kind_(Kind::Bool), bool_(value) {}
  Arg(std::string_view key, double value) : key_(key), kind_(Kind::Real), real_(value) {}
  Arg(std::string_view key, std::string_view text) : key_(key), kind_(Kind::Text), text_(text) {}
  // Needed: a pointer would otherwise convert to bool before it converts to a string_view.
  Arg(std::string_view key, const char* text) : Arg(key, std::string_view(text)) {}
  Arg(std::string_view key, const std::string& text) : Arg(key, std::string_view(text)) {}
  // Written as the string "0x..." (addresses).
  static Arg hex(std::string_view key, std::uint64_t value) {
    Arg a(key, value);
    a.kind_ = Kind::Hex;
    return a;
  }

  std::string_view key() const noexcept { return key_; }
  Kind kind() const noexcept { return kind_; }
  std::int64_t int_value() const noexcept { return int_; }
  std::uint64_t uint_value() const noexcept { return uint_; }  // Uint and Hex
  double real_value() const noexcept { return real_; }
  bool bool_value() const noexcept { return bool_; }
  std::string_view text() const noexcept { return text_; }

 private:
  std::string_view key_;
  Kind kind_;
  union {
    std::int64_t int_;
    std::uint64_t uint_;
    double real_;
    bool bool_;
  };
  std::string_view text_;
};

using Args = std::initializer_list<Arg>;

struct TimelineLimits {
  // Events kept in total (metadata not counted).
  std::uint64_t max_events = 1'000'000;
  // Categories recorded; empty: all. Counters are category "counter".
  std::set<std::string, std::less<>> categories;
  // Optional caps per category name ("dram" -> 10000); categories not listed have none.
  std::map<std::string, std::uint64_t, std::less<>> category_max;
  // Keep only events that touch [from, to): intervals that overlap it (kept whole, not clipped),
  // instants and counter samples inside it. Each counter's last value before `from` is written
  // at `from`, so counters start at the right level.
  Ps from = 0;
  Ps to = kEndOfTime;
  // Counter samples: 0 keeps every call; otherwise at most one sample per counter series and
  // interval of this many ps, and only changes (README "Counters").
  Ps counter_interval = 0;
};

class Timeline {
 public:
  explicit Timeline(TimelineLimits limits = {});

  // The track for (process, thread), created on first use; the same pair gives the same id.
  // Processes and threads are listed in the viewer in creation order (see set_process_sort_index).
  TrackId track(std::string_view process, std::string_view thread);
  // Overrides the creation order of processes: lower first; unlisted processes keep their
  // creation index. May be called before the process exists.
  void set_process_sort_index(std::string_view process, int index);

  NameId name(std::string_view text) { return NameId{names_.intern(text)}; }
  CategoryId category(std::string_view text);

  // A span of time [begin, end] on a track. end < begin is a caller bug and records zero length.
  void interval(TrackId track, std::string_view name, std::string_view category, Ps begin, Ps end,
                Args args = {});
  void interval(TrackId track, NameId name, CategoryId category, Ps begin, Ps end, Args args = {});
  // A point in time on a track.
  void instant(TrackId track, std::string_view name, std::string_view category, Ps t,
               Args args = {});
  void instant(TrackId track, NameId name, CategoryId category, Ps t, Args args = {});
  // A sample of a counter (queue occupancy, bytes in flight). Counters belong to the track's
  // process in the viewers; the file names the series "<thread>/<name>" so that equal names on
  // different threads stay apart. Category "counter". Non-finite values are dropped.
  void counter(TrackId track, std::string_view name, Ps t, double value);
  void counter(TrackId track, NameId name, Ps t, double value);

  // Free-form run information written into "otherData" (command line, configuration name).
  // The key "trace" is reserved for the recorder's own figures.
  void set_info(std::string_view key, std::string_view value);

  // Events kept, in total and for one category (0 for an unknown category).
  std::uint64_t recorded() const noexcept { return events_.size(); }
  std::uint64_t recorded(std::string_view category) const;
  // Events refused by max_events or a category cap (outside-window events are not "dropped").
  std::uint64_t dropped() const noexcept { return dropped_; }
  // The earliest time of an event refused by a bound (kEndOfTime when none): every event before
  // it is in the trace. The file records it ("complete_until_us" and a global instant).
  Ps complete_until() const noexcept { return first_dropped_; }
  // Counter samples merged by TimelineLimits::counter_interval (into their bucket's sample, or
  // equal to the series' latest value).
  std::uint64_t counter_samples_merged() const noexcept { return counters_merged_; }
  std::uint64_t dropped(std::string_view category) const;
  // (category, dropped) for every category that dropped something, sorted by name.
  std::vector<std::pair<std::string, std::uint64_t>> dropped_by_category() const;
  // Events that fell entirely outside the time window.
  std::uint64_t outside_window() const noexcept { return outside_window_; }
  // Events of categories not in TimelineLimits::categories.
  std::uint64_t filtered_out() const noexcept { return filtered_out_; }
  // Whether events of this category are recorded at all (false when it is not in the category
  // list), so a caller can skip building costly arguments.
  bool records(CategoryId category) const noexcept {
    return category.index < category_counts_.size() && category_counts_[category.index].enabled;
  }
  // Categories named in the limits (category list or caps) that no call has used (recorded into
  // or interned with category()): after elaboration or the run, usually a typo in
  // trace.categories / trace.category_max. Sorted.
  std::vector<std::string> unused_categories() const;
  const TimelineLimits& limits() const noexcept { return limits_; }
  // Heap bytes held by the recorder (events, arguments, interned strings).
  std::size_t memory_bytes() const noexcept;

  // The trace: {"traceEvents": [...], "displayTimeUnit": "ns", "otherData": {...}}. Times in
  // microseconds with six decimals (exact picoseconds). Deterministic: the same calls give the
  // same bytes.
  void write_json(std::ostream& os) const;
  // Returns false and sets *error ("cannot write 'x.json': ...") on failure.
  bool write_json_file(const std::string& path, std::string* error = nullptr) const;

  // Layout of one recorded event (public for the writer's helpers; not an API).
  enum class Phase : std::uint8_t { Complete, Instant, Counter };
  struct Event {
    Ps ts;
    std::uint64_t extra;  // Complete: duration in ps; Counter: the double's bits
    std::uint32_t track;
    std::uint32_t name;
    std::uint32_t args_begin;
    std::uint16_t category;
    std::uint8_t args_count;
    Phase phase;
  };
  struct StoredArg {
    std::uint64_t bits;  // value (Text: interned id in the name table)
    std::uint32_t key;   // interned in the name table
    Arg::Kind kind;
  };

 private:
  struct Process {
    std::string name;
    std::vector<std::uint32_t> tracks;  // in creation order
  };
  struct Track {
    std::uint32_t process;
    std::string thread;
  };
  struct CategoryCount {
    std::uint64_t cap;
    bool enabled;  // in TimelineLimits::categories (or that list is empty)
    std::uint64_t recorded = 0;
    std::uint64_t dropped = 0;
  };
  struct CounterBeforeWindow {
    Ps t;
    double value;
  };
  class JsonWriter;

  void check_track(TrackId track) const;
  void check_ids(NameId name, CategoryId category) const;
  bool in_window(Ps begin, Ps end) const noexcept;
  // Counts the event as filtered out and returns false when its category is not recorded.
  bool wanted(std::uint32_t category);
  bool admit(std::uint32_t category, Ps t);
  void push(Phase phase, TrackId track, std::uint32_t name, std::uint32_t category, Ps ts,
            std::uint64_t extra, Args args);
  void record_counter(TrackId track, std::uint32_t name, Ps t, double value);
  bool keep_counter(TrackId track, std::uint32_t name, Ps t, double value);
  void sample_counter(TrackId track, std::uint32_t name, Ps t, double value);
  // Counter sampling (counter_interval): per series its latest value in time, per (series,
  // bucket) the kept event and the time of the value it shows.
  struct CounterSeries {
    Ps t = 0;
    double value = 0;
    bool kept = false;
  };
  struct BucketKey {
    std::uint64_t series;
    std::uint64_t bucket;
    bool operator==(const BucketKey& o) const noexcept { return series == o.series && bucket == o.bucket; }
  };
  struct BucketHash {
    std::size_t operator()(const BucketKey& k) const noexcept {
      return std::hash<std::uint64_t>()(k.series * 0x9E3779B97F4A7C15ull ^ k.bucket);
    }
  };
  struct CounterBucket {
    std::size_t event;
    Ps latest;
  };

  TimelineLimits limits_;
  detail::ChunkedVector<Event> events_;
  detail::ChunkedVector<StoredArg> args_;
  detail::StringTable names_;       // event names, argument keys, text values
  detail::StringTable categories_;  // ids index category_counts_
  std::vector<CategoryCount> category_counts_;
  std::uint32_t counter_category_;
  std::vector<Process> processes_;
  std::vector<Track> tracks_;
  std::map<std::pair<std::string, std::string>, std::uint32_t, std::less<>> track_ids_;
  std::map<std::string, int, std::less<>> process_sort_index_;
  std::unordered_map<std::uint64_t, CounterBeforeWindow> counters_before_window_;
  std::vector<std::pair<std::string, std::string>> info_;
  std::uint64_t dropped_ = 0;
  Ps first_dropped_ = kEndOfTime;
  std::unordered_map<std::uint64_t, CounterSeries> series_;  // key: track << 32 | name
  std::unordered_map<BucketKey, CounterBucket, BucketHash> buckets_;
  std::uint64_t counters_merged_ = 0;
  std::uint64_t outside_window_ = 0;
  std::uint64_t filtered_out_ = 0;
  bool counter_used_ = false;
};

// A module's handle on one track: a Timeline that may be null (tracing off) plus the track id.
// Every call tests the pointer inline, so a disabled trace costs one predictable branch and no
// call. Arguments are still evaluated at the call site: guard expensive ones with enabled().
class TrackRef {
 public:
  TrackRef() = default;
  TrackRef(Timeline* timeline, std::string_view process, std::string_view thread)
      : tl_(timeline), id_(timeline ? timeline->track(process, thread) : TrackId{}) {}

  bool enabled() const noexcept { return tl_ != nullptr; }
  Timeline* timeline() const noexcept { return tl_; }
  TrackId id() const noexcept { return id_; }

  void interval(std::string_view name, std::string_view category, Ps begin, Ps end,
                Args args = {}) const {
    if (tl_) tl_->interval(id_, name, category, begin, end, args);
  }
  void interval(NameId name, CategoryId category, Ps begin, Ps end, Args args = {}) const {
    if (tl_) tl_->interval(id_, name, category, begin, end, args);
  }
  void instant(std::string_view name, std::string_view category, Ps t, Args args = {}) const {
    if (tl_) tl_->instant(id_, name, category, t, args);
  }
  void instant(NameId name, CategoryId category, Ps t, Args args = {}) const {
    if (tl_) tl_->instant(id_, name, category, t, args);
  }
  void counter(std::string_view name, Ps t, double value) const {
    if (tl_) tl_->counter(id_, name, t, value);
  }
  void counter(NameId name, Ps t, double value) const {
    if (tl_) tl_->counter(id_, name, t, value);
  }

 private:
  Timeline* tl_ = nullptr;
  TrackId id_;
};

}  // namespace par::trace
