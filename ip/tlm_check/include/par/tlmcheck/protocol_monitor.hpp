// The rule engine of a protocol checker, for one socket binding: the ProtocolChecker module
// calls it before and after forwarding every interface call, passing the current simulated time,
// so it needs no SystemC process and is unit-tested by calling it directly.
//
//   ProtocolMonitor m("core0.mem", "bus.in", cfg, stats_group);
//   auto call = m.b_transport_call(tx, delay, sc_time_stamp(), in_method_process);
//   target->b_transport(tx, delay);
//   m.b_transport_return(tx, delay, sc_time_stamp(), call);
//
// Each violation is recorded (violations(), the `violations` counter) and then, unless
// stop_on_violation is off, raised with SC_REPORT_ERROR("parsys/protocol", message), which
// throws an sc_report out of sc_start. Messages read
//   protocol violation between core0.mem and bus.in: [gp.response_status] target returned from
//   b_transport with TLM_INCOMPLETE_RESPONSE (read of 8 bytes at 0x40) (rule: a target must set
//   the response status; IEEE 1666-2011 14.17) at 1234 ns
//
// Cost on the fast path (b_transport without violations): two hash-table operations on
// recycled nodes, a fixed-size attribute snapshot, a fingerprint of write data and byte enables,
// a few comparisons; no heap allocation once the table has warmed up. Strings are built only when
// a rule is broken.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <systemc>
#include <tlm>
#include <vector>

#include "par/simkit/stats.hpp"
#include "par/tlmcheck/attribute_snapshot.hpp"
#include "par/tlmcheck/checker_config.hpp"
#include "par/tlmcheck/checker_stats.hpp"
#include "par/tlmcheck/in_flight_table.hpp"
#include "par/tlmcheck/rules.hpp"

namespace par::tlmcheck {

// A point of simulated time fine enough to tell whether a call waited: the time stamp and the
// delta-cycle count.
struct SimMoment {
  sc_core::sc_time time;
  std::uint64_t delta = 0;
  bool operator==(const SimMoment& o) const { return time == o.time && delta == o.delta; }
  bool operator!=(const SimMoment& o) const { return !(*this == o); }
};

struct Violation {
  Rule rule;
  std::string message;  // the complete text, as reported
  sc_core::sc_time time;
};

class ProtocolMonitor {
 public:
  // The SystemC message type of violation reports (sc_report::get_msg_type()).
  static constexpr const char* kMessageType = "parsys/protocol";
  // violations() keeps the first this many; the counter counts all.
  static constexpr std::size_t kMaxRecorded = 1000;

  // `initiator` and `target` name the two sockets of the binding ("core0.mem", "bus.in").
  // Counters are registered in `stats`. Throws std::invalid_argument for an invalid `cfg`.
  ProtocolMonitor(std::string initiator, std::string target, const CheckerConfig& cfg,
                  simkit::StatGroup& stats);
  ProtocolMonitor(const ProtocolMonitor&) = delete;
  ProtocolMonitor& operator=(const ProtocolMonitor&) = delete;

  // --- b_transport ---------------------------------------------------------------------------
  struct BlockingCall {
    AttributeSnapshot entry;
    sc_core::sc_time called;  // sc_time_stamp() at the call
    sc_core::sc_time issued;  // sc_time_stamp() + delay at the call
    bool delay_ok;            // the initiator's delay was within the bound
  };
  BlockingCall b_transport_call(const tlm::tlm_generic_payload& tx, const sc_core::sc_time& delay,
                                const sc_core::sc_time& now, bool from_method_process);
  void b_transport_return(const tlm::tlm_generic_payload& tx, const sc_core::sc_time& delay,
                          const sc_core::sc_time& now, const BlockingCall& call);

  // --- nb_transport (fw: initiator -> target, bw: target -> initiator) -------------------------
  struct NbCall {
    tlm::tlm_phase phase;  // as sent
    sc_core::sc_time delay;
  };
  NbCall nb_transport_fw_call(const tlm::tlm_generic_payload& tx, const tlm::tlm_phase& phase,
                              const sc_core::sc_time& delay, const sc_core::sc_time& now);
  void nb_transport_fw_return(const tlm::tlm_generic_payload& tx, const NbCall& call,
                              tlm::tlm_sync_enum status, const tlm::tlm_phase& phase,
                              const sc_core::sc_time& delay, const sc_core::sc_time& now);
  NbCall nb_transport_bw_call(const tlm::tlm_generic_payload& tx, const tlm::tlm_phase& phase,
                              const sc_core::sc_time& delay, const sc_core::sc_time& now);
  void nb_transport_bw_return(const tlm::tlm_generic_payload& tx, const NbCall& call,
                              tlm::tlm_sync_enum status, const tlm::tlm_phase& phase,
                              const sc_core::sc_time& delay, const sc_core::sc_time& now);

  // --- DMI -----------------------------------------------------------------------------------
  struct DmiCall {
    tlm::tlm_command command;
    std::uint64_t address;
    SimMoment at;
  };
  DmiCall get_direct_mem_ptr_call(const tlm::tlm_generic_payload& tx, const tlm::tlm_dmi& dmi,
                                  const SimMoment& at);
  void get_direct_mem_ptr_return(const tlm::tlm_dmi& dmi, bool granted, const DmiCall& call,
                                 const SimMoment& at);
  void invalidate_direct_mem_ptr_call(std::uint64_t start, std::uint64_t end,
                                      const sc_core::sc_time& now);

  // --- debug transport -----------------------------------------------------------------------
  struct DebugCall {
    AttributeSnapshot entry;
    SimMoment at;
  };
  DebugCall transport_dbg_call(const tlm::tlm_generic_payload& tx, const SimMoment& at);
  void transport_dbg_return(const tlm::tlm_generic_payload& tx, unsigned count,
                            const DebugCall& call, const SimMoment& at);

  // --- results -------------------------------------------------------------------------------
  const std::vector<Violation>& violations() const { return violations_; }
  std::uint64_t violation_count() const { return violation_count_; }
  const std::string& initiator() const { return initiator_; }
  const std::string& target() const { return target_; }
  const CheckerConfig& config() const { return cfg_; }
  // Payloads with a b_transport call or an nb_transport sequence in progress on the binding.
  std::size_t in_flight() const { return blocking_.size() + sequences_.size(); }

 private:
  // Which call a payload or phase arrived through, for messages: "b_transport", or with
  // `updated_from` set, "the TLM_UPDATED return of nb_transport_fw(BEGIN_REQ)". Turned into text
  // only when a rule is broken.
  struct Via {
    const char* call;
    const tlm::tlm_phase* updated_from = nullptr;
    std::string text() const;
  };

  void report(Rule rule, const std::string& detail, const sc_core::sc_time& now);
  void check_request(const tlm::tlm_generic_payload& tx, const Via& via,
                     const sc_core::sc_time& now);
  void check_ref_count(const tlm::tlm_generic_payload& tx, const char* call,
                       const sc_core::sc_time& now);
  // `what` names the delay ("the delay annotated on nb_transport_fw"); `via`, if given, is
  // appended.
  // Returns false (after reporting) when the delay is above the bound.
  bool check_delay(const sc_core::sc_time& delay, const char* what, const Via* via,
                   const sc_core::sc_time& now);
  // `when`: "returned from b_transport", "sent BEGIN_RESP"; `via`, if given, is appended.
  void check_response_status(const tlm::tlm_generic_payload& tx, const char* when, const Via* via,
                             const sc_core::sc_time& now);
  void check_unmodified(const AttributeSnapshot& entry, const tlm::tlm_generic_payload& tx,
                        const char* during, const sc_core::sc_time& now);
  // A phase sent by the initiator (nb_transport_fw call, TLM_UPDATED return of nb_transport_bw)
  // or by the target (nb_transport_bw call, TLM_UPDATED return of nb_transport_fw), taking
  // effect at `at` = sc_time_stamp() + delay.
  void initiator_phase(const tlm::tlm_generic_payload& tx, const tlm::tlm_phase& phase,
                       const sc_core::sc_time& at, const Via& via, const sc_core::sc_time& now);
  void target_phase(const tlm::tlm_generic_payload& tx, const tlm::tlm_phase& phase,
                    const sc_core::sc_time& at, const Via& via, const sc_core::sc_time& now);
  void nb_return(const tlm::tlm_generic_payload& tx, const NbCall& call, tlm::tlm_sync_enum status,
                 const tlm::tlm_phase& phase, const sc_core::sc_time& delay,
                 const sc_core::sc_time& now, bool callee_is_target);
  // TLM_COMPLETED: the transaction ends on this binding.
  void completed(const tlm::tlm_generic_payload& tx, const tlm::tlm_phase& sent, bool by_target,
                 const sc_core::sc_time& at, const sc_core::sc_time& now);
  void advance(InFlight& entry, const tlm::tlm_generic_payload& tx, const tlm::tlm_phase& phase,
               const sc_core::sc_time& at, const sc_core::sc_time& now);
  void end_sequence(const tlm::tlm_generic_payload& tx, InFlight* entry);

  std::string initiator_;
  std::string target_;
  CheckerConfig cfg_;
  sc_core::sc_time max_delay_;
  sc_core::sc_time max_wait_;  // 0: timing.b_transport_wait is not checked
  CheckerStats stats_;
  BlockingCalls blocking_;
  InFlightTable sequences_;
  // Exclusion rules (15.2.6): the transaction in the request phase, the one in the response
  // phase, on this binding.
  const tlm::tlm_generic_payload* request_in_progress_ = nullptr;
  const tlm::tlm_generic_payload* response_in_progress_ = nullptr;
  std::vector<Violation> violations_;
  std::uint64_t violation_count_ = 0;
};

// "read of 8 bytes at 0x40": a transaction for messages.
std::string describe(tlm::tlm_command command, std::uint64_t address, unsigned length);
std::string describe(const tlm::tlm_generic_payload& tx);

}  // namespace par::tlmcheck
