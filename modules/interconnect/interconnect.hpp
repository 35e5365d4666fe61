// Address-routed device interconnect (docs/architecture.md): any number of initiators on `in`, any
// number of targets on `out`, an address map from the configuration, a fixed latency and a
// bandwidth per output port. Loosely timed: each output port is reserved (busy until t) for the
// bytes it carries, so a saturated port shows up as queueing delay without wait(). An access to an
// unmapped address, or one that crosses the end of a region, gets TLM_ADDRESS_ERROR_RESPONSE.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/multi_passthrough_target_socket.h>

#include "par/simkit/interval_calendar.hpp"
#include "par/simkit/options.hpp"
#include "par/simkit/stats.hpp"

namespace par::interconnect {

struct Region {
  std::string name;      // for messages and statistics
  std::uint64_t base = 0;
  std::uint64_t size = 0;
  int port = 0;          // index of the `out` binding that serves it
  bool translate = true;  // targets see addresses relative to `base`
};

struct InterconnectConfig {
  double latency_ns = 0;        // added to every routed access
  double port_bytes_per_ns = 0;  // bandwidth of each output port; 0 = unlimited
  bool serialise = false;        // an access also takes its own transfer time (beats) as latency

  std::vector<std::string> validate(const std::string& prefix = "bus") const;
};

// Binds PREFIX.latency_ns, PREFIX.port_bytes_per_ns and PREFIX.serialise; `what` names the
// interconnect in the help.
void register_options(simkit::OptionRegistry& reg, InterconnectConfig& cfg, const std::string& prefix = "bus",
                      const std::string& what = "Device interconnect");

class Interconnect : public sc_core::sc_module {
 public:
  tlm_utils::multi_passthrough_target_socket<Interconnect, 32, tlm::tlm_base_protocol_types, 0,
                                             sc_core::SC_ZERO_OR_MORE_BOUND> in;
  tlm_utils::multi_passthrough_initiator_socket<Interconnect, 32, tlm::tlm_base_protocol_types, 0,
                                                sc_core::SC_ZERO_OR_MORE_BOUND> out;

  Interconnect(sc_core::sc_module_name name, const InterconnectConfig& cfg);

  // Binds the next output port to `target` and routes `regions` to it (their `port` is set here),
  // in one call so that a port and its address ranges cannot drift apart. Returns an error
  // message, without binding, if a region overlaps another. `connect(out, target)` makes the
  // binding, e.g. through a protocol checker or a transaction tap; by default out.bind(target).
  // A refused call changes nothing: the next bind() takes the same port.
  template <class Target, class Connect>
  std::string bind(Target& target, std::vector<Region> regions, Connect&& connect) {
    if (std::string e = add_port(std::move(regions)); !e.empty()) return e;
    connect(out, target);
    return "";
  }
  template <class Target>
  std::string bind(Target& target, std::vector<Region> regions) {
    return bind(target, std::move(regions), [](auto& out_socket, Target& t) { out_socket.bind(t); });
  }
  // Adds a region served by output port `region.port` (bound separately); returns an error
  // message if it overlaps an existing one. bind() does both in one call.
  std::string add_region(const Region& region);
  const std::vector<Region>& regions() const { return regions_; }
  // The region containing `addr`, or nullptr.
  const Region* region_of(std::uint64_t addr) const { return route(addr, 1); }

  simkit::StatGroup& stats() { return stats_; }

 private:
  struct PortStats {
    simkit::Counter *transactions, *bytes, *queue_ns;
    simkit::Real* busy_ns;
  };
  // The region of [addr, addr + len), or nullptr. Regions never overlap, so the one that served
  // the previous access, if it contains `addr`, is the only candidate (accesses come in runs to
  // one target).
  const Region* route(std::uint64_t addr, std::uint64_t len) const {
    if (last_region_ < regions_.size()) {
      const Region& r = regions_[last_region_];
      if (addr >= r.base && addr - r.base < r.size) return len <= r.size - (addr - r.base) ? &r : nullptr;
    }
    return route_slow(addr, len);
  }
  const Region* route_slow(std::uint64_t addr, std::uint64_t len) const;
  // Routes `regions` to the next output port, or (an error message) none of them when one
  // overlaps another.
  std::string add_port(std::vector<Region> regions);
  void b_transport(int id, tlm::tlm_generic_payload& tx, sc_core::sc_time& delay);
  unsigned int transport_dbg(int id, tlm::tlm_generic_payload& tx);
  void end_of_elaboration() override;

  InterconnectConfig cfg_;
  std::vector<Region> regions_;
  int ports_ = 0;  // output ports given regions by add_port()
  int out_ports_ = 0;  // out.size() once bound (a walk over the socket's bindings per call)
  mutable std::size_t last_region_ = 0;  // index of the region route() found last
  std::vector<simkit::IntervalCalendar> port_calendars_;  // per output port, in sc_time ticks
  sc_core::sc_time latency_;
  double ticks_per_byte_ = 0, ns_per_tick_ = 0;
  simkit::StatGroup stats_;
  simkit::Counter *routed_, *unmapped_;
  std::vector<PortStats> port_stats_;
};

}  // namespace par::interconnect
