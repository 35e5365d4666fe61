// The response side of an approximately-timed target with a multi-socket (one socket index per
// initiator): BEGIN_RESP goes back one at a time per socket index (the base protocol's response
// exclusion), in the order the responses became due; the next one follows END_RESP (or a
// TLM_COMPLETED / TLM_UPDATED-with-END_RESP answer to BEGIN_RESP), sent from a process of its own
// rather than from inside the initiator's nb_transport_fw call.
//
// The owner acquires a payload that has a memory manager when it accepts BEGIN_REQ; the sequencer
// releases it when its response is over.
#pragma once

#include <cstddef>
#include <deque>
#include <vector>

#include <systemc>
#include <tlm>

namespace par::sckit {

template <typename Socket>  // a tlm_utils multi-socket: socket[id]->nb_transport_bw(...)
class ResponseSequencer {
 public:
  // Construct during elaboration, as a member of `owner`: spawns the owner's method process
  // "resume_responses" and reports protocol errors under the owner's name.
  ResponseSequencer(sc_core::sc_object& owner, Socket& socket) : owner_(owner), socket_(socket) {
    sc_core::sc_spawn_options opts;
    opts.spawn_method();
    opts.set_sensitivity(&resume_);
    opts.dont_initialize();
    sc_core::sc_spawn(sc_bind(&ResponseSequencer::resume, this), "resume_responses", &opts);
  }
  ResponseSequencer(const ResponseSequencer&) = delete;
  ResponseSequencer& operator=(const ResponseSequencer&) = delete;

  // The response to `tx` on socket index `id` is due now: BEGIN_RESP at once if the socket has no
  // response outstanding, else after the ones before it.
  void respond(int id, tlm::tlm_generic_payload& tx) {
    const auto index = static_cast<std::size_t>(id);
    if (ports_.size() <= index) ports_.resize(index + 1);
    ports_[index].ready.push_back(&tx);
    send(id);
  }

  // END_RESP arrived on nb_transport_fw from socket index `id`; the answer to return.
  tlm::tlm_sync_enum end_response(int id) {
    const auto index = static_cast<std::size_t>(id);
    if (ports_.size() <= index || ports_[index].current == nullptr) {
      SC_REPORT_ERROR(owner_.name(), "nb_transport_fw: END_RESP without an outstanding response");
      return tlm::TLM_COMPLETED;
    }
    Port& port = ports_[index];
    tlm::tlm_generic_payload* tx = port.current;
    port.current = nullptr;
    if (tx->has_mm()) tx->release();
    if (!port.ready.empty()) resume_.notify(sc_core::SC_ZERO_TIME);
    return tlm::TLM_COMPLETED;
  }

 private:
  struct Port {
    std::deque<tlm::tlm_generic_payload*> ready;
    tlm::tlm_generic_payload* current = nullptr;  // BEGIN_RESP sent, END_RESP pending
  };

  void send(int id) {
    Port& port = ports_[static_cast<std::size_t>(id)];
    while (port.current == nullptr && !port.ready.empty()) {
      tlm::tlm_generic_payload* tx = port.ready.front();
      port.ready.pop_front();
      port.current = tx;
      tlm::tlm_phase phase = tlm::BEGIN_RESP;
      sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
      const tlm::tlm_sync_enum s = socket_[id]->nb_transport_bw(*tx, phase, delay);
      if (s == tlm::TLM_COMPLETED || (s == tlm::TLM_UPDATED && phase == tlm::END_RESP)) {
        port.current = nullptr;
        if (tx->has_mm()) tx->release();
      }
      // TLM_ACCEPTED: END_RESP comes later through nb_transport_fw.
    }
  }
  void resume() {
    for (std::size_t id = 0; id < ports_.size(); ++id) send(static_cast<int>(id));
  }

  sc_core::sc_object& owner_;
  Socket& socket_;
  std::vector<Port> ports_;
  sc_core::sc_event resume_;
};

}  // namespace par::sckit
