// Shared pieces of the plug-in tests: a TargetSpec for a test plug-in, an LT caller with an
// annotated delay and an AT initiator (the TlmHarness issues only zero-delay b_transport).
#pragma once

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/peq_with_cb_and_phase.h>
#include <tlm_utils/simple_initiator_socket.h>

#include "par/plugin/plugin_target.hpp"

namespace par::plugin::testing {

// A time as a number of nanoseconds.
inline double ns(const sc_core::sc_time& t) { return t / sc_core::sc_time(1, sc_core::SC_NS); }

inline TargetSpec spec_for(const std::string& library, const std::string& args,
                           const std::string& instance = "dram") {
  TargetSpec s;
  s.instance = instance;
  s.config.model = "plugin:" + library;
  s.config.plugin_args = args;
  s.platform_args = {{"size", "4096"}, {"base", "0x80000000"}};
  return s;
}

// make_target or fail the test.
inline std::unique_ptr<PluginTarget> make_or_fail(const TargetSpec& spec) {
  std::string error;
  std::unique_ptr<PluginTarget> t = make_target(spec, error);
  EXPECT_NE(t, nullptr) << error;
  return t;
}

inline double stat(const PluginTarget& t, const std::string& path) {
  const simkit::Stat* s = t.stats().find(path);
  EXPECT_NE(s, nullptr) << path;
  return s != nullptr ? s->number() : -1;
}

inline std::vector<double> sorted(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v;
}

// One b_transport at `start` with an annotated delay; records what came back.
class LtCaller : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<LtCaller> out;
  sc_core::sc_time start, delay_in, delay_out, returned_at;
  tlm::tlm_response_status status = tlm::TLM_INCOMPLETE_RESPONSE;
  std::uint64_t address = 0;
  std::vector<unsigned char> data = std::vector<unsigned char>(8, 0);

  explicit LtCaller(sc_core::sc_module_name name) : sc_module(name), out("out") {
    SC_HAS_PROCESS(LtCaller);
    SC_THREAD(run);
  }

 private:
  void run() {
    sc_core::wait(start);
    tlm::tlm_generic_payload tx;
    tx.set_command(tlm::TLM_READ_COMMAND);
    tx.set_address(address);
    tx.set_data_ptr(data.data());
    tx.set_data_length(static_cast<unsigned>(data.size()));
    tx.set_streaming_width(static_cast<unsigned>(data.size()));
    tx.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    delay_out = delay_in;
    out->b_transport(tx, delay_out);
    returned_at = sc_core::sc_time_stamp();
    status = tx.get_response_status();
  }
};

// An approximately-timed initiator: `count` reads of 8 bytes sent back to back at t = 0 (each
// BEGIN_REQ after the previous request phase ended), END_RESP `end_resp_after` after each
// BEGIN_RESP. Payloads have this module as memory manager.
class AtCaller : public sc_core::sc_module, public tlm::tlm_mm_interface {
 public:
  tlm_utils::simple_initiator_socket<AtCaller> out;
  std::vector<tlm::tlm_sync_enum> begin_req_status;
  std::vector<tlm::tlm_phase> begin_req_phase;
  std::vector<double> begin_resp_ns;
  std::vector<tlm::tlm_response_status> status;
  int freed = 0;
  sc_core::sc_time end_resp_after = sc_core::sc_time(2, sc_core::SC_NS);

  AtCaller(sc_core::sc_module_name name, int count)
      : sc_module(name), out("out"), count_(count), peq_(this, &AtCaller::phase_due) {
    out.register_nb_transport_bw(this, &AtCaller::nb_transport_bw);
    SC_HAS_PROCESS(AtCaller);
    SC_THREAD(run);
  }
  void free(tlm::tlm_generic_payload*) override { ++freed; }

 private:
  void run() {
    for (int i = 0; i < count_; ++i) {
      auto tx = std::make_unique<tlm::tlm_generic_payload>(this);
      buffers_.emplace_back(8, 0);
      tx->acquire();
      tx->set_command(tlm::TLM_READ_COMMAND);
      tx->set_address(static_cast<std::uint64_t>(8 * i));
      tx->set_data_ptr(buffers_.back().data());
      tx->set_data_length(8);
      tx->set_streaming_width(8);
      tx->set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
      tlm::tlm_phase phase = tlm::BEGIN_REQ;
      sc_core::sc_time d = sc_core::SC_ZERO_TIME;
      begin_req_status.push_back(out->nb_transport_fw(*tx, phase, d));
      begin_req_phase.push_back(phase);
      txs_.push_back(std::move(tx));
    }
  }
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& tx, tlm::tlm_phase& phase, sc_core::sc_time&) {
    if (phase == tlm::BEGIN_RESP) {
      begin_resp_ns.push_back(sc_core::sc_time_stamp() / sc_core::sc_time(1, sc_core::SC_NS));
      status.push_back(tx.get_response_status());
      peq_.notify(tx, tlm::END_RESP, end_resp_after);
    }
    return tlm::TLM_ACCEPTED;
  }
  void phase_due(tlm::tlm_generic_payload& tx, const tlm::tlm_phase&) {
    tlm::tlm_phase phase = tlm::END_RESP;
    sc_core::sc_time d = sc_core::SC_ZERO_TIME;
    out->nb_transport_fw(tx, phase, d);
    tx.release();
  }

  int count_;
  std::vector<std::unique_ptr<tlm::tlm_generic_payload>> txs_;
  std::vector<std::vector<unsigned char>> buffers_;
  tlm_utils::peq_with_cb_and_phase<AtCaller> peq_;
};

}  // namespace par::plugin::testing
