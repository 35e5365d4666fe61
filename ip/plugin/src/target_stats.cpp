#include "target_stats.hpp"

namespace par::plugin {

using simkit::Buckets;
using simkit::Format;
using simkit::StatView;

TargetStats::TargetStats(simkit::StatGroup& g)
    : transactions(g.counter("transactions", "transactions",
                             "b_transport and nb_transport accesses forwarded to the model")),
      transfers(g),
      errors(g.counter("errors", "transactions", "Transactions the model answered with an error response")),
      debug_accesses(g.counter("debug_accesses", "transactions", "transport_dbg calls passed through")),
      request_wait_ns(g.real("request_wait_ns", "ns",
                             "Time accesses waited for the model's request channel (approximately "
                             "timed models: END_REQ of the previous request)")),
      time_ns(g.real("time_ns", "ns", "Time of the latest completion (the bandwidth denominator)")),
      latency(g.distribution("latency", "ns", "Arrival (call time plus annotated delay) to completion",
                             Buckets::log2(16))) {
  g.formula("avg_latency", "ns", "latency.sum / latency.count",
            [](const StatView& s) { return s["latency.sum"] / s["latency.count"]; });
  g.formula("bandwidth", "GB/s", "(read_bytes + write_bytes) / time_ns",
            [](const StatView& s) { return (s["read_bytes"] + s["write_bytes"]) / s["time_ns"]; });
}

}  // namespace par::plugin
