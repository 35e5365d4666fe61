#include "link_stats.hpp"

namespace par::ht {

using simkit::Buckets;
using simkit::Format;
using simkit::StatView;

namespace {

Buckets latency_buckets() {
  return Buckets::edges({0, 100, 200, 250, 300, 320, 340, 360, 380, 400, 450, 500, 600, 800, 1000,
                         1500, 2000, 5000, 10000, 100000});
}

}  // namespace

DirectionStats::DirectionStats(simkit::StatGroup& g, double core_clock_mhz)
    : packets(g.counter("packets", "packets",
                        "Packets sent on this channel (a control packet with its data counts once)")),
      control_bytes(g.counter("control_bytes", "bytes",
                              "Control bytes: 8 per request, 4 per response")),
      data_bytes(g.counter("data_bytes", "bytes", "Payload bytes of writes and read responses")),
      busy_ns(g.real("busy_ns", "ns", "Time the channel was serialising packets")),
      queued_packets(g.counter("queued_packets", "packets",
                               "Packets that found the channel busy and waited")),
      queue_ns(g.real("queue_ns", "ns", "Total time packets waited for the channel")),
      time_ns(g.real("time_ns", "ns",
                     "Simulated time up to the latest link activity (utilisation denominator)")),
      reads(g.counter("reads", "transactions", "Reads originated by this direction's sender")),
      posted_writes(g.counter("posted_writes", "transactions",
                              "Posted writes originated by this direction's sender")),
      nonposted_writes(g.counter("nonposted_writes", "transactions",
                                 "Non-posted writes originated by this direction's sender")),
      interrupts(g.counter("interrupts", "messages",
                           "Interrupt messages sent by this direction's sender (posted, 4 data bytes)")),
      outstanding_stalls(g.counter("outstanding_stalls", "requests",
                                   "Non-posted requests that waited for an outstanding slot")),
      wait_queue_stalls(g.counter("wait_queue_stalls", "requests",
                                  "Requests that found the wait queue full and were held back")),
      wait_ns(g.real("wait_ns", "ns",
                     "Total time requests waited for a slot or a wait-queue entry")),
      errors(g.counter("errors", "transactions",
                       "Transactions of this sender that got an error response")),
      latency(g.distribution("latency", "ns",
                             "Transaction latency from arrival at the link to completion "
                             "(posted writes: until the last packet left)",
                             latency_buckets())) {
  g.formula("utilisation", "ratio", "busy_ns / time_ns",
            [](const StatView& s) { return s["busy_ns"] / s["time_ns"]; }, Format::percent(2));
  g.formula("data_bandwidth", "GB/s", "data_bytes / time_ns",
            [](const StatView& s) { return s["data_bytes"] / s["time_ns"]; });
  g.formula("avg_queue_ns", "ns", "queue_ns / packets",
            [](const StatView& s) { return s["queue_ns"] / s["packets"]; });
  g.formula("avg_latency", "ns", "Mean transaction latency",
            [](const StatView& s) { return s["latency.sum"] / s["latency.count"]; });
  const double cycles_per_ns = core_clock_mhz / 1000.0;
  g.formula("busy_cycles", "core cycles", "busy_ns in link-core (IP core) clock cycles",
            [cycles_per_ns](const StatView& s) { return s["busy_ns"] * cycles_per_ns; });
}

LinkStats::LinkStats(simkit::StatGroup& group, double core_clock_mhz)
    : h2d(group.group("h2d"), core_clock_mhz), d2h(group.group("d2h"), core_clock_mhz) {}

void LinkStats::reach(Ps t) {
  if (t <= latest_) return;
  // Advanced by increments so that it stays right after a statistics reset and in differences.
  const double step = ps_to_ns(t - latest_);
  h2d.time_ns += step;
  d2h.time_ns += step;
  latest_ = t;
}

}  // namespace par::ht
