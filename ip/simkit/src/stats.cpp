// Statistic types and the group tree.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "par/simkit/format.hpp"
#include "stats_impl.hpp"

namespace par::simkit {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

bool valid_word(std::string_view w) {
  return !w.empty() && std::all_of(w.begin(), w.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
  });
}

bool valid_dotted(std::string_view name) {
  if (name.empty()) return false;
  for (const auto& word : detail::split_path(name)) {
    if (!valid_word(word)) return false;
  }
  return true;
}

// True when `path` begins with all of `prefix`'s words.
bool starts_with(const std::vector<std::string>& path, std::size_t from,
                 const std::vector<std::string>& prefix) {
  if (path.size() - from < prefix.size()) return false;
  return std::equal(prefix.begin(), prefix.end(), path.begin() + static_cast<std::ptrdiff_t>(from));
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// helpers

namespace detail {

std::vector<std::string> split_path(std::string_view path) {
  std::vector<std::string> words;
  std::size_t start = 0;
  while (true) {
    const std::size_t dot = path.find('.', start);
    words.emplace_back(path.substr(start, dot == std::string_view::npos ? dot : dot - start));
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  return words;
}

std::string join_path(const std::string& prefix, const std::string& name) {
  if (prefix.empty()) return name;
  if (name.empty()) return prefix;
  return prefix + "." + name;
}

}  // namespace detail

// ---------------------------------------------------------------------------------------------
// Format and statistics

std::string Format::apply(double value) const {
  if (std::isnan(value)) return "n/a";
  switch (kind_) {
    case Kind::Integer:
      return format_fixed(value, 0);
    case Kind::Fixed:
      return format_fixed(value, decimals_);
    case Kind::Percent:
      return format_percent(value, decimals_);
  }
  return format_shortest(value);
}

Stat::Stat(StatGroup& group, std::string name, std::string unit, std::string desc, Format format,
           Kind kind)
    : group_(&group),
      name_(std::move(name)),
      unit_(std::move(unit)),
      desc_(std::move(desc)),
      format_(format),
      kind_(kind) {}

Stat::~Stat() = default;

std::string Stat::path() const { return detail::join_path(group_->path(), name_); }

Counter::Counter(StatGroup& group, std::string name, std::string unit, std::string desc,
                 Format format)
    : Stat(group, std::move(name), std::move(unit), std::move(desc), format, Kind::Counter) {}

Real::Real(StatGroup& group, std::string name, std::string unit, std::string desc, Format format)
    : Stat(group, std::move(name), std::move(unit), std::move(desc), format, Kind::Real) {}

Formula::Formula(StatGroup& group, std::string name, std::string unit, std::string desc,
                 Format format, Fn fn, LiveFn live_fn)
    : Stat(group, std::move(name), std::move(unit), std::move(desc), format, Kind::Formula),
      fn_(std::move(fn)),
      live_fn_(std::move(live_fn)) {}

double Formula::number() const {
  if (live_fn_) return live_fn_();
  return detail::StatsAccess::number(*this);
}

Buckets Buckets::linear(double first, double width, std::size_t count) {
  if (!(width > 0) || count == 0) throw std::invalid_argument("Buckets::linear: empty buckets");
  Buckets b;
  for (std::size_t i = 0; i <= count; ++i)
    b.bounds.push_back(first + width * static_cast<double>(i));
  return b;
}

Buckets Buckets::log2(std::size_t count) {
  if (count == 0 || count > 1000) throw std::invalid_argument("Buckets::log2: bad bucket count");
  Buckets b;
  b.bounds.push_back(0.0);
  for (std::size_t i = 0; i < count; ++i) b.bounds.push_back(std::ldexp(1.0, static_cast<int>(i)));
  return b;
}

Buckets Buckets::edges(std::vector<double> bounds) {
  if (bounds.size() < 2 || !std::is_sorted(bounds.begin(), bounds.end()) ||
      std::adjacent_find(bounds.begin(), bounds.end()) != bounds.end()) {
    throw std::invalid_argument("Buckets::edges: need at least two strictly ascending edges");
  }
  return Buckets{std::move(bounds)};
}

Distribution::Distribution(StatGroup& group, std::string name, std::string unit, std::string desc,
                           Format format, Buckets buckets)
    : Stat(group, std::move(name), std::move(unit), std::move(desc), format, Kind::Distribution),
      bounds_(std::move(buckets.bounds)),
      buckets_(bounds_.empty() ? 0 : bounds_.size() - 1, 0) {
  if (bounds_.size() < 2) return;
  log2_ = bounds_[0] == 0.0;
  for (std::size_t i = 1; i < bounds_.size() && log2_; ++i) log2_ = bounds_[i] == std::ldexp(1.0, static_cast<int>(i) - 1);
  double narrowest = bounds_[1] - bounds_[0];
  for (std::size_t i = 1; i + 1 < bounds_.size(); ++i) narrowest = std::min(narrowest, bounds_[i + 1] - bounds_[i]);
  const double cells = std::ceil((bounds_.back() - bounds_.front()) / narrowest);
  constexpr double kMaxCells = 4096;
  if (!(narrowest > 0) || !(cells <= kMaxCells)) return;  // also infinite or NaN widths
  grid_lo_ = bounds_.front();
  grid_hi_ = bounds_.back();
  grid_scale_ = 1.0 / narrowest;
  grid_.resize(static_cast<std::size_t>(cells) + 1);
  for (std::size_t c = 0; c < grid_.size(); ++c) {
    const double edge = bounds_.front() + static_cast<double>(c) * narrowest;
    const auto it = std::upper_bound(bounds_.begin(), bounds_.end(), edge);
    grid_[c] = static_cast<std::uint32_t>(
        std::min<std::size_t>(static_cast<std::size_t>(it - bounds_.begin()), buckets_.size()) - 1);
  }
}

std::size_t Distribution::locate_search(double value) const {
  if (bounds_.empty()) return kNoBuckets;
  if (value < bounds_.front()) return kUnderflow;
  if (!(value < bounds_.back())) return kOverflow;  // and NaN, which no bucket holds
  if (log2_ || !grid_.empty()) return locate(value);
  const auto it = std::upper_bound(bounds_.begin(), bounds_.end(), value);
  return static_cast<std::size_t>(it - bounds_.begin()) - 1;
}

double Distribution::min() const noexcept { return count_ == 0 ? kNaN : min_; }
double Distribution::max() const noexcept { return count_ == 0 ? kNaN : max_; }
double Distribution::mean() const noexcept {
  return count_ == 0 ? kNaN : sum_ / static_cast<double>(count_);
}

void Distribution::reset() {
  std::fill(buckets_.begin(), buckets_.end(), 0);
  count_ = underflow_ = overflow_ = 0;
  sum_ = min_ = max_ = 0.0;
}

// ---------------------------------------------------------------------------------------------
// StatGroup

StatGroup::StatGroup(std::string name) : name_(std::move(name)) {
  if (!name_.empty() && !valid_dotted(name_)) {
    throw std::invalid_argument("invalid statistics group name '" + name_ + "'");
  }
}

StatGroup::~StatGroup() {
  if (parent_ != nullptr) parent_->detach(*this);
  // Attached groups outlive us on their own; owned ones must not call back while we die.
  for (const Entry& e : entries_) {
    if (e.group != nullptr) e.group->parent_ = nullptr;
  }
}

std::string StatGroup::path() const {
  return parent_ == nullptr ? name_ : detail::join_path(parent_->path(), name_);
}

void StatGroup::check_new_name(const std::string& name, bool is_group) const {
  if (is_group ? !valid_dotted(name) : !valid_word(name)) {
    throw std::invalid_argument(
        std::string(is_group ? "invalid statistics group name '" : "invalid statistic name '") +
        name + "' in '" + path() + "'");
  }
  const std::string first = detail::split_path(name).front();
  for (const Entry& e : entries_) {
    const bool clash = e.stat != nullptr
                           ? e.stat->name() == first
                           : (is_group ? e.group->name() == name
                                       : detail::split_path(e.group->name()).front() == name);
    if (clash) {
      throw std::invalid_argument("statistics name '" + name + "' is used twice in '" + path() +
                                  "'");
    }
  }
}

template <class S, class... Args>
S& StatGroup::add_stat(const std::string& name, Args&&... args) {
  check_new_name(name, false);
  auto stat = std::make_unique<S>(*this, name, std::forward<Args>(args)...);
  S& ref = *stat;
  stats_.push_back(std::move(stat));
  entries_.push_back(Entry{&ref, nullptr});
  return ref;
}

Counter& StatGroup::counter(const std::string& name, const std::string& unit,
                            const std::string& desc, Format format) {
  return add_stat<Counter>(name, unit, desc, format);
}

Real& StatGroup::real(const std::string& name, const std::string& unit, const std::string& desc,
                      Format format) {
  return add_stat<Real>(name, unit, desc, format);
}

Formula& StatGroup::formula(const std::string& name, const std::string& unit,
                            const std::string& desc, Formula::Fn fn, Format format) {
  if (!fn) throw std::invalid_argument("formula '" + name + "' has no function");
  return add_stat<Formula>(name, unit, desc, format, std::move(fn), Formula::LiveFn());
}

Formula& StatGroup::formula(const std::string& name, const std::string& unit,
                            const std::string& desc, Formula::LiveFn fn, Format format) {
  if (!fn) throw std::invalid_argument("formula '" + name + "' has no function");
  return add_stat<Formula>(name, unit, desc, format, Formula::Fn(), std::move(fn));
}

Formula& StatGroup::sum(const std::string& name, const std::string& unit, const std::string& desc,
                        std::vector<std::string> paths, Format format) {
  return formula(name, unit, desc,
                 [paths = std::move(paths)](const StatView& s) {
                   double total = 0;
                   for (const std::string& p : paths) total += s[p];
                   return total;
                 },
                 format);
}

Distribution& StatGroup::distribution(const std::string& name, const std::string& unit,
                                      const std::string& desc, Buckets buckets, Format format) {
  return add_stat<Distribution>(name, unit, desc, format, std::move(buckets));
}

StatGroup& StatGroup::group(const std::string& name) {
  for (const Entry& e : entries_) {
    if (e.group != nullptr && e.group->name() == name) return *e.group;
  }
  check_new_name(name, true);
  owned_groups_.push_back(std::make_unique<StatGroup>(name));
  StatGroup& child = *owned_groups_.back();
  child.parent_ = this;
  entries_.push_back(Entry{nullptr, &child});
  return child;
}

void StatGroup::attach(StatGroup& child) {
  if (child.parent_ != nullptr) {
    throw std::invalid_argument("statistics group '" + child.path() + "' is already attached");
  }
  for (const StatGroup* g = this; g != nullptr; g = g->parent_) {
    if (g == &child) throw std::invalid_argument("attaching '" + child.name() + "' makes a cycle");
  }
  if (child.name().empty()) throw std::invalid_argument("cannot attach an unnamed group");
  check_new_name(child.name(), true);
  child.parent_ = this;
  entries_.push_back(Entry{nullptr, &child});
}

void StatGroup::detach(StatGroup& child) noexcept {
  for (const auto& owned : owned_groups_) {
    if (owned.get() == &child) return;  // owned children live and die with this group
  }
  const auto it = std::find_if(entries_.begin(), entries_.end(),
                               [&child](const Entry& e) { return e.group == &child; });
  if (it == entries_.end()) return;
  entries_.erase(it);
  child.parent_ = nullptr;
}

namespace {

// Depth-first search along `words` from index `from`; groups may consume several words.
const Stat* find_stat_in(const StatGroup& g, const std::vector<std::string>& words,
                         std::size_t from) {
  for (const auto& e : detail::StatsAccess::entries(g)) {
    if (e.stat != nullptr) {
      if (from + 1 == words.size() && e.stat->name() == words[from]) return e.stat;
    } else {
      const auto child_words = detail::split_path(e.group->name());
      if (words.size() - from > child_words.size() && starts_with(words, from, child_words)) {
        if (const Stat* s = find_stat_in(*e.group, words, from + child_words.size())) return s;
      }
    }
  }
  return nullptr;
}

const StatGroup* find_group_in(const StatGroup& g, const std::vector<std::string>& words,
                               std::size_t from) {
  if (from == words.size()) return &g;
  for (const auto& e : detail::StatsAccess::entries(g)) {
    if (e.group == nullptr) continue;
    const auto child_words = detail::split_path(e.group->name());
    if (starts_with(words, from, child_words)) {
      if (const StatGroup* found = find_group_in(*e.group, words, from + child_words.size())) {
        return found;
      }
    }
  }
  return nullptr;
}

void reset_group(const StatGroup& g) {
  for (const auto& e : detail::StatsAccess::entries(g)) {
    if (e.stat != nullptr) e.stat->reset();
    if (e.group != nullptr) reset_group(*e.group);
  }
}

}  // namespace

const Stat* StatGroup::find(std::string_view path) const {
  if (path.empty()) return nullptr;
  return find_stat_in(*this, detail::split_path(path), 0);
}

Stat* StatGroup::find(std::string_view path) {
  return const_cast<Stat*>(static_cast<const StatGroup*>(this)->find(path));
}

const StatGroup* StatGroup::find_group(std::string_view path) const {
  if (path.empty()) return this;
  return find_group_in(*this, detail::split_path(path), 0);
}

void StatGroup::reset() { reset_group(*this); }

}  // namespace par::simkit
