#include "scheduler_config.hpp"

#include <cmath>
#include <sstream>
#include <stdexcept>

#include "par/simkit/options.hpp"

namespace par::sched {

namespace {

constexpr unsigned kMaxQueueDepth = 1u << 16;
constexpr std::int64_t kMaxChunk = std::int64_t{1} << 40;
constexpr double kMaxLatencyNs = 1e9;

void check_latency(std::vector<std::string>& e, const char* name, double ns) {
  if (std::isfinite(ns) && ns >= 0 && ns <= kMaxLatencyNs) return;
  std::ostringstream os;
  os << "scheduler." << name << ": " << ns << " is out of range 0..1e+09 ns";
  e.push_back(os.str());
}

}  // namespace

const char* to_string(Policy p) {
  switch (p) {
    case Policy::Static: return "static";
    case Policy::Dynamic: return "dynamic";
  }
  return "?";
}

std::vector<std::string> SchedulerConfig::validate() const {
  std::vector<std::string> e;
  if (queue_depth < 1 || queue_depth > kMaxQueueDepth)
    e.push_back("scheduler.queue_depth: " + std::to_string(queue_depth) + " is out of range 1.." +
                std::to_string(kMaxQueueDepth));
  if (policy != Policy::Static && policy != Policy::Dynamic)
    e.push_back("scheduler.policy: unknown policy " + std::to_string(static_cast<int>(policy)));
  if (chunk_threads < 1 || chunk_threads > kMaxChunk)
    e.push_back("scheduler.chunk_threads: " + std::to_string(chunk_threads) + " is out of range 1.." +
                std::to_string(kMaxChunk));
  check_latency(e, "register_latency_ns", register_latency_ns);
  check_latency(e, "dispatch_latency_ns", dispatch_latency_ns);
  return e;
}

const SchedulerConfig& checked(const SchedulerConfig& cfg) {
  std::string all;
  for (const std::string& m : cfg.validate()) all += (all.empty() ? "" : "; ") + m;
  if (!all.empty()) throw std::invalid_argument("invalid thread scheduler configuration: " + all);
  return cfg;
}

void register_options(simkit::OptionRegistry& reg, SchedulerConfig& c) {
  reg.add("scheduler.queue_depth", c.queue_depth,
          "Packets the thread scheduler holds from DOORBELL to completion; a DOORBELL beyond "
          "this blocks the host until a packet completes.")
      .range(1, kMaxQueueDepth);
  reg.add_enum("scheduler.policy", c.policy,
               "How a packet is split over the PAR cores: static = one contiguous share of "
               "ceil(N/C) threads per core; dynamic = chunks of scheduler.chunk_threads, each to "
               "the first free core.",
               {{"static", Policy::Static}, {"dynamic", Policy::Dynamic}});
  reg.add("scheduler.chunk_threads", c.chunk_threads,
          "Threads per chunk of the dynamic policy (best a multiple of core.lanes x "
          "core.threads_per_lane).")
      .range(1, kMaxChunk);
  reg.add("scheduler.overlap_packets", c.overlap_packets,
          "Let a packet start on cores the previous packet no longer uses (false: each packet "
          "starts after the previous one completed).");
  reg.add("scheduler.register_latency_ns", c.register_latency_ns,
          "Cost of one access to the scheduler's registers in ns.")
      .range(0, kMaxLatencyNs);
  reg.add("scheduler.dispatch_latency_ns", c.dispatch_latency_ns,
          "Cost of sending one share of a packet to a core in ns (shares are sent one at a time).")
      .range(0, kMaxLatencyNs);
}

}  // namespace par::sched
