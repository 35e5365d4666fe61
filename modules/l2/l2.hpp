// The banked L2 cache (docs/architecture.md, docs/link-and-memory.md §2.1): B L2Bank children behind a
// bank-select router.
//
//   interconnect --> L2::in --(router: interleave function)--> bank(i).in     bank(i).mem --> DRAM
//
// `in` is the single target socket the device interconnect binds to; each access is forwarded to
// the bank that holds its line; an access spanning several lines is split into one access per
// line (counted in split_requests) and completes when its last part does. The platform binds
// every bank(i).mem to the DRAM controller (e.g. its multi-target socket). `ctrl` is an optional
// register target: a write to kCtrlFlush writes back every dirty line (timed), a write to
// kCtrlFlushInvalidate also drops every line.
//
// The banks may be models other than the built-in L2Bank (a vendor plug-in, --l2.bank.model):
// the L2 then creates each through a BankFactory, during its own construction so that the bank is
// named "<l2>.bank<i>", and routes to the socket the factory returns. Such a bank is a whole
// target (the plug-in interface has no downstream socket): it serves its lines itself.
//
// Statistics: stats() is the group named after the L2's SystemC name; it holds the request
// counters, totals over the banks and, as children, the banks' groups ("l2.bank0", ...). Attach
// only stats() to the report root.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "l2_bank.hpp"
#include "l2_config.hpp"
#include "l2_geometry.hpp"
#include "par/simkit/stats.hpp"

namespace par::l2 {

class L2 : public sc_core::sc_module {
 public:
  static constexpr std::uint64_t kCtrlFlush = 0x0;
  static constexpr std::uint64_t kCtrlFlushInvalidate = 0x8;

  tlm_utils::simple_target_socket<L2> in;
  tlm_utils::simple_target_socket_optional<L2> ctrl;

  using BankSocket =
      tlm::tlm_base_target_socket_b<32, tlm::tlm_fw_transport_if<>, tlm::tlm_bw_transport_if<>>;
  // Builds bank `index` named `name` (a child of the L2) and returns its target socket.
  using BankFactory = std::function<BankSocket&(const char* name, unsigned index)>;

  // `cfg` must be valid (L2Config::validate()); throws std::invalid_argument otherwise. Without
  // `external_banks` the banks are L2Bank.
  L2(sc_core::sc_module_name name, const L2Config& cfg, const BankFactory& external_banks = BankFactory());

  const L2Config& config() const { return cfg_; }
  const L2Geometry& geometry() const { return geo_; }
  unsigned banks() const { return cfg_.banks; }
  bool builtin_banks() const { return !banks_.empty(); }
  // A built-in bank (std::out_of_range with external banks).
  L2Bank& bank(unsigned i) { return *banks_.at(i); }
  // The bank that holds `addr` (the interleave function, with XOR hashing if configured).
  unsigned bank_of(std::uint64_t addr) const { return geo_.bank_of(addr); }
  simkit::StatGroup& stats() { return stats_; }

  // Writes every dirty line back with debug transport (no simulated time), e.g. before the host
  // or a test reads DRAM directly; `invalidate` also drops every line.
  void flush(bool invalidate = false);
  // Timed flush starting at `at` (absolute): all banks in parallel, one writeback per bank per
  // cycle; returns the completion time of the last writeback.
  sc_core::sc_time flush_timed(const sc_core::sc_time& at, bool invalidate = false);

 private:
  void b_transport(tlm::tlm_generic_payload& tx, sc_core::sc_time& delay);
  // An access spanning lines, one piece per line (apart from b_transport: the usual one-line
  // access then needs none of its stack).
  void split(tlm::tlm_generic_payload& tx, sc_core::sc_time& delay);
  unsigned int transport_dbg(tlm::tlm_generic_payload& tx);
  void ctrl_transport(tlm::tlm_generic_payload& tx, sc_core::sc_time& delay);
  unsigned int ctrl_dbg(tlm::tlm_generic_payload& tx);
  // Hands an access to bank `b`: a built-in bank directly, an external one through its socket.
  void to_bank(unsigned b, tlm::tlm_generic_payload& tx, sc_core::sc_time& delay) {
    if (!banks_.empty()) banks_[b]->b_transport(tx, delay);
    else to_bank_[static_cast<int>(b)]->b_transport(tx, delay);
  }

  L2Config cfg_;
  L2Geometry geo_;
  tlm_utils::multi_passthrough_initiator_socket<L2, 32, tlm::tlm_base_protocol_types, 0,
                                                sc_core::SC_ZERO_OR_MORE_BOUND>
      to_bank_;
  simkit::StatGroup stats_;
  simkit::Counter& requests_;
  simkit::Counter& split_requests_;
  std::vector<std::unique_ptr<L2Bank>> banks_;  // after stats_: banks detach before it dies
};

}  // namespace par::l2
