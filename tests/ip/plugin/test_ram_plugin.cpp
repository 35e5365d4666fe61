// A plug-in RAM with exactly known timing for the adapter tests, built in the test tree against
// par/plugin/plugin_api.hpp only.
//
// Arguments: size (required), latency_ns (default 10), mode lt|at (default lt), and for mode=at
// accept_ns (END_REQ after the request, default 1) and at_style:
//   accepted   BEGIN_REQ -> TLM_ACCEPTED; END_REQ and BEGIN_RESP on the backward path (default)
//   updated    BEGIN_REQ -> TLM_UPDATED with END_REQ after accept_ns; BEGIN_RESP on the backward path
//   completed  BEGIN_REQ -> TLM_COMPLETED with the latency as delay
// broken=status makes b_transport return with TLM_INCOMPLETE_RESPONSE (a deliberately broken
// model that the protocol checker must catch); broken=silent (mode=at) accepts requests and never
// answers (a hung model: the platform's deadlock report must name who waits).
// fail=<text> makes the factory fail with that text; bad_stat=1 reports a statistic with an
// invalid name. crash=create|access|abort is a model that crashes: an invalid memory access in its
// constructor or in its first access, or abort() in its first access (crash reports must name it).
// hang=access is a stuck model: its first access (not debug access) never returns (it sleeps forever; with
// hang_marker=<path> it first writes that file, so a test knows it is stuck); with hang_after=N the
// first N accesses are served and the next one never returns. Base-protocol violations it sees from parsys are counted in the statistic
// `violations` (a second BEGIN_REQ before END_REQ, a payload without memory manager, END_RESP
// for the wrong transaction).
#include <cstdint>
#include <cstdlib>
#include <chrono>
#include <deque>
#include <fstream>
#include <map>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <tlm_utils/peq_with_cb_and_phase.h>
#include <tlm_utils/simple_target_socket.h>

#include "par/plugin/plugin_api.hpp"

#ifndef TEST_RAM_TIMING
#define TEST_RAM_TIMING (PARSYS_PLUGIN_LT | PARSYS_PLUGIN_AT)
#endif

namespace {

class TestRam : public par::plugin::TargetModel {
 public:
  TestRam(sc_core::sc_module_name name, const par::plugin::Args& args)
      : TargetModel(name),
        socket_("socket"),
        size_(args.require_uint("size")),
        latency_(args.get_double("latency_ns", 10), sc_core::SC_NS),
        accept_(args.get_double("accept_ns", 1), sc_core::SC_NS),
        at_(args.get_choice("mode", "lt", {"lt", "at"}) == "at"),
        style_(args.get_choice("at_style", "accepted", {"accepted", "updated", "completed"})),
        bad_stat_(args.get_uint("bad_stat", 0) != 0),
        broken_(args.get_choice("broken", "none", {"none", "status", "silent"})),
        broken_status_(broken_ == "status"),
        crash_(args.get_choice("crash", "none", {"none", "create", "access", "abort"})),
        hang_(args.get_choice("hang", "none", {"none", "access"}) == "access"),
        hang_marker_(args.get_string("hang_marker", "")),
        hang_after_(args.get_uint("hang_after", 0)),
        bytes_(size_),
        peq_(this, &TestRam::phase_due) {
    if (args.has("fail")) throw std::invalid_argument(args.get_string("fail", ""));
    if (crash_ == "create") crash();
    args.get_uint("base", 0);  // platform-supplied, read so tests can check it arrives
    socket_.register_transport_dbg(this, &TestRam::transport_dbg);
    if (at_) socket_.register_nb_transport_fw(this, &TestRam::nb_transport_fw);
    else socket_.register_b_transport(this, &TestRam::b_transport);
    SC_HAS_PROCESS(TestRam);
    SC_METHOD(send_response);
    sensitive << response_free_;
    dont_initialize();
  }

  par::plugin::TargetSocket& target_socket() override { return socket_; }
  par::plugin::Timing timing() const override {
    return at_ ? par::plugin::Timing::ApproximatelyTimed : par::plugin::Timing::LooselyTimed;
  }
  std::string description() const override { return "test RAM of " + std::to_string(size_) + " bytes"; }
  std::vector<par::plugin::Statistic> statistics() const override {
    std::vector<par::plugin::Statistic> s = {
        {"accesses", "transactions", "Accesses served", static_cast<double>(accesses_)},
        {"violations", "events", "Base-protocol violations seen", static_cast<double>(violations_)},
        {"max_outstanding", "transactions", "Most requests in flight at once", static_cast<double>(max_outstanding_)}};
    if (bad_stat_) s.push_back({"bad name", "", "", 0});
    return s;
  }

 private:
  // An address the compiler cannot see is invalid, so the store really faults.
  static void crash() {
    volatile std::uintptr_t address = 16;
    *reinterpret_cast<volatile int*>(address) = 1;
  }
  [[noreturn]] void hang() const {
    if (!hang_marker_.empty()) std::ofstream(hang_marker_) << "stuck\n";
    for (;;) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  void serve(tlm::tlm_generic_payload& tx) {
    if (crash_ == "access") crash();
    if (crash_ == "abort") std::abort();
    ++accesses_;
    const std::uint64_t a = tx.get_address();
    const unsigned n = tx.get_data_length();
    if (a >= size_ || n > size_ - a) {
      tx.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
      return;
    }
    if (tx.is_write()) std::copy(tx.get_data_ptr(), tx.get_data_ptr() + n, bytes_.begin() + static_cast<long>(a));
    else if (tx.is_read()) std::copy(bytes_.begin() + static_cast<long>(a), bytes_.begin() + static_cast<long>(a + n), tx.get_data_ptr());
    tx.set_response_status(tlm::TLM_OK_RESPONSE);
  }
  bool hangs_now() const { return hang_ && accesses_ >= hang_after_; }
  void b_transport(tlm::tlm_generic_payload& tx, sc_core::sc_time& delay) {
    if (hangs_now()) hang();
    serve(tx);
    if (broken_status_) tx.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    delay += latency_;
  }
  unsigned int transport_dbg(tlm::tlm_generic_payload& tx) {
    const std::uint64_t a = tx.get_address();
    const unsigned n = tx.get_data_length();
    if (a >= size_ || n > size_ - a) return 0;
    serve(tx);
    --accesses_;
    return n;
  }

  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& tx, tlm::tlm_phase& phase, sc_core::sc_time& delay) {
    if (phase == tlm::BEGIN_REQ && broken_ == "silent") return tlm::TLM_ACCEPTED;  // and nothing ever after
    if (hangs_now()) hang();
    if (phase == tlm::BEGIN_REQ) {
      if (!tx.has_mm()) ++violations_;
      if (request_open_) ++violations_;  // request exclusion
      ++outstanding_;
      max_outstanding_ = std::max(max_outstanding_, outstanding_);
      if (style_ == "completed") {
        serve(tx);
        --outstanding_;
        delay += latency_;
        return tlm::TLM_COMPLETED;
      }
      tx.acquire();
      serve(tx);  // data moves when the request is taken
      request_open_ = true;
      peq_.notify(tx, tlm::BEGIN_RESP, delay + latency_);
      if (style_ == "updated") {
        request_open_ = false;
        phase = tlm::END_REQ;
        delay += accept_;
        return tlm::TLM_UPDATED;
      }
      peq_.notify(tx, tlm::END_REQ, delay + accept_);
      return tlm::TLM_ACCEPTED;
    }
    if (phase == tlm::END_RESP) {
      if (responding_ != &tx) {
        ++violations_;
        return tlm::TLM_COMPLETED;
      }
      finish(tx);
      return tlm::TLM_COMPLETED;
    }
    ++violations_;
    return tlm::TLM_COMPLETED;
  }
  void phase_due(tlm::tlm_generic_payload& tx, const tlm::tlm_phase& phase) {
    if (phase == tlm::END_REQ) {
      request_open_ = false;
      tlm::tlm_phase p = tlm::END_REQ;
      sc_core::sc_time d = sc_core::SC_ZERO_TIME;
      socket_->nb_transport_bw(tx, p, d);
      return;
    }
    responses_.push_back(&tx);
    send_response();
  }
  void send_response() {
    if (responding_ != nullptr || responses_.empty()) return;
    tlm::tlm_generic_payload* tx = responses_.front();
    responses_.pop_front();
    responding_ = tx;
    tlm::tlm_phase p = tlm::BEGIN_RESP;
    sc_core::sc_time d = sc_core::SC_ZERO_TIME;
    const tlm::tlm_sync_enum s = socket_->nb_transport_bw(*tx, p, d);
    if (s == tlm::TLM_COMPLETED || (s == tlm::TLM_UPDATED && p == tlm::END_RESP)) finish(*tx);
  }
  void finish(tlm::tlm_generic_payload& tx) {
    responding_ = nullptr;
    --outstanding_;
    tx.release();
    response_free_.notify(sc_core::SC_ZERO_TIME);
  }

  tlm_utils::simple_target_socket<TestRam> socket_;
  std::uint64_t size_;
  sc_core::sc_time latency_, accept_;
  bool at_;
  std::string style_;
  bool bad_stat_;
  std::string broken_;
  bool broken_status_;
  std::string crash_;
  bool hang_;
  std::string hang_marker_;
  std::uint64_t hang_after_;
  std::vector<unsigned char> bytes_;
  tlm_utils::peq_with_cb_and_phase<TestRam> peq_;
  std::deque<tlm::tlm_generic_payload*> responses_;
  tlm::tlm_generic_payload* responding_ = nullptr;
  sc_core::sc_event response_free_;
  bool request_open_ = false;
  std::uint64_t accesses_ = 0, violations_ = 0, outstanding_ = 0, max_outstanding_ = 0;
};

}  // namespace

PARSYS_DEFINE_PLUGIN(TestRam, "test_ram", "parsys tests", TEST_RAM_TIMING)
