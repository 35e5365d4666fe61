// What a PAR core records when tracing is on (README.md "Tracing"): per packet one `busy`
// interval on track <core>/busy, and per run of consecutive frontend stall cycles one interval on
// <core>/stall (category "core" for both), plus the VCD signals <core>.busy and <core>.stall.
//
// Plain C++ (no SystemC): the engine's timing model reports stalls through StallListener as they
// are counted, in frontend order; pieces that touch (a ROB-full wait followed by a queue-full
// wait, a predicate wait right after) are merged into one interval named after the cause with
// the most cycles in it. The core's inner loop therefore pays one null-pointer test per counted
// stall when tracing is off, and one call per stall piece (not per cycle) when it is on.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "par/trace/timeline.hpp"
#include "par/trace/vcd_writer.hpp"
#include "timing_model.hpp"

namespace par::core {

class CoreTrace final : public StallListener {
 public:
  // `core` names the process of the tracks and the VCD scope ("core0"). Either pointer may be
  // null; enabled() is false when both are.
  CoreTrace(trace::Timeline* timeline, trace::VcdWriter* vcd, const std::string& core);

  bool enabled() const noexcept { return busy_track_.enabled() || busy_signal_.enabled() || stall_signal_.enabled(); }

  // A packet starts at `start` ps; the engine's cycle c is at start + c * period_ps.
  void begin_packet(trace::Ps start, trace::Ps period_ps);
  void stall(StallCause cause, Cycle from, Cycle to) override;
  // The packet ended at `end` ps: flushes the open stall run and records the busy interval.
  void end_packet(trace::Ps end, std::int64_t threads, std::uint64_t first_thread, std::uint64_t pc,
                  bool ok);

 private:
  trace::Ps at(Cycle c) const { return start_ + static_cast<trace::Ps>(c) * period_; }
  void flush_stall();

  trace::TrackRef busy_track_, stall_track_;
  trace::SignalRef busy_signal_, stall_signal_;
  trace::NameId busy_name_;
  std::array<trace::NameId, kStallCauses> cause_names_{};
  trace::CategoryId category_;
  trace::Ps start_ = 0, period_ = 0;
  // The open stall run [run_from_, run_to_) in cycles, with its cycles per cause.
  Cycle run_from_ = 0, run_to_ = -1;
  std::array<Cycle, kStallCauses> run_cycles_{};
};

}  // namespace par::core
