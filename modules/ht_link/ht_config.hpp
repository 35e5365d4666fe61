// Parameters of the HyperTransport host link (docs/link-and-memory.md §1) as one struct, its
// validation and its named options (`ht.<field>`, `ht.lat.<stage>`).
#pragma once

#include <string>
#include <vector>

namespace par::simkit {
class OptionRegistry;
}

namespace par::ht {

// The six published stages of a device read of host memory (docs/link-and-memory.md §1.4), in ns.
// Each belongs to one block and one path through it; README.md, "Latency stages", says how
// host-originated accesses use them.
struct LatencyStages {
  double req_device_ns = 70;    // device HT IP core, sending a packet (TX path)
  double req_host_ns = 32;      // host HT controller, receiving a packet (RX path)
  double sdram_ns = 51;         // host memory access; 0 when host memory is a DRAM model
  double resp_build_ns = 12;    // host builds the response packet of a host-memory access
  double resp_host_ns = 30;     // host HT controller, sending a packet (TX path)
  double resp_device_ns = 110;  // device HT IP core, receiving a packet (RX path)

  double total_ns() const {
    return req_device_ns + req_host_ns + sdram_ns + resp_build_ns + resp_host_ns + resp_device_ns;
  }
};

struct HtConfig {
  // Packet framing (docs/link-and-memory.md §1.2): fixed by the protocol, not options.
  static constexpr unsigned kMaxPayloadBytes = 64;      // larger requests are split
  static constexpr unsigned kRequestControlBytes = 8;   // read and write requests
  static constexpr unsigned kResponseControlBytes = 4;  // read response, target-done
  static constexpr unsigned kInterruptDataBytes = 4;    // an interrupt: a posted write of one doubleword

  unsigned width_bits = 8;          // 8 (the XD1000 IP core) or 16 (the physical link)
  double clock_mhz = 400;           // link clock, double data rate
  double core_clock_mhz = 100;      // device HT IP core clock
  bool core_clock_align = false;    // device IP-core stages end on core clock edges
  double packet_overhead_ns = 0;    // added to every packet's serialisation time
  bool posted_writes = true;        // false: every write waits for a target-done response
  unsigned max_outstanding = 32;    // non-posted requests in flight per originating side
  unsigned wait_queue = 0;          // requests waiting for a slot per side; 0 = unbounded
  LatencyStages lat;

  // Derived values (meaningful only when validate() is empty).
  double bytes_per_ns() const { return clock_mhz * 2.0 * (width_bits / 8.0) / 1000.0; }
  double ns_per_byte() const { return 1.0 / bytes_per_ns(); }
  double core_cycle_ns() const { return 1000.0 / core_clock_mhz; }
  double bytes_per_core_cycle() const { return bytes_per_ns() * core_cycle_ns(); }

  // Every violated constraint as "ht.<option>: <why>"; empty when the configuration is valid.
  std::vector<std::string> validate() const;
};

// Returns `cfg` when it is valid; otherwise throws std::invalid_argument with every message of
// validate().
const HtConfig& checked(const HtConfig& cfg);

// Registers every field as `ht.<name>` (stages as `ht.lat.<name>`) with a help line; the field's
// current value is the default.
void register_options(simkit::OptionRegistry& reg, HtConfig& cfg);

}  // namespace par::ht
