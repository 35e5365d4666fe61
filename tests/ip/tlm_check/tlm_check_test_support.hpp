// Models for testing the protocol checker: a scripted initiator and a scripted target whose
// every interface method is a replaceable function (so a test can make either side break one
// rule), a pool memory manager, and helpers to fill payloads and compare violation lists.
#pragma once

#include <gtest/gtest.h>
#include <tlm_utils/peq_with_cb_and_phase.h>

#include <cstdint>
#include <cstring>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <systemc>
#include <tlm>
#include <vector>

#include "par/sckit/payload.hpp"
#include "par/tlmcheck/checker_config.hpp"
#include "par/tlmcheck/protocol_monitor.hpp"
#include "par/tlmcheck/rules.hpp"

namespace par::tlmcheck::testing {

// A time in nanoseconds.
inline sc_core::sc_time ns(double v) { return sc_core::sc_time(v, sc_core::SC_NS); }

// A checker that records every violation instead of stopping the simulation at the first.
inline CheckerConfig recording() {
  CheckerConfig c;
  c.stop_on_violation = false;
  return c;
}

// Sets the attributes of a fresh request (response status incomplete, no byte enables).
inline void prepare(tlm::tlm_generic_payload& tx, tlm::tlm_command command, std::uint64_t address,
                    unsigned char* data, unsigned length) {
  par::sckit::prepare_request(tx, command, address, data, length);
}

// Payloads with a memory manager, for nb_transport. free() only counts: the pool owns them.
class PayloadPool : public tlm::tlm_mm_interface {
 public:
  tlm::tlm_generic_payload& get() {
    payloads_.push_back(std::make_unique<tlm::tlm_generic_payload>(this));
    payloads_.back()->acquire();
    return *payloads_.back();
  }
  void free(tlm::tlm_generic_payload*) override { ++freed; }
  int freed = 0;

 private:
  std::vector<std::unique_ptr<tlm::tlm_generic_payload>> payloads_;
};

// The rules of `violations`, in order.
inline std::vector<Rule> rules_of(const std::vector<Violation>& violations) {
  std::vector<Rule> r;
  for (const Violation& v : violations) r.push_back(v.rule);
  return r;
}

// Rule names for readable assertion failures.
inline std::vector<std::string> names_of(const std::vector<Rule>& rules) {
  std::vector<std::string> n;
  for (Rule r : rules) n.emplace_back(rule_info(r).name);
  return n;
}

// EXPECT_RULES(checker.violations(), Rule::A, Rule::B): exactly these rules, in this order.
#define EXPECT_RULES(violations, ...)                                                           \
  EXPECT_EQ(::par::tlmcheck::testing::names_of(::par::tlmcheck::testing::rules_of(violations)), \
            ::par::tlmcheck::testing::names_of(std::vector<::par::tlmcheck::Rule>{__VA_ARGS__}))
#define EXPECT_NO_VIOLATIONS(violations)                                                        \
  EXPECT_EQ(::par::tlmcheck::testing::names_of(::par::tlmcheck::testing::rules_of(violations)), \
            std::vector<std::string>{})

// A target whose methods are functions set by the test. Defaults: a 256-byte memory with a
// 10 ns b_transport latency, nb_transport completed in one call (TLM_COMPLETED, 10 ns), no DMI,
// debug transport of the memory.
class ScriptedTarget : public sc_core::sc_module, public tlm::tlm_fw_transport_if<> {
 public:
  tlm::tlm_target_socket<32> in;
  std::vector<unsigned char> memory = std::vector<unsigned char>(256);

  std::function<void(tlm::tlm_generic_payload&, sc_core::sc_time&)> on_b_transport;
  std::function<tlm::tlm_sync_enum(tlm::tlm_generic_payload&, tlm::tlm_phase&, sc_core::sc_time&)>
      on_nb_transport_fw;
  std::function<bool(tlm::tlm_generic_payload&, tlm::tlm_dmi&)> on_dmi;
  std::function<unsigned(tlm::tlm_generic_payload&)> on_debug;

  explicit ScriptedTarget(sc_core::sc_module_name name) : sc_module(name), in("in") {
    in.bind(*this);
    on_b_transport = [this](tlm::tlm_generic_payload& tx, sc_core::sc_time& delay) {
      access(tx);
      delay += sc_core::sc_time(10, sc_core::SC_NS);
    };
    on_nb_transport_fw = [this](tlm::tlm_generic_payload& tx, tlm::tlm_phase& phase,
                                sc_core::sc_time& delay) {
      if (phase != tlm::BEGIN_REQ) return tlm::TLM_COMPLETED;
      access(tx);
      delay += sc_core::sc_time(10, sc_core::SC_NS);
      return tlm::TLM_COMPLETED;
    };
    on_dmi = [](tlm::tlm_generic_payload&, tlm::tlm_dmi&) { return false; };
    on_debug = [this](tlm::tlm_generic_payload& tx) {
      access(tx);
      return tx.get_data_length();
    };
  }

  // Reads or writes `memory` (wrapping the address) and sets TLM_OK_RESPONSE.
  void access(tlm::tlm_generic_payload& tx) {
    for (unsigned i = 0; i < tx.get_data_length(); ++i) {
      unsigned char& cell = memory[(tx.get_address() + i) % memory.size()];
      if (tx.is_write()) cell = tx.get_data_ptr()[i];
      if (tx.is_read()) tx.get_data_ptr()[i] = cell;
    }
    tx.set_response_status(tlm::TLM_OK_RESPONSE);
  }
  // The backward path, for targets that answer later.
  tlm::tlm_sync_enum send_bw(tlm::tlm_generic_payload& tx, tlm::tlm_phase phase,
                             sc_core::sc_time delay = sc_core::SC_ZERO_TIME) {
    return in->nb_transport_bw(tx, phase, delay);
  }

 private:
  void b_transport(tlm::tlm_generic_payload& tx, sc_core::sc_time& delay) override {
    on_b_transport(tx, delay);
  }
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& tx, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay) override {
    return on_nb_transport_fw(tx, phase, delay);
  }
  bool get_direct_mem_ptr(tlm::tlm_generic_payload& tx, tlm::tlm_dmi& dmi) override {
    return on_dmi(tx, dmi);
  }
  unsigned int transport_dbg(tlm::tlm_generic_payload& tx) override { return on_debug(tx); }
};

// An initiator that runs `body` in one thread; its backward-path methods are functions too
// (default: record the phase and return TLM_COMPLETED for BEGIN_RESP, TLM_ACCEPTED otherwise).
class ScriptedInitiator : public sc_core::sc_module, public tlm::tlm_bw_transport_if<> {
 public:
  tlm::tlm_initiator_socket<32> out;
  std::function<void(ScriptedInitiator&)> body;
  std::function<tlm::tlm_sync_enum(tlm::tlm_generic_payload&, tlm::tlm_phase&, sc_core::sc_time&)>
      on_nb_transport_bw;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> invalidated;  // ranges received
  std::vector<std::string> bw_phases;                                // phases received

  ScriptedInitiator(sc_core::sc_module_name name, std::function<void(ScriptedInitiator&)> b)
      : sc_module(name), out("out"), body(std::move(b)) {
    out.bind(*this);
    on_nb_transport_bw = [](tlm::tlm_generic_payload&, tlm::tlm_phase& phase, sc_core::sc_time&) {
      return phase == tlm::BEGIN_RESP ? tlm::TLM_COMPLETED : tlm::TLM_ACCEPTED;
    };
    SC_HAS_PROCESS(ScriptedInitiator);
    SC_THREAD(run);
  }

  // A b_transport of a fresh payload; returns the response status and the returned delay.
  struct Outcome {
    tlm::tlm_response_status status;
    sc_core::sc_time delay;
  };
  Outcome b(tlm::tlm_command command, std::uint64_t address, unsigned char* data, unsigned length,
            sc_core::sc_time delay = sc_core::SC_ZERO_TIME) {
    tlm::tlm_generic_payload tx;
    prepare(tx, command, address, data, length);
    out->b_transport(tx, delay);
    return {tx.get_response_status(), delay};
  }

 private:
  void run() { body(*this); }
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& tx, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay) override {
    bw_phases.emplace_back(phase.get_name());
    return on_nb_transport_bw(tx, phase, delay);
  }
  void invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end) override {
    invalidated.emplace_back(start, end);
  }
};

// --- a correct approximately-timed pair ---------------------------------------------------------

// An approximately-timed memory that uses every legal way of the base protocol, chosen by the
// address: (address >> 8) % 3 == 0: TLM_ACCEPTED, END_REQ 2 ns later, BEGIN_RESP 10 ns after
// that; == 1: TLM_UPDATED with END_REQ at once, BEGIN_RESP 10 ns later; == 2: TLM_COMPLETED in
// the call (5 ns). Responses go out one at a time (response exclusion), each from a method
// process, never from inside an nb_transport_fw call.
class AtMemoryTarget : public sc_core::sc_module, public tlm::tlm_fw_transport_if<> {
 public:
  tlm::tlm_target_socket<32> in;
  std::vector<unsigned char> memory = std::vector<unsigned char>(4096);

  explicit AtMemoryTarget(sc_core::sc_module_name name)
      : sc_module(name), in("in"), peq_(this, &AtMemoryTarget::on_peq) {
    in.bind(*this);
    SC_HAS_PROCESS(AtMemoryTarget);
    SC_METHOD(send_next_response);
    sensitive << resume_;
    dont_initialize();
  }

 private:
  static sc_core::sc_time ns(double v) { return sc_core::sc_time(v, sc_core::SC_NS); }

  void access(tlm::tlm_generic_payload& tx) {
    for (unsigned i = 0; i < tx.get_data_length(); ++i) {
      unsigned char& cell = memory[(tx.get_address() + i) % memory.size()];
      if (tx.is_write()) cell = tx.get_data_ptr()[i];
      if (tx.is_read()) tx.get_data_ptr()[i] = cell;
    }
    tx.set_response_status(tlm::TLM_OK_RESPONSE);
  }
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& tx, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay) override {
    if (phase == tlm::END_RESP) {
      finish_response();
      return tlm::TLM_COMPLETED;
    }
    const unsigned mode = static_cast<unsigned>((tx.get_address() >> 8) % 3);
    if (mode == 2) {
      access(tx);
      delay += ns(5);
      return tlm::TLM_COMPLETED;
    }
    tx.acquire();
    if (mode == 0) {
      peq_.notify(tx, tlm::END_REQ, delay + ns(2));
      return tlm::TLM_ACCEPTED;
    }
    peq_.notify(tx, tlm::BEGIN_RESP, delay + ns(10));
    phase = tlm::END_REQ;
    return tlm::TLM_UPDATED;
  }
  void on_peq(tlm::tlm_generic_payload& tx, const tlm::tlm_phase& phase) {
    if (phase == tlm::END_REQ) {
      tlm::tlm_phase p = tlm::END_REQ;
      sc_core::sc_time d = sc_core::SC_ZERO_TIME;
      in->nb_transport_bw(tx, p, d);
      peq_.notify(tx, tlm::BEGIN_RESP, ns(10));
      return;
    }
    ready_.push_back(&tx);
    resume_.notify(sc_core::SC_ZERO_TIME);
  }
  void send_next_response() {
    while (current_ == nullptr && !ready_.empty()) {
      tlm::tlm_generic_payload* tx = ready_.front();
      ready_.pop_front();
      access(*tx);
      current_ = tx;
      tlm::tlm_phase p = tlm::BEGIN_RESP;
      sc_core::sc_time d = sc_core::SC_ZERO_TIME;
      const tlm::tlm_sync_enum s = in->nb_transport_bw(*tx, p, d);
      if (s == tlm::TLM_COMPLETED || (s == tlm::TLM_UPDATED && p == tlm::END_RESP)) {
        current_ = nullptr;
        tx->release();
      }
    }
  }
  void finish_response() {
    current_->release();
    current_ = nullptr;
    if (!ready_.empty()) resume_.notify(sc_core::SC_ZERO_TIME);
  }

  void b_transport(tlm::tlm_generic_payload& tx, sc_core::sc_time& delay) override {
    access(tx);
    delay += ns(10);
  }
  bool get_direct_mem_ptr(tlm::tlm_generic_payload&, tlm::tlm_dmi&) override { return false; }
  unsigned int transport_dbg(tlm::tlm_generic_payload& tx) override {
    access(tx);
    return tx.get_data_length();
  }

  tlm_utils::peq_with_cb_and_phase<AtMemoryTarget> peq_;
  std::deque<tlm::tlm_generic_payload*> ready_;
  tlm::tlm_generic_payload* current_ = nullptr;
  sc_core::sc_event resume_;
};

// An approximately-timed initiator with a memory manager (payloads are pooled and reused). It
// sends its script of requests, one BEGIN_REQ at a time (waiting for END_REQ or BEGIN_RESP), and
// answers the i-th BEGIN_RESP by i % 3: 0: TLM_COMPLETED; 1: TLM_UPDATED with END_RESP;
// 2: TLM_ACCEPTED and END_RESP 3 ns later. It records when each request ended and each response
// arrived, the response status and the data.
class AtInitiator : public sc_core::sc_module,
                    public tlm::tlm_bw_transport_if<>,
                    public tlm::tlm_mm_interface {
 public:
  tlm::tlm_initiator_socket<32> out;

  struct Request {
    bool write = false;
    std::uint64_t address = 0;
    std::vector<unsigned char> data;  // write data; read: the length
    sc_core::sc_time at;              // BEGIN_REQ not before this
    // Results.
    sc_core::sc_time request_ended, responded;
    tlm::tlm_response_status status = tlm::TLM_INCOMPLETE_RESPONSE;
    std::vector<unsigned char> read_data;
  };
  std::vector<Request> requests;

  explicit AtInitiator(sc_core::sc_module_name name) : sc_module(name), out("out") {
    out.bind(*this);
    SC_HAS_PROCESS(AtInitiator);
    SC_THREAD(send_requests);
    SC_THREAD(send_end_responses);
  }

  void free(tlm::tlm_generic_payload* tx) override { free_.push_back(tx); }
  std::size_t payloads_created() const { return all_.size(); }
  std::size_t payloads_free() const { return free_.size(); }

 private:
  static sc_core::sc_time ns(double v) { return sc_core::sc_time(v, sc_core::SC_NS); }

  tlm::tlm_generic_payload& allocate() {
    if (free_.empty()) {
      all_.push_back(std::make_unique<tlm::tlm_generic_payload>(this));
      free_.push_back(all_.back().get());
    }
    tlm::tlm_generic_payload* tx = free_.back();
    free_.pop_back();
    tx->acquire();
    return *tx;
  }
  void send_requests() {
    for (std::size_t i = 0; i < requests.size(); ++i) {
      Request& r = requests[i];
      if (r.at > sc_core::sc_time_stamp()) sc_core::wait(r.at - sc_core::sc_time_stamp());
      while (request_in_progress_ != nullptr) sc_core::wait(request_ended_);
      tlm::tlm_generic_payload& tx = allocate();
      r.read_data.assign(r.data.size(), 0);
      prepare(tx, r.write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND, r.address,
              r.write ? r.data.data() : r.read_data.data(), static_cast<unsigned>(r.data.size()));
      index_[&tx] = i;
      request_in_progress_ = &tx;
      tlm::tlm_phase phase = tlm::BEGIN_REQ;
      sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
      const tlm::tlm_sync_enum s = out->nb_transport_fw(tx, phase, delay);
      if (s == tlm::TLM_COMPLETED) {
        end_request(tx, delay);
        respond(tx, delay);
        tx.release();
      } else if (s == tlm::TLM_UPDATED && phase == tlm::END_REQ) {
        end_request(tx, delay);
      } else if (s == tlm::TLM_UPDATED && phase == tlm::BEGIN_RESP) {
        end_request(tx, delay);
        respond(tx, delay);
        tlm::tlm_phase end = tlm::END_RESP;
        out->nb_transport_fw(tx, end, delay);
        tx.release();
      }
    }
  }
  void end_request(tlm::tlm_generic_payload& tx, const sc_core::sc_time& delay) {
    if (request_in_progress_ != &tx) return;
    requests[index_.at(&tx)].request_ended = sc_core::sc_time_stamp() + delay;
    request_in_progress_ = nullptr;
    request_ended_.notify(delay);
  }
  void respond(tlm::tlm_generic_payload& tx, const sc_core::sc_time& delay) {
    Request& r = requests[index_.at(&tx)];
    r.responded = sc_core::sc_time_stamp() + delay;
    r.status = tx.get_response_status();
  }
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& tx, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay) override {
    if (phase == tlm::END_REQ) {
      end_request(tx, delay);
      return tlm::TLM_ACCEPTED;
    }
    end_request(tx, delay);  // BEGIN_RESP implies END_REQ
    respond(tx, delay);
    switch (responses_++ % 3) {
      case 0: tx.release(); return tlm::TLM_COMPLETED;
      case 1:
        tx.release();
        phase = tlm::END_RESP;
        return tlm::TLM_UPDATED;
      default:
        end_responses_.emplace_back(sc_core::sc_time_stamp() + delay + ns(3), &tx);
        end_response_due_.notify(sc_core::SC_ZERO_TIME);
        return tlm::TLM_ACCEPTED;
    }
  }
  // END_RESP for the responses answered with TLM_ACCEPTED, in order, each when due.
  void send_end_responses() {
    for (;;) {
      while (end_responses_.empty()) sc_core::wait(end_response_due_);
      const sc_core::sc_time due = end_responses_.front().first;
      if (due > sc_core::sc_time_stamp()) {
        sc_core::wait(due - sc_core::sc_time_stamp());
        continue;
      }
      tlm::tlm_generic_payload* tx = end_responses_.front().second;
      end_responses_.pop_front();
      tlm::tlm_phase phase = tlm::END_RESP;
      sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
      out->nb_transport_fw(*tx, phase, delay);
      tx->release();
    }
  }
  void invalidate_direct_mem_ptr(sc_dt::uint64, sc_dt::uint64) override {}

  std::vector<std::unique_ptr<tlm::tlm_generic_payload>> all_;
  std::vector<tlm::tlm_generic_payload*> free_;
  std::map<const tlm::tlm_generic_payload*, std::size_t> index_;
  tlm::tlm_generic_payload* request_in_progress_ = nullptr;
  sc_core::sc_event request_ended_;
  unsigned responses_ = 0;
  std::deque<std::pair<sc_core::sc_time, tlm::tlm_generic_payload*>> end_responses_;
  sc_core::sc_event end_response_due_;
};

}  // namespace par::tlmcheck::testing
