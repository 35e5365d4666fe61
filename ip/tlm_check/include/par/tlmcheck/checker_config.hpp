// Configuration of the protocol checkers (`protocol_check.<field>` options), its validation and
// its option registration.
#pragma once

#include <string>
#include <vector>

namespace par::simkit {
class OptionRegistry;
}

namespace par::tlmcheck {

struct CheckerConfig {
  // Insert a checker on every socket binding. Read by the platform wiring (CheckedBindings), not
  // by a checker itself; the platform's --check-protocol flag sets it.
  bool enable = false;
  // On a violation: record it, then SC_REPORT_ERROR (stops sc_start with an sc_report). False:
  // only record it (violations(), the `violations` counter) and carry on.
  bool stop_on_violation = true;
  // sc_time is unsigned, so a "negative" delay wraps around to an enormous value. Any delay
  // annotation above this bound is reported as timing.negative_delay.
  double max_delay_ns = 1e9;  // 1 s
  // The platform's rule (docs/architecture.md): no b_transport waits longer than the access it
  // models. A call that advances sc_time_stamp() by more than this inside the target is reported
  // as timing.b_transport_wait; 0 = not checked. Far above any single access of the platform
  // (the slowest, a 64-byte read across the HT link behind a busy DRAM, takes well under 1 us)
  // and far below a kernel's run time.
  double max_b_transport_wait_ns = 1000;
  // A transaction must come back with the address it was sent with. The parsys interconnect
  // restores the address it translated; switch this off for a vendor interconnect that leaves
  // the translated address in the payload (the rule then only applies between the last
  // interconnect and the target, which a checker cannot tell apart).
  bool address_restored = true;

  // Every violated constraint as "protocol_check.<option>: <why>"; empty when valid.
  std::vector<std::string> validate() const;
};

// Throws std::invalid_argument with every message of validate() when `cfg` is not valid.
const CheckerConfig& checked(const CheckerConfig& cfg);

// Registers every field as `protocol_check.<name>`; the field's current value is the default.
void register_options(simkit::OptionRegistry& reg, CheckerConfig& cfg);

}  // namespace par::tlmcheck
