// The rule engine called directly, the way ProtocolChecker calls it, without a simulation: each
// test plays one initiator/target exchange (including the deliberately broken ones) and checks
// the exact list of rules reported, and for some the exact message.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "support/sc_isolation.hpp"
#include "par/simkit/stats.hpp"
#include "par/tlmcheck/protocol_monitor.hpp"
#include "tlm_check_test_support.hpp"

namespace par::tlmcheck {
namespace {

using sc_core::SC_NS;
using sc_core::sc_time;
using sc_core::SC_ZERO_TIME;
using testing::PayloadPool;
using testing::prepare;
using testing::recording;
using testing::ns;
using tlm::tlm_generic_payload;
using tlm::tlm_phase;
using tlm::tlm_sync_enum;

// An extension type for the extension-leak rule.
struct TagExtension : tlm::tlm_extension<TagExtension> {
  tlm::tlm_extension_base* clone() const override { return new TagExtension(*this); }
  void copy_from(const tlm::tlm_extension_base&) override {}
};

class MonitorTest : public ::testing::Test {
 protected:
  explicit MonitorTest(const CheckerConfig& cfg = recording())
      : m(std::make_unique<ProtocolMonitor>("core0.mem", "bus.in", cfg, stats)) {
    prepare(tx, tlm::TLM_READ_COMMAND, 0x40, data, 8);
  }

  // One b_transport through the monitor: the initiator's `delay` at `now`; the target acts with
  // `target` (which may move the time stamp by returning a later `now`) and answers.
  sc_time b(const std::function<void(tlm_generic_payload&, sc_time&)>& target,
            sc_time delay = SC_ZERO_TIME, sc_time now = ns(100), sc_time now_after = ns(100),
            bool from_method = false) {
    const auto call = m->b_transport_call(tx, delay, now, from_method);
    target(tx, delay);
    m->b_transport_return(tx, delay, now_after, call);
    return delay;
  }
  static void ok_target(tlm_generic_payload& t, sc_time& d) {
    t.set_response_status(tlm::TLM_OK_RESPONSE);
    d += ns(10);
  }

  // One nb_transport_fw (or, with backward, nb_transport_bw) call through the monitor: `sent`
  // with `delay` at `now`; the callee returns `status` with phase `answer` (UNINITIALIZED_PHASE:
  // the phase unchanged) and delay `answer_delay` (negative default: unchanged).
  void nb(bool backward, tlm_generic_payload& t, tlm_phase sent, tlm_sync_enum status,
          tlm_phase answer = tlm::UNINITIALIZED_PHASE, sc_time now = ns(100),
          sc_time delay = SC_ZERO_TIME, const sc_time* answer_delay = nullptr) {
    tlm_phase phase = sent;
    sc_time d = delay;
    const auto call = backward ? m->nb_transport_bw_call(t, phase, d, now)
                               : m->nb_transport_fw_call(t, phase, d, now);
    if (static_cast<unsigned>(answer) != tlm::UNINITIALIZED_PHASE) phase = answer;
    if (answer_delay != nullptr) d = *answer_delay;
    if (backward) {
      m->nb_transport_bw_return(t, call, status, phase, d, now);
    } else {
      m->nb_transport_fw_return(t, call, status, phase, d, now);
    }
  }
  void fw(tlm_generic_payload& t, tlm_phase sent, tlm_sync_enum status,
          tlm_phase answer = tlm::UNINITIALIZED_PHASE, sc_time now = ns(100),
          sc_time delay = SC_ZERO_TIME) {
    nb(false, t, sent, status, answer, now, delay);
  }
  void bw(tlm_generic_payload& t, tlm_phase sent, tlm_sync_enum status,
          tlm_phase answer = tlm::UNINITIALIZED_PHASE, sc_time now = ns(100),
          sc_time delay = SC_ZERO_TIME) {
    nb(true, t, sent, status, answer, now, delay);
  }
  tlm_generic_payload& nb_request(std::uint64_t address = 0x80) {
    tlm_generic_payload& t = pool.get();
    prepare(t, tlm::TLM_READ_COMMAND, address, data, 8);
    return t;
  }
  std::uint64_t counter(const char* name) const {
    return static_cast<const simkit::Counter*>(stats.find(name))->value();
  }

  simkit::StatGroup stats{"check"};
  simkit::StatGroup other_stats{"other"};  // for a test's second monitor
  std::unique_ptr<ProtocolMonitor> m;
  unsigned char data[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  tlm_generic_payload tx;
  PayloadPool pool;
};

// --- b_transport ---------------------------------------------------------------------------------

TEST_F(MonitorTest, CorrectBlockingTransportPasses) {
  EXPECT_EQ(b(ok_target, ns(5)), ns(15));
  tx.set_command(tlm::TLM_WRITE_COMMAND);
  tx.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  b(ok_target);
  EXPECT_NO_VIOLATIONS(m->violations());
  EXPECT_EQ(m->violation_count(), 0u);
  EXPECT_EQ(counter("b_transport"), 2u);
  EXPECT_EQ(counter("violations"), 0u);
  EXPECT_EQ(m->in_flight(), 0u);
}

TEST_F(MonitorTest, IncompleteResponseIsReportedWithBothSocketsTheRuleAndTheTime) {
  b([](tlm_generic_payload&, sc_time&) {});
  ASSERT_EQ(m->violations().size(), 1u);
  const Violation& v = m->violations()[0];
  EXPECT_EQ(v.rule, Rule::ResponseStatus);
  EXPECT_EQ(v.time, ns(100));
  EXPECT_EQ(v.message,
            "protocol violation between core0.mem and bus.in: [gp.response_status] target "
            "returned from b_transport with TLM_INCOMPLETE_RESPONSE (read of 8 bytes at 0x40) "
            "(rule: a target must set the response status; IEEE 1666-2011 14.17) at 100 ns");
  EXPECT_EQ(counter("violations"), 1u);
}

TEST_F(MonitorTest, ResponseStatusOutsideTheEnumerationIsReported) {
  b([](tlm_generic_payload& t, sc_time&) {
    t.set_response_status(static_cast<tlm::tlm_response_status>(7));
  });
  EXPECT_RULES(m->violations(), Rule::ResponseStatus);
  EXPECT_NE(m->violations()[0].message.find("with response status 7, which is no "
                                            "tlm_response_status"),
            std::string::npos);
}

TEST_F(MonitorTest, BrokenInitiatorAttributesAreCaught) {
  struct Case {
    const char* what;
    std::function<void(tlm_generic_payload&)> breakit;
    std::vector<Rule> rules;
  };
  static unsigned char be[4] = {0xff, 0xff, 0xff, 0xff};
  const std::vector<Case> cases = {
      {"data length 0", [](tlm_generic_payload& t) { t.set_data_length(0); }, {Rule::DataLength}},
      {"null data pointer",
       [](tlm_generic_payload& t) { t.set_data_ptr(nullptr); },
       {Rule::DataPointer}},
      {"streaming width 0",
       [](tlm_generic_payload& t) { t.set_streaming_width(0); },
       {Rule::StreamingWidth}},
      {"byte enables of length 0",
       [](tlm_generic_payload& t) { t.set_byte_enable_ptr(be); },
       {Rule::ByteEnableLength}},
      {"dmi hint set",
       [](tlm_generic_payload& t) { t.set_dmi_allowed(true); },
       {Rule::DmiAllowedInit}},
      {"response preset",
       [](tlm_generic_payload& t) { t.set_response_status(tlm::TLM_OK_RESPONSE); },
       {Rule::ResponseStatusInit}},
      // 3 fits the enumeration's range (0..3), so storing it is defined behaviour.
      {"command 3",
       [](tlm_generic_payload& t) { t.set_command(static_cast<tlm::tlm_command>(3)); },
       {Rule::CommandValue}},
      {"ignore command without data (allowed)",
       [](tlm_generic_payload& t) {
         t.set_command(tlm::TLM_IGNORE_COMMAND);
         t.set_data_ptr(nullptr);
         t.set_data_length(0);
       },
       {}},
  };
  for (const Case& c : cases) {
    simkit::StatGroup g("g");
    ProtocolMonitor mon("core0.mem", "bus.in", recording(), g);
    unsigned char buf[8] = {};
    tlm_generic_payload t;
    prepare(t, tlm::TLM_READ_COMMAND, 0x40, buf, 8);
    c.breakit(t);
    sc_time d = SC_ZERO_TIME;
    const auto call = mon.b_transport_call(t, d, ns(1), false);
    t.set_response_status(tlm::TLM_OK_RESPONSE);
    mon.b_transport_return(t, d, ns(1), call);
    EXPECT_EQ(testing::names_of(testing::rules_of(mon.violations())), testing::names_of(c.rules))
        << c.what;
  }
}

TEST_F(MonitorTest, DataLengthZeroMessage) {
  tx.set_data_length(0);
  b(ok_target);
  ASSERT_EQ(m->violations().size(), 1u);
  EXPECT_EQ(m->violations()[0].message,
            "protocol violation between core0.mem and bus.in: [gp.data_length] initiator sent a "
            "read with data length 0 at 0x40 through b_transport (rule: a read or write must "
            "have a data length greater than 0; IEEE 1666-2011 14.12) at 100 ns");
}

TEST_F(MonitorTest, TargetModificationsAreCaught) {
  struct Case {
    const char* what;
    tlm::tlm_command command;
    std::function<void(tlm_generic_payload&)> modify;
    std::vector<Rule> rules;
  };
  static unsigned char other[8] = {};
  static unsigned char be[8] = {0xff, 0, 0xff, 0, 0xff, 0, 0xff, 0};
  static TagExtension tag;
  const std::vector<Case> cases = {
      {"address",
       tlm::TLM_READ_COMMAND,
       [](tlm_generic_payload& t) { t.set_address(0x44); },
       {Rule::AddressModified}},
      {"data length",
       tlm::TLM_READ_COMMAND,
       [](tlm_generic_payload& t) { t.set_data_length(4); },
       {Rule::DataLengthModified}},
      {"command",
       tlm::TLM_READ_COMMAND,
       [](tlm_generic_payload& t) { t.set_command(tlm::TLM_WRITE_COMMAND); },
       {Rule::CommandModified}},
      {"data pointer",
       tlm::TLM_READ_COMMAND,
       [](tlm_generic_payload& t) { t.set_data_ptr(other); },
       {Rule::DataPointerModified}},
      {"streaming width",
       tlm::TLM_READ_COMMAND,
       [](tlm_generic_payload& t) { t.set_streaming_width(4); },
       {Rule::StreamingWidthModified}},
      {"byte-enable length",
       tlm::TLM_READ_COMMAND,
       [](tlm_generic_payload& t) { t.set_byte_enable_length(4); },
       {Rule::ByteEnableModified}},
      {"byte-enable array",
       tlm::TLM_READ_COMMAND,
       [](tlm_generic_payload& t) { t.get_byte_enable_ptr()[1] = 0xff; },
       {Rule::ByteEnableModified}},
      {"write data",
       tlm::TLM_WRITE_COMMAND,
       [](tlm_generic_payload& t) { t.get_data_ptr()[7] ^= 1; },
       {Rule::WriteDataModified}},
      {"read data (allowed)",
       tlm::TLM_READ_COMMAND,
       [](tlm_generic_payload& t) { t.get_data_ptr()[7] ^= 1; },
       {}},
      {"dmi hint (allowed)",
       tlm::TLM_READ_COMMAND,
       [](tlm_generic_payload& t) { t.set_dmi_allowed(true); },
       {}},
      {"extension left behind",
       tlm::TLM_READ_COMMAND,
       [](tlm_generic_payload& t) { t.set_extension(&tag); },
       {Rule::ExtensionLeak}},
      {"extension removed again (allowed)",
       tlm::TLM_READ_COMMAND,
       [](tlm_generic_payload& t) {
         t.set_extension(&tag);
         t.clear_extension(&tag);
       },
       {}},
  };
  for (const Case& c : cases) {
    simkit::StatGroup g("g");
    ProtocolMonitor mon("core0.mem", "bus.in", recording(), g);
    unsigned char buf[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    unsigned char enables[8];
    std::memcpy(enables, be, 8);
    tlm_generic_payload t;
    prepare(t, c.command, 0x40, buf, 8);
    t.set_byte_enable_ptr(enables);
    t.set_byte_enable_length(8);
    sc_time d = SC_ZERO_TIME;
    const auto call = mon.b_transport_call(t, d, ns(1), false);
    c.modify(t);
    t.set_response_status(tlm::TLM_OK_RESPONSE);
    mon.b_transport_return(t, d, ns(1), call);
    EXPECT_EQ(testing::names_of(testing::rules_of(mon.violations())), testing::names_of(c.rules))
        << c.what;
    t.clear_extension(&tag);
  }
}

TEST_F(MonitorTest, AddressChangeMessageAndOption) {
  b([](tlm_generic_payload& t, sc_time& d) {
    ok_target(t, d);
    t.set_address(0x1040);
  });
  ASSERT_EQ(m->violations().size(), 1u);
  EXPECT_EQ(m->violations()[0].message,
            "protocol violation between core0.mem and bus.in: [gp.address_modified] the address "
            "of a read of 8 bytes at 0x40 changed from 0x40 to 0x1040 during b_transport (rule: a "
            "target must not modify the address; an interconnect that translates it must restore "
            "it before it returns; IEEE 1666-2011 14.7, 14.10) at 100 ns");

  CheckerConfig lenient = recording();
  lenient.address_restored = false;
  m = std::make_unique<ProtocolMonitor>("bus.out", "dram.in", lenient, other_stats);
  prepare(tx, tlm::TLM_READ_COMMAND, 0x40, data, 8);
  b([](tlm_generic_payload& t, sc_time& d) {
    ok_target(t, d);
    t.set_address(0x1040);
  });
  EXPECT_NO_VIOLATIONS(m->violations());
}

// --- timing --------------------------------------------------------------------------------------

TEST_F(MonitorTest, HugeInitiatorDelayIsANegativeDelay) {
  b(ok_target, sc_time(2, sc_core::SC_SEC));
  EXPECT_RULES(m->violations(), Rule::NegativeDelay);
  EXPECT_EQ(m->violations()[0].message,
            "protocol violation between core0.mem and bus.in: [timing.negative_delay] the delay "
            "annotated by the initiator on b_transport is 2 s, above the bound of 1 s "
            "(protocol_check.max_delay_ns): a negative delay that wrapped around? (rule: a timing "
            "annotation must never be negative (sc_time is unsigned: a negative delay wraps to a "
            "huge one); IEEE 1666-2011 11.1.3) at 100 ns");
}

TEST_F(MonitorTest, WrappedTargetDelayIsANegativeDelay) {
  // The target "subtracts" 20 ns from a 10 ns annotation: sc_time wraps around.
  b(
      [](tlm_generic_payload& t, sc_time& d) {
        t.set_response_status(tlm::TLM_OK_RESPONSE);
        d -= ns(20);
      },
      ns(10));
  EXPECT_RULES(m->violations(), Rule::NegativeDelay);
}

TEST_F(MonitorTest, DelayBoundIsConfigurable) {
  CheckerConfig c = recording();
  c.max_delay_ns = 50;
  m = std::make_unique<ProtocolMonitor>("core0.mem", "bus.in", c, other_stats);
  b(ok_target, ns(40));  // returns 50 ns: at the bound
  EXPECT_NO_VIOLATIONS(m->violations());
  tx.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  b(ok_target, ns(41));
  EXPECT_RULES(m->violations(), Rule::NegativeDelay);
}

TEST_F(MonitorTest, BlockingTransportMustNotGoBackInTime) {
  // Called at 100 ns + 30 ns; the target returns 100 ns + 5 ns.
  b(
      [](tlm_generic_payload& t, sc_time& d) {
        t.set_response_status(tlm::TLM_OK_RESPONSE);
        d = ns(5);
      },
      ns(30));
  EXPECT_RULES(m->violations(), Rule::BlockingTimeOrder);
  EXPECT_NE(m->violations()[0].message.find("was called for 130 ns (sc_time_stamp() + delay) and "
                                            "returned 105 ns (100 ns + 5 ns)"),
            std::string::npos)
      << m->violations()[0].message;
  // A target that waits and returns a zero delay is fine: 140 ns + 0 >= 130 ns.
  tx.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  b(
      [](tlm_generic_payload& t, sc_time& d) {
        t.set_response_status(tlm::TLM_OK_RESPONSE);
        d = SC_ZERO_TIME;
      },
      ns(30), ns(100), ns(140));
  EXPECT_EQ(m->violations().size(), 1u);
}

// The platform's rule: a target may wait inside b_transport for the access it models, not longer
// than protocol_check.max_b_transport_wait_ns (1000 ns by default).
TEST_F(MonitorTest, ATargetThatWaitsLongerThanTheBoundIsReported) {
  const auto waits = [this](sc_time after) {
    tx.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    b(
        [](tlm_generic_payload& t, sc_time& d) {
          t.set_response_status(tlm::TLM_OK_RESPONSE);
          d = SC_ZERO_TIME;
        },
        ns(20), ns(100), after);
  };
  waits(ns(1100));  // exactly the bound
  EXPECT_NO_VIOLATIONS(m->violations());
  waits(ns(1100.001));
  EXPECT_RULES(m->violations(), Rule::BlockingWait);
  EXPECT_EQ(m->violations()[0].message,
            "protocol violation between core0.mem and bus.in: [timing.b_transport_wait] b_transport of a read "
            "of 8 bytes at 0x40 waited 1000001 ps inside the call (from 100 ns to 1100001 ps), longer than "
            "protocol_check.max_b_transport_wait_ns = 1 us (rule: b_transport must not wait longer than the "
            "access it models (bound: protocol_check.max_b_transport_wait_ns); long work is started by a write "
            "that returns and signals its end; the platform's rule, docs/architecture.md) at 1100001 ps");
}

TEST_F(MonitorTest, TheWaitBoundIsConfigurableAndZeroTurnsItOff) {
  CheckerConfig c = recording();
  c.max_b_transport_wait_ns = 50;
  m = std::make_unique<ProtocolMonitor>("core0.mem", "bus.in", c, other_stats);
  b(ok_target, SC_ZERO_TIME, ns(100), ns(151));
  EXPECT_RULES(m->violations(), Rule::BlockingWait);
  c.max_b_transport_wait_ns = 0;
  simkit::StatGroup third{"third"};
  m = std::make_unique<ProtocolMonitor>("core0.mem", "bus.in", c, third);
  tx.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  b(ok_target, SC_ZERO_TIME, ns(100), ns(1e9));
  EXPECT_NO_VIOLATIONS(m->violations());
  c.max_b_transport_wait_ns = -1;
  EXPECT_EQ(c.validate(), std::vector<std::string>{"protocol_check.max_b_transport_wait_ns: -1 is out of range 0..1e+15"});
}

TEST_F(MonitorTest, BlockingTransportFromAMethodProcess) {
  b(ok_target, SC_ZERO_TIME, ns(100), ns(100), true);
  EXPECT_RULES(m->violations(), Rule::BlockingFromMethod);
}

// --- transactions in flight
// ------------------------------------------------------------------------

TEST_F(MonitorTest, SamePayloadTwiceInBlockingTransport) {
  sc_time d1 = SC_ZERO_TIME, d2 = SC_ZERO_TIME;
  const auto outer = m->b_transport_call(tx, d1, ns(1), false);
  const auto inner = m->b_transport_call(tx, d2, ns(1), false);
  tx.set_response_status(tlm::TLM_OK_RESPONSE);
  m->b_transport_return(tx, d2, ns(1), inner);
  m->b_transport_return(tx, d1, ns(1), outer);
  EXPECT_RULES(m->violations(), Rule::InFlightReuse);
  EXPECT_EQ(m->in_flight(), 0u);
}

TEST_F(MonitorTest, BlockingAndNonBlockingMustNotMix) {
  tlm_generic_payload& t = nb_request();
  fw(t, tlm::BEGIN_REQ, tlm::TLM_ACCEPTED);
  sc_time d = SC_ZERO_TIME;
  const auto call = m->b_transport_call(t, d, ns(100), false);
  t.set_response_status(tlm::TLM_OK_RESPONSE);
  m->b_transport_return(t, d, ns(100), call);
  EXPECT_RULES(m->violations(), Rule::MixedInterfaces);

  tlm_generic_payload& u = nb_request();
  const auto outer = m->b_transport_call(u, d, ns(100), false);
  fw(u, tlm::BEGIN_REQ, tlm::TLM_ACCEPTED);
  EXPECT_RULES(m->violations(), Rule::MixedInterfaces, Rule::MixedInterfaces,
               Rule::RequestExclusion);
  (void)outer;
}

// --- nb_transport
// ----------------------------------------------------------------------------------

TEST_F(MonitorTest, EveryCorrectPhasePathPasses) {
  // a) all four phases as calls
  tlm_generic_payload& a = nb_request(0x0);
  fw(a, tlm::BEGIN_REQ, tlm::TLM_ACCEPTED);
  bw(a, tlm::END_REQ, tlm::TLM_ACCEPTED, tlm::UNINITIALIZED_PHASE, ns(110));
  a.set_response_status(tlm::TLM_OK_RESPONSE);
  bw(a, tlm::BEGIN_RESP, tlm::TLM_ACCEPTED, tlm::UNINITIALIZED_PHASE, ns(120));
  fw(a, tlm::END_RESP, tlm::TLM_COMPLETED, tlm::UNINITIALIZED_PHASE, ns(130));
  // b) END_REQ and END_RESP on the return path
  tlm_generic_payload& b2 = nb_request(0x100);
  fw(b2, tlm::BEGIN_REQ, tlm::TLM_UPDATED, tlm::END_REQ, ns(130));
  b2.set_response_status(tlm::TLM_OK_RESPONSE);
  bw(b2, tlm::BEGIN_RESP, tlm::TLM_UPDATED, tlm::END_RESP, ns(140));
  // c) BEGIN_RESP on the return path (implies END_REQ)
  tlm_generic_payload& c = nb_request(0x200);
  c.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  {
    tlm_phase p = tlm::BEGIN_REQ;
    sc_time d = SC_ZERO_TIME;
    const auto call = m->nb_transport_fw_call(c, p, d, ns(150));
    c.set_response_status(tlm::TLM_OK_RESPONSE);
    p = tlm::BEGIN_RESP;
    d = ns(10);
    m->nb_transport_fw_return(c, call, tlm::TLM_UPDATED, p, d, ns(150));
  }
  fw(c, tlm::END_RESP, tlm::TLM_COMPLETED, tlm::UNINITIALIZED_PHASE, ns(160));
  // d) completed in one call
  tlm_generic_payload& d = nb_request(0x300);
  {
    tlm_phase p = tlm::BEGIN_REQ;
    sc_time dl = SC_ZERO_TIME;
    const auto call = m->nb_transport_fw_call(d, p, dl, ns(170));
    d.set_response_status(tlm::TLM_OK_RESPONSE);
    dl = ns(10);
    m->nb_transport_fw_return(d, call, tlm::TLM_COMPLETED, p, dl, ns(170));
  }
  // e) pipelined: two requests (the second after END_REQ of the first), responses in order,
  // the initiator completes on BEGIN_RESP.
  tlm_generic_payload& e1 = nb_request(0x400);
  tlm_generic_payload& e2 = nb_request(0x500);
  fw(e1, tlm::BEGIN_REQ, tlm::TLM_UPDATED, tlm::END_REQ, ns(180));
  fw(e2, tlm::BEGIN_REQ, tlm::TLM_ACCEPTED, tlm::UNINITIALIZED_PHASE, ns(181));
  e1.set_response_status(tlm::TLM_OK_RESPONSE);
  bw(e1, tlm::BEGIN_RESP, tlm::TLM_COMPLETED, tlm::UNINITIALIZED_PHASE, ns(190));
  e2.set_response_status(tlm::TLM_OK_RESPONSE);
  bw(e2, tlm::BEGIN_RESP, tlm::TLM_COMPLETED, tlm::UNINITIALIZED_PHASE, ns(191));

  EXPECT_NO_VIOLATIONS(m->violations());
  EXPECT_EQ(m->in_flight(), 0u);
  EXPECT_EQ(counter("nb_transactions"), 6u);
  EXPECT_EQ(counter("nb_transport_fw"), 8u);
  EXPECT_EQ(counter("nb_transport_bw"), 5u);
}

TEST_F(MonitorTest, BeginRespBeforeBeginReq) {
  tlm_generic_payload& t = nb_request();
  t.set_response_status(tlm::TLM_OK_RESPONSE);
  bw(t, tlm::BEGIN_RESP, tlm::TLM_COMPLETED);
  EXPECT_RULES(m->violations(), Rule::PhaseSequence);
  EXPECT_NE(m->violations()[0].message.find(
                "target sent BEGIN_RESP through nb_transport_bw for a transaction in phase "
                "UNINITIALIZED_PHASE on this binding, not BEGIN_REQ or END_REQ"),
            std::string::npos)
      << m->violations()[0].message;
}

TEST_F(MonitorTest, TwoBeginReqWithoutEndReq) {
  tlm_generic_payload& t1 = nb_request(0x80);
  tlm_generic_payload& t2 = nb_request(0xc0);
  fw(t1, tlm::BEGIN_REQ, tlm::TLM_ACCEPTED);
  fw(t2, tlm::BEGIN_REQ, tlm::TLM_ACCEPTED);
  EXPECT_RULES(m->violations(), Rule::RequestExclusion);
  EXPECT_NE(m->violations()[0].message.find(
                "initiator sent BEGIN_REQ for a read of 8 bytes at 0xc0 while the request of a "
                "read of 8 bytes at 0x80 is still in the request phase (no END_REQ or BEGIN_RESP "
                "yet)"),
            std::string::npos)
      << m->violations()[0].message;
}

TEST_F(MonitorTest, EndRespFromTheTargetAndEndReqFromTheInitiator) {
  tlm_generic_payload& t = nb_request();
  fw(t, tlm::BEGIN_REQ, tlm::TLM_UPDATED, tlm::BEGIN_RESP);  // status still incomplete
  bw(t, tlm::END_RESP, tlm::TLM_ACCEPTED);
  fw(t, tlm::END_REQ, tlm::TLM_ACCEPTED);
  EXPECT_RULES(m->violations(), Rule::ResponseStatus, Rule::PhaseDirection, Rule::PhaseDirection);
  EXPECT_NE(m->violations()[1].message.find("target sent END_RESP through nb_transport_bw: only "
                                            "the initiator sends it"),
            std::string::npos);
}

TEST_F(MonitorTest, NonBlockingPayloadWithoutMemoryManager) {
  prepare(tx, tlm::TLM_READ_COMMAND, 0x40, data, 8);
  fw(tx, tlm::BEGIN_REQ, tlm::TLM_UPDATED, tlm::END_REQ);
  EXPECT_RULES(m->violations(), Rule::MemoryManager);
}

TEST_F(MonitorTest, ReferenceCountZero) {
  tlm_generic_payload& t = nb_request();
  t.release();  // the pool's free() only counts
  fw(t, tlm::BEGIN_REQ, tlm::TLM_UPDATED, tlm::END_REQ);
  EXPECT_RULES(m->violations(), Rule::RefCount);
}

TEST_F(MonitorTest, PhasesOutsideTheBaseProtocol) {
  DECLARE_EXTENDED_PHASE(INTERNAL_PHASE);
  tlm_generic_payload& t = nb_request();
  fw(t, tlm::UNINITIALIZED_PHASE, tlm::TLM_ACCEPTED);
  fw(t, INTERNAL_PHASE, tlm::TLM_ACCEPTED);
  EXPECT_RULES(m->violations(), Rule::UnknownPhase, Rule::UnknownPhase);
  EXPECT_NE(m->violations()[1].message.find("initiator sent extended phase INTERNAL_PHASE"),
            std::string::npos)
      << m->violations()[1].message;
}

TEST_F(MonitorTest, OneResponseInTheResponsePhase) {
  tlm_generic_payload& t1 = nb_request(0x80);
  tlm_generic_payload& t2 = nb_request(0xc0);
  fw(t1, tlm::BEGIN_REQ, tlm::TLM_UPDATED, tlm::END_REQ);
  fw(t2, tlm::BEGIN_REQ, tlm::TLM_UPDATED, tlm::END_REQ);
  t1.set_response_status(tlm::TLM_OK_RESPONSE);
  t2.set_response_status(tlm::TLM_OK_RESPONSE);
  bw(t1, tlm::BEGIN_RESP, tlm::TLM_ACCEPTED);  // END_RESP still to come
  bw(t2, tlm::BEGIN_RESP, tlm::TLM_ACCEPTED);
  EXPECT_RULES(m->violations(), Rule::ResponseExclusion);
}

TEST_F(MonitorTest, ResponseStatusAtBeginRespAndOnEarlyCompletion) {
  tlm_generic_payload& t1 = nb_request(0x80);
  fw(t1, tlm::BEGIN_REQ, tlm::TLM_UPDATED, tlm::END_REQ);
  bw(t1, tlm::BEGIN_RESP, tlm::TLM_COMPLETED);
  tlm_generic_payload& t2 = nb_request(0xc0);
  fw(t2, tlm::BEGIN_REQ, tlm::TLM_COMPLETED);
  EXPECT_RULES(m->violations(), Rule::ResponseStatus, Rule::ResponseStatus);
  EXPECT_NE(m->violations()[0].message.find("target sent BEGIN_RESP through nb_transport_bw with "
                                            "TLM_INCOMPLETE_RESPONSE"),
            std::string::npos);
  EXPECT_NE(m->violations()[1].message.find("target returned TLM_COMPLETED to BEGIN_REQ with "
                                            "TLM_INCOMPLETE_RESPONSE"),
            std::string::npos);
  EXPECT_EQ(m->in_flight(), 0u);
}

TEST_F(MonitorTest, AcceptedMustLeavePhaseAndDelayAlone) {
  tlm_generic_payload& t = nb_request();
  fw(t, tlm::BEGIN_REQ, tlm::TLM_ACCEPTED, tlm::END_REQ);
  tlm_generic_payload& u = nb_request(0xc0);
  const sc_time later = ns(5);
  nb(false, u, tlm::BEGIN_REQ, tlm::TLM_ACCEPTED, tlm::UNINITIALIZED_PHASE, ns(100), SC_ZERO_TIME,
     &later);
  EXPECT_RULES(m->violations(), Rule::AcceptedModified, Rule::RequestExclusion,
               Rule::AcceptedModified);
}

TEST_F(MonitorTest, UpdatedWithoutANewPhase) {
  tlm_generic_payload& t = nb_request();
  fw(t, tlm::BEGIN_REQ, tlm::TLM_UPDATED);
  EXPECT_RULES(m->violations(), Rule::PhaseSequence);
}

TEST_F(MonitorTest, PhasesMustNotGoBackInTime) {
  tlm_generic_payload& t = nb_request();
  fw(t, tlm::BEGIN_REQ, tlm::TLM_ACCEPTED, tlm::UNINITIALIZED_PHASE, ns(100), ns(50));
  bw(t, tlm::END_REQ, tlm::TLM_ACCEPTED, tlm::UNINITIALIZED_PHASE, ns(120));
  EXPECT_RULES(m->violations(), Rule::NbTimeOrder);
  EXPECT_NE(m->violations()[0].message.find("END_REQ of a read of 8 bytes at 0x80 takes effect at "
                                            "120 ns (sc_time_stamp() + delay), before the "
                                            "previous phase BEGIN_REQ at 150 ns"),
            std::string::npos)
      << m->violations()[0].message;
}

TEST_F(MonitorTest, PayloadReusedWhileInFlightAndEndRespOutOfOrder) {
  tlm_generic_payload& t = nb_request();
  fw(t, tlm::BEGIN_REQ, tlm::TLM_UPDATED, tlm::END_REQ);
  fw(t, tlm::BEGIN_REQ, tlm::TLM_UPDATED, tlm::END_REQ);
  fw(t, tlm::END_RESP, tlm::TLM_COMPLETED);
  EXPECT_RULES(m->violations(), Rule::InFlightReuse, Rule::PhaseSequence);
  EXPECT_EQ(m->in_flight(), 0u);
}

TEST_F(MonitorTest, TargetModifyingTheRequestIsSeenAtBeginResp) {
  tlm_generic_payload& t = nb_request();
  fw(t, tlm::BEGIN_REQ, tlm::TLM_UPDATED, tlm::END_REQ);
  t.set_data_length(4);
  t.set_response_status(tlm::TLM_OK_RESPONSE);
  bw(t, tlm::BEGIN_RESP, tlm::TLM_COMPLETED);
  EXPECT_RULES(m->violations(), Rule::DataLengthModified);
  EXPECT_NE(m->violations()[0].message.find("the data length of a read of 8 bytes at 0x80 changed "
                                            "from 8 to 4 by BEGIN_RESP"),
            std::string::npos)
      << m->violations()[0].message;
}

// --- DMI -----------------------------------------------------------------------------------------

class DmiTest : public MonitorTest {
 protected:
  // Asks for DMI at 0x40 with `command`; the target answers with `answer` applied to the
  // descriptor and returns `granted`.
  void ask(tlm::tlm_command command, bool granted, const std::function<void(tlm::tlm_dmi&)>& answer,
           tlm::tlm_dmi dmi = tlm::tlm_dmi(), std::uint64_t delta_after = 0) {
    tx.set_command(command);
    const auto call = m->get_direct_mem_ptr_call(tx, dmi, SimMoment{ns(100), 0});
    answer(dmi);
    m->get_direct_mem_ptr_return(dmi, granted, call, SimMoment{ns(100), delta_after});
  }
  static std::function<void(tlm::tlm_dmi&)> grant(std::uint64_t start, std::uint64_t end,
                                                  tlm::tlm_dmi::dmi_access_e access,
                                                  unsigned char* ptr) {
    return [=](tlm::tlm_dmi& d) {
      d.set_start_address(start);
      d.set_end_address(end);
      d.set_granted_access(access);
      d.set_dmi_ptr(ptr);
    };
  }
  unsigned char memory[256] = {};
};

TEST_F(DmiTest, CorrectGrantsAndDenials) {
  ask(tlm::TLM_READ_COMMAND, true, grant(0, 0xff, tlm::tlm_dmi::DMI_ACCESS_READ_WRITE, memory));
  ask(tlm::TLM_WRITE_COMMAND, true, grant(0x40, 0x40, tlm::tlm_dmi::DMI_ACCESS_WRITE, memory));
  ask(tlm::TLM_READ_COMMAND, false, [](tlm::tlm_dmi&) {});
  ask(tlm::TLM_READ_COMMAND, false, grant(0x0, 0x3ff, tlm::tlm_dmi::DMI_ACCESS_NONE, nullptr));
  EXPECT_NO_VIOLATIONS(m->violations());
  EXPECT_EQ(counter("get_direct_mem_ptr"), 4u);
}

TEST_F(DmiTest, RegionThatDoesNotContainTheAddress) {
  ask(tlm::TLM_READ_COMMAND, true, grant(0x100, 0x1ff, tlm::tlm_dmi::DMI_ACCESS_READ, memory));
  EXPECT_RULES(m->violations(), Rule::DmiRange);
  EXPECT_NE(m->violations()[0].message.find("target granted DMI for 0x40 with a region that does "
                                            "not contain it: [0x100, 0x1ff] read-only access"),
            std::string::npos)
      << m->violations()[0].message;
  ask(tlm::TLM_READ_COMMAND, false, grant(0x1ff, 0x100, tlm::tlm_dmi::DMI_ACCESS_NONE, nullptr));
  EXPECT_RULES(m->violations(), Rule::DmiRange, Rule::DmiRange);
}

TEST_F(DmiTest, GrantWithoutPointerOrWithTheWrongAccess) {
  ask(tlm::TLM_READ_COMMAND, true, grant(0, 0xff, tlm::tlm_dmi::DMI_ACCESS_READ, nullptr));
  ask(tlm::TLM_WRITE_COMMAND, true, grant(0, 0xff, tlm::tlm_dmi::DMI_ACCESS_READ, memory));
  ask(tlm::TLM_READ_COMMAND, true, grant(0, 0xff, tlm::tlm_dmi::DMI_ACCESS_WRITE, memory));
  EXPECT_RULES(m->violations(), Rule::DmiPointer, Rule::DmiAccess, Rule::DmiAccess);
}

TEST_F(DmiTest, CommandDescriptorAndWait) {
  ask(tlm::TLM_IGNORE_COMMAND, false, [](tlm::tlm_dmi&) {});
  tlm::tlm_dmi used;
  used.set_start_address(0x10);
  ask(
      tlm::TLM_READ_COMMAND, false, [](tlm::tlm_dmi&) {}, used);
  ask(
      tlm::TLM_READ_COMMAND, false, [](tlm::tlm_dmi&) {}, tlm::tlm_dmi(), 1);
  EXPECT_RULES(m->violations(), Rule::DmiCommand, Rule::DmiDescriptorInit, Rule::DmiWait);
}

TEST_F(DmiTest, InvalidateRanges) {
  m->invalidate_direct_mem_ptr_call(0, std::numeric_limits<std::uint64_t>::max(), ns(1));
  m->invalidate_direct_mem_ptr_call(0x40, 0x40, ns(1));
  m->invalidate_direct_mem_ptr_call(0x80, 0x40, ns(1));
  EXPECT_RULES(m->violations(), Rule::DmiInvalidateRange);
  EXPECT_EQ(counter("invalidate_direct_mem_ptr"), 3u);
}

// --- debug transport
// -------------------------------------------------------------------------------

TEST_F(MonitorTest, DebugTransportRules) {
  auto debug = [&](unsigned count, std::uint64_t delta_after,
                   const std::function<void(tlm_generic_payload&)>& target) {
    const auto call = m->transport_dbg_call(tx, SimMoment{ns(100), 0});
    target(tx);
    m->transport_dbg_return(tx, count, call, SimMoment{ns(100), delta_after});
  };
  auto nothing = [](tlm_generic_payload&) {};
  debug(8, 0, nothing);
  debug(4, 0, nothing);
  EXPECT_NO_VIOLATIONS(m->violations());
  debug(9, 0, nothing);
  debug(8, 2, nothing);
  debug(8, 0, [](tlm_generic_payload& t) { t.set_address(0x48); });
  tx.set_data_ptr(nullptr);
  debug(0, 0, nothing);
  tx.set_data_length(0);
  debug(0, 0, nothing);
  EXPECT_RULES(m->violations(), Rule::DebugReturnCount, Rule::DebugWait, Rule::AddressModified,
               Rule::DebugDataPointer);
  EXPECT_NE(m->violations()[0].message.find("target returned 9 from transport_dbg of a read of 8 "
                                            "bytes at 0x40"),
            std::string::npos);
  EXPECT_NE(m->violations()[1].message.find("was called at 100 ns (delta 0) and returned at 100 "
                                            "ns (delta 2)"),
            std::string::npos);
  EXPECT_EQ(counter("transport_dbg"), 7u);
}

// --- reporting
// -------------------------------------------------------------------------------------

TEST(MonitorReporting, StopModeRecordsThenThrowsTheScReport) {
  simkit::StatGroup g("g");
  ProtocolMonitor mon("core0.mem", "bus.in", CheckerConfig(), g);
  unsigned char buf[4] = {};
  tlm_generic_payload t;
  prepare(t, tlm::TLM_WRITE_COMMAND, 0x10, buf, 4);
  sc_time d = SC_ZERO_TIME;
  const auto call = mon.b_transport_call(t, d, ns(7), false);
  try {
    mon.b_transport_return(t, d, ns(7), call);
    ADD_FAILURE() << "no sc_report thrown";
  } catch (const sc_core::sc_report& r) {
    EXPECT_STREQ(r.get_msg_type(), "parsys/protocol");
    EXPECT_EQ(r.get_severity(), sc_core::SC_ERROR);
    EXPECT_STREQ(r.get_msg(),
                 "protocol violation between core0.mem and bus.in: [gp.response_status] target "
                 "returned from b_transport with TLM_INCOMPLETE_RESPONSE (write of 4 bytes at "
                 "0x10) (rule: a target must set the response status; IEEE 1666-2011 14.17) at 7 "
                 "ns");
  }
  ASSERT_EQ(mon.violations().size(), 1u);
  EXPECT_EQ(mon.violations()[0].rule, Rule::ResponseStatus);
}

TEST(MonitorReporting, KeepsTheFirstThousandViolationsAndCountsAll) {
  simkit::StatGroup g("g");
  ProtocolMonitor mon("a", "b", recording(), g);
  for (int i = 0; i < 1005; ++i) mon.invalidate_direct_mem_ptr_call(2, 1, ns(1));
  EXPECT_EQ(mon.violations().size(), ProtocolMonitor::kMaxRecorded);
  EXPECT_EQ(mon.violation_count(), 1005u);
  EXPECT_EQ(static_cast<const simkit::Counter*>(g.find("violations"))->value(), 1005u);
}

TEST(MonitorReporting, InvalidConfigurationThrows) {
  simkit::StatGroup g("g");
  CheckerConfig c;
  c.max_delay_ns = -1;
  EXPECT_THROW(ProtocolMonitor("a", "b", c, g), std::invalid_argument);
}

}  // namespace
}  // namespace par::tlmcheck
