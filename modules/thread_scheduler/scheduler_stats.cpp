#include "scheduler_stats.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace par::sched {

using simkit::StatView;

CoreCounters::CoreCounters(simkit::StatGroup& g)
    : busy_ns(g.real("busy_ns", "ns", "Time this core spent on shares (launch to return)")),
      shares(g.counter("shares", "shares", "Shares launched on this core")),
      threads(g.counter("threads", "threads", "Threads launched on this core")) {}

SchedulerStats::SchedulerStats(simkit::StatGroup& g)
    : commands(g.counter("commands", "packets", "Packets accepted by DOORBELL")),
      packets_completed(g.counter("packets_completed", "packets",
                                  "Packets completed, successfully or not (the COMPLETED register)")),
      packets_failed(g.counter("packets_failed", "packets", "Packets completed with an error")),
      empty_packets(g.counter("empty_packets", "packets", "Packets with THREADS <= 0 (nothing launched)")),
      threads_launched(g.counter("threads_launched", "threads", "Threads launched on the cores")),
      shares(g.counter("shares", "shares", "Shares (static) or chunks (dynamic) launched")),
      doorbells_refused(g.counter("doorbells_refused", "doorbells",
                                  "DOORBELL writes refused because every queue entry was taken")),
      flag_writes(g.counter("flag_writes", "writes", "Completion-flag writes issued on `notify`")),
      flag_write_errors(g.counter("flag_write_errors", "writes",
                                  "Completion-flag writes that got an error response")),
      interrupts(g.counter("interrupts", "interrupts", "Completion interrupts raised on `irq`")),
      packet_ns(g.real("packet_ns", "ns", "Sum over packets of the time from start to completion")),
      group_(g) {}

void SchedulerStats::add_cores(std::size_t n) {
  if (!cores_.empty()) throw std::logic_error("SchedulerStats::add_cores called twice");
  cores_.reserve(n);
  for (std::size_t i = 0; i < n; ++i) cores_.emplace_back(group_.group("core" + std::to_string(i)));
  std::vector<std::string> paths;
  for (std::size_t i = 0; i < n; ++i) paths.push_back("core" + std::to_string(i) + ".busy_ns");
  group_.formula(
      "imbalance", "ratio", "Busiest core's busy_ns / mean busy_ns over all cores (1 = balanced)",
      [paths](const StatView& s) {
        double max = 0, sum = 0;
        for (const std::string& p : paths) {
          const double v = s[p];
          max = std::max(max, v);
          sum += v;
        }
        return max / (sum / static_cast<double>(paths.size()));
      });
}

}  // namespace par::sched
