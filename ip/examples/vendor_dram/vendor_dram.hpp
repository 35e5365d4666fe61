// The Acme example DRAM: a vendor-style model loaded into parsys as a plug-in. It includes only
// SystemC/TLM and the installed par/plugin/plugin_api.hpp.
//
// mode=lt  loosely timed: b_transport, the completion time returned in the annotated delay.
// mode=at  approximately timed: nb_transport_fw; BEGIN_REQ is taken at its annotated time and
//          ended (END_REQ) one clock later (one request per clock); BEGIN_RESP is sent at the
//          access's completion, one response at a time; END_RESP frees the response channel.
// Both modes time an access identically (BankTimer) and move its data when the request is taken.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/peq_with_cb_and_phase.h>
#include <tlm_utils/simple_target_socket.h>

#include "bank_timer.hpp"
#include "par/plugin/plugin_api.hpp"
#include "sparse_memory.hpp"

namespace acme {

class VendorDram : public par::plugin::TargetModel {
 public:
  // Arguments (docs in README.md): size (from parsys), clock_mhz (from parsys, default 800),
  // mode, banks, row_bytes, bus_bytes, tRCD, tCL, tRP.
  VendorDram(sc_core::sc_module_name name, const par::plugin::Args& args);

  par::plugin::TargetSocket& target_socket() override { return socket_; }
  par::plugin::Timing timing() const override { return timing_; }
  std::string description() const override;
  std::vector<par::plugin::Statistic> statistics() const override;

 private:
  // Moves the data and schedules the access arriving at `arrival`; returns its completion
  // (`arrival` for an error response).
  sc_core::sc_time serve(tlm::tlm_generic_payload& tx, const sc_core::sc_time& arrival);

  void b_transport(tlm::tlm_generic_payload& tx, sc_core::sc_time& delay);
  unsigned int transport_dbg(tlm::tlm_generic_payload& tx);
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& tx, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay);
  void phase_due(tlm::tlm_generic_payload& tx, const tlm::tlm_phase& phase);
  void send_response();

  tlm_utils::simple_target_socket<VendorDram> socket_;
  par::plugin::Timing timing_;
  DramTiming params_;
  std::uint64_t size_;
  double clock_mhz_;
  sc_core::sc_time period_;
  BankTimer timer_;
  SparseMemory memory_;
  tlm_utils::peq_with_cb_and_phase<VendorDram> peq_;
  std::deque<tlm::tlm_generic_payload*> responses_;  // due, waiting for the response channel
  tlm::tlm_generic_payload* responding_ = nullptr;    // BEGIN_RESP sent, END_RESP pending
  sc_core::sc_event response_free_;

  std::uint64_t reads_ = 0, writes_ = 0, bytes_ = 0, errors_ = 0;
  std::uint64_t hits_ = 0, misses_ = 0, conflicts_ = 0;
  double latency_ns_ = 0;
};

}  // namespace acme
