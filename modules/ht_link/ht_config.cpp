#include "ht_config.hpp"

#include <cmath>
#include <sstream>
#include <stdexcept>

#include "par/simkit/options.hpp"

namespace par::ht {

namespace {

constexpr double kMaxClockMhz = 1e5;  // 100 GHz: every period stays at 10 ps or more
constexpr double kMaxStageNs = 1e9;
constexpr unsigned kMaxOutstanding = 4096;
constexpr unsigned kMaxWaitQueue = 1u << 20;

// Whole numbers without an exponent ("1000000000", not "1e+09").
std::string text(double v) {
  if (std::isfinite(v) && v == std::floor(v) && std::fabs(v) < 1e15)
    return std::to_string(static_cast<long long>(v));
  std::ostringstream os;
  os << v;
  return os.str();
}

// `value` in [lo, hi] (NaN fails); appends "ht.<name>: <value> is out of range lo..hi".
void require(std::vector<std::string>& e, const std::string& name, double value, double lo,
             double hi) {
  if (value >= lo && value <= hi) return;
  e.push_back("ht." + name + ": " + text(value) + " is out of range " + text(lo) + ".." + text(hi));
}

// A clock: (0, max]; a period below 1 ps would not be representable in SystemC time.
void require_clock(std::vector<std::string>& e, const std::string& name, double mhz) {
  if (mhz > 0 && mhz <= kMaxClockMhz) return;
  e.push_back("ht." + name + ": " + text(mhz) + " is out of range (0, " + text(kMaxClockMhz) +
              "] MHz");
}

}  // namespace

std::vector<std::string> HtConfig::validate() const {
  std::vector<std::string> e;
  if (width_bits != 8 && width_bits != 16) {
    e.push_back("ht.width_bits: " + std::to_string(width_bits) +
                " is not a supported link width (8 or 16)");
  }
  require_clock(e, "clock_mhz", clock_mhz);
  require_clock(e, "core_clock_mhz", core_clock_mhz);
  require(e, "packet_overhead_ns", packet_overhead_ns, 0, kMaxStageNs);
  if (max_outstanding < 1 || max_outstanding > kMaxOutstanding) {
    e.push_back("ht.max_outstanding: " + std::to_string(max_outstanding) + " is out of range 1.." +
                std::to_string(kMaxOutstanding));
  }
  if (wait_queue > kMaxWaitQueue) {
    e.push_back("ht.wait_queue: " + std::to_string(wait_queue) + " is out of range 0.." +
                std::to_string(kMaxWaitQueue) + " (0 = unbounded)");
  }
  require(e, "lat.req_device_ns", lat.req_device_ns, 0, kMaxStageNs);
  require(e, "lat.req_host_ns", lat.req_host_ns, 0, kMaxStageNs);
  require(e, "lat.sdram_ns", lat.sdram_ns, 0, kMaxStageNs);
  require(e, "lat.resp_build_ns", lat.resp_build_ns, 0, kMaxStageNs);
  require(e, "lat.resp_host_ns", lat.resp_host_ns, 0, kMaxStageNs);
  require(e, "lat.resp_device_ns", lat.resp_device_ns, 0, kMaxStageNs);
  return e;
}

const HtConfig& checked(const HtConfig& cfg) {
  std::string all;
  for (const auto& m : cfg.validate()) all += (all.empty() ? "" : "; ") + m;
  if (!all.empty()) throw std::invalid_argument("invalid HT link configuration: " + all);
  return cfg;
}

void register_options(simkit::OptionRegistry& reg, HtConfig& c) {
  // Widths outside {8, 16} are rejected by validate() with their own message; the range only
  // keeps the help text honest.
  reg.add("ht.width_bits", c.width_bits,
          "HyperTransport link width in bits per direction: 8 (XD1000 IP core) or 16.")
      .range(8, 16);
  reg.add("ht.clock_mhz", c.clock_mhz,
          "Link clock in MHz, double data rate: width/8 x 2 x clock bytes per us per direction.")
      .range(1e-3, kMaxClockMhz);
  reg.add("ht.core_clock_mhz", c.core_clock_mhz,
          "Device HT IP core clock in MHz: the unit of the *_cycles statistics and of "
          "ht.core_clock_align.")
      .range(1e-3, kMaxClockMhz);
  reg.add("ht.core_clock_align", c.core_clock_align,
          "End the device IP-core stages (ht.lat.req_device_ns, ht.lat.resp_device_ns) on the next "
          "core clock edge.");
  reg.add("ht.packet_overhead_ns", c.packet_overhead_ns,
          "Extra link time per packet in ns (framing, CRC, alignment), on top of serialisation.")
      .range(0, kMaxStageNs);
  reg.add("ht.posted_writes", c.posted_writes,
          "Writes are posted (no response, not counted against ht.max_outstanding); off: each "
          "write waits for a 4-byte target-done response.");
  reg.add("ht.max_outstanding", c.max_outstanding,
          "Non-posted requests in flight per originating side; more wait in a FIFO.")
      .range(1, kMaxOutstanding);
  reg.add("ht.wait_queue", c.wait_queue,
          "Requests that may wait for an outstanding slot per side; when full, the side accepts "
          "no request. 0 = unbounded.")
      .range(0, kMaxWaitQueue);
  reg.add("ht.lat.req_device_ns", c.lat.req_device_ns,
          "Device HT IP core, sending a packet (request stage of a device read), ns.")
      .range(0, kMaxStageNs);
  reg.add("ht.lat.req_host_ns", c.lat.req_host_ns,
          "Host HT controller, receiving a packet (request stage of a device read), ns.")
      .range(0, kMaxStageNs);
  reg.add("ht.lat.sdram_ns", c.lat.sdram_ns,
          "Host memory access added to every access of host memory, ns; 0 when host memory is a "
          "DRAM model whose latency counts instead.")
      .range(0, kMaxStageNs);
  reg.add("ht.lat.resp_build_ns", c.lat.resp_build_ns,
          "Host builds the response packet of a host-memory access, ns.")
      .range(0, kMaxStageNs);
  reg.add("ht.lat.resp_host_ns", c.lat.resp_host_ns,
          "Host HT controller, sending a packet (response stage of a device read), ns.")
      .range(0, kMaxStageNs);
  reg.add("ht.lat.resp_device_ns", c.lat.resp_device_ns,
          "Device HT IP core, receiving a packet (response stage of a device read), ns.")
      .range(0, kMaxStageNs);
}

}  // namespace par::ht
