// ProtocolChecker in a simulation, loosely timed: a correct target behind the checker gives the
// same timing and data as without it; deliberately broken targets and initiators are caught with
// the right rule; DMI and debug transport are checked and forwarded both ways; the default mode
// stops sc_start with the violation as an sc_report.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "support/sc_isolation.hpp"
#include "support/tlm_harness.hpp"
#include "memory.hpp"
#include "par/tlmcheck/protocol_checker.hpp"
#include "tlm_check_test_support.hpp"

namespace par::tlmcheck {
namespace {

using par::testing::run_isolated;
using par::testing::TlmHarness;
using sc_core::SC_NS;
using sc_core::sc_time;
using sc_core::SC_ZERO_TIME;
using testing::prepare;
using testing::recording;
using testing::ScriptedInitiator;
using testing::ScriptedTarget;
using testing::ns;

// The same script on two harnesses. Issue times differ by at least 1 ns: SystemC runs processes
// woken at the same time in no specified order, which would make the two runs differ without
// the checker.
void script(TlmHarness& h) {
  h.at(ns(10)).write(0x100, {1, 2, 3, 4, 5, 6, 7, 8});
  h.at(ns(11)).write(0x108, {9, 10, 11, 12});  // queues behind the first (bandwidth)
  h.then().read(0x100, 12);
  h.at(ns(50)).read(0x104, 4);
  h.at(ns(51)).read(0x0, 64);
  h.at(ns(60)).write(0x200, std::vector<std::uint8_t>(32, 0xab));
  h.then().read(0x1f8, 48);
  h.at(ns(200)).read(0x100000, 4);  // beyond the memory: address error
}

TEST(CheckerLt, CorrectTargetGivesIdenticalTimingAndDataAndNoViolation) {
  run_isolated([] {
    memory::MemoryConfig mc;
    mc.size = 4096;
    mc.latency_ns = 7;
    mc.bytes_per_ns = 2;
    TlmHarness direct("direct"), checked("checked");
    memory::Memory mem_direct("mem_direct", mc), mem_checked("mem_checked", mc);
    ProtocolChecker<> checker("checker", "checked.out", "mem_checked.in");
    direct.out.bind(mem_direct.in);
    checker.connect(checked.out, mem_checked.in);
    script(direct);
    script(checked);
    direct.run();  // one sc_start runs both

    ASSERT_EQ(direct.size(), checked.size());
    for (std::size_t i = 0; i < direct.size(); ++i) {
      const auto& a = direct.result(i);
      const auto& b = checked.result(i);
      EXPECT_EQ(b.status, a.status) << i;
      EXPECT_EQ(b.issued, a.issued) << i;
      EXPECT_EQ(b.latency, a.latency) << i;
      EXPECT_EQ(b.read_data, a.read_data) << i;
    }
    // The script exercised queueing, data and an error response.
    EXPECT_EQ(direct.result(0).latency, ns(11));  // 8 bytes at 2 bytes/ns + 7 ns
    EXPECT_EQ(direct.result(1).latency, ns(12));  // 3 ns behind the first, 2 ns, 7 ns
    EXPECT_EQ(checked.result(2).read_data,
              (std::vector<std::uint8_t>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}));
    EXPECT_EQ(checked.result(7).status, tlm::TLM_ADDRESS_ERROR_RESPONSE);
    EXPECT_NO_VIOLATIONS(checker.violations());
    EXPECT_EQ(checker.violation_count(), 0u);
    EXPECT_EQ(static_cast<const simkit::Counter*>(checker.stats().find("b_transport"))->value(),
              8u);
    EXPECT_EQ(checker.monitor().in_flight(), 0u);
    EXPECT_EQ(checker.stats().name(), "checker");
  });
}

// A harness -> checker -> target chain whose target breaks one rule.
struct BrokenTargetCase {
  const char* name;
  std::function<void(tlm::tlm_generic_payload&, sc_time&)> target;
  std::vector<Rule> rules;
};

TEST(CheckerLt, BrokenTargetsAreCaughtWithTheRightRule) {
  run_isolated([] {
    const std::vector<BrokenTargetCase> cases = {
        {"leaves_incomplete",
         [](tlm::tlm_generic_payload&, sc_time& d) { d += ns(10); },
         {Rule::ResponseStatus}},
        {"modifies_address",
         [](tlm::tlm_generic_payload& tx, sc_time& d) {
           tx.set_response_status(tlm::TLM_OK_RESPONSE);
           tx.set_address(tx.get_address() + 4);
           d += ns(10);
         },
         {Rule::AddressModified}},
        {"modifies_length",
         [](tlm::tlm_generic_payload& tx, sc_time& d) {
           tx.set_response_status(tlm::TLM_OK_RESPONSE);
           tx.set_data_length(2);
           d += ns(10);
         },
         {Rule::DataLengthModified}},
        {"wrapped_delay",  // "delay -= 20 ns" on a 0 ns annotation
         [](tlm::tlm_generic_payload& tx, sc_time& d) {
           tx.set_response_status(tlm::TLM_OK_RESPONSE);
           d -= ns(20);
         },
         {Rule::NegativeDelay}},
        {"waits",  // allowed: waits 30 ns inside b_transport and returns a zero delay
         [](tlm::tlm_generic_payload& tx, sc_time& d) {
           tx.set_response_status(tlm::TLM_OK_RESPONSE);
           sc_core::wait(ns(30));
           d = SC_ZERO_TIME;
         },
         {}},
    };
    std::vector<std::unique_ptr<TlmHarness>> harnesses;
    std::vector<std::unique_ptr<ScriptedTarget>> targets;
    std::vector<std::unique_ptr<ProtocolChecker<>>> checkers;
    for (const auto& c : cases) {
      const std::string n = c.name;
      harnesses.push_back(std::make_unique<TlmHarness>(("h_" + n).c_str()));
      targets.push_back(std::make_unique<ScriptedTarget>(("t_" + n).c_str()));
      targets.back()->on_b_transport = c.target;
      checkers.push_back(std::make_unique<ProtocolChecker<>>(("c_" + n).c_str(), "h_" + n + ".out",
                                                             "t_" + n + ".in", recording()));
      checkers.back()->connect(harnesses.back()->out, targets.back()->in);
      harnesses.back()->at(ns(10)).read(0x40, 8);
    }
    sc_core::sc_start(ns(1000));
    for (std::size_t i = 0; i < cases.size(); ++i) {
      EXPECT_EQ(testing::names_of(testing::rules_of(checkers[i]->violations())),
                testing::names_of(cases[i].rules))
          << cases[i].name;
      for (const Violation& v : checkers[i]->violations()) {
        const std::string both = std::string("protocol violation between h_") + cases[i].name +
                                 ".out and t_" + cases[i].name + ".in: [";
        EXPECT_EQ(v.message.rfind(both, 0), 0u) << v.message;
        EXPECT_EQ(v.time, ns(10)) << v.message;
      }
    }
    // In record mode the checker changes nothing: the broken status reaches the initiator.
    EXPECT_EQ(harnesses[0]->result(0).status, tlm::TLM_INCOMPLETE_RESPONSE);
    EXPECT_EQ(harnesses[4]->result(0).latency, ns(30));
    EXPECT_NE(checkers[3]->violations()[0].message.find(
                  "the delay returned by the target from b_transport is "),
              std::string::npos);
  });
}

TEST(CheckerLt, TargetReturningAnEarlierTimeThanTheCall) {
  run_isolated([] {
    ScriptedTarget target("target");
    target.on_b_transport = [](tlm::tlm_generic_payload& tx, sc_time& d) {
      tx.set_response_status(tlm::TLM_OK_RESPONSE);
      d = ns(5);  // the initiator annotated 20 ns
    };
    ScriptedInitiator init("init", [](ScriptedInitiator& self) {
      sc_core::wait(ns(10));
      unsigned char buf[4] = {};
      const auto r = self.b(tlm::TLM_READ_COMMAND, 0x10, buf, 4, ns(20));
      EXPECT_EQ(r.delay, ns(5));
    });
    ProtocolChecker<> checker("checker", "init.out", "target.in", recording());
    checker.connect(init.out, target.in);
    sc_core::sc_start(ns(100));
    EXPECT_RULES(checker.violations(), Rule::BlockingTimeOrder);
  });
}

// A target that holds the call for the work the access starts (5 us) breaks the platform's rule;
// one that waits for its own access (200 ns) does not.
TEST(CheckerLt, ATargetWaitingLongerThanItsAccessIsCaught) {
  run_isolated([] {
    ScriptedTarget target("target");
    target.on_b_transport = [](tlm::tlm_generic_payload& tx, sc_time& d) {
      sc_core::wait(d + (tx.get_address() == 0x10 ? ns(200) : ns(5000)));
      d = SC_ZERO_TIME;
      tx.set_response_status(tlm::TLM_OK_RESPONSE);
    };
    ScriptedInitiator init("init", [](ScriptedInitiator& self) {
      unsigned char buf[8] = {};
      self.b(tlm::TLM_READ_COMMAND, 0x10, buf, 8, ns(20));
      self.b(tlm::TLM_WRITE_COMMAND, 0x20, buf, 8, SC_ZERO_TIME);
    });
    ProtocolChecker<> checker("checker", "init.out", "target.in", recording());
    checker.connect(init.out, target.in);
    sc_core::sc_start(ns(10000));
    EXPECT_RULES(checker.violations(), Rule::BlockingWait);
    EXPECT_NE(checker.violations()[0].message.find("b_transport of a write of 8 bytes at 0x20 waited 5 us inside "
                                                   "the call (from 220 ns to 5220 ns)"),
              std::string::npos)
        << checker.violations()[0].message;
  });
}

TEST(CheckerLt, BrokenInitiatorsAreCaughtAndStillForwarded) {
  run_isolated([] {
    ScriptedTarget target("target");
    int calls = 0;
    target.on_b_transport = [&](tlm::tlm_generic_payload& tx, sc_time&) {
      ++calls;
      tx.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
    };
    ScriptedInitiator init("init", [](ScriptedInitiator& self) {
      unsigned char buf[4] = {};
      self.b(tlm::TLM_WRITE_COMMAND, 0x10, buf, 0);     // data length 0
      self.b(tlm::TLM_READ_COMMAND, 0x10, nullptr, 4);  // null data pointer
      tlm::tlm_generic_payload tx;                      // attributes left at their defaults:
      tx.set_data_ptr(buf);                             // streaming width 0
      tx.set_data_length(4);
      sc_time d = SC_ZERO_TIME;
      self.out->b_transport(tx, d);
    });
    ProtocolChecker<> checker("checker", "init.out", "target.in", recording());
    checker.connect(init.out, target.in);
    sc_core::sc_start(ns(100));
    EXPECT_RULES(checker.violations(), Rule::DataLength, Rule::StreamingWidth, Rule::DataPointer,
                 Rule::StreamingWidth);
    EXPECT_EQ(calls, 3);
  });
}

// An initiator that calls b_transport from a method process.
struct MethodInitiator : sc_core::sc_module {
  tlm::tlm_initiator_socket<32> out;
  struct Bw : tlm::tlm_bw_transport_if<> {
    tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload&, tlm::tlm_phase&,
                                       sc_time&) override {
      return tlm::TLM_ACCEPTED;
    }
    void invalidate_direct_mem_ptr(sc_dt::uint64, sc_dt::uint64) override {}
  } bw;
  explicit MethodInitiator(sc_core::sc_module_name n) : sc_module(n), out("out") {
    out.bind(bw);
    SC_HAS_PROCESS(MethodInitiator);
    SC_METHOD(access);
  }
  void access() {
    unsigned char buf[4] = {};
    tlm::tlm_generic_payload tx;
    prepare(tx, tlm::TLM_READ_COMMAND, 0x0, buf, 4);
    sc_time d = SC_ZERO_TIME;
    out->b_transport(tx, d);
  }
};

TEST(CheckerLt, BlockingTransportFromAMethodProcess) {
  run_isolated([] {
    ScriptedTarget target("target");
    MethodInitiator init("init");
    ProtocolChecker<> checker("checker", "init.out", "target.in", recording());
    checker.connect(init.out, target.in);
    sc_core::sc_start(ns(10));
    EXPECT_RULES(checker.violations(), Rule::BlockingFromMethod);
  });
}

TEST(CheckerLt, DmiIsForwardedBothWaysAndChecked) {
  run_isolated([] {
    ScriptedTarget target("target");
    target.on_dmi = [&target](tlm::tlm_generic_payload& tx, tlm::tlm_dmi& dmi) {
      dmi.set_dmi_ptr(target.memory.data());
      dmi.set_granted_access(tlm::tlm_dmi::DMI_ACCESS_READ_WRITE);
      dmi.set_read_latency(ns(1));
      if (tx.get_address() < 0x100) {
        dmi.set_start_address(0);
        dmi.set_end_address(0xff);
      } else {
        dmi.set_start_address(0);  // broken: does not contain 0x100
        dmi.set_end_address(0x7f);
      }
      return true;
    };
    std::vector<tlm::tlm_dmi> got;
    ScriptedInitiator init("init", [&](ScriptedInitiator& self) {
      for (std::uint64_t address : {0x40, 0x100}) {
        tlm::tlm_generic_payload tx;
        unsigned char buf[4] = {};
        prepare(tx, tlm::TLM_READ_COMMAND, address, buf, 4);
        tlm::tlm_dmi dmi;
        EXPECT_TRUE(self.out->get_direct_mem_ptr(tx, dmi));
        got.push_back(dmi);
      }
      sc_core::wait(ns(5));
      target.in->invalidate_direct_mem_ptr(0x0, 0xff);
      target.in->invalidate_direct_mem_ptr(0x80, 0x7f);  // broken range
    });
    ProtocolChecker<> checker("checker", "init.out", "target.in", recording());
    checker.connect(init.out, target.in);
    sc_core::sc_start(ns(100));
    ASSERT_EQ(got.size(), 2u);
    EXPECT_EQ(got[0].get_dmi_ptr(), target.memory.data());
    EXPECT_EQ(got[0].get_end_address(), 0xffu);
    EXPECT_EQ(got[0].get_read_latency(), ns(1));
    EXPECT_TRUE(got[0].is_read_write_allowed());
    EXPECT_EQ(init.invalidated,
              (std::vector<std::pair<std::uint64_t, std::uint64_t>>{{0x0, 0xff}, {0x80, 0x7f}}));
    EXPECT_RULES(checker.violations(), Rule::DmiRange, Rule::DmiInvalidateRange);
    const std::string& m = checker.violations()[0].message;
    EXPECT_EQ(m.rfind("protocol violation between init.out and target.in: [dmi.range] target "
                      "granted DMI for 0x100 with a region that does not contain it: [0x0, 0x7f] "
                      "read-write access, pointer 0x",
                      0),
              0u)
        << m;
    EXPECT_NE(m.find(", latencies 1 ns/0 s (rule: a DMI region must be well formed (start <= "
                     "end) and, when granted, contain the requested address; IEEE 1666-2011 "
                     "11.2.5) at 0 s"),
              std::string::npos)
        << m;
    EXPECT_EQ(checker.violations()[1].time, ns(5));
  });
}

TEST(CheckerLt, DebugTransportIsForwardedAndChecked) {
  run_isolated([] {
    ScriptedTarget target("target");
    target.memory[0x20] = 0x5a;
    target.on_debug = [&target](tlm::tlm_generic_payload& tx) -> unsigned {
      target.access(tx);
      if (tx.get_address() == 0x40) return tx.get_data_length() + 4;  // broken: too many
      if (tx.get_address() == 0x60) sc_core::wait(ns(1));             // broken: takes time
      return tx.get_data_length();
    };
    std::vector<unsigned> counts;
    unsigned char first = 0;
    ScriptedInitiator init("init", [&](ScriptedInitiator& self) {
      for (std::uint64_t address : {0x20, 0x40, 0x60}) {
        tlm::tlm_generic_payload tx;
        unsigned char buf[4] = {};
        prepare(tx, tlm::TLM_READ_COMMAND, address, buf, 4);
        counts.push_back(self.out->transport_dbg(tx));
        if (address == 0x20) first = buf[0];
      }
    });
    ProtocolChecker<> checker("checker", "init.out", "target.in", recording());
    checker.connect(init.out, target.in);
    sc_core::sc_start(ns(100));
    EXPECT_EQ(counts, (std::vector<unsigned>{4, 8, 4}));
    EXPECT_EQ(first, 0x5a);
    EXPECT_RULES(checker.violations(), Rule::DebugReturnCount, Rule::DebugWait);
    EXPECT_NE(checker.violations()[1].message.find("transport_dbg of a read of 4 bytes at 0x60 was "
                                                   "called at 0 s (delta "),
              std::string::npos)
        << checker.violations()[1].message;
  });
}

TEST(CheckerLt, AViolationStopsTheRunWithAnScReport) {
  run_isolated([] {
    ScriptedTarget target("target");
    int calls = 0;
    target.on_b_transport = [&](tlm::tlm_generic_payload& tx, sc_time& d) {
      ++calls;
      if (tx.get_address() != 0x20) tx.set_response_status(tlm::TLM_OK_RESPONSE);
      d += ns(3);
    };
    TlmHarness h("h");
    h.at(ns(10)).read(0x10, 4);
    h.at(ns(20)).read(0x20, 4);  // the target forgets the response status
    h.at(ns(30)).read(0x30, 4);  // never issued
    ProtocolChecker<> checker("checker", "core0.mem", "bus.in");  // default: stop
    checker.connect(h.out, target.in);
    try {
      sc_core::sc_start(ns(100));
      ADD_FAILURE() << "sc_start returned normally";
    } catch (const sc_core::sc_report& r) {
      EXPECT_STREQ(r.get_msg_type(), "parsys/protocol");
      EXPECT_EQ(r.get_severity(), sc_core::SC_ERROR);
      EXPECT_STREQ(r.get_msg(),
                   "protocol violation between core0.mem and bus.in: [gp.response_status] target "
                   "returned from b_transport with TLM_INCOMPLETE_RESPONSE (read of 4 bytes at "
                   "0x20) (rule: a target must set the response status; IEEE 1666-2011 14.17) at "
                   "20 ns");
    }
    EXPECT_EQ(sc_core::sc_time_stamp(), ns(20));
    EXPECT_EQ(calls, 2);
    EXPECT_RULES(checker.violations(), Rule::ResponseStatus);
  });
}

}  // namespace
}  // namespace par::tlmcheck
