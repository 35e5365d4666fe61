// Options for run tracing, their validation and the recorders they describe.
//
//   --trace.timeline FILE.json   Chrome/Perfetto timeline, command line only  (none)
//   --trace.max_events N         bound on timeline events                     (1000000)
//   --trace.categories CAT       record only these categories, repeatable     (all)
//   --trace.category_max CAT=N   bound per category, repeatable               (none)
//   --trace.from_ns T            timeline window start                        (0)
//   --trace.to_ns T              timeline window end, 0 = end of the run      (0)
//   --trace.vcd FILE.vcd         VCD waveform, command line only              (none)
//   --trace.signals GLOB         VCD signal selection, repeatable             (all signals)
//   --trace.max_changes N        bound on VCD value changes                   (1000000)
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

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
  std::string vcd_file;                    // "" = no waveform
  std::vector<std::string> signals;        // glob patterns; empty = every signal
  std::uint64_t max_changes = 1'000'000;

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

}  // namespace par::trace
