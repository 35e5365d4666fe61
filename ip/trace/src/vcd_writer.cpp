// VcdWriter: declaration, selection and recording. The file text is vcd_write.cpp.
#include <stdexcept>

#include "par/trace/glob.hpp"
#include "par/trace/vcd_writer.hpp"

namespace par::trace {

namespace {

bool is_word_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// Dotted words of [A-Za-z0-9_]: safe as VCD scope and variable names in every viewer (no
// whitespace, no '[' that would read as a bit range).
void check_name(std::string_view name) {
  bool ok = !name.empty() && name.front() != '.' && name.back() != '.';
  for (std::size_t i = 0; ok && i < name.size(); ++i) {
    ok = is_word_char(name[i]) || (name[i] == '.' && name[i + 1] != '.');
  }
  if (!ok) {
    throw std::invalid_argument("vcd: bad signal name '" + std::string(name) +
                                "' (dotted words of letters, digits and '_')");
  }
}

// Whether one pattern selects `name`: matches it, or matches a scope above it.
bool selects(std::string_view pattern, std::string_view name) {
  if (glob_match(pattern, name)) return true;
  for (std::size_t dot = name.find('.'); dot != std::string_view::npos;
       dot = name.find('.', dot + 1)) {
    if (glob_match(pattern, name.substr(0, dot))) return true;
  }
  return false;
}

}  // namespace

VcdWriter::VcdWriter(std::uint64_t max_changes) : max_changes_(max_changes) {}

void VcdWriter::select(std::vector<std::string> patterns) {
  if (!declared_.empty()) {
    throw std::logic_error("vcd: select() after signals were declared");
  }
  patterns_ = std::move(patterns);
}

bool VcdWriter::is_selected(std::string_view name) const {
  if (patterns_.empty()) return true;
  for (const std::string& p : patterns_) {
    if (selects(p, name)) return true;
  }
  return false;
}

SignalId VcdWriter::signal(std::string_view hierarchical_name, unsigned width,
                           std::uint64_t initial) {
  return declare(hierarchical_name, width, initial, false);
}

SignalId VcdWriter::counting_signal(std::string_view hierarchical_name, unsigned width) {
  return declare(hierarchical_name, width, 0, true);
}

SignalId VcdWriter::declare(std::string_view hierarchical_name, unsigned width, std::uint64_t initial,
                            bool counting) {
  check_name(hierarchical_name);
  const std::string name(hierarchical_name);
  if (width == 0 || width > 64) {
    throw std::invalid_argument("vcd: signal '" + name + "': width " + std::to_string(width) +
                                " is not 1..64");
  }
  if (const auto it = by_name_.find(name); it != by_name_.end()) {
    if (it->second.width != width) {
      throw std::invalid_argument("vcd: signal '" + name + "' declared with widths " +
                                  std::to_string(it->second.width) + " and " +
                                  std::to_string(width));
    }
    if (it->second.counting != counting) {
      throw std::invalid_argument("vcd: signal '" + name + "' declared as a counting and as a plain signal");
    }
    return it->second.id;
  }
  if (scopes_.count(name) != 0) {
    throw std::invalid_argument("vcd: signal '" + name + "' is also a scope of another signal");
  }
  for (std::size_t dot = name.find('.'); dot != std::string::npos; dot = name.find('.', dot + 1)) {
    const std::string scope = name.substr(0, dot);
    if (by_name_.count(scope) != 0) {
      throw std::invalid_argument("vcd: signal '" + name + "' lies below signal '" + scope + "'");
    }
  }
  for (std::size_t dot = name.find('.'); dot != std::string::npos; dot = name.find('.', dot + 1)) {
    scopes_.insert(name.substr(0, dot));
  }
  SignalId id;
  if (is_selected(name)) {
    id.index = static_cast<std::uint32_t>(signals_.size());
    signals_.push_back(Signal{name, width, initial, counting});
  }
  by_name_.emplace(name, Declared{static_cast<std::uint32_t>(declared_.size()), width, id, counting});
  declared_.push_back(name);
  return id;
}

std::vector<std::string> VcdWriter::unmatched_patterns() const {
  std::vector<std::string> out;
  for (const std::string& p : patterns_) {
    bool matched = false;
    for (std::size_t k = 0; k < declared_.size() && !matched; ++k) matched = selects(p, declared_[k]);
    if (!matched) out.push_back(p);
  }
  return out;
}

void VcdWriter::note_dropped(Ps t) noexcept {
  ++dropped_;
  if (t < first_dropped_) first_dropped_ = t;
}

std::size_t VcdWriter::memory_bytes() const noexcept {
  std::size_t bytes = changes_.memory_bytes() + signals_.capacity() * sizeof(Signal);
  for (const std::string& n : declared_) bytes += 2 * (sizeof(std::string) + n.capacity());
  return bytes;
}

}  // namespace par::trace
