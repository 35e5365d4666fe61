#include "par/trace/trace_config.hpp"

#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "par/simkit/options.hpp"

namespace par::trace {

namespace {

// Longest window bound: 1e15 ns = 1e18 ps, below the 1.8e19 ps that fit in 64 bits.
constexpr double kMaxNs = 1e15;

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
  if (!(std::isfinite(counter_interval_ns) && counter_interval_ns >= 0 && counter_interval_ns <= kMaxNs))
    e.push_back("trace.counter_interval_ns: " + number_text(counter_interval_ns) + " is out of range 0..1e+15");
  for (const std::string& p : signals) {
    if (p.empty()) e.push_back("trace.signals: empty pattern");
  }
  if (exec_max == 0) e.push_back("trace.exec_max: 0 is out of range >= 1");
  for (const std::string& p : exec_cores) {
    if (p.empty()) e.push_back("trace.exec_cores: empty pattern");
  }
  if (exec_to_cycle != 0 && exec_to_cycle <= exec_from_cycle)
    e.push_back("trace.exec_to_cycle: " + std::to_string(exec_to_cycle) + " is not after trace.exec_from_cycle = " +
                std::to_string(exec_from_cycle) + " (0 means the end of the run)");
  std::uint64_t first = 0, count = 0;
  if (!parse_thread_range(exec_threads, &first, &count))
    e.push_back("trace.exec_threads: '" + exec_threads + "' is not FIRST[:COUNT] (decimal, COUNT >= 1)");
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
  reg.add("trace.counter_interval_ns", cfg.counter_interval_ns,
          "Timeline counters (queue depths): at most one sample per counter and interval of this many ns "
          "(its value at the interval's end) and only changes; 0: every sample.")
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
  reg.add("trace.exec", cfg.exec_file,
          "Write an execution trace (one text line per executed instruction: cycle, core, context, round, "
          "PC, depth, active threads, mask, source line, instruction) to this file; with --trace.timeline "
          "also as intervals on the cores' 'exec' tracks.")
      .command_line_only();
  reg.add("trace.exec_max", cfg.exec_max,
          "Most execution-trace records written; the file's last line and a warning say how many more "
          "there were.")
      .min(1);
  reg.add("trace.exec_cores", cfg.exec_cores,
          "Cores in the execution trace, as glob patterns over their names (repeatable: core0, 'core*'); "
          "none: every core.");
  reg.add("trace.exec_pc", cfg.exec_pc,
          "PCs in the execution trace: FROM..TO (inclusive; numbers or code labels) or LABEL (the "
          "instructions from LABEL up to the next label); empty: every PC.");
  reg.add("trace.exec_from_cycle", cfg.exec_from_cycle,
          "Execution-trace window start, in core clock cycles (functional mode: fetched instructions).");
  reg.add("trace.exec_to_cycle", cfg.exec_to_cycle,
          "Execution-trace window end (exclusive), in core clock cycles; 0: end of the run.");
  reg.add("trace.exec_threads", cfg.exec_threads,
          "Only instructions that run for at least one thread of FIRST[:COUNT] (COUNT 1 when absent) "
          "go into the execution trace; empty: every thread.");
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
  lim.counter_interval = ns_to_ps(cfg.counter_interval_ns);
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

namespace par::trace {

std::unique_ptr<ExecTrace> make_exec_trace(const TraceConfig& cfg, const std::map<std::string, std::uint64_t>& code_labels,
                                           Timeline* timeline, std::string* error) {
  require_valid(cfg);
  if (cfg.exec_file.empty()) return nullptr;
  ExecFilter f;
  f.cores = cfg.exec_cores;
  if (!parse_pc_range(cfg.exec_pc, code_labels, &f.pc_first, &f.pc_last, error)) return nullptr;
  f.cycle_from = cfg.exec_from_cycle;
  f.cycle_to = cfg.exec_to_cycle == 0 ? kNoLimit : cfg.exec_to_cycle;
  parse_thread_range(cfg.exec_threads, &f.thread_first, &f.thread_count);
  auto file = std::make_unique<std::ofstream>(cfg.exec_file);
  if (!*file) {
    if (error) *error = "cannot write '" + cfg.exec_file + "': " + std::strerror(errno);
    return nullptr;
  }
  return std::make_unique<ExecTrace>(std::move(file), timeline, cfg.exec_max, std::move(f));
}

}  // namespace par::trace
