// Statistics as JSON trees: the live document, differences of snapshots, formula evaluation.
#include <cmath>
#include <cstring>
#include <iterator>
#include <limits>
#include <stdexcept>
#include <vector>

#include "stats_impl.hpp"

namespace par::simkit {

using detail::StatsAccess;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr int kMaxFormulaDepth = 64;

const char* kind_name(Stat::Kind kind) {
  switch (kind) {
    case Stat::Kind::Counter:
      return "counter";
    case Stat::Kind::Real:
      return "real";
    case Stat::Kind::Formula:
      return "formula";
    case Stat::Kind::Distribution:
      return "distribution";
  }
  return "?";
}

// JSON has no NaN or infinity: an undefined value is null.
Json number_or_null(double v) { return std::isfinite(v) ? Json(v) : Json(nullptr); }

Json meta_leaf(const Stat& s, Json value) {
  Json leaf = Json::object();
  leaf["value"] = std::move(value);
  leaf["unit"] = s.unit();
  leaf["desc"] = s.desc();
  leaf["kind"] = kind_name(s.kind());
  return leaf;
}

Json live_leaf(const Stat& s) {
  switch (s.kind()) {
    case Stat::Kind::Counter:
      return meta_leaf(s, static_cast<const Counter&>(s).value());
    case Stat::Kind::Real:
      return meta_leaf(s, number_or_null(static_cast<const Real&>(s).value()));
    case Stat::Kind::Formula:
      return meta_leaf(s, nullptr);  // filled in by fill_formulas
    case Stat::Kind::Distribution:
      break;
  }
  const auto& d = static_cast<const Distribution&>(s);
  Json leaf = meta_leaf(s, number_or_null(d.mean()));
  leaf["count"] = d.count();
  leaf["sum"] = d.sum();
  leaf["min"] = number_or_null(d.min());
  leaf["max"] = number_or_null(d.max());
  leaf["underflow"] = d.underflow();
  leaf["overflow"] = d.overflow();
  Json buckets = Json::array();
  for (std::size_t i = 0; i < d.bucket_counts().size(); ++i) {
    buckets.push_back(
        Json{{"lo", d.bounds()[i]}, {"hi", d.bounds()[i + 1]}, {"count", d.bucket_counts()[i]}});
  }
  leaf["buckets"] = std::move(buckets);
  return leaf;
}

void build_live(const StatGroup& g, Json& node) {
  for (const auto& e : StatsAccess::entries(g)) {
    if (e.stat != nullptr) {
      node[e.stat->name()] = live_leaf(*e.stat);
    } else {
      build_live(*e.group, detail::make_group_node(node, e.group->name()));
    }
  }
}

const Json* member(const Json* object, const char* key) {
  if (object == nullptr || !object->is_object()) return nullptr;
  const auto it = object->find(key);
  return it == object->end() ? nullptr : &*it;
}

const Json* stat_leaf(const Json* node, const std::string& name) {
  const Json* leaf = member(node, name.c_str());
  return leaf != nullptr && detail::is_stat_leaf(*leaf) ? leaf : nullptr;
}

Json counter_delta(std::uint64_t a, std::uint64_t b) {
  return a >= b ? Json(a - b) : Json(-static_cast<std::int64_t>(b - a));
}

// The difference leaf of a distribution from the differences of its fields; `complete` when the
// interval holds every sample (the earlier moment had none), the only case its extremes are known.
Json distribution_delta_leaf(const Stat& s, Json count, Json sum, bool complete, const Json& later_min,
                             const Json& later_max, Json underflow, Json overflow, Json buckets) {
  Json leaf = meta_leaf(s, nullptr);
  leaf["count"] = std::move(count);
  leaf["sum"] = std::move(sum);
  const double n = detail::json_number(&leaf["count"]);
  const double total = detail::json_number(&leaf["sum"]);
  leaf["value"] = n > 0 ? number_or_null(total / n) : Json(nullptr);
  leaf["min"] = complete ? later_min : Json(nullptr);
  leaf["max"] = complete ? later_max : Json(nullptr);
  leaf["underflow"] = std::move(underflow);
  leaf["overflow"] = std::move(overflow);
  leaf["buckets"] = std::move(buckets);
  return leaf;
}

// a - b (counters): unsigned unless negative (a reset between the two moments).
// a - b; a missing earlier value counts as zero. Unsigned counters stay unsigned unless the
// result is negative (a reset between the snapshots).
Json subtract(const Json* a, const Json* b) {
  if (a == nullptr || a->is_null()) return nullptr;
  if (b == nullptr) return *a;
  if (b->is_null()) return nullptr;
  if (a->is_number_unsigned() && b->is_number_unsigned()) {
    return counter_delta(a->get<std::uint64_t>(), b->get<std::uint64_t>());
  }
  if (a->is_number_integer() && b->is_number_integer()) {
    return Json(a->get<std::int64_t>() - b->get<std::int64_t>());
  }
  if (a->is_number() && b->is_number()) return number_or_null(a->get<double>() - b->get<double>());
  return nullptr;
}

Json diff_leaf(const Stat& s, const Json& later, const Json* earlier) {
  switch (s.kind()) {
    case Stat::Kind::Counter:
    case Stat::Kind::Real:
      return meta_leaf(s, subtract(member(&later, "value"), member(earlier, "value")));
    case Stat::Kind::Formula:
      return meta_leaf(s, nullptr);
    case Stat::Kind::Distribution:
      break;
  }
  const Json* earlier_count = member(earlier, "count");
  const bool complete = earlier_count == nullptr || detail::json_number(earlier_count) == 0;
  const Json* later_min = member(&later, "min");
  const Json* later_max = member(&later, "max");
  Json buckets = Json::array();
  const Json* lb = member(&later, "buckets");
  const Json* eb = member(earlier, "buckets");
  if (lb != nullptr && lb->is_array()) {
    const bool same = eb != nullptr && eb->is_array() && eb->size() == lb->size();
    for (std::size_t i = 0; i < lb->size(); ++i) {
      Json bucket = (*lb)[i];
      bucket["count"] =
          subtract(member(&(*lb)[i], "count"), same ? member(&(*eb)[i], "count") : nullptr);
      buckets.push_back(std::move(bucket));
    }
  }
  return distribution_delta_leaf(
      s, subtract(member(&later, "count"), member(earlier, "count")),
      subtract(member(&later, "sum"), member(earlier, "sum")), complete,
      later_min != nullptr ? *later_min : Json(nullptr), later_max != nullptr ? *later_max : Json(nullptr),
      subtract(member(&later, "underflow"), member(earlier, "underflow")),
      subtract(member(&later, "overflow"), member(earlier, "overflow")), std::move(buckets));
}

Json* find_child_node(Json& parent, const std::string& name) {
  Json* node = &parent;
  for (const auto& word : detail::split_path(name)) {
    if (!node->is_object()) return nullptr;
    const auto it = node->find(word);
    if (it == node->end()) return nullptr;
    node = &*it;
  }
  return node;
}

void diff_group(const StatGroup& g, Json& out, const Json* later, const Json* earlier) {
  for (const auto& e : StatsAccess::entries(g)) {
    if (e.stat != nullptr) {
      const Json* l = stat_leaf(later, e.stat->name());
      if (l != nullptr)
        out[e.stat->name()] = diff_leaf(*e.stat, *l, stat_leaf(earlier, e.stat->name()));
    } else {
      const Json* l = detail::find_node(later, e.group->name());
      if (l == nullptr) continue;  // the group did not exist when `later` was taken
      diff_group(*e.group, detail::make_group_node(out, e.group->name()), l,
                 detail::find_node(earlier, e.group->name()));
    }
  }
}

// Flat captures, in registration order: each group writes its number of entries, then each
// entry. Counter: value. Real: bits. Formula: nothing. Distribution: count, sum, min, max (bits;
// NaN when empty), underflow, overflow, one count per bucket. Registration only appends entries,
// so an older capture is a prefix of each group's entries: what was registered later counts from
// zero (as in the JSON difference).
std::uint64_t bits_of(double v) {
  std::uint64_t w;
  std::memcpy(&w, &v, sizeof w);
  return w;
}

double double_of(std::uint64_t w) {
  double v;
  std::memcpy(&v, &w, sizeof v);
  return v;
}

void capture_group(const StatGroup& g, std::vector<std::uint64_t>& words) {
  const auto& entries = StatsAccess::entries(g);
  words.push_back(entries.size());
  for (const auto& e : entries) {
    if (e.group != nullptr) {
      capture_group(*e.group, words);
      continue;
    }
    switch (e.stat->kind()) {
      case Stat::Kind::Counter:
        words.push_back(static_cast<const Counter&>(*e.stat).value());
        break;
      case Stat::Kind::Real:
        words.push_back(bits_of(static_cast<const Real&>(*e.stat).value()));
        break;
      case Stat::Kind::Formula:
        break;
      case Stat::Kind::Distribution: {
        const auto& d = static_cast<const Distribution&>(*e.stat);
        words.insert(words.end(), {d.count(), bits_of(d.sum()), bits_of(d.min()), bits_of(d.max()),
                                   d.underflow(), d.overflow()});
        words.insert(words.end(), d.bucket_counts().begin(), d.bucket_counts().end());
        break;
      }
    }
  }
}

// Reads one capture along the tree; `present` is false inside a group the capture does not have.
class CaptureReader {
 public:
  explicit CaptureReader(const std::vector<std::uint64_t>& words) : words_(words) {}
  std::uint64_t next() {
    if (at_ >= words_.size()) throw std::logic_error("statistics capture does not match the tree");
    return words_[at_++];
  }
  bool at_end() const { return at_ == words_.size(); }
  // Skips an entry the caller does not report, keeping the reader aligned.
  void skip(const StatsAccess::Entry& e);

 private:
  const std::vector<std::uint64_t>& words_;
  std::size_t at_ = 0;
};

std::size_t stat_words(const Stat& s) {
  switch (s.kind()) {
    case Stat::Kind::Counter:
    case Stat::Kind::Real:
      return 1;
    case Stat::Kind::Formula:
      return 0;
    case Stat::Kind::Distribution:
      break;
  }
  return 6 + static_cast<const Distribution&>(s).bucket_counts().size();
}

void CaptureReader::skip(const StatsAccess::Entry& e) {
  if (e.stat != nullptr) {
    for (std::size_t i = stat_words(*e.stat); i > 0; --i) next();
    return;
  }
  const auto& entries = StatsAccess::entries(*e.group);
  const std::uint64_t n = next();
  for (std::size_t i = 0; i < n && i < entries.size(); ++i) skip(entries[i]);
}

// later - earlier from two captures (earlier == nullptr: the statistic did not exist yet).
class CaptureDiff {
 public:
  CaptureDiff(CaptureReader& later, CaptureReader* earlier) : later_(later), earlier_(earlier) {}

  void group(const StatGroup& g, Json& out) {
    const auto& entries = StatsAccess::entries(g);
    const std::uint64_t in_later = later_.next();
    const std::uint64_t in_earlier = earlier_ != nullptr ? earlier_->next() : 0;
    for (std::size_t i = 0; i < entries.size() && i < in_later; ++i) {
      const StatsAccess::Entry& e = entries[i];
      CaptureReader* earlier = i < in_earlier ? earlier_ : nullptr;
      if (e.group != nullptr) {
        CaptureDiff(later_, earlier).group(*e.group, detail::make_group_node(out, e.group->name()));
      } else {
        CaptureDiff one(later_, earlier);
        out[e.stat->name()] = one.leaf(*e.stat);
      }
    }
    // Entries only the earlier capture has (captures given in the wrong order) are not reported.
    for (std::size_t i = static_cast<std::size_t>(in_later); i < entries.size() && i < in_earlier; ++i)
      earlier_->skip(entries[i]);
  }

 private:
  Json leaf(const Stat& s) {
    switch (s.kind()) {
      case Stat::Kind::Counter:
        return meta_leaf(s, counter());
      case Stat::Kind::Real:
        return meta_leaf(s, real());
      case Stat::Kind::Formula:
        return meta_leaf(s, nullptr);  // filled in by fill_formulas
      case Stat::Kind::Distribution:
        break;
    }
    const auto& d = static_cast<const Distribution&>(s);
    const std::uint64_t later_count = later_.next();
    const std::uint64_t earlier_count = earlier_ != nullptr ? earlier_->next() : 0;
    Json count = counter_delta(later_count, earlier_count);
    Json sum = real();
    const Json later_min = number_or_null(double_of(later_.next()));
    const Json later_max = number_or_null(double_of(later_.next()));
    if (earlier_ != nullptr) {
      earlier_->next();  // the earlier extremes do not enter a difference
      earlier_->next();
    }
    Json underflow = counter();
    Json overflow = counter();
    Json buckets = Json::array();
    for (std::size_t i = 0; i < d.bucket_counts().size(); ++i)
      buckets.push_back(Json{{"lo", d.bounds()[i]}, {"hi", d.bounds()[i + 1]}, {"count", counter()}});
    return distribution_delta_leaf(s, std::move(count), std::move(sum), earlier_count == 0, later_min, later_max,
                                   std::move(underflow), std::move(overflow), std::move(buckets));
  }
  Json counter() {
    const std::uint64_t later = later_.next();
    return counter_delta(later, earlier_ != nullptr ? earlier_->next() : 0);
  }
  Json real() {
    const double later = double_of(later_.next());
    return number_or_null(earlier_ != nullptr ? later - double_of(earlier_->next()) : later);
  }

  CaptureReader& later_;
  CaptureReader* earlier_;
};

}  // namespace

// ---------------------------------------------------------------------------------------------
// helpers

namespace detail {

bool is_stat_leaf(const Json& j) {
  if (!j.is_object()) return false;
  const auto it = j.find("kind");
  return it != j.end() && it->is_string();
}

Json& make_group_node(Json& parent, const std::string& name) {
  Json* node = &parent;
  for (const auto& word : split_path(name)) {
    if (!node->contains(word)) {
      (*node)[word] = Json::object();
    } else if (!(*node)[word].is_object() || is_stat_leaf((*node)[word])) {
      throw std::logic_error("statistics: '" + word + "' is both a statistic and a group");
    }
    node = &(*node)[word];
  }
  return *node;
}

const Json* find_node(const Json* parent, std::string_view name) {
  const Json* node = parent;
  for (const auto& word : split_path(name)) {
    node = member(node, word.c_str());
    if (node == nullptr) return nullptr;
  }
  return node;
}

double json_number(const Json* j) {
  return j != nullptr && j->is_number() ? j->get<double>() : kNaN;
}

double StatsAccess::evaluate(const Formula& f, const StatGroup& group, const Json& node, bool live,
                             int depth, const Scope* parent) {
  if (depth > kMaxFormulaDepth) return kNaN;  // formulas that refer to each other
  if (f.live_fn_) return live ? f.live_fn_() : kNaN;
  return f.fn_(StatView(group, node, live, depth, parent));
}

double StatsAccess::number(const Formula& f) {
  const StatGroup* root = &f.group();
  while (root->parent() != nullptr) root = root->parent();
  Json tree = Json::object();
  build_live(*root, tree);  // formulas are evaluated on demand, only the ones f reads
  return StatView(*root, tree, true, 0, nullptr).formula_below(f);
}

void StatsAccess::fill_formulas(const StatGroup& group, Json& node, bool live, const Scope* parent) {
  const Scope self{&group, &node, parent};
  for (const auto& e : entries(group)) {
    if (e.stat != nullptr) {
      if (e.stat->kind() != Stat::Kind::Formula || stat_leaf(&node, e.stat->name()) == nullptr) {
        continue;
      }
      const double v = evaluate(static_cast<const Formula&>(*e.stat), group, node, live, 0, parent);
      node[e.stat->name()]["value"] = number_or_null(v);
    } else if (Json* child = find_child_node(node, e.group->name())) {
      fill_formulas(*e.group, *child, live, &self);
    }
  }
}

}  // namespace detail

// ---------------------------------------------------------------------------------------------
// StatView, StatGroup documents

double StatView::operator[](std::string_view path) const {
  if (path.substr(0, 3) == "../") {
    if (parent_ == nullptr || depth_ > kMaxFormulaDepth) return kNaN;
    return StatView(*parent_->group, *parent_->node, live_, depth_ + 1, parent_->parent)[path.substr(3)];
  }
  const Stat* s = group_->find(path);
  if (s != nullptr && s->kind() == Stat::Kind::Formula) return formula_below(static_cast<const Formula&>(*s));
  if (s != nullptr) return detail::json_number(member(find_stat(*node_, path), "value"));
  // A distribution field: "latency.count".
  const auto dot = path.rfind('.');
  if (dot == std::string_view::npos) return kNaN;
  const Stat* base = group_->find(path.substr(0, dot));
  const std::string field(path.substr(dot + 1));
  if (base == nullptr || base->kind() != Stat::Kind::Distribution) return kNaN;
  const Json* leaf = find_stat(*node_, path.substr(0, dot));
  if (field == "mean") return detail::json_number(member(leaf, "value"));
  if (field == "count" || field == "sum" || field == "min" || field == "max") {
    return detail::json_number(member(leaf, field.c_str()));
  }
  return kNaN;
}

// A formula of this group or of a group below it, evaluated in its own place: its group's object
// and the scopes of every group from this one down, so that its own "../" paths (a sum over
// sibling groups, say) reach what they reach when it is reported itself.
double StatView::formula_below(const Formula& f) const {
  std::vector<const StatGroup*> below;  // the formula's group up to this view's, excluded
  for (const StatGroup* g = &f.group(); g != group_; g = g->parent()) {
    if (g == nullptr) return kNaN;
    below.push_back(g);
  }
  std::vector<detail::Scope> scopes;  // this view's group, then down to the formula's group's parent
  scopes.reserve(below.size() + 1);   // no reallocation: each scope points at the one before
  const detail::Scope* enclosing = parent_;
  const Json* node = node_;
  for (auto g = below.rbegin(); g != below.rend(); ++g) {
    scopes.push_back(detail::Scope{scopes.empty() ? group_ : *std::prev(g), node, enclosing});
    enclosing = &scopes.back();
    node = detail::find_node(node, (*g)->name());
    if (node == nullptr) return kNaN;
  }
  return StatsAccess::evaluate(f, f.group(), *node, live_, depth_ + 1, enclosing);
}

Json StatGroup::to_json() const {
  Json root = Json::object();
  build_live(*this, root);
  StatsAccess::fill_formulas(*this, root, true);
  return root;
}

Json StatGroup::diff(const Json& later, const Json& earlier) const {
  Json out = Json::object();
  diff_group(*this, out, &later, &earlier);
  StatsAccess::fill_formulas(*this, out, false);
  return out;
}

StatSnapshot StatGroup::capture() const {
  StatSnapshot snap;
  capture_group(*this, StatsAccess::words(snap));
  return snap;
}

Json StatGroup::diff(const StatSnapshot& later, const StatSnapshot& earlier) const {
  Json out = Json::object();
  CaptureReader later_reader(StatsAccess::words(later)), earlier_reader(StatsAccess::words(earlier));
  CaptureDiff(later_reader, &earlier_reader).group(*this, out);
  if (!later_reader.at_end() || !earlier_reader.at_end())
    throw std::logic_error("statistics capture does not match the tree");
  StatsAccess::fill_formulas(*this, out, false);
  return out;
}

Json StatGroup::to_json(const StatSnapshot& values) const {
  Json out = Json::object();
  CaptureReader reader(StatsAccess::words(values));
  CaptureDiff(reader, nullptr).group(*this, out);
  if (!reader.at_end()) throw std::logic_error("statistics capture does not match the tree");
  StatsAccess::fill_formulas(*this, out, false);
  return out;
}

const Json* find_stat(const Json& tree, std::string_view path) {
  if (path.empty()) return nullptr;
  const Json* node = &tree;
  for (const auto& word : detail::split_path(path)) {
    if (detail::is_stat_leaf(*node)) return nullptr;  // a path cannot continue below a statistic
    node = member(node, word.c_str());
    if (node == nullptr) return nullptr;
  }
  return detail::is_stat_leaf(*node) ? node : nullptr;
}

}  // namespace par::simkit
