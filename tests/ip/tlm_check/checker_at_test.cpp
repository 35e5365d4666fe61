// ProtocolChecker in a simulation, approximately timed: a correct AT initiator/target pair that
// uses every legal phase path gives the same timing and data with and without the checker and no
// violation; broken nb_transport models are caught with the right rule, also when the violation
// happens in a method process.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "support/sc_isolation.hpp"
#include "par/tlmcheck/protocol_checker.hpp"
#include "tlm_check_test_support.hpp"

namespace par::tlmcheck {
namespace {

using par::testing::run_isolated;
using sc_core::SC_NS;
using sc_core::sc_time;
using sc_core::SC_ZERO_TIME;
using testing::AtInitiator;
using testing::AtMemoryTarget;
using testing::PayloadPool;
using testing::prepare;
using testing::recording;
using testing::ScriptedInitiator;
using testing::ScriptedTarget;
using testing::ns;

void script(AtInitiator& init) {
  // Addresses select the target's path: 0x0xx accepted, 0x1xx updated, 0x2xx completed. Requests
  // close together queue behind END_REQ and the responses queue behind END_RESP.
  const std::uint64_t addresses[] = {0x000, 0x100, 0x200, 0x010, 0x110, 0x210,
                                     0x020, 0x120, 0x220, 0x030, 0x130, 0x230};
  int i = 0;
  for (std::uint64_t a : addresses) {
    AtInitiator::Request w;
    w.write = true;
    w.address = a;
    w.data = {static_cast<unsigned char>(i), static_cast<unsigned char>(i + 1), 7, 9};
    w.at = ns(10 + 3 * i);
    init.requests.push_back(w);
    AtInitiator::Request r;
    r.address = a;
    r.data.assign(4, 0);
    r.at = ns(11 + 3 * i);
    init.requests.push_back(r);
    ++i;
  }
}

TEST(CheckerAt, CorrectPairGivesIdenticalTimingAndDataAndNoViolation) {
  run_isolated([] {
    AtInitiator direct("direct"), checked("checked");
    AtMemoryTarget target_direct("target_direct"), target_checked("target_checked");
    ProtocolChecker<> checker("checker", "checked.out", "target_checked.in");
    direct.out.bind(target_direct.in);
    checker.connect(checked.out, target_checked.in);
    script(direct);
    script(checked);
    sc_core::sc_start(ns(10000));

    ASSERT_EQ(direct.requests.size(), 24u);
    for (std::size_t i = 0; i < direct.requests.size(); ++i) {
      const auto& a = direct.requests[i];
      const auto& b = checked.requests[i];
      EXPECT_EQ(a.status, tlm::TLM_OK_RESPONSE) << i;
      EXPECT_EQ(b.status, a.status) << i;
      EXPECT_EQ(b.request_ended, a.request_ended) << i;
      EXPECT_EQ(b.responded, a.responded) << i;
      EXPECT_EQ(b.read_data, a.read_data) << i;
    }
    // Reads return what the preceding write stored.
    EXPECT_EQ(checked.requests[3].read_data, (std::vector<unsigned char>{1, 2, 7, 9}));
    // Path "accepted": END_REQ 2 ns after BEGIN_REQ at 10 ns, BEGIN_RESP 10 ns later.
    EXPECT_EQ(checked.requests[0].request_ended, ns(12));
    EXPECT_EQ(checked.requests[0].responded, ns(22));
    // Path "completed": BEGIN_REQ at 16 ns, the whole access in the call, 5 ns.
    EXPECT_EQ(checked.requests[4].request_ended, ns(21));
    EXPECT_EQ(checked.requests[4].responded, ns(21));

    EXPECT_NO_VIOLATIONS(checker.violations());
    auto counter = [&](const char* n) {
      return static_cast<const simkit::Counter*>(checker.stats().find(n))->value();
    };
    EXPECT_EQ(counter("nb_transactions"), 24u);
    EXPECT_EQ(counter("violations"), 0u);
    // 8 END_REQ (path "accepted") + 16 BEGIN_RESP (paths "accepted" and "updated").
    EXPECT_EQ(counter("nb_transport_bw"), 24u);
    // 24 BEGIN_REQ + END_RESP for every third of the 16 BEGIN_RESP.
    EXPECT_EQ(counter("nb_transport_fw"), 29u);
    EXPECT_EQ(checker.monitor().in_flight(), 0u);
    // Payloads were pooled, so the checker saw the same objects again in new transactions.
    EXPECT_LT(checked.payloads_created(), 24u);
    EXPECT_EQ(checked.payloads_free(), checked.payloads_created());
  });
}

// One broken nb_transport exchange per initiator/checker/target triple, all in one simulation.
struct BrokenNbCase {
  const char* name;
  // Configures the target; then the initiator's body runs.
  std::function<void(ScriptedTarget&)> target;
  std::function<void(ScriptedInitiator&, ScriptedTarget&, PayloadPool&)> initiator;
  std::vector<Rule> rules;
};

TEST(CheckerAt, BrokenNonBlockingModelsAreCaught) {
  run_isolated([] {
    auto accept_all = [](ScriptedTarget& t) {
      t.on_nb_transport_fw = [](tlm::tlm_generic_payload&, tlm::tlm_phase&, sc_time&) {
        return tlm::TLM_ACCEPTED;
      };
    };
    static unsigned char buf[8] = {};
    const std::vector<BrokenNbCase> cases = {
        {"resp_before_req",
         accept_all,
         [](ScriptedInitiator&, ScriptedTarget& t, PayloadPool& pool) {
           sc_core::wait(ns(5));
           tlm::tlm_generic_payload& tx = pool.get();
           prepare(tx, tlm::TLM_READ_COMMAND, 0x10, buf, 4);
           tx.set_response_status(tlm::TLM_OK_RESPONSE);
           t.send_bw(tx, tlm::BEGIN_RESP);  // the target answers a request it never got
         },
         {Rule::PhaseSequence}},
        {"two_begin_req",
         accept_all,
         [](ScriptedInitiator& self, ScriptedTarget&, PayloadPool& pool) {
           for (std::uint64_t a : {0x10, 0x20}) {
             tlm::tlm_generic_payload& tx = pool.get();
             prepare(tx, tlm::TLM_READ_COMMAND, a, buf, 4);
             tlm::tlm_phase p = tlm::BEGIN_REQ;
             sc_time d = SC_ZERO_TIME;
             self.out->nb_transport_fw(tx, p, d);  // no END_REQ in between
           }
         },
         {Rule::RequestExclusion}},
        {"end_resp_from_target",
         [](ScriptedTarget& t) {
           t.on_nb_transport_fw = [](tlm::tlm_generic_payload&, tlm::tlm_phase& p, sc_time&) {
             p = tlm::END_REQ;
             return tlm::TLM_UPDATED;
           };
         },
         [](ScriptedInitiator& self, ScriptedTarget& t, PayloadPool& pool) {
           tlm::tlm_generic_payload& tx = pool.get();
           prepare(tx, tlm::TLM_READ_COMMAND, 0x10, buf, 4);
           tlm::tlm_phase p = tlm::BEGIN_REQ;
           sc_time d = SC_ZERO_TIME;
           self.out->nb_transport_fw(tx, p, d);
           sc_core::wait(ns(5));
           t.send_bw(tx, tlm::END_RESP);
         },
         {Rule::PhaseDirection}},
        {"no_memory_manager",
         [](ScriptedTarget&) {},  // default: completes in the call
         [](ScriptedInitiator& self, ScriptedTarget&, PayloadPool&) {
           tlm::tlm_generic_payload tx;  // on the stack, no memory manager
           prepare(tx, tlm::TLM_READ_COMMAND, 0x10, buf, 4);
           tlm::tlm_phase p = tlm::BEGIN_REQ;
           sc_time d = SC_ZERO_TIME;
           EXPECT_EQ(self.out->nb_transport_fw(tx, p, d), tlm::TLM_COMPLETED);
         },
         {Rule::MemoryManager}},
        {"extended_phase",
         accept_all,
         [](ScriptedInitiator& self, ScriptedTarget&, PayloadPool& pool) {
           DECLARE_EXTENDED_PHASE(VENDOR_PHASE);
           tlm::tlm_generic_payload& tx = pool.get();
           prepare(tx, tlm::TLM_READ_COMMAND, 0x10, buf, 4);
           tlm::tlm_phase p = VENDOR_PHASE;
           sc_time d = SC_ZERO_TIME;
           self.out->nb_transport_fw(tx, p, d);
         },
         {Rule::UnknownPhase}},
        {"two_responses",
         [](ScriptedTarget& t) {
           t.on_nb_transport_fw = [](tlm::tlm_generic_payload&, tlm::tlm_phase& p, sc_time&) {
             p = tlm::END_REQ;
             return tlm::TLM_UPDATED;
           };
         },
         [](ScriptedInitiator& self, ScriptedTarget& t, PayloadPool& pool) {
           self.on_nb_transport_bw = [](tlm::tlm_generic_payload&, tlm::tlm_phase&, sc_time&) {
             return tlm::TLM_ACCEPTED;  // END_RESP later (never, here)
           };
           std::vector<tlm::tlm_generic_payload*> txs;
           for (std::uint64_t a : {0x10, 0x20}) {
             tlm::tlm_generic_payload& tx = pool.get();
             prepare(tx, tlm::TLM_READ_COMMAND, a, buf, 4);
             tlm::tlm_phase p = tlm::BEGIN_REQ;
             sc_time d = SC_ZERO_TIME;
             self.out->nb_transport_fw(tx, p, d);
             txs.push_back(&tx);
           }
           for (auto* tx : txs) {
             tx->set_response_status(tlm::TLM_OK_RESPONSE);
             t.send_bw(*tx, tlm::BEGIN_RESP);  // the second before END_RESP of the first
           }
         },
         {Rule::ResponseExclusion}},
    };
    std::vector<std::unique_ptr<ScriptedTarget>> targets;
    std::vector<std::unique_ptr<ScriptedInitiator>> initiators;
    std::vector<std::unique_ptr<ProtocolChecker<>>> checkers;
    std::vector<std::unique_ptr<PayloadPool>> pools;
    for (const BrokenNbCase& c : cases) {
      const std::string n = c.name;
      targets.push_back(std::make_unique<ScriptedTarget>(("t_" + n).c_str()));
      c.target(*targets.back());
      pools.push_back(std::make_unique<PayloadPool>());
      ScriptedTarget& t = *targets.back();
      PayloadPool& pool = *pools.back();
      const auto body = c.initiator;
      initiators.push_back(std::make_unique<ScriptedInitiator>(
          ("i_" + n).c_str(), [body, &t, &pool](ScriptedInitiator& self) { body(self, t, pool); }));
      checkers.push_back(std::make_unique<ProtocolChecker<>>(("c_" + n).c_str(), "i_" + n + ".out",
                                                             "t_" + n + ".in", recording()));
      checkers.back()->connect(initiators.back()->out, targets.back()->in);
    }
    sc_core::sc_start(ns(100));
    for (std::size_t i = 0; i < cases.size(); ++i) {
      EXPECT_EQ(testing::names_of(testing::rules_of(checkers[i]->violations())),
                testing::names_of(cases[i].rules))
          << cases[i].name;
    }
    // Forwarded anyway (record mode): the initiator received the illegal phase.
    EXPECT_EQ(initiators[2]->bw_phases, (std::vector<std::string>{"END_RESP"}));
    EXPECT_NE(checkers[2]->violations()[0].message.find(
                  "[nb.phase_direction] target sent END_RESP through nb_transport_bw: only the "
                  "initiator sends it (read of 4 bytes at 0x10)"),
              std::string::npos)
        << checkers[2]->violations()[0].message;
  });
}

TEST(CheckerAt, AViolationOnTheBackwardPathStopsTheRun) {
  run_isolated([] {
    ScriptedTarget target("target");
    tlm::tlm_generic_payload* pending = nullptr;
    sc_core::sc_event respond;
    target.on_nb_transport_fw = [&](tlm::tlm_generic_payload& tx, tlm::tlm_phase& p, sc_time&) {
      if (p != tlm::BEGIN_REQ) return tlm::TLM_COMPLETED;
      pending = &tx;
      respond.notify(ns(10));
      p = tlm::END_REQ;
      return tlm::TLM_UPDATED;
    };
    // The response goes out from a method process (like a PEQ callback), with the status never
    // set. Under AddressSanitizer an exception thrown from a method after coroutine switches
    // trips a known false positive of the sanitizer (google/sanitizers#189), so that build uses
    // a thread process for the same response.
#if defined(__SANITIZE_ADDRESS__)
    sc_core::sc_spawn(
        [&] {
          sc_core::wait(respond);
          target.send_bw(*pending, tlm::BEGIN_RESP);
        },
        "responder");
#else
    sc_core::sc_spawn_options responder;
    responder.spawn_method();
    responder.dont_initialize();
    responder.set_sensitivity(&respond);
    sc_core::sc_spawn([&] { target.send_bw(*pending, tlm::BEGIN_RESP); }, "responder", &responder);
#endif
    PayloadPool pool;
    unsigned char buf[4] = {};
    ScriptedInitiator init("init", [&](ScriptedInitiator& self) {
      sc_core::wait(ns(5));
      tlm::tlm_generic_payload& tx = pool.get();
      prepare(tx, tlm::TLM_READ_COMMAND, 0x44, buf, 4);
      tlm::tlm_phase p = tlm::BEGIN_REQ;
      sc_time d = SC_ZERO_TIME;
      self.out->nb_transport_fw(tx, p, d);
    });
    ProtocolChecker<> checker("checker", "lsu.out", "dram.in");
    checker.connect(init.out, target.in);
    try {
      sc_core::sc_start(ns(100));
      ADD_FAILURE() << "sc_start returned normally";
    } catch (const sc_core::sc_report& r) {
      EXPECT_STREQ(r.get_msg(),
                   "protocol violation between lsu.out and dram.in: [gp.response_status] target "
                   "sent BEGIN_RESP through nb_transport_bw with TLM_INCOMPLETE_RESPONSE (read of "
                   "4 bytes at 0x44) (rule: a target must set the response status; IEEE "
                   "1666-2011 14.17) at 15 ns");
    }
    EXPECT_TRUE(init.bw_phases.empty());  // stopped before the initiator saw the response
  });
}

}  // namespace
}  // namespace par::tlmcheck
