// Statistics internals shared by stats.cpp, stats_json.cpp and stats_table.cpp.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "par/simkit/stats.hpp"

namespace par::simkit::detail {

std::vector<std::string> split_path(std::string_view path);
std::string join_path(const std::string& prefix, const std::string& name);

// A statistic's object in a tree: an object whose "kind" is a string. (A group's members are
// all objects, so a statistic named "kind" cannot be mistaken for one.)
bool is_stat_leaf(const Json& j);
// The object of the dotted group name `name` under `parent`, created when missing. Throws
// std::logic_error when a level is already a statistic.
Json& make_group_node(Json& parent, const std::string& name);
// The node at dotted `name` under `parent`; nullptr when absent or `parent` is null.
const Json* find_node(const Json* parent, std::string_view name);
// A number of a tree as double; NaN for null or anything else.
double json_number(const Json* j);

// A group and its object in the tree being evaluated, with its enclosing scope ("../" paths).
struct Scope {
  const StatGroup* group;
  const Json* node;
  const Scope* parent;
};

// Access to StatGroup's entries and formula evaluation for the JSON and table code.
struct StatsAccess {
  using Entry = StatGroup::Entry;
  static const std::vector<Entry>& entries(const StatGroup& g) { return g.entries_; }
  static std::vector<std::uint64_t>& words(StatSnapshot& s) { return s.words_; }
  static const std::vector<std::uint64_t>& words(const StatSnapshot& s) { return s.words_; }
  // Evaluates `f` (owned by `group`, whose object in the tree is `node`).
  static double evaluate(const Formula& f, const StatGroup& group, const Json& node, bool live,
                         int depth, const Scope* parent = nullptr);
  // Fills in the value of every formula under `group`, whose object is `node`.
  // A view formula's live value, evaluated from the root of its tree ("../" paths included).
  static double number(const Formula& f);
  static void fill_formulas(const StatGroup& group, Json& node, bool live, const Scope* parent = nullptr);
};

}  // namespace par::simkit::detail
