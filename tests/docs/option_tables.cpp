#include "option_tables.hpp"

#include <cctype>
#include <sstream>

namespace par::docs {

namespace {

std::string trim(const std::string& s) {
  const std::size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  const std::size_t e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

std::string unquote_backticks(std::string s) {
  s = trim(s);
  if (s.size() >= 2 && s.front() == '`' && s.back() == '`') s = trim(s.substr(1, s.size() - 2));
  return s;
}

bool is_name_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '.' || c == '-';
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) lines.push_back(line);
  return lines;
}

// An entry of the help starts with two spaces and a dash ("  --name ...", "  -h [ --help ]");
// its wrapped description continues on lines indented further.
bool starts_entry(const std::string& line) { return line.size() > 3 && line.compare(0, 3, "  -") == 0; }

// The default in an entry's joined text: after "(default: " or "(repeatable; default: ", up to
// ';' or ')', or a whole double-quoted string.
std::string default_of(const std::string& text) {
  std::size_t at = std::string::npos;
  for (const char* marker : {"(default: ", "(repeatable; default: "}) {
    const std::size_t found = text.rfind(marker);
    if (found != std::string::npos && (at == std::string::npos || found > at)) {
      at = found + std::string(marker).size();
    }
  }
  if (at == std::string::npos) return kNoDefault;
  if (at >= text.size()) return "";
  if (text[at] == '"') {
    std::size_t end = at + 1;
    while (end < text.size() && text[end] != '"') end += text[end] == '\\' ? 2 : 1;
    return text.substr(at, end + 1 - at);
  }
  const std::size_t end = text.find_first_of(";)", at);
  return trim(text.substr(at, end == std::string::npos ? std::string::npos : end - at));
}

std::string name_of(const std::string& first_line) {
  const std::size_t dashes = first_line.find("--");
  if (dashes == std::string::npos) return "";
  std::size_t end = dashes + 2;
  while (end < first_line.size() && is_name_char(first_line[end])) ++end;
  return first_line.substr(dashes + 2, end - dashes - 2);
}

std::vector<std::string> cells_of(const std::string& row) {
  std::vector<std::string> cells;
  std::string t = trim(row);
  if (t.empty() || t.front() != '|') return cells;
  t = t.substr(1);
  if (!t.empty() && t.back() == '|') t.pop_back();
  std::string cell;
  bool in_code = false;
  for (char c : t) {
    if (c == '`') in_code = !in_code;
    if (c == '|' && !in_code) {
      cells.push_back(trim(cell));
      cell.clear();
    } else {
      cell += c;
    }
  }
  cells.push_back(trim(cell));
  return cells;
}

bool is_separator(const std::string& row) {
  const std::vector<std::string> cells = cells_of(row);
  if (cells.empty()) return false;
  for (const std::string& c : cells) {
    if (c.find_first_not_of(":-") != std::string::npos || c.find('-') == std::string::npos) return false;
  }
  return true;
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// "`host_mem.*`" -> "host_mem"; "" when the cell is not one backticked prefix pattern.
std::string prefix_pattern(const std::string& cell) {
  const std::string c = trim(cell);
  if (c.size() < 5 || c.front() != '`' || c.back() != '`' || c.find('`', 1) != c.size() - 1) return "";
  const std::string inner = c.substr(1, c.size() - 2);
  if (inner.size() < 3 || inner.compare(inner.size() - 2, 2, ".*") != 0) return "";
  const std::string prefix = inner.substr(0, inner.size() - 2);
  for (char ch : prefix) {
    if (!is_name_char(ch)) return "";
  }
  return prefix;
}

}  // namespace

std::vector<HelpOption> parse_help(const std::string& help_text) {
  std::vector<HelpOption> options;
  const std::vector<std::string> lines = lines_of(help_text);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (!starts_entry(lines[i])) continue;
    const std::string first_line = lines[i];
    std::string text = trim(first_line);
    while (i + 1 < lines.size() && !starts_entry(lines[i + 1]) && lines[i + 1].size() > 2 &&
           lines[i + 1][0] == ' ' && !trim(lines[i + 1]).empty()) {
      text += " " + trim(lines[++i]);
    }
    HelpOption option{name_of(first_line), default_of(text)};
    if (option.name.empty()) continue;
    bool known = false;
    for (const HelpOption& o : options) {
      known = known || (o.name == option.name && o.default_text == option.default_text);
    }
    if (!known) options.push_back(option);
  }
  return options;
}

TableParse parse_option_tables(const std::string& markdown, const std::string& page) {
  TableParse result;
  const std::vector<std::string> lines = lines_of(markdown);
  bool in_fence = false;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string t = trim(lines[i]);
    if (t.rfind("```", 0) == 0) {
      in_fence = !in_fence;
      continue;
    }
    if (in_fence || t.empty() || t.front() != '|') continue;
    const std::vector<std::string> header = cells_of(t);
    const auto where = [&](std::size_t line) { return page + ":" + std::to_string(line + 1) + ": "; };
    // Skip the rest of this table whatever it is.
    std::size_t end = i + 1;
    while (end < lines.size() && !trim(lines[end]).empty() && trim(lines[end]).front() == '|') ++end;
    const bool option_table = header.size() >= 2 && header[0] == "option" && header[1] == "default";
    const bool instance_table = header.size() >= 2 && header[0] == "instance" && header[1] == "options of";
    if (!option_table && !instance_table) {
      if (!header.empty() && lower(header[0]) == "option") {
        result.errors.push_back(where(i) + "a table whose first column is 'option' must start with the header "
                                "'| option | default |' (found '" + t + "')");
      }
      if (!header.empty() && lower(header[0]) == "instance") {
        result.errors.push_back(where(i) + "a table whose first column is 'instance' must start with the header "
                                "'| instance | options of |' (found '" + t + "')");
      }
      i = end - 1;
      continue;
    }
    if (i + 1 >= end || !is_separator(lines[i + 1])) {
      result.errors.push_back(where(i) + "table without a '|---|---|' separator row under its header");
      i = end - 1;
      continue;
    }
    for (std::size_t r = i + 2; r < end && instance_table; ++r) {
      const std::vector<std::string> cells = cells_of(lines[r]);
      const std::string instance = cells.size() >= 2 ? prefix_pattern(cells[0]) : "";
      const std::string base = cells.size() >= 2 ? prefix_pattern(cells[1]) : "";
      if (instance.empty() || base.empty()) {
        result.errors.push_back(where(r) + "an instance row must start with '| `prefix.*` | `base.*` |' (found '" +
                                trim(lines[r]) + "')");
        continue;
      }
      result.instances.push_back({instance, base, page, static_cast<int>(r + 1)});
    }
    for (std::size_t r = i + 2; r < end && option_table; ++r) {
      const std::vector<std::string> cells = cells_of(lines[r]);
      std::string name = cells.empty() ? "" : cells[0];
      const bool one_name = name.size() > 2 && name.front() == '`' && name.back() == '`' &&
                            name.find('`', 1) == name.size() - 1;
      name = one_name ? unquote_backticks(name) : "";
      if (name.rfind("--", 0) == 0) name = name.substr(2);
      bool valid_name = !name.empty() && name.front() != '-';
      for (char c : name) valid_name = valid_name && is_name_char(c);
      if (!valid_name || cells.size() < 2) {
        result.errors.push_back(where(r) + "an option row must start with '| `name` | default |' (found '" +
                                trim(lines[r]) + "')");
        continue;
      }
      result.options.push_back({name, unquote_backticks(cells[1]), page, static_cast<int>(r + 1)});
    }
    i = end - 1;
  }
  return result;
}

}  // namespace par::docs
