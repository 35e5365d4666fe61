#include "launch_time.hpp"

#include <algorithm>

namespace par::platform {

LaunchTimes attribute_launch(double begin_ns, double end_ns, double submitted_ns, double started_ns,
                             double executed_ns, double host_busy_ns, double link_busy_ns) {
  LaunchTimes t;
  t.begin_ns = begin_ns;
  t.end_ns = std::max(begin_ns, end_ns);
  t.host_busy_ns = std::max(0.0, host_busy_ns);
  t.link_busy_ns = std::max(0.0, link_busy_ns);
  // A packet submitted before the previous one completed (asynchronous launches) has its phases
  // cut at the window's edges; the phases stay in order.
  const double submitted = std::clamp(submitted_ns, t.begin_ns, t.end_ns);
  const double started = std::clamp(started_ns, submitted, t.end_ns);
  const double executed = std::clamp(executed_ns, started, t.end_ns);
  const double host_side = (submitted - t.begin_ns) + (t.end_ns - executed);
  const double queued = started - submitted;
  t.device_span_ns = executed - started;
  t.host_ns = std::min(t.host_busy_ns, host_side);
  t.link_ns = host_side - t.host_ns;
  const double beyond = (t.host_busy_ns - t.host_ns) + std::max(0.0, t.link_busy_ns - t.link_ns);
  t.overlap_ns = std::min(beyond, queued + t.device_span_ns);
  const double in_device = std::min(t.overlap_ns, t.device_span_ns);
  t.device_ns = t.device_span_ns - in_device;
  t.queueing_ns = queued - (t.overlap_ns - in_device);
  return t;
}

}  // namespace par::platform
