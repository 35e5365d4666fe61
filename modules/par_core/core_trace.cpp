#include "core_trace.hpp"

#include <algorithm>

namespace par::core {

CoreTrace::CoreTrace(trace::Timeline* timeline, trace::VcdWriter* vcd, const std::string& core)
    : busy_track_(timeline, core, "busy"),
      stall_track_(timeline, core, "stall"),
      busy_signal_(vcd, core + ".busy", 1),
      stall_signal_(vcd, core + ".stall", 1) {
  if (timeline == nullptr) return;
  busy_name_ = timeline->name("busy");
  for (int c = 0; c < kStallCauses; ++c)
    cause_names_[static_cast<std::size_t>(c)] = timeline->name(stall_cause_name(static_cast<StallCause>(c)));
  category_ = timeline->category("core");
}

void CoreTrace::begin_packet(trace::Ps start, trace::Ps period_ps) {
  start_ = start;
  period_ = period_ps;
  run_to_ = -1;
  busy_signal_.set(start, 1);
}

void CoreTrace::stall(StallCause cause, Cycle from, Cycle to) {
  if (from > run_to_) {  // not touching the open run: a new one
    flush_stall();
    run_from_ = from;
    run_cycles_.fill(0);
  }
  run_to_ = std::max(run_to_, to);
  run_cycles_[static_cast<std::size_t>(cause)] += to - from;
}

void CoreTrace::flush_stall() {
  if (run_to_ < 0) return;
  const auto dominant = static_cast<std::size_t>(
      std::max_element(run_cycles_.begin(), run_cycles_.end()) - run_cycles_.begin());
  const trace::Ps b = at(run_from_), e = at(run_to_);
  if (stall_track_.enabled())
    stall_track_.interval(cause_names_[dominant], category_, b, e,
                          {{"reason", stall_cause_name(static_cast<StallCause>(dominant))},
                           {"cycles", run_to_ - run_from_}});
  stall_signal_.set(b, 1);
  stall_signal_.set(e, 0);
  run_to_ = -1;
}

void CoreTrace::end_packet(trace::Ps end, std::int64_t threads, std::uint64_t first_thread,
                           std::uint64_t pc, bool ok) {
  flush_stall();
  busy_track_.interval(busy_name_, category_, start_, end,
                       {{"threads", threads}, {"first_thread", first_thread}, {"pc", pc}, {"ok", ok}});
  busy_signal_.set(end, 0);
}

}  // namespace par::core
