#include "par/trace/trace_config.hpp"

#include <cmath>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "par/simkit/options.hpp"

namespace par::trace {

namespace {

// Longest window bound: 1e15 ns = 1e18 ps, below the 1.8e19 ps that fit in 64 bits.
constexpr double kMaxNs = 1e15;

Ps ns_to_ps(double ns) { return static_cast<Ps>(std::llround(ns * 1000.0)); }

// "dram=10000" -> ("dram", 10000); nullopt when malformed.
std::optional<std::pair<std::string, std::uint64_t>> parse_category_max(const std::string& item) {
  const auto eq = item.rfind('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == item.size()) return std::nullopt;
  std::uint64_t n = 0;
  for (std::size_t i = eq + 1; i < item.size(); ++i) {
    const char c = item[i];
    if (c < '0' || c > '9') return std::nullopt;
    const std::uint64_t digit = static_cast<std::uint64_t>(c - '0');
    if (n > (~std::uint64_t{0} - digit) / 10) return std::nullopt;
    n = n * 10 + digit;
  }
  return std::make_pair(item.substr(0, eq), n);
}

std::string number_text(double v) {
  std::ostringstream os;
  os << v;
  return os.str();
}

void require_valid(const TraceConfig& cfg) {
  const auto errors = cfg.validate();
  if (!errors.empty()) throw std::invalid_argument(errors.front());
}

}  // namespace

std::vector<std::string> TraceConfig::validate() const {
  std::vector<std::string> e;
  if (max_events == 0) e.push_back("trace.max_events: 0 is out of range >= 1");
  if (max_changes == 0) e.push_back("trace.max_changes: 0 is out of range >= 1");
  for (const std::string& cat : categories) {
    if (cat.empty()) e.push_back("trace.categories: empty category name");
  }
  for (const std::string& item : category_max) {
    if (!parse_category_max(item)) {
      e.push_back("trace.category_max: '" + item + "' is not CATEGORY=N (N a decimal count)");
    }
  }
  const bool from_ok = std::isfinite(from_ns) && from_ns >= 0 && from_ns <= kMaxNs;
  const bool to_ok = std::isfinite(to_ns) && to_ns >= 0 && to_ns <= kMaxNs;
  if (!from_ok) e.push_back("trace.from_ns: " + number_text(from_ns) + " is out of range 0..1e+15");
  if (!to_ok) e.push_back("trace.to_ns: " + number_text(to_ns) + " is out of range 0..1e+15");
  if (from_ok && to_ok && to_ns != 0 && ns_to_ps(to_ns) <= ns_to_ps(from_ns)) {
    e.push_back("trace.to_ns: " + number_text(to_ns) + " is not after trace.from_ns = " +
                number_text(from_ns) + " (0 means the end of the run)");
  }
  for (const std::string& p : signals) {
    if (p.empty()) e.push_back("trace.signals: empty pattern");
  }
  return e;
}

void register_options(simkit::OptionRegistry& reg, TraceConfig& cfg) {
  reg.add("trace.timeline", cfg.timeline_file,
          "Write a Chrome/Perfetto timeline (JSON) of the run to this file; open it at "
          "ui.perfetto.dev or chrome://tracing.")
      .command_line_only();
  reg.add("trace.max_events", cfg.max_events,
          "Most timeline events kept; later ones are counted as dropped (otherData in the file).")
      .min(1);
  reg.add("trace.categories", cfg.categories,
          "Timeline categories to record (repeatable: host, link, launch, core, l2, dram, counter); "
          "none: every category.");
  reg.add("trace.category_max", cfg.category_max,
          "Most timeline events kept in one category, as CATEGORY=N (repeatable: dram=10000).");
  reg.add("trace.from_ns", cfg.from_ns,
          "Timeline window start: keep only events that reach past this simulated time.")
      .range(0, kMaxNs);
  reg.add("trace.to_ns", cfg.to_ns,
          "Timeline window end: keep only events that start before this time (0: end of run).")
      .range(0, kMaxNs);
  reg.add("trace.vcd", cfg.vcd_file,
          "Write a VCD waveform of the selected signals to this file (GTKWave, Surfer).")
      .command_line_only();
  reg.add("trace.signals", cfg.signals,
          "VCD signals to record, as glob patterns over dotted names (repeatable: 'core*.stall', "
          "'link'); none: every signal.");
  reg.add("trace.max_changes", cfg.max_changes,
          "Most VCD value changes kept; the waveform stops before the first one dropped.")
      .min(1);
}

TimelineLimits timeline_limits(const TraceConfig& cfg) {
  require_valid(cfg);
  TimelineLimits lim;
  lim.max_events = cfg.max_events;
  lim.categories.insert(cfg.categories.begin(), cfg.categories.end());
  for (const std::string& item : cfg.category_max) {
    const auto parsed = parse_category_max(item);
    lim.category_max[parsed->first] = parsed->second;
  }
  lim.from = ns_to_ps(cfg.from_ns);
  lim.to = cfg.to_ns == 0 ? kEndOfTime : ns_to_ps(cfg.to_ns);
  return lim;
}

std::unique_ptr<Timeline> make_timeline(const TraceConfig& cfg) {
  require_valid(cfg);
  if (cfg.timeline_file.empty()) return nullptr;
  return std::make_unique<Timeline>(timeline_limits(cfg));
}

std::unique_ptr<VcdWriter> make_vcd(const TraceConfig& cfg) {
  require_valid(cfg);
  if (cfg.vcd_file.empty()) return nullptr;
  auto vcd = std::make_unique<VcdWriter>(cfg.max_changes);
  vcd->select(cfg.signals);
  return vcd;
}

}  // namespace par::trace
