// Options for run tracing, their validation and the recorders they describe.
//
//   --trace.timeline FILE.json   Chrome/Perfetto timeline, command line only  (none)
//   --trace.max_events N         bound on timeline events                     (1000000)
//   --trace.categories CAT       record only these categories, repeatable     (all)
//   --trace.category_max CAT=N   bound per category, repeatable               (none)
//   --trace.from_ns T            timeline window start                        (0)
//   --trace.to_ns T              timeline window end, 0 = end of the run      (0)
//   --trace.counter_interval_ns T  counters: one sample per T, changes only   (100)
//   --trace.vcd FILE.vcd         VCD waveform, command line only              (none)
//   --trace.signals GLOB         VCD signal selection, repeatable             (all signals)
//   --trace.max_changes N        bound on VCD value changes                   (1000000)
//   --trace.exec FILE            execution trace (text), command line only    (none)
//   --trace.exec_max N           bound on execution-trace records             (100000)
//   --trace.exec_cores GLOB      cores traced, repeatable                      (all)
//   --trace.exec_pc RANGE        FROM..TO or LABEL                             (all)
//   --trace.exec_from_cycle C    cycle window start                            (0)
//   --trace.exec_to_cycle C      cycle window end, 0 = end of the run          (0)
//   --trace.exec_threads F[:N]   only instructions with an active thread in F..F+N-1 (all)
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "par/trace/exec_trace.hpp"
#include "par/trace/timeline.hpp"
#include "par/trace/vcd_writer.hpp"

namespace par::simkit {
class OptionRegistry;
}

namespace par::trace {

struct TraceConfig {
  std::string timeline_file;               // "" = no timeline
  std::uint64_t max_events = 1'000'000;
  std::vector<std::string> categories;     // empty = every category
  std::vector<std::string> category_max;   // "dram=10000"
  double from_ns = 0;
  double to_ns = 0;                        // 0 = end of the run
  double counter_interval_ns = 100;        // counters: one sample per interval, changes only; 0 = all
  std::string vcd_file;                    // "" = no waveform
  std::vector<std::string> signals;        // glob patterns; empty = every signal
  std::uint64_t max_changes = 1'000'000;
  std::string exec_file;                   // "" = no execution trace
  std::uint64_t exec_max = 100'000;
  std::vector<std::string> exec_cores;     // glob patterns; empty = every core
  std::string exec_pc;                     // "FROM..TO" or "LABEL"; empty = every PC
  std::uint64_t exec_from_cycle = 0;
  std::uint64_t exec_to_cycle = 0;         // 0 = end of the run
  std::string exec_threads;                // "FIRST[:COUNT]"; empty = every thread

  // One message per problem, naming the option ("trace.category_max: 'dram' is not CATEGORY=N").
  std::vector<std::string> validate() const;
};

// Binds the options above to `cfg`. The two file options are command-line only: they name outputs,
// not the configuration of the model, so a dumped config.ini given back does not overwrite them.
void register_options(simkit::OptionRegistry& reg, TraceConfig& cfg);

// The recorders a valid configuration asks for; nullptr when its file is not set. Throw
// std::invalid_argument when validate() is not empty.
TimelineLimits timeline_limits(const TraceConfig& cfg);
std::unique_ptr<Timeline> make_timeline(const TraceConfig& cfg);
std::unique_ptr<VcdWriter> make_vcd(const TraceConfig& cfg);
// The execution trace (null when trace.exec is empty), its records also going into `timeline` when
// that is not null. `code_labels` resolve trace.exec_pc. Null with *error set when the PC range
// names no label of the program or the file cannot be opened.
std::unique_ptr<ExecTrace> make_exec_trace(const TraceConfig& cfg, const std::map<std::string, std::uint64_t>& code_labels,
                                           Timeline* timeline, std::string* error);

}  // namespace par::trace
