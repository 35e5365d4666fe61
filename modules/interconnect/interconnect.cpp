#include "interconnect.hpp"

#include <algorithm>
#include <sstream>

#include "par/sckit/fast_time.hpp"

namespace par::interconnect {

using sc_core::sc_time;
using sc_core::SC_NS;

using sckit::current_time;
using sckit::time_from_value;

std::vector<std::string> InterconnectConfig::validate(const std::string& prefix) const {
  std::vector<std::string> e;
  if (latency_ns < 0) e.push_back(prefix + ".latency_ns: must not be negative");
  if (port_bytes_per_ns < 0) e.push_back(prefix + ".port_bytes_per_ns: must not be negative");
  return e;
}

void register_options(simkit::OptionRegistry& reg, InterconnectConfig& c, const std::string& prefix,
                      const std::string& what) {
  reg.add(prefix + ".latency_ns", c.latency_ns, what + " latency per routed access in ns.").range(0, 1e9);
  reg.add(prefix + ".port_bytes_per_ns", c.port_bytes_per_ns,
          "Bandwidth of each " + what + " output port in bytes/ns (GB/s); 0 = unlimited.")
      .range(0, 1e6);
  reg.add(prefix + ".serialise", c.serialise,
          "Each access also takes the time its data needs on the port (bytes / " + prefix +
              ".port_bytes_per_ns: the beats of a narrow crossbar) as latency: a write before it reaches the "
              "target, a read's response after the target answers.");
}

Interconnect::Interconnect(sc_core::sc_module_name name, const InterconnectConfig& cfg)
    : sc_module(name), in("in"), out("out"), cfg_(cfg), stats_(this->name()) {
  // Timing constants in simulator ticks: constructing an sc_time from a double per access is slow.
  const double ticks_per_ns = static_cast<double>(sc_time(1, SC_NS).value());
  latency_ = sc_time::from_value(static_cast<std::uint64_t>(cfg_.latency_ns * ticks_per_ns + 0.5));
  ticks_per_byte_ = cfg_.port_bytes_per_ns > 0 ? ticks_per_ns / cfg_.port_bytes_per_ns : 0;
  ns_per_tick_ = 1 / ticks_per_ns;
  in.register_b_transport(this, &Interconnect::b_transport);
  in.register_transport_dbg(this, &Interconnect::transport_dbg);
  routed_ = &stats_.counter("routed", "transactions", "Accesses routed to a target");
  unmapped_ = &stats_.counter("unmapped", "transactions", "Accesses to no target (address error)");
}

void Interconnect::end_of_elaboration() {
  out_ports_ = static_cast<int>(out.size());
  port_calendars_.assign(out.size(), simkit::IntervalCalendar{});
  for (unsigned p = 0; p < out.size(); ++p) {
    std::string name = "port" + std::to_string(p);
    for (const Region& r : regions_)
      if (r.port == static_cast<int>(p)) name = r.name;
    simkit::StatGroup& g = stats_.group(name);
    PortStats s;
    s.transactions = &g.counter("transactions", "transactions", "Accesses through this output port");
    s.bytes = &g.counter("bytes", "bytes", "Bytes carried by this output port");
    s.busy_ns = &g.real("busy_ns", "ns", "Time the port was transferring");
    s.queue_ns = &g.counter("queue_ns", "ns", "Total time accesses waited for the port");
    port_stats_.push_back(s);
  }
}

std::string Interconnect::add_port(std::vector<Region> regions) {
  // All or nothing: a refused port leaves the map and the port count as they were.
  const std::size_t before = regions_.size();
  for (Region& r : regions) {
    r.port = ports_;
    if (std::string e = add_region(r); !e.empty()) {
      regions_.erase(regions_.begin() + static_cast<std::ptrdiff_t>(before), regions_.end());
      return e;
    }
  }
  ++ports_;
  return "";
}

std::string Interconnect::add_region(const Region& r) {
  for (const Region& o : regions_) {
    if (r.base < o.base + o.size && o.base < r.base + r.size) {
      std::ostringstream os;
      os << "address region '" << r.name << "' [0x" << std::hex << r.base << ", 0x" << r.base + r.size
         << ") overlaps '" << o.name << "'";
      return os.str();
    }
  }
  regions_.push_back(r);
  return {};
}

const Region* Interconnect::route_slow(std::uint64_t addr, std::uint64_t len) const {
  for (std::size_t i = 0; i < regions_.size(); ++i) {
    const Region& r = regions_[i];
    if (addr >= r.base && addr - r.base < r.size) {
      last_region_ = i;
      return len <= r.size - (addr - r.base) ? &r : nullptr;
    }
  }
  return nullptr;
}

void Interconnect::b_transport(int, tlm::tlm_generic_payload& tx, sc_time& delay) {
  const std::uint64_t addr = tx.get_address();
  const unsigned len = tx.get_data_length();
  const Region* r = route(addr, len);
  if (r == nullptr || r->port >= out_ports_) {
    ++*unmapped_;
    tx.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  ++*routed_;
  const auto port = static_cast<std::size_t>(r->port);
  PortStats& ps = port_stats_[port];
  ++*ps.transactions;
  if (__builtin_expect(tx.get_command() == tlm::TLM_IGNORE_COMMAND, 0)) {
    // A prefetch request: it names bytes but carries none, so it takes the latency, no bandwidth.
    delay += latency_;
    if (r->translate) tx.set_address(addr - r->base);
    out[static_cast<unsigned>(r->port)]->b_transport(tx, delay);
    tx.set_address(addr);
    return;
  }
  *ps.bytes += len;
  std::uint64_t beats = 0;  // the access's own transfer time when serialised, in ticks
  if (ticks_per_byte_ > 0) {
    // Reserve the output port for the transfer (loosely timed contention). A calendar, not one
    // busy-until time: cores run ahead of each other within a quantum, so requests arrive out of
    // time order and an earlier one may use a gap before a later one. Integer ticks throughout:
    // sc_time is built once, for the delay, and only when the access queued.
    const std::uint64_t now = current_time().value();
    const std::uint64_t arrive = now + delay.value() + latency_.value();
    simkit::IntervalCalendar& cal = port_calendars_[port];
    cal.retire(now);
    const auto transfer = static_cast<std::uint64_t>(len * ticks_per_byte_ + 0.5);
    if (cfg_.serialise) beats = transfer;
    const std::uint64_t start = cal.reserve(arrive, transfer);
    *ps.busy_ns += static_cast<double>(transfer) * ns_per_tick_;
    if (start == arrive) {
      delay += latency_;
    } else {
      *ps.queue_ns += static_cast<std::uint64_t>(static_cast<double>(start - arrive) * ns_per_tick_ + 0.5);
      delay = time_from_value(start - now);
    }
  } else {
    delay += latency_;
  }
  if (r->translate) tx.set_address(addr - r->base);
  const bool read = tx.is_read();
  if (beats > 0 && !read) delay += time_from_value(beats);  // write data goes with the request
  out[static_cast<unsigned>(r->port)]->b_transport(tx, delay);
  if (beats > 0 && read) delay += time_from_value(beats);  // read data comes with the response
  tx.set_address(addr);  // initiators see their own address again
}

unsigned int Interconnect::transport_dbg(int, tlm::tlm_generic_payload& tx) {
  const std::uint64_t addr = tx.get_address();
  const Region* r = route(addr, tx.get_data_length());
  if (r == nullptr || r->port >= static_cast<int>(out.size())) return 0;
  if (r->translate) tx.set_address(addr - r->base);
  const unsigned int n = out[static_cast<unsigned>(r->port)]->transport_dbg(tx);
  tx.set_address(addr);
  return n;
}

}  // namespace par::interconnect
