#include "par/tlmcheck/checker_config.hpp"

#include <sstream>
#include <stdexcept>

#include "par/simkit/options.hpp"

namespace par::tlmcheck {

namespace {

// The bound must be a representable sc_time at the default 1 ps resolution (2^64 ps is about
// 1.8e16 ns) and at least one resolution step.
constexpr double kMinDelayBoundNs = 1e-3;
constexpr double kMaxDelayBoundNs = 1e15;

}  // namespace

std::vector<std::string> CheckerConfig::validate() const {
  std::vector<std::string> e;
  if (!(max_delay_ns >= kMinDelayBoundNs && max_delay_ns <= kMaxDelayBoundNs)) {
    std::ostringstream os;
    os << "protocol_check.max_delay_ns: " << max_delay_ns << " is out of range " << kMinDelayBoundNs
       << ".." << kMaxDelayBoundNs;
    e.push_back(os.str());
  }
  if (!(max_b_transport_wait_ns >= 0 && max_b_transport_wait_ns <= kMaxDelayBoundNs)) {
    std::ostringstream os;
    os << "protocol_check.max_b_transport_wait_ns: " << max_b_transport_wait_ns << " is out of range 0.."
       << kMaxDelayBoundNs;
    e.push_back(os.str());
  }
  return e;
}

const CheckerConfig& checked(const CheckerConfig& cfg) {
  std::string all;
  for (const auto& e : cfg.validate()) all += (all.empty() ? "" : "; ") + e;
  if (!all.empty()) throw std::invalid_argument("invalid protocol checker configuration: " + all);
  return cfg;
}

void register_options(simkit::OptionRegistry& reg, CheckerConfig& c) {
  reg.add("protocol_check.enable", c.enable,
          "Insert a TLM-2.0 base-protocol checker on every socket binding (--check-protocol).");
  reg.add("protocol_check.stop_on_violation", c.stop_on_violation,
          "Stop the run at the first protocol violation; off: count and record violations and "
          "carry on.");
  reg.add("protocol_check.max_delay_ns", c.max_delay_ns,
          "Largest plausible timing annotation in ns; a larger delay is reported as a negative "
          "delay that wrapped around (sc_time is unsigned).")
      .range(kMinDelayBoundNs, kMaxDelayBoundNs);
  reg.add("protocol_check.max_b_transport_wait_ns", c.max_b_transport_wait_ns,
          "Longest simulated time a b_transport call may spend waiting inside the target, in ns (the "
          "platform's rule: no call waits longer than the access it models); 0 = not checked.")
      .range(0, kMaxDelayBoundNs);
  reg.add("protocol_check.address_restored", c.address_restored,
          "Require every transaction to come back with the address it was sent with (off for "
          "interconnects that leave a translated address in the payload).");
}

}  // namespace par::tlmcheck
