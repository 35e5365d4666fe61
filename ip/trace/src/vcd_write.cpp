// VcdWriter::write: header, nested scopes, $dumpvars and the sorted, collapsed value changes.
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <fstream>
#include <map>
#include <numeric>
#include <ostream>

#include "par/trace/vcd_writer.hpp"

namespace par::trace {

namespace {

// Identifier code of the n-th selected signal: base 94 over the printable characters '!'..'~'.
std::string id_code(std::uint32_t n) {
  std::string code;
  do {
    code += static_cast<char>('!' + n % 94);
    n /= 94;
  } while (n != 0);
  return code;
}

std::uint64_t mask_of(unsigned width) {
  return width >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << width) - 1;
}

// The value as stored for a signal of `width`: wires are 0/1, integers truncated.
std::uint64_t normalise(std::uint64_t value, unsigned width) {
  return width == 1 ? (value != 0 ? 1 : 0) : value & mask_of(width);
}

void append_value(std::string& s, std::uint64_t value, unsigned width, const std::string& code) {
  if (width == 1) {
    s += value != 0 ? '1' : '0';
  } else {
    s += 'b';
    int bit = 63;
    while (bit > 0 && ((value >> bit) & 1) == 0) --bit;
    for (; bit >= 0; --bit) s += ((value >> bit) & 1) != 0 ? '1' : '0';
    s += ' ';
  }
  s += code;
  s += '\n';
}

std::string local_date() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  localtime_r(&now, &tm);
  char buf[64];
  const std::size_t n = std::strftime(buf, sizeof buf, "%a %b %d %H:%M:%S %Y", &tm);
  return std::string(buf, n);
}

// The scope tree of the selected signals, children in first-appearance order.
struct Scope {
  std::string name;
  // Items in order: a child scope (index into the scope list) or a signal (index).
  std::vector<std::pair<bool, std::uint32_t>> items;  // (is_scope, index)
  std::map<std::string, std::uint32_t, std::less<>> child_index;
};

}  // namespace

void VcdWriter::write(std::ostream& os) const {
  std::string s;
  s.reserve(1 << 16);
  const auto flush_if_large = [&] {
    if (s.size() >= (1 << 16)) {
      os.write(s.data(), static_cast<std::streamsize>(s.size()));
      s.clear();
    }
  };
  const bool truncated = dropped_ != 0;
  s += "$date\n   " + (date_.empty() ? local_date() : date_) + "\n$end\n";
  s += "$version\n   parsys\n$end\n";
  s += "$comment\n   " + std::to_string(signals_.size()) + " signals, " +
       std::to_string(changes_.size()) + " value changes recorded, " + std::to_string(dropped_) +
       " dropped (max_changes " + std::to_string(max_changes_) + ")";
  if (truncated) {
    s += ";\n   the waveform stops at #" + std::to_string(first_dropped_) +
         ", the earliest dropped change";
  }
  s += "\n$end\n";
  // Run information (command line, configuration), one $comment; "$end" cannot occur in it.
  if (!info_.empty()) {
    std::string text = info_;
    for (std::size_t at = text.find("$end"); at != std::string::npos; at = text.find("$end", at)) text.replace(at, 1, "S");
    s += "$comment\n";
    std::size_t start = 0;
    while (start <= text.size()) {
      const std::size_t nl = std::min(text.find('\n', start), text.size());
      s += "   " + text.substr(start, nl - start) + "\n";
      start = nl + 1;
    }
    s += "$end\n";
  }
  s += "$timescale 1ps $end\n";

  // Scopes: a root "parsys" (some viewers need every variable inside a scope), then one level
  // per dotted word.
  std::vector<Scope> scopes(1);
  scopes[0].name = "parsys";
  std::vector<std::string> var_name(signals_.size());
  for (std::uint32_t i = 0; i < signals_.size(); ++i) {
    const std::string& full = signals_[i].name;
    std::uint32_t node = 0;
    std::size_t start = 0;
    for (std::size_t dot = full.find('.'); dot != std::string::npos; dot = full.find('.', start)) {
      const std::string word = full.substr(start, dot - start);
      const auto it = scopes[node].child_index.find(word);
      if (it != scopes[node].child_index.end()) {
        node = it->second;
      } else {
        const auto child = static_cast<std::uint32_t>(scopes.size());
        scopes[node].child_index.emplace(word, child);
        scopes[node].items.emplace_back(true, child);
        scopes.push_back(Scope{word, {}, {}});
        node = child;
      }
      start = dot + 1;
    }
    var_name[i] = full.substr(start);
    scopes[node].items.emplace_back(false, i);
  }
  std::vector<std::string> code(signals_.size());
  for (std::uint32_t i = 0; i < signals_.size(); ++i) code[i] = id_code(i);
  // Depth-first with an explicit stack: (scope, next item).
  std::vector<std::pair<std::uint32_t, std::size_t>> stack{{0, 0}};
  s += "$scope module parsys $end\n";
  while (!stack.empty()) {
    auto& [node, next] = stack.back();
    if (next == scopes[node].items.size()) {
      s += "$upscope $end\n";
      stack.pop_back();
      continue;
    }
    const auto [is_scope, index] = scopes[node].items[next++];
    if (is_scope) {
      s += "$scope module " + scopes[index].name + " $end\n";
      stack.emplace_back(index, 0);
    } else {
      const Signal& sig = signals_[index];
      s += "$var ";
      s += sig.width == 1 ? "wire" : "integer";
      s += ' ' + std::to_string(sig.width) + ' ' + code[index] + ' ' + var_name[index] + " $end\n";
    }
  }
  s += "$enddefinitions $end\n";

  // Changes in time order; equal times keep call order (stable), so the last call wins.
  std::vector<std::uint32_t> order(changes_.size());
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::uint32_t a, std::uint32_t b) { return changes_[a].t < changes_[b].t; });
  std::vector<std::uint64_t> current(signals_.size());
  std::vector<std::int64_t> level(signals_.size());  // counting signals: the running sum
  for (std::uint32_t i = 0; i < signals_.size(); ++i) {
    current[i] = normalise(signals_[i].initial, signals_[i].width);
    level[i] = static_cast<std::int64_t>(signals_[i].initial);
  }
  std::vector<std::uint64_t> pending(signals_.size());
  std::vector<bool> touched_flag(signals_.size(), false);
  std::vector<std::uint32_t> touched;
  const Ps stop = truncated ? first_dropped_ : kEndOfTime;
  std::size_t k = 0;
  bool dumped = false;
  // The values at time 0 (initial values with the changes at 0 applied), once.
  const auto dump_vars = [&] {
    if (dumped) return;
    s += "#0\n$dumpvars\n";
    for (std::uint32_t i = 0; i < signals_.size(); ++i) {
      append_value(s, current[i], signals_[i].width, code[i]);
    }
    s += "$end\n";
    dumped = true;
  };
  while (k < order.size() && changes_[order[k]].t < stop) {
    const Ps t = changes_[order[k]].t;
    for (; k < order.size() && changes_[order[k]].t == t; ++k) {
      const Change& c = changes_[order[k]];
      if (signals_[c.signal].counting) {
        level[c.signal] += static_cast<std::int64_t>(c.value);
        pending[c.signal] = normalise(static_cast<std::uint64_t>(std::max<std::int64_t>(level[c.signal], 0)),
                                      signals_[c.signal].width);
      } else {
        pending[c.signal] = normalise(c.value, signals_[c.signal].width);
      }
      if (!touched_flag[c.signal]) {
        touched_flag[c.signal] = true;
        touched.push_back(c.signal);
      }
    }
    std::sort(touched.begin(), touched.end());
    if (t == 0) {
      for (const std::uint32_t sig : touched) current[sig] = pending[sig];
    } else {
      dump_vars();
      bool stamped = false;
      for (const std::uint32_t sig : touched) {
        if (pending[sig] == current[sig]) continue;
        if (!stamped) {
          s += '#' + std::to_string(t) + '\n';
          stamped = true;
        }
        current[sig] = pending[sig];
        append_value(s, current[sig], signals_[sig].width, code[sig]);
      }
    }
    for (const std::uint32_t sig : touched) touched_flag[sig] = false;
    touched.clear();
    flush_if_large();
  }
  dump_vars();
  if (truncated && stop != 0) s += '#' + std::to_string(stop) + '\n';
  os.write(s.data(), static_cast<std::streamsize>(s.size()));
}

bool VcdWriter::write_file(const std::string& path, std::string* error) const {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  if (file) write(file);
  if (file) file.close();
  if (!file) {
    if (error != nullptr) *error = "cannot write '" + path + "': " + std::strerror(errno);
    return false;
  }
  return true;
}

}  // namespace par::trace
