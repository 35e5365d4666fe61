// Hierarchical statistics: groups named after modules, typed statistics with units, a JSON
// document and a readable table, snapshots and differences for per-launch reports.
//
//   StatGroup stats{"platform.core0"};                  // a module's own group
//   Counter& cycles = stats.counter("cycles", "cycles", "Simulated core cycles");
//   Counter& insts = stats.counter("thread_insts", "thread-instructions", "Executed");
//   stats.formula("ipc", "ratio", "Thread-instructions per cycle",
//                 [](const StatView& s) { return s["thread_insts"] / s["cycles"]; });
//   root.attach(stats);                                  // the platform's report tree
//   Json before = root.snapshot(); ... run a launch ...
//   Json launch = root.diff(root.snapshot(), before);   // ipc re-evaluated on the difference
//   root.write_table(std::cout, launch);
//   StatSnapshot a = root.capture(); ... StatSnapshot b = root.capture();
//   Json same_kind = root.diff(b, a);   // flat values: cheap to take at every launch
//
// Not thread-safe (SystemC runs one process at a time). Registration mistakes (bad or duplicate
// names) throw std::invalid_argument.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <iosfwd>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "par/simkit/json.hpp"

namespace par::simkit {

class StatGroup;
class Formula;
namespace detail {
struct StatsAccess;
struct Scope;
}

// How the table prints a value. JSON always holds the full-precision value.
class Format {
 public:
  enum class Kind { Integer, Fixed, Percent };
  static Format integer() { return Format(Kind::Integer, 0); }
  static Format fixed(int decimals) { return Format(Kind::Fixed, decimals); }
  // The value is a fraction (0..1) printed x100 with a '%' sign: 0.9999 -> "99.99%".
  static Format percent(int decimals) { return Format(Kind::Percent, decimals); }

  Kind kind() const noexcept { return kind_; }
  int decimals() const noexcept { return decimals_; }
  // Rounded half up (see format.hpp); "n/a" for NaN.
  std::string apply(double value) const;

 private:
  Format(Kind kind, int decimals) : kind_(kind), decimals_(decimals) {}
  Kind kind_;
  int decimals_;
};

// Base of every statistic. Owned by its group; non-copyable; stable address.
class Stat {
 public:
  enum class Kind { Counter, Real, Formula, Distribution };

  Stat(const Stat&) = delete;
  Stat& operator=(const Stat&) = delete;
  virtual ~Stat();

  const std::string& name() const noexcept { return name_; }
  const std::string& unit() const noexcept { return unit_; }
  const std::string& desc() const noexcept { return desc_; }
  const Format& format() const noexcept { return format_; }
  Kind kind() const noexcept { return kind_; }
  const StatGroup& group() const noexcept { return *group_; }
  // Full dotted name: group path + "." + name ("platform.core0.cycles").
  std::string path() const;
  // The current headline value: counter/real value, formula result, distribution mean.
  // NaN when undefined (mean of no samples, formula of a diff-only tree, 0/0).
  virtual double number() const = 0;
  // Back to the state at registration (formulas have none).
  virtual void reset() = 0;
  // A measurement of the host (host seconds, simulator speed): differs between identical runs,
  // so the table gives it no say in its column widths and only its own line differs.
  Stat& measures_host() noexcept {
    host_measure_ = true;
    return *this;
  }
  bool is_host_measure() const noexcept { return host_measure_; }

 protected:
  Stat(StatGroup& group, std::string name, std::string unit, std::string desc, Format format,
       Kind kind);

 private:
  StatGroup* group_;
  std::string name_;
  std::string unit_;
  std::string desc_;
  Format format_;
  Kind kind_;
  bool host_measure_ = false;
};

// An event count. Subtracts in differences.
class Counter final : public Stat {
 public:
  Counter(StatGroup& group, std::string name, std::string unit, std::string desc, Format format);
  Counter& operator++() noexcept {
    ++value_;
    return *this;
  }
  Counter& operator+=(std::uint64_t n) noexcept {
    value_ += n;
    return *this;
  }
  void set(std::uint64_t v) noexcept { value_ = v; }
  std::uint64_t value() const noexcept { return value_; }
  double number() const override { return static_cast<double>(value_); }
  void reset() override { value_ = 0; }

 private:
  std::uint64_t value_ = 0;
};

// An accumulated real quantity (time, energy, bytes as double...). Subtracts in differences,
// so use it for sums, not for levels; a level belongs in a formula or a distribution.
class Real final : public Stat {
 public:
  Real(StatGroup& group, std::string name, std::string unit, std::string desc, Format format);
  Real& operator+=(double v) noexcept {
    value_ += v;
    return *this;
  }
  void set(double v) noexcept { value_ = v; }
  double value() const noexcept { return value_; }
  double number() const override { return value_; }
  void reset() override { value_ = 0.0; }

 private:
  double value_ = 0.0;
};

// Read access to statistic values for formulas, on whichever tree is being reported: the live
// statistics, a snapshot or a difference of two snapshots.
class StatView {
 public:
  // The value of the statistic at `path`, relative to the formula's group ("cycles",
  // "lsu.loads"; "../cycles" in the enclosing group); a distribution's field with ".count",
  // ".sum", ".min", ".max" or ".mean". NaN when missing or undefined, so an undefined input makes
  // the formula undefined.
  double operator[](std::string_view path) const;

 private:
  friend struct detail::StatsAccess;
  StatView(const StatGroup& group, const Json& node, bool live, int depth, const detail::Scope* parent)
      : group_(&group), node_(&node), parent_(parent), live_(live), depth_(depth) {}
  double formula_below(const Formula& f) const;
  const StatGroup* group_;
  const Json* node_;  // this group's object in the tree being evaluated
  const detail::Scope* parent_;  // the enclosing group, when known
  bool live_;
  int depth_;  // formula nesting, to stop cycles
};

// A derived value, evaluated whenever it is reported.
class Formula final : public Stat {
 public:
  // Computed from other statistics through the view: also right in differences
  // (per-launch IPC is launch instructions / launch cycles). Preferred.
  using Fn = std::function<double(const StatView&)>;
  // Reads live state directly: evaluated only on the live tree; null in differences.
  using LiveFn = std::function<double()>;

  Formula(StatGroup& group, std::string name, std::string unit, std::string desc, Format format,
          Fn fn, LiveFn live_fn);
  bool is_live_only() const noexcept { return static_cast<bool>(live_fn_); }
  double number() const override;
  void reset() override {}

 private:
  friend struct detail::StatsAccess;
  Fn fn_;
  LiveFn live_fn_;
};

// Bucket edges of a distribution: bucket i holds samples in [bounds[i], bounds[i+1]); samples
// below bounds.front() count as underflow, at or above bounds.back() as overflow.
struct Buckets {
  std::vector<double> bounds;  // ascending; empty = no buckets (count/sum/min/max only)

  static Buckets none() { return {}; }
  // `count` buckets of `width` from `first`: [first, first+width), ...
  static Buckets linear(double first, double width, std::size_t count);
  // `count` buckets [0,1) [1,2) [2,4) [4,8) ... [2^(count-2), 2^(count-1)).
  static Buckets log2(std::size_t count);
  // Explicit ascending edges (at least two).
  static Buckets edges(std::vector<double> bounds);
};

// Samples of a quantity (latency, occupancy): count, sum, min, max, mean and bucket counts.
// Count, sum and buckets subtract in differences; min/max are kept when the earlier snapshot had
// no samples and are null otherwise (they cannot be recovered from two snapshots).
class Distribution final : public Stat {
 public:
  Distribution(StatGroup& group, std::string name, std::string unit, std::string desc,
               Format format, Buckets buckets);
  // Inline, with the bucket of the previous sample tried first: a hot path (a memory model
  // samples every transaction) mostly sees values of one bucket, so it seldom searches.
  void sample(double value, std::uint64_t times = 1) {
    if (times == 0) return;
    add_moments(value, times);
    if (last_ < buckets_.size() && bounds_[last_] <= value && value < bounds_[last_ + 1]) {
      buckets_[last_] += times;
      return;
    }
    if (!bounds_.empty()) sample_bucket(value, times);
  }

  // Where a sample of `value` goes: a bucket index, kUnderflow, kOverflow (also NaN) or kNoBuckets.
  // With sample_at(), a hot path that samples one value into several distributions of the same
  // bounds locates it once.
  static constexpr std::size_t kNoBuckets = ~std::size_t{0};
  static constexpr std::size_t kUnderflow = kNoBuckets - 1;
  static constexpr std::size_t kOverflow = kNoBuckets - 2;
  std::size_t locate(double value) const {
    if (log2_) return locate_log2(value);
    if (!grid_.empty() && grid_lo_ <= value && value < grid_hi_) {
      // The cell is a guess (rounded arithmetic); the steps make the answer exactly upper_bound's:
      // the bucket i with bounds[i] <= value < bounds[i + 1].
      std::size_t i = grid_[std::min(static_cast<std::size_t>((value - grid_lo_) * grid_scale_), grid_.size() - 1)];
      while (bounds_[i + 1] <= value) ++i;
      while (value < bounds_[i]) --i;
      return i;
    }
    return locate_search(value);
  }
  // sample(value) for a `where` that locate(value) gave (here or in a distribution of the same bounds).
  void sample_at(double value, std::size_t where) {
    add_moments(value, 1);
    add_at(where, 1);
  }

  std::uint64_t count() const noexcept { return count_; }
  double sum() const noexcept { return sum_; }
  double min() const noexcept;   // NaN when empty
  double max() const noexcept;   // NaN when empty
  double mean() const noexcept;  // NaN when empty
  const std::vector<double>& bounds() const noexcept { return bounds_; }
  const std::vector<std::uint64_t>& bucket_counts() const noexcept { return buckets_; }
  std::uint64_t underflow() const noexcept { return underflow_; }
  std::uint64_t overflow() const noexcept { return overflow_; }
  double number() const override { return mean(); }
  void reset() override;

 private:
  // When the last bucket does not hold it: log2 buckets inline, the others by the search.
  void sample_bucket(double value, std::uint64_t times) {
    add_at(log2_ ? locate_log2(value) : locate_search(value), times);
  }
  // Count, sum, min and max of `times` samples of `value`.
  void add_moments(double value, std::uint64_t times) {
    if (count_ == 0) {
      min_ = max_ = value;
    } else {
      if (value < min_) min_ = value;
      if (max_ < value) max_ = value;
    }
    count_ += times;
    sum_ += value * static_cast<double>(times);
  }
  // `times` samples into what locate() gave (nothing for kNoBuckets).
  void add_at(std::size_t where, std::uint64_t times) {
    if (where < buckets_.size()) {
      buckets_[where] += times;
      last_ = where;
    } else if (where == kUnderflow) {
      underflow_ += times;
    } else if (where == kOverflow) {
      overflow_ += times;
    }
  }
  std::size_t locate_search(double value) const;
  // locate() for Buckets::log2 bounds [0, 1, 2, 4 .. 2^(n-1)], which are too uneven for the grid:
  // the bucket is read off the value's binary exponent instead of a binary search (a memory
  // model's latency samples take this path on every transaction).
  std::size_t locate_log2(double value) const {
    if (value < 0) return kUnderflow;
    if (!(value < bounds_.back())) return kOverflow;  // and NaN, which no bucket holds
    if (value < 1) return 0;
    std::uint64_t bits = 0;
    std::memcpy(&bits, &value, sizeof bits);
    // A double in [2^e, 2^(e+1)) (e >= 0) has the biased exponent e + 1023; its bucket is e + 1.
    return static_cast<std::size_t>((bits >> 52) & 0x7ff) - 1022;
  }

  std::vector<double> bounds_;
  std::vector<std::uint64_t> buckets_;
  // A uniform grid over [bounds.front(), bounds.back()) with cells no wider than the narrowest
  // bucket, each cell holding the bucket of its lower edge: locate_search() reads a cell and steps
  // at most a bucket or two, instead of a binary search. Empty when it would be large (log2
  // buckets); then the binary search.
  std::vector<std::uint32_t> grid_;
  double grid_lo_ = 0.0, grid_hi_ = 0.0;  // bounds.front(), bounds.back()
  double grid_scale_ = 0.0;  // cells per unit of value
  bool log2_ = false;  // the bounds are Buckets::log2's: locate_log2()
  std::size_t last_ = 0;  // the bucket of the previous sample (a guess; any value is safe)
  std::uint64_t count_ = 0;
  std::uint64_t underflow_ = 0;
  std::uint64_t overflow_ = 0;
  double sum_ = 0.0;
  double min_ = 0.0;
  double max_ = 0.0;
};

// A flat copy of every value of a group's tree at one moment (registration order; no names, no
// JSON): a few microseconds to take, so a run can keep one per kernel launch and build the
// documents only when it reports (StatGroup::capture and StatGroup::diff).
class StatSnapshot {
 public:
  std::size_t size() const noexcept { return words_.size(); }
  bool empty() const noexcept { return words_.empty(); }

 private:
  friend struct detail::StatsAccess;
  std::vector<std::uint64_t> words_;  // counters as they are, reals as their IEEE-754 bits
};

// A named group of statistics and child groups, in registration order. A module owns its group
// (named after its SystemC hierarchical name, e.g. "platform.core0") and the platform attaches it
// to the report root. A dotted group name nests in JSON and in paths like separate levels, so
// groups "platform.core0" and "platform.core1" attached to an unnamed root both appear under
// "platform".
class StatGroup {
 public:
  explicit StatGroup(std::string name = "");
  ~StatGroup();
  StatGroup(const StatGroup&) = delete;
  StatGroup& operator=(const StatGroup&) = delete;

  const std::string& name() const noexcept { return name_; }
  // Dotted path from the root of the tree, including this group's name ("" for an unnamed root).
  std::string path() const;
  const StatGroup* parent() const noexcept { return parent_; }

  // Statistic names: one word of [A-Za-z0-9_-], unique in the group.
  Counter& counter(const std::string& name, const std::string& unit, const std::string& desc,
                   Format format = Format::integer());
  Real& real(const std::string& name, const std::string& unit, const std::string& desc,
             Format format = Format::fixed(3));
  Formula& formula(const std::string& name, const std::string& unit, const std::string& desc,
                   Formula::Fn fn, Format format = Format::fixed(3));
  Formula& formula(const std::string& name, const std::string& unit, const std::string& desc,
                   Formula::LiveFn fn, Format format = Format::fixed(3));
  Distribution& distribution(const std::string& name, const std::string& unit,
                             const std::string& desc, Buckets buckets = Buckets::none(),
                             Format format = Format::fixed(2));
  // A view formula: the sum of the statistics at `paths` (relative to this group; they may be
  // registered later), e.g. a total over child groups. Right in per-launch differences too.
  Formula& sum(const std::string& name, const std::string& unit, const std::string& desc,
               std::vector<std::string> paths, Format format = Format::integer());

  // A child group owned by this one, created on first use (e.g. "lsu").
  StatGroup& group(const std::string& name);
  // Adds a group owned elsewhere (a module's) as a child; it detaches itself when destroyed.
  void attach(StatGroup& child);
  void detach(StatGroup& child) noexcept;

  // Lookup by dotted path relative to this group ("platform.core0.cycles" from the root);
  // nullptr when absent.
  const Stat* find(std::string_view path) const;
  Stat* find(std::string_view path);
  const StatGroup* find_group(std::string_view path) const;

  // Resets every statistic in this group and its children (end of a warm-up phase).
  void reset();

  // {"<stat>": {"value", "unit", "desc", "kind", ...}, "<group>": {...}} -- see README.md.
  // This group's own name is not a level of the result (it is the key in the parent's object).
  Json to_json() const;
  // A plain value tree of the current state, the same document as to_json().
  Json snapshot() const { return to_json(); }
  // later - earlier for two snapshots of this group: counters, reals and distributions
  // subtract, view formulas are re-evaluated on the difference, live formulas become null.
  Json diff(const Json& later, const Json& earlier) const;
  // The values of the whole tree now, without building JSON.
  StatSnapshot capture() const;
  // later - earlier for two captures of this group: the same document as diff() of the two
  // moments' snapshot()s (statistics registered after a capture count from zero there). Throws
  // std::logic_error for a capture of another group.
  Json diff(const StatSnapshot& later, const StatSnapshot& earlier) const;
  // The tree of one capture (the values as they were then): the same document as that moment's
  // snapshot(), except that live formulas are null. Reads nothing but the capture and this
  // tree's layout, so another thread may build it while the statistics go on changing.
  Json to_json(const StatSnapshot& values) const;

  // Aligned table, one row per statistic (distributions add count/min/max and non-empty
  // buckets): full dotted name, formatted value, unit, description.
  void write_table(std::ostream& os) const;
  // The same for a snapshot or difference of this group.
  void write_table(std::ostream& os, const Json& values) const;

 private:
  friend struct detail::StatsAccess;
  struct Entry {
    Stat* stat = nullptr;
    StatGroup* group = nullptr;
  };
  void check_new_name(const std::string& name, bool is_group) const;
  template <class S, class... Args>
  S& add_stat(const std::string& name, Args&&... args);

  std::string name_;
  StatGroup* parent_ = nullptr;
  std::vector<Entry> entries_;  // registration order
  std::vector<std::unique_ptr<Stat>> stats_;
  std::vector<std::unique_ptr<StatGroup>> owned_groups_;
};

// The statistic object ({"value", "unit", ...}) at a dotted path in a to_json()/snapshot()/
// diff() tree; nullptr when absent. For scripts and tests.
const Json* find_stat(const Json& tree, std::string_view path);

}  // namespace par::simkit
