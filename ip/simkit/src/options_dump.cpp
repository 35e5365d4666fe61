// Help text and the effective-configuration dumps (INI and JSON).
#include <algorithm>
#include <ostream>
#include <sstream>

#include "option_values.hpp"
#include "options_impl.hpp"

namespace par::simkit {

using detail::OptionAccess;

namespace {

constexpr std::size_t kHelpWidth = 100;
constexpr std::size_t kMaxLeftColumn = 38;

// Greedy word wrap of `text` into lines of at most `width` characters (longer words overflow).
std::vector<std::string> wrap(const std::string& text, std::size_t width) {
  std::vector<std::string> lines;
  std::istringstream words(text);
  std::string word;
  std::string line;
  while (words >> word) {
    if (!line.empty() && line.size() + 1 + word.size() > width) {
      lines.push_back(line);
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
  }
  if (!line.empty() || lines.empty()) lines.push_back(line);
  return lines;
}

struct HelpRow {
  std::string left;
  std::string right;
};

HelpRow help_row(const Option& o) {
  HelpRow row;
  row.left = "  ";
  if (o.short_alias() != 0) row.left += std::string("-") + o.short_alias() + ", ";
  row.left += "--" + o.name() + (OptionAccess::is_flag(o) ? "" : " ") + o.metavar();
  row.right = o.help();
  std::string notes;
  if (OptionAccess::is_list(o)) {
    notes = "repeatable; default: " + (o.default_text().empty() ? "none" : o.default_text());
  } else {
    notes = "default: " +
            (o.type_name() == "string" ? detail::ini_quote(o.default_text()) : o.default_text());
  }
  if (!o.constraint_text().empty()) {
    notes += (notes.empty() ? "" : "; ") + std::string("allowed: ") + o.constraint_text();
  }
  if (!notes.empty()) row.right += (row.right.empty() ? "(" : " (") + notes + ")";
  return row;
}

void print_rows(std::ostream& os, const std::vector<HelpRow>& rows, std::size_t column) {
  for (const auto& row : rows) {
    const std::vector<std::string> lines = wrap(row.right, kHelpWidth - column);
    std::size_t first = 0;
    if (row.left.size() + 2 <= column) {
      os << row.left << std::string(column - row.left.size(), ' ') << lines[0] << '\n';
      first = 1;
    } else {
      os << row.left << '\n';
    }
    for (std::size_t i = first; i < lines.size(); ++i) {
      os << std::string(column, ' ') << lines[i] << '\n';
    }
  }
}

// Walks `name`'s dotted path in `root`, creating objects, and returns the leaf slot.
Json& nested_slot(Json& root, const std::string& name) {
  Json* node = &root;
  std::size_t start = 0;
  for (std::size_t dot = name.find('.'); dot != std::string::npos; dot = name.find('.', start)) {
    node = &(*node)[name.substr(start, dot - start)];
    start = dot + 1;
  }
  return (*node)[name.substr(start)];
}

}  // namespace

void OptionRegistry::help(std::ostream& os) const {
  os << "Options are given on the command line (--name VALUE or --name=VALUE) or in INI files\n"
        "(--config FILE; a [section] line gives the prefix of the names that follow). The\n"
        "command line wins over every file; a later file wins over an earlier one.\n";
  if (!impl_->instance_types.empty()) {
    std::string types;
    for (const std::string& t : impl_->instance_types) types += (types.empty() ? "" : ", ") + t + "<N>";
    os << "An instance's name overrides its type's option (--core3.lanes over --core.lanes; " << types << ").\n";
  }
  std::vector<std::pair<std::string, std::vector<HelpRow>>> groups;
  for (const std::string& section : impl_->sections(true)) {
    std::vector<HelpRow> rows;
    if (section.empty()) {
      rows.push_back({"  --config <file>",
                      "Read options from an INI file; may be repeated (later files win)."});
    }
    for (const auto& option : impl_->options) {
      if (option->section() == section) rows.push_back(help_row(*option));
    }
    groups.emplace_back(section, std::move(rows));
  }
  if (groups.empty() || !groups.front().first.empty()) {
    groups.insert(groups.begin(), {std::string(),
                                   {{"  --config <file>",
                                     "Read options from an INI file; may be repeated (later "
                                     "files win)."}}});
  }
  // One column for every group, so the whole help lines up; very long names wrap instead.
  std::size_t column = 0;
  for (const auto& group : groups) {
    for (const auto& row : group.second) {
      if (row.left.size() + 2 <= kMaxLeftColumn) column = std::max(column, row.left.size() + 2);
    }
  }
  for (const auto& group : groups) {
    os << '\n' << (group.first.empty() ? std::string("General:") : "[" + group.first + "]") << '\n';
    print_rows(os, group.second, column);
  }
}

std::string OptionRegistry::effective_ini() const {
  std::ostringstream os;
  os << "# Effective configuration. Give this file back with --config to reproduce the run.\n"
        "# The comment after each value says where it came from.\n";
  for (const std::string& section : impl_->sections(false)) {
    std::vector<std::pair<std::string, std::string>> lines;  // "key = value", origin
    for (const auto& option : impl_->options) {
      if (option->is_command_line_only() || option->section() != section) continue;
      const std::string key =
          section.empty() ? option->name() : option->name().substr(section.size() + 1);
      const std::string origin = option->origin().str();
      if (OptionAccess::is_list(*option)) {
        const auto items = OptionAccess::list_items(*option);
        // An empty unquoted value clears a list, so an empty list survives the round trip.
        if (items.empty()) lines.emplace_back(key + " =", origin);
        for (const auto& item : items)
          lines.emplace_back(key + " = " + detail::ini_quote(item), origin);
      } else {
        const std::string value = option->type_name() == "string"
                                      ? detail::ini_quote(option->value_text())
                                      : option->value_text();
        lines.emplace_back(key + " = " + value, origin);
      }
    }
    std::size_t width = 0;
    for (const auto& line : lines)
      width = std::max(width, std::min<std::size_t>(line.first.size(), 48));
    os << '\n';
    if (!section.empty()) os << '[' << section << "]\n";
    for (const auto& [text, origin] : lines) {
      os << text << std::string(width > text.size() ? width - text.size() : 0, ' ') << "  ; "
         << origin << '\n';
    }
  }
  // Each instance's own values, in a section of its own after its type's.
  std::vector<std::string> instances;
  for (const InstanceValue& v : impl_->instance_values)
    if (std::find(instances.begin(), instances.end(), v.instance) == instances.end()) instances.push_back(v.instance);
  if (!instances.empty())
    os << "\n# Per-instance values: [core3] lanes = 4 gives core3 its own core.lanes. An instance\n"
          "# without a section here has its type's values.\n";
  for (const std::string& instance : instances) {
    os << "\n[" << instance << "]\n";
    for (const InstanceValue& v : impl_->instance_values) {
      if (v.instance != instance) continue;
      const Option& type_option = *impl_->find(v.option);
      const std::string text = v.option.substr(v.type.size() + 1) + " = " +
                               (type_option.type_name() == "string" ? detail::ini_quote(v.text) : v.text);
      os << text << std::string(text.size() < 48 ? 48 - text.size() : 0, ' ') << "  ; " << v.origin.str() << '\n';
    }
  }
  return os.str();
}

Json OptionRegistry::effective_json(bool with_origin) const {
  Json root = Json::object();
  for (const auto& option : impl_->options) {
    if (option->is_command_line_only()) continue;
    Json& slot = nested_slot(root, option->name());
    if (!with_origin) {
      slot = option->value_json();
      continue;
    }
    slot = Json{{"value", option->value_json()},
                {"default", option->default_json()},
                {"origin", option->origin().str()},
                {"type", option->type_name()},
                {"help", option->help()}};
  }
  for (const InstanceValue& v : impl_->instance_values) {
    const Option& type_option = *impl_->find(v.option);
    Json& slot = nested_slot(root, v.name());
    if (!with_origin) {
      slot = v.json;
      continue;
    }
    slot = Json{{"value", v.json},
                {"default", type_option.value_json()},
                {"origin", v.origin.str()},
                {"type", type_option.type_name()},
                {"help", type_option.help()}};
  }
  return root;
}

}  // namespace par::simkit
