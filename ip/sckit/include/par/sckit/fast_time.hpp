// Simulated-time helpers for hot paths (one call per memory transaction): SystemC's
// sc_time_stamp() and sc_time::from_value() are out-of-line library calls, the inline accessors
// and sc_time arithmetic below are not.
#pragma once

#include <cstdint>

#include <systemc>

namespace par::sckit {

// The current simulated time (what sc_time_stamp() returns).
inline const sc_core::sc_time& current_time() { return sc_core::sc_get_curr_simcontext()->time_stamp(); }

// sc_time::from_value(v): one resolution unit times v, exact below 2^52 units (v and v + 0.5 are
// exact doubles there); from_value beyond.
inline sc_core::sc_time time_from_value(std::uint64_t v) {
  static const sc_core::sc_time unit = sc_core::sc_time::from_value(1);
  return v < (std::uint64_t{1} << 52) ? unit * static_cast<double>(v) : sc_core::sc_time::from_value(v);
}

}  // namespace par::sckit
