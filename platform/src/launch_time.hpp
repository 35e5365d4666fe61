// Where the time of one launch went (full system). The window runs from the previous launch's
// completion (or the start) to this one's; the scheduler's timestamps cut it into phases:
//
//   begin ── host side ── submitted ── queueing ── started ── device ── executed ── host side ── end
//            (preparing, the DOORBELL crossing)                        (completion crossing back)
//
// The parts partition the window exactly (host + link + queueing + device + overlap = window):
//   host     = the master core's compute time, counted in the host-side phases first
//   link     = the rest of the host-side phases: transfers across the link with their latency,
//              host-memory accesses and the completion signal, when the host does not compute
//   overlap  = host compute and link busy time that did not fit into the host-side phases: it
//              ran while the packet was queued or executing, so two parts were active at once
//   device   = first share dispatched to last share done, less the overlap it contained
//   queueing = DOORBELL accepted to first share dispatched, less the rest of the overlap
// Only totals of host and link busy time are known per launch, so the overlap assumes that they
// fill the host-side phases before they overlap the device (the host waits for its packet).
#pragma once

#include <cstdint>
#include <string>

namespace par::platform {

struct LaunchTimes {
  std::uint64_t seq = 0;
  std::string kernel;
  std::int64_t threads = 0;
  double begin_ns = 0, end_ns = 0;
  // The partition of [begin_ns, end_ns).
  double host_ns = 0, link_ns = 0, queueing_ns = 0, device_ns = 0, overlap_ns = 0;
  double device_span_ns = 0;  // first share dispatched to last share done (device + its overlap)
  double host_busy_ns = 0, link_busy_ns = 0;  // the master's compute time, the busier link direction's
  double window_ns() const { return end_ns - begin_ns; }
};

// The partition above from the window, the packet's timestamps (clamped into the window) and the
// host and link busy times within the window.
LaunchTimes attribute_launch(double begin_ns, double end_ns, double submitted_ns, double started_ns,
                             double executed_ns, double host_busy_ns, double link_busy_ns);

}  // namespace par::platform
