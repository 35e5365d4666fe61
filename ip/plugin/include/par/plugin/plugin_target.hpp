// PluginTarget: the module parsys binds where a built-in target was (the DRAM, an L2 bank, host
// memory, a downstream port of the interconnect). It owns a plug-in model (a child module named
// "model") and forwards to the model's socket:
//
//   initiators --b_transport--> [ in  PluginTarget  out ] --b_transport or nb_transport--> model
//
// - Loosely-timed model: b_transport is passed through unchanged (same payload, same delay).
// - Approximately-timed model: each b_transport becomes a base-protocol nb_transport sequence on
//   a payload of the adapter's own memory manager (attributes copied, data pointer shared):
//   the caller waits out its annotated delay, waits for the request channel (one BEGIN_REQ
//   without END_REQ at a time, first come first served), sends BEGIN_REQ, waits for BEGIN_RESP,
//   answers END_RESP and returns with a zero delay and the model's response status. A payload's
//   extensions are not forwarded.
// - nb_transport_fw from an approximately-timed initiator is accepted too (END_REQ at once; the
//   access runs in a process of its own; BEGIN_RESP at its completion, one per socket at a time).
// - transport_dbg is passed through; DMI is refused (get_direct_mem_ptr returns false).
// - Every payload arriving on `in` gets resize_extensions(): one constructed before the plug-in
//   was loaded lacks slots for the extension types the plug-in registered at load time.
//
// Statistics (group named after the module): see README.md.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_target_socket.h>
#include <tlm_utils/peq_with_cb_and_phase.h>
#include <tlm_utils/simple_initiator_socket.h>

#include "par/plugin/plugin_api.hpp"
#include "par/plugin/plugin_library.hpp"
#include "par/plugin/plugin_options.hpp"
#include "par/sckit/response_sequencer.hpp"
#include "par/simkit/stats.hpp"

namespace par::plugin {

class PayloadPool;
struct TargetStats;

class PluginTarget : public sc_core::sc_module {
 public:
  using InSocket = tlm_utils::multi_passthrough_target_socket<PluginTarget, 32, tlm::tlm_base_protocol_types, 0,
                                                              sc_core::SC_ONE_OR_MORE_BOUND>;
  using OutSocket = tlm_utils::simple_initiator_socket<PluginTarget, 32>;
  // Binds the adapter's `out` to the model's socket. The default binds them directly; the platform
  // may put a protocol checker in between (--check-protocol).
  using Connector = std::function<void(OutSocket& out, TargetSocket& model)>;

  InSocket in;    // any number of initiators (e.g. every L2 bank), like the built-in DRAM's `in`
  OutSocket out;  // to the model

  // Creates the model "<name>.model" through `library` with `args` (user and platform ones).
  // Throws std::runtime_error with the loader's message when the plug-in refuses the arguments
  // or a statistic name is invalid (make_target() turns it into an error string).
  PluginTarget(sc_core::sc_module_name name, std::shared_ptr<const PluginLibrary> library,
               const std::vector<PluginArg>& args, const Connector& connect = Connector());
  ~PluginTarget() override;

  TargetModel& model() { return *model_; }
  const PluginInfo& info() const { return library_->info(); }
  Timing timing() const { return timing_; }
  // "vendor_dram by Acme Memories (loosely timed): <model description>".
  std::string description() const;

  simkit::StatGroup& stats() { return stats_group_; }
  const simkit::StatGroup& stats() const { return stats_group_; }

 private:
  struct AtCall;

  // Incoming (from initiators).
  void b_transport(int id, tlm::tlm_generic_payload& tx, sc_core::sc_time& delay);
  tlm::tlm_sync_enum nb_transport_fw(int id, tlm::tlm_generic_payload& tx, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay);
  unsigned int transport_dbg(int id, tlm::tlm_generic_payload& tx);
  bool get_direct_mem_ptr(int id, tlm::tlm_generic_payload& tx, tlm::tlm_dmi& dmi);

  // To the model.
  void forward(tlm::tlm_generic_payload& tx, sc_core::sc_time& delay);
  void at_transport(tlm::tlm_generic_payload& tx, sc_core::sc_time& delay);
  void send_begin_req(AtCall& call);
  void end_request(AtCall& call);
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& tx, tlm::tlm_phase& phase, sc_core::sc_time& delay);
  void invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end);
  void model_phase(tlm::tlm_generic_payload& tx, const tlm::tlm_phase& phase);

  // Approximately-timed initiators on `in`.
  void serve_nb(int id, tlm::tlm_generic_payload* tx, sc_core::sc_time delay);

  void record(const tlm::tlm_generic_payload& tx, const sc_core::sc_time& arrival,
              const sc_core::sc_time& completion);

  std::shared_ptr<const PluginLibrary> library_;  // outlives model_ (declared first)
  std::string call_label_;  // "plug-in 'x.so' (name by vendor), model dram.model" (crash reports)
  std::unique_ptr<TargetModel> model_;
  Timing timing_;
  simkit::StatGroup stats_group_;
  std::unique_ptr<TargetStats> stats_;

  // b_transport -> nb_transport conversion.
  std::unique_ptr<PayloadPool> pool_;
  std::unordered_map<tlm::tlm_generic_payload*, AtCall*> calls_;  // in flight to the model
  AtCall* request_owner_ = nullptr;                                // BEGIN_REQ sent, END_REQ pending
  std::deque<AtCall*> request_queue_;                              // waiting to send BEGIN_REQ
  tlm_utils::peq_with_cb_and_phase<PluginTarget> model_peq_;

  // Responses to approximately-timed initiators, per socket index (response exclusion).
  sckit::ResponseSequencer<InSocket> responses_;
};

// Everything a platform needs to put a plug-in where a built-in target was.
struct TargetSpec {
  std::string instance;       // SystemC name of the adapter and its statistics group ("dram")
  std::string option_prefix;  // messages name <prefix>.model / <prefix>.plugin_args ("" = instance)
  PluginConfig config;        // the two option values
  // Keys parsys supplies (docs/plugging-in-ip.md): "size" (required), "base", "clock_mhz". A user
  // argument with one of these keys is an error.
  std::map<std::string, std::string> platform_args;
  PluginTarget::Connector connect;  // optional
};

// Parses the options, loads the library and builds the adapter with its model. Returns null with
// `error` set to one message naming the option (every failure of the options, the loader and
// the plug-in's factory). Call during elaboration; config.model must name a plug-in.
std::unique_ptr<PluginTarget> make_target(const TargetSpec& spec, std::string& error);

}  // namespace par::plugin
