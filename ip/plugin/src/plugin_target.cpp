#include "par/plugin/plugin_target.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>

#include "par/sckit/time_units.hpp"
#include "payload_pool.hpp"
#include "plugin_call.hpp"
#include "target_stats.hpp"

namespace par::plugin {

using sc_core::sc_time;
using sc_core::SC_ZERO_TIME;
using detail::PluginCall;

namespace {


std::unique_ptr<TargetModel> create_model(const PluginLibrary& library, const std::vector<PluginArg>& args) {
  std::string error;
  std::unique_ptr<TargetModel> model = library.create("model", args, error);
  if (!model) throw std::runtime_error(error);
  return model;
}

}  // namespace

// One b_transport in flight to an approximately-timed model; lives on the caller's stack.
struct PluginTarget::AtCall {
  tlm::tlm_generic_payload* payload = nullptr;
  sc_core::sc_event granted;  // the request channel was handed to this call
  sc_core::sc_event done;     // BEGIN_RESP (or TLM_COMPLETED) arrived
  bool request_ended = false;
  bool completed = false;
};

PluginTarget::PluginTarget(sc_core::sc_module_name name, std::shared_ptr<const PluginLibrary> library,
                           const std::vector<PluginArg>& args, const Connector& connect)
    : sc_module(name),
      in("in"),
      out("out"),
      library_(std::move(library)),
      call_label_(library_->call_label() + ", model " + this->name() + ".model"),
      model_(create_model(*library_, args)),
      timing_(detail::call_plugin(call_label_.c_str(), [this] { return model_->timing(); })),
      stats_group_(this->name()),
      stats_(std::make_unique<TargetStats>(stats_group_)),
      pool_(std::make_unique<PayloadPool>()),
      model_peq_(this, &PluginTarget::model_phase),
      responses_(*this, in) {
  PluginCall call(call_label_.c_str());
  // The model's own numbers, read whenever the report is written.
  const std::vector<Statistic> initial = model_->statistics();
  if (!initial.empty()) {
    simkit::StatGroup& g = stats_group_.group("model");
    for (const Statistic& s : initial) {
      const std::string stat_name = s.name;
      try {
        g.formula(s.name, s.unit, s.description, [this, stat_name]() {
          PluginCall reading(call_label_.c_str());
          for (const Statistic& now : model_->statistics())
            if (now.name == stat_name) return now.value;
          return std::numeric_limits<double>::quiet_NaN();
        });
      } catch (const std::invalid_argument& e) {
        throw std::runtime_error("plug-in '" + library_->path() + "' (" + info().title() + ") reports statistic '" +
                                 s.name + "': " + e.what());
      }
    }
  }

  in.register_b_transport(this, &PluginTarget::b_transport);
  in.register_nb_transport_fw(this, &PluginTarget::nb_transport_fw);
  in.register_transport_dbg(this, &PluginTarget::transport_dbg);
  in.register_get_direct_mem_ptr(this, &PluginTarget::get_direct_mem_ptr);
  out.register_nb_transport_bw(this, &PluginTarget::nb_transport_bw);
  out.register_invalidate_direct_mem_ptr(this, &PluginTarget::invalidate_direct_mem_ptr);
  if (connect) {
    connect(out, model_->target_socket());
  } else {
    out.bind(model_->target_socket());
  }
}

PluginTarget::~PluginTarget() {
  PluginCall call(call_label_.c_str());
  model_.reset();
}

std::string PluginTarget::description() const {
  PluginCall call(call_label_.c_str());
  return info().title() + (timing_ == Timing::LooselyTimed ? " (loosely timed): " : " (approximately timed): ") +
         model_->description();
}

// --- from the initiators ---------------------------------------------------------------------------

// A payload constructed before the plug-in was loaded has no slots for the TLM extension types
// the plug-in's code registered at load time (every simple_target_socket<Model> has one); the
// model, or a protocol checker in front of it, may use them.
void PluginTarget::b_transport(int, tlm::tlm_generic_payload& tx, sc_time& delay) {
  tx.resize_extensions();
  const sc_time arrival = sc_core::sc_time_stamp() + delay;
  forward(tx, delay);
  record(tx, arrival, sc_core::sc_time_stamp() + delay);
}

unsigned int PluginTarget::transport_dbg(int, tlm::tlm_generic_payload& tx) {
  tx.resize_extensions();
  ++stats_->debug_accesses;
  PluginCall call(call_label_.c_str());
  return out->transport_dbg(tx);
}

bool PluginTarget::get_direct_mem_ptr(int, tlm::tlm_generic_payload&, tlm::tlm_dmi&) { return false; }

void PluginTarget::record(const tlm::tlm_generic_payload& tx, const sc_time& arrival, const sc_time& completion) {
  TargetStats& s = *stats_;
  ++s.transactions;
  const bool ok = tx.is_response_ok();
  if (!ok) ++s.errors;
  if (tx.is_read() || tx.is_write()) s.transfers.count(tx.is_write(), ok ? tx.get_data_length() : 0);
  s.latency.sample(completion > arrival ? sckit::to_ns(completion - arrival) : 0.0);
  s.latest.reach(sckit::to_ns(completion));
}

// --- to the model ----------------------------------------------------------------------------------

void PluginTarget::forward(tlm::tlm_generic_payload& tx, sc_time& delay) {
  if (timing_ == Timing::LooselyTimed) {
    PluginCall call(call_label_.c_str());
    out->b_transport(tx, delay);
  } else {
    at_transport(tx, delay);
  }
}

// b_transport -> BEGIN_REQ / END_REQ / BEGIN_RESP / END_RESP, done by the calling process.
void PluginTarget::at_transport(tlm::tlm_generic_payload& tx, sc_time& delay) {
  // The request goes out at the caller's annotated time.
  if (delay > SC_ZERO_TIME) {
    sc_core::wait(delay);
    delay = SC_ZERO_TIME;
  }
  tlm::tlm_generic_payload* p = pool_->allocate();
  p->acquire();
  p->set_command(tx.get_command());
  p->set_address(tx.get_address());
  p->set_data_ptr(tx.get_data_ptr());
  p->set_data_length(tx.get_data_length());
  p->set_streaming_width(tx.get_streaming_width());
  p->set_byte_enable_ptr(tx.get_byte_enable_ptr());
  p->set_byte_enable_length(tx.get_byte_enable_length());
  p->set_gp_option(tx.get_gp_option());
  p->set_dmi_allowed(false);
  p->set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);

  AtCall call;
  call.payload = p;
  calls_[p] = &call;
  // Request exclusion: one BEGIN_REQ without END_REQ at a time, first come first served.
  const sc_time queued = sc_core::sc_time_stamp();
  if (request_owner_ != nullptr) {
    request_queue_.push_back(&call);
    sc_core::wait(call.granted);
    stats_->request_wait_ns += sckit::to_ns(sc_core::sc_time_stamp() - queued);
  } else {
    request_owner_ = &call;
  }
  send_begin_req(call);
  while (!call.completed) sc_core::wait(call.done);

  tx.set_response_status(p->get_response_status());
  calls_.erase(p);
  p->release();
}

void PluginTarget::send_begin_req(AtCall& call) {
  tlm::tlm_phase phase = tlm::BEGIN_REQ;
  sc_time d = SC_ZERO_TIME;
  const tlm::tlm_sync_enum s =
      detail::call_plugin(call_label_.c_str(), [&] { return out->nb_transport_fw(*call.payload, phase, d); });
  if (s == tlm::TLM_ACCEPTED) return;  // END_REQ / BEGIN_RESP come on the backward path
  if (s == tlm::TLM_UPDATED) {
    if (phase == tlm::END_REQ || phase == tlm::BEGIN_RESP) {
      model_peq_.notify(*call.payload, phase, d);
    } else {
      SC_REPORT_ERROR(name(), "the plug-in answered BEGIN_REQ with TLM_UPDATED and a phase other than END_REQ or "
                              "BEGIN_RESP (base protocol violation)");
      end_request(call);
      call.completed = true;
    }
    return;
  }
  // TLM_COMPLETED: the transaction is over at now + d.
  end_request(call);
  if (d > SC_ZERO_TIME) sc_core::wait(d);
  call.completed = true;
}

void PluginTarget::end_request(AtCall& call) {
  call.request_ended = true;
  request_owner_ = nullptr;
  if (!request_queue_.empty()) {
    request_owner_ = request_queue_.front();
    request_queue_.pop_front();
    request_owner_->granted.notify(SC_ZERO_TIME);
  }
}

tlm::tlm_sync_enum PluginTarget::nb_transport_bw(tlm::tlm_generic_payload& tx, tlm::tlm_phase& phase,
                                                 sc_time& delay) {
  if (calls_.count(&tx) == 0) {
    SC_REPORT_ERROR(name(), "the plug-in called nb_transport_bw with a transaction that is not in flight");
    return tlm::TLM_COMPLETED;
  }
  if (phase == tlm::END_REQ || phase == tlm::BEGIN_RESP) {
    model_peq_.notify(tx, phase, delay);
    return tlm::TLM_ACCEPTED;
  }
  SC_REPORT_ERROR(name(), "the plug-in called nb_transport_bw with a phase other than END_REQ or BEGIN_RESP "
                          "(base protocol violation)");
  return tlm::TLM_COMPLETED;
}

void PluginTarget::model_phase(tlm::tlm_generic_payload& tx, const tlm::tlm_phase& phase) {
  const auto it = calls_.find(&tx);
  if (it == calls_.end()) return;  // reported by nb_transport_bw
  AtCall& call = *it->second;
  if (phase == tlm::END_REQ) {
    if (call.request_ended) {
      SC_REPORT_ERROR(name(), "the plug-in sent END_REQ twice, or after BEGIN_RESP (base protocol violation)");
      return;
    }
    end_request(call);
    return;
  }
  // BEGIN_RESP: implies END_REQ if that has not come.
  if (!call.request_ended) end_request(call);
  tlm::tlm_phase end = tlm::END_RESP;
  sc_time d = SC_ZERO_TIME;
  {
    PluginCall in_model(call_label_.c_str());
    out->nb_transport_fw(tx, end, d);  // the model answers TLM_COMPLETED
  }
  call.completed = true;
  call.done.notify();
}

void PluginTarget::invalidate_direct_mem_ptr(sc_dt::uint64, sc_dt::uint64) {}  // DMI is never granted here

// --- approximately-timed initiators --------------------------------------------------------------
// BEGIN_REQ is accepted at once (TLM_UPDATED, END_REQ); the access runs in a process of its own
// exactly like a b_transport arriving at that time; BEGIN_RESP goes back at its completion, one
// outstanding per socket (response exclusion), the next one after END_RESP.

tlm::tlm_sync_enum PluginTarget::nb_transport_fw(int id, tlm::tlm_generic_payload& tx, tlm::tlm_phase& phase,
                                                 sc_time& delay) {
  if (phase == tlm::BEGIN_REQ) {
    tx.resize_extensions();
    if (tx.has_mm()) tx.acquire();
    sc_core::sc_spawn(sc_bind(&PluginTarget::serve_nb, this, id, &tx, delay));
    phase = tlm::END_REQ;
    return tlm::TLM_UPDATED;
  }
  if (phase == tlm::END_RESP) return responses_.end_response(id);
  SC_REPORT_ERROR(name(), "nb_transport_fw: unexpected phase (base protocol violation)");
  return tlm::TLM_COMPLETED;
}

void PluginTarget::serve_nb(int id, tlm::tlm_generic_payload* tx, sc_time delay) {
  const sc_time arrival = sc_core::sc_time_stamp() + delay;
  forward(*tx, delay);
  record(*tx, arrival, sc_core::sc_time_stamp() + delay);
  if (delay > SC_ZERO_TIME) sc_core::wait(delay);
  responses_.respond(id, *tx);
}

// --- assembly ------------------------------------------------------------------------------------------

std::unique_ptr<PluginTarget> make_target(const TargetSpec& spec, std::string& error) {
  const std::string prefix = spec.option_prefix.empty() ? spec.instance : spec.option_prefix;
  std::string e;
  ModelOption model;
  if (!parse_model_option(spec.config.model, model, e)) {
    error = prefix + ".model: " + e;
    return nullptr;
  }
  if (model.builtin) {
    error = prefix + ".model: is 'builtin', so there is no plug-in to load";
    return nullptr;
  }
  std::vector<PluginArg> args;
  if (!parse_plugin_args(spec.config.plugin_args, args, e)) {
    error = prefix + ".plugin_args: " + e;
    return nullptr;
  }
  for (const PluginArg& a : args) {
    const auto it = spec.platform_args.find(a.key);
    if (it != spec.platform_args.end()) {
      error = prefix + ".plugin_args: '" + a.key + "' is set by parsys (" + a.key + "=" + it->second +
              ") and cannot be given here";
      return nullptr;
    }
  }
  if (spec.platform_args.count("size") == 0) {
    error = prefix + ".model: the platform gave the plug-in no 'size' argument";
    return nullptr;
  }
  for (const auto& [key, value] : spec.platform_args) args.push_back(PluginArg{key, value, true});

  std::shared_ptr<PluginLibrary> library = PluginLibrary::open(model.path, e);
  if (!library) {
    error = prefix + ".model: " + e;
    return nullptr;
  }
  try {
    return std::make_unique<PluginTarget>(spec.instance.c_str(), std::move(library), args, spec.connect);
  } catch (const std::exception& ex) {
    error = prefix + ".model: " + ex.what();
    return nullptr;
  }
}

}  // namespace par::plugin
