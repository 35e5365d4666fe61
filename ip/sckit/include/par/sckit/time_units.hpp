// The kinds of time in the platform, each with one type and name:
// - sc_core::sc_time: simulated time in SystemC code (annotated delays, events, waits);
// - trace::Ps (par/trace/time.hpp): whole picoseconds in SystemC-free models and traces (the HT
//   link's timing model, timelines, VCD); trace::ScToPs (par/trace/sc_ps.hpp) converts an sc_time;
// - cachekit::ScTick: SystemC time-resolution units (sc_time::value()) inside the cache models;
// - core::Cycle (core clock cycles) and dram::Tick (half DRAM clock cycles): clock-domain counts
//   inside the engines;
// - double nanoseconds: statistics with the unit "ns" and options whose names end in _ns, and
//   nothing else. to_ns() below is the one conversion from sc_time.
#pragma once

#include <systemc>

namespace par::sckit {

// `t` in nanoseconds; exact for whole picoseconds (t.to_seconds() * 1e9 is not: 30 ns gives
// 29.999999999999996).
inline double to_ns(const sc_core::sc_time& t) { return t / sc_core::sc_time(1, sc_core::SC_NS); }

// The period of a `mhz` clock, rounded to the time resolution.
inline sc_core::sc_time clock_period(double mhz) { return sc_core::sc_time(1e3 / mhz, sc_core::SC_NS); }

}  // namespace par::sckit
