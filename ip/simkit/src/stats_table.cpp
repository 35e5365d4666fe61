// The readable statistics table.
#include <algorithm>
#include <ostream>

#include "par/simkit/format.hpp"
#include "stats_impl.hpp"

namespace par::simkit {

using detail::StatsAccess;

namespace {

struct Row {
  std::string name;
  std::string value;
  std::string unit;
  std::string desc;
  bool host = false;  // a host measurement: no say in the column widths
};

const Json* member(const Json& object, const char* key) {
  const auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

// Integers print exactly (a uint64 counter may exceed a double's 53 bits); the rest through the
// statistic's format.
std::string value_text(const Format& format, const Json* v) {
  if (v == nullptr || v->is_null()) return "n/a";
  if (format.kind() == Format::Kind::Integer && v->is_number_integer()) return v->dump();
  return format.apply(detail::json_number(v));
}

std::string bound_text(const Json* v) { return format_shortest(detail::json_number(v)); }

void distribution_rows(const Stat& s, const Json& leaf, const std::string& name,
                       std::vector<Row>& rows) {
  const Json* count = member(leaf, "count");
  rows.push_back({name + ".count", value_text(Format::integer(), count), "samples", "samples"});
  rows.push_back(
      {name + ".min", value_text(s.format(), member(leaf, "min")), s.unit(), "smallest sample"});
  rows.push_back(
      {name + ".max", value_text(s.format(), member(leaf, "max")), s.unit(), "largest sample"});
  const double total = detail::json_number(count);
  const auto share = [total](const Json* n) {
    return total > 0 ? format_percent(detail::json_number(n) / total, 2) + " of samples" : "";
  };
  const auto add_nonzero = [&](const std::string& label, const Json* n) {
    if (detail::json_number(n) != 0 && n != nullptr && !n->is_null()) {
      rows.push_back({name + label, value_text(Format::integer(), n), "samples", share(n)});
    }
  };
  const Json* buckets = member(leaf, "buckets");
  if (buckets == nullptr || !buckets->is_array() || buckets->empty()) return;
  add_nonzero("[<" + bound_text(member(buckets->front(), "lo")) + ")", member(leaf, "underflow"));
  for (const Json& b : *buckets) {
    add_nonzero("[" + bound_text(member(b, "lo")) + "," + bound_text(member(b, "hi")) + ")",
                member(b, "count"));
  }
  add_nonzero("[>=" + bound_text(member(buckets->back(), "hi")) + ")", member(leaf, "overflow"));
}

void collect(const StatGroup& g, const Json& node, const std::string& prefix,
             std::vector<Row>& rows) {
  for (const auto& e : StatsAccess::entries(g)) {
    if (e.group != nullptr) {
      if (const Json* child = detail::find_node(&node, e.group->name())) {
        collect(*e.group, *child, detail::join_path(prefix, e.group->name()), rows);
      }
      continue;
    }
    const Stat& s = *e.stat;
    const Json* leaf = member(node, s.name().c_str());
    if (leaf == nullptr || !detail::is_stat_leaf(*leaf)) continue;
    const std::string name = detail::join_path(prefix, s.name());
    if (s.kind() == Stat::Kind::Distribution) {
      rows.push_back({name, value_text(s.format(), member(*leaf, "value")), s.unit(),
                      s.desc() + (s.desc().empty() ? "mean" : " (mean)")});
      distribution_rows(s, *leaf, name, rows);
    } else {
      rows.push_back({name, value_text(s.format(), member(*leaf, "value")), s.unit(), s.desc(), s.is_host_measure()});
    }
  }
}

}  // namespace

void StatGroup::write_table(std::ostream& os) const { write_table(os, to_json()); }

void StatGroup::write_table(std::ostream& os, const Json& values) const {
  std::vector<Row> rows{{"statistic", "value", "unit", "description"}};
  collect(*this, values, path(), rows);
  std::size_t name_w = 0, value_w = 0, unit_w = 0;
  for (const Row& r : rows) {
    name_w = std::max(name_w, r.name.size());
    if (!r.host) value_w = std::max(value_w, r.value.size());
    unit_w = std::max(unit_w, r.unit.size());
  }
  for (const Row& r : rows) {
    std::string line = r.name + std::string(name_w - r.name.size() + 2, ' ') +
                       std::string(value_w - std::min(value_w, r.value.size()), ' ') + r.value + "  " + r.unit +
                       std::string(unit_w - r.unit.size() + 2, ' ') + r.desc;
    line.erase(line.find_last_not_of(' ') + 1);
    os << line << '\n';
  }
}

}  // namespace par::simkit
