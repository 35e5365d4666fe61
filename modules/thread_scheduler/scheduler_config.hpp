// Parameters of the thread scheduler (options `scheduler.*`, README.md "Options"), their
// validation and registration. The number of PAR cores is not a parameter: it is the number of
// bindings of the module's `cores` socket.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace par::simkit {
class OptionRegistry;
}

namespace par::sched {

// How a packet's threads are divided among the cores.
enum class Policy {
  Static,   // C contiguous shares in proportion to each core's L x T (ceil(N / C) for equal shapes), share c on core c
  Dynamic,  // chunks of chunk_threads threads, in thread order, each to the first free core
};
const char* to_string(Policy p);  // the option spelling: "static", "dynamic"

struct SchedulerConfig {
  unsigned queue_depth = 32;  // packets accepted and not yet completed (docs/link-and-memory.md §2.2)
  Policy policy = Policy::Static;
  // Dynamic chunk size. 256 is a multiple of L*T for every power-of-two core shape up to 256
  // slots (no chunk but the packet's last ends in a partly masked round), is 64 rounds of the
  // default 1x4 core (the 10 ns dispatch cost is far below a chunk's run time), and still cuts
  // the 1280-thread reference kernels into 5 chunks to balance.
  std::int64_t chunk_threads = 256;
  // false: a packet starts only when the previous one has completed. true: a later packet may
  // use cores the earlier one no longer needs (dependent packets then need a host-side wait).
  bool overlap_packets = false;
  double register_latency_ns = 10;  // cost of one MMIO access (one 100 MHz cycle)
  double dispatch_latency_ns = 10;  // cost of sending one share's descriptor to a core

  // Every violated constraint as "scheduler.<option>: <why>"; empty when valid.
  std::vector<std::string> validate() const;
};

// Returns `cfg` when valid; throws std::invalid_argument listing every message otherwise.
const SchedulerConfig& checked(const SchedulerConfig& cfg);

// Registers every field as `scheduler.<name>`; the field's current value is the default.
void register_options(simkit::OptionRegistry& reg, SchedulerConfig& cfg);

}  // namespace par::sched
