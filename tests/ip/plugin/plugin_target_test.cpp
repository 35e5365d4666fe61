// PluginTarget and make_target with the test RAM plug-in (exactly known timing): several
// initiators on `in`, loosely- and approximately-timed plug-ins, statistics, debug transport,
// approximately-timed initiators, and the assembly errors.
#include <gtest/gtest.h>

#include <typeinfo>

#include "support/sc_isolation.hpp"
#include "support/tlm_harness.hpp"
#include "par/tlmcheck/checked_bindings.hpp"
#include "plugin_test_support.hpp"

namespace par::plugin {
namespace {

using namespace par::plugin::testing;
using par::testing::run_isolated;
using par::testing::TlmHarness;
using sc_core::SC_NS;
using sc_core::sc_time;

// Four initiators each write 8 bytes at t = 10 ns and read them back when the write is done.
void four_initiators_write_then_read(PluginTarget& target, std::vector<std::unique_ptr<TlmHarness>>& hs) {
  for (int i = 0; i < 4; ++i) {
    hs.push_back(std::make_unique<TlmHarness>(("h" + std::to_string(i)).c_str()));
    hs.back()->out.bind(target.in);
    hs.back()->at(sc_time(10, SC_NS)).write64(64u * i, 0x1111111111111111ull * (i + 1));
    hs.back()->then().read(64u * i, 8);
  }
}

TEST(PluginTarget, LooselyTimedPluginServesSeveralInitiators) {
  run_isolated([] {
    auto target = make_or_fail(spec_for(PLUGIN_TEST_RAM, "latency_ns=10"));
    ASSERT_NE(target, nullptr);
    std::vector<std::unique_ptr<TlmHarness>> hs;
    four_initiators_write_then_read(*target, hs);
    sc_core::sc_start();
    for (int i = 0; i < 4; ++i) {
      const TlmHarness& h = *hs[static_cast<std::size_t>(i)];
      EXPECT_EQ(h.result(0).status, tlm::TLM_OK_RESPONSE);
      EXPECT_EQ(h.result(0).latency, sc_time(10, SC_NS));
      EXPECT_EQ(h.result(1).status, tlm::TLM_OK_RESPONSE);
      EXPECT_EQ(h.result(1).value(), 0x1111111111111111ull * (i + 1));
      EXPECT_EQ(h.result(1).issued, sc_time(20, SC_NS));
      EXPECT_EQ(h.result(1).latency, sc_time(10, SC_NS));
    }
    EXPECT_EQ(target->timing(), Timing::LooselyTimed);
    EXPECT_EQ(target->description(), "test_ram by parsys tests (loosely timed): test RAM of 4096 bytes");
    EXPECT_STREQ(target->model().name(), "dram.model");
    EXPECT_EQ(target->stats().name(), "dram");
    EXPECT_EQ(stat(*target, "transactions"), 8);
    EXPECT_EQ(stat(*target, "reads"), 4);
    EXPECT_EQ(stat(*target, "writes"), 4);
    EXPECT_EQ(stat(*target, "read_bytes"), 32);
    EXPECT_EQ(stat(*target, "write_bytes"), 32);
    EXPECT_EQ(stat(*target, "errors"), 0);
    EXPECT_EQ(stat(*target, "avg_latency"), 10);
    EXPECT_EQ(stat(*target, "time_ns"), 30);
    EXPECT_EQ(stat(*target, "request_wait_ns"), 0);
    EXPECT_NEAR(stat(*target, "bandwidth"), 64.0 / 30.0, 1e-12);
    EXPECT_EQ(stat(*target, "model.accesses"), 8);  // the plug-in's own statistic
  });
}

TEST(PluginTarget, ApproximatelyTimedPluginGetsOneRequestAtATime) {
  run_isolated([] {
    auto target = make_or_fail(spec_for(PLUGIN_TEST_RAM, "mode=at,latency_ns=20,accept_ns=1"));
    ASSERT_NE(target, nullptr);
    std::vector<std::unique_ptr<TlmHarness>> hs;
    four_initiators_write_then_read(*target, hs);
    sc_core::sc_start();
    // Writes: BEGIN_REQ at 10, 11, 12, 13 ns (each after the previous END_REQ), BEGIN_RESP 20 ns
    // later. Each read follows its own write and again waits for the request channel.
    std::vector<double> write_latency, read_latency;
    for (int i = 0; i < 4; ++i) {
      const TlmHarness& h = *hs[static_cast<std::size_t>(i)];
      EXPECT_EQ(h.result(0).status, tlm::TLM_OK_RESPONSE);
      EXPECT_EQ(h.result(1).status, tlm::TLM_OK_RESPONSE);
      EXPECT_EQ(h.result(1).value(), 0x1111111111111111ull * (i + 1));
      write_latency.push_back(ns(h.result(0).latency));
      read_latency.push_back(ns(h.result(1).latency));
      EXPECT_EQ(h.result(1).issued, h.result(0).completed);
    }
    EXPECT_EQ(sorted(write_latency), (std::vector<double>{20, 21, 22, 23}));
    EXPECT_EQ(sorted(read_latency), (std::vector<double>{20, 20, 20, 20}));  // issued 30..33, channel free
    EXPECT_EQ(target->timing(), Timing::ApproximatelyTimed);
    EXPECT_EQ(stat(*target, "model.violations"), 0);        // request exclusion, memory manager
    EXPECT_EQ(stat(*target, "model.max_outstanding"), 4);  // responses overlap
    EXPECT_EQ(stat(*target, "request_wait_ns"), 1 + 2 + 3);
    EXPECT_EQ(stat(*target, "transactions"), 8);
    EXPECT_EQ(stat(*target, "avg_latency"), (20 + 21 + 22 + 23 + 4 * 20) / 8.0);
  });
}

// The other two answers a target may give to BEGIN_REQ.
TEST(PluginTarget, ApproximatelyTimedUpdatedAndCompletedAnswers) {
  for (const char* style : {"updated", "completed"}) {
    SCOPED_TRACE(style);
    run_isolated([style] {
      auto target = make_or_fail(spec_for(PLUGIN_TEST_RAM, std::string("mode=at,latency_ns=20,at_style=") + style));
      ASSERT_NE(target, nullptr);
      TlmHarness a("a"), b("b");
      a.out.bind(target->in);
      b.out.bind(target->in);
      a.at(sc_time(0, SC_NS)).write64(0, 42);
      b.at(sc_time(0, SC_NS)).write64(8, 43);
      a.at(sc_time(100, SC_NS)).read(0, 8);
      b.at(sc_time(100, SC_NS)).read(8, 8);
      sc_core::sc_start();
      EXPECT_EQ(a.result(1).value(), 42u);
      EXPECT_EQ(b.result(1).value(), 43u);
      const std::vector<double> writes = sorted({ns(a.result(0).latency), ns(b.result(0).latency)});
      // TLM_UPDATED with END_REQ 1 ns later holds the second request 1 ns; TLM_COMPLETED ends the
      // request phase at once.
      const std::vector<double> expected =
          std::string(style) == "updated" ? std::vector<double>{20, 21} : std::vector<double>{20, 20};
      EXPECT_EQ(writes, expected);
      EXPECT_EQ(stat(*target, "model.violations"), 0);
    });
  }
}

TEST(PluginTarget, AnnotatedDelayIsKeptForLtAndWaitedForAt) {
  run_isolated([] {
    auto lt = make_or_fail(spec_for(PLUGIN_TEST_RAM, "latency_ns=10", "lt_ram"));
    auto at = make_or_fail(spec_for(PLUGIN_TEST_RAM, "mode=at,latency_ns=10", "at_ram"));
    ASSERT_TRUE(lt && at);
    // One 8-byte read at 100 ns with a 5 ns annotated delay: what came back, and when.
    struct Call {
      par::testing::LtInitiator::Result result;
      sc_time returned_at;
    } r1, r2;
    const auto call = [](Call& c) {
      return [&c](par::testing::LtInitiator& i) {
        sc_core::wait(sc_time(100, SC_NS));
        std::uint64_t v = 0;
        c.result = i.read(0, &v, 8, sc_time(5, SC_NS));
        c.returned_at = sc_core::sc_time_stamp();
      };
    };
    par::testing::LtInitiator c1("c1", call(r1)), c2("c2", call(r2));
    c1.out.bind(lt->in);
    c2.out.bind(at->in);
    sc_core::sc_start();
    // Loosely timed: nothing waits, the delay grows by the latency.
    EXPECT_EQ(r1.returned_at, sc_time(100, SC_NS));
    EXPECT_EQ(r1.result.delay, sc_time(15, SC_NS));
    // Approximately timed: the request goes out at 105 ns, the call returns at the response.
    EXPECT_EQ(r2.returned_at, sc_time(115, SC_NS));
    EXPECT_EQ(r2.result.delay, sc_core::SC_ZERO_TIME);
    EXPECT_EQ(r1.result.status, tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(r2.result.status, tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(stat(*lt, "avg_latency"), 10);
    EXPECT_EQ(stat(*at, "avg_latency"), 10);
  });
}

TEST(PluginTarget, ErrorResponsesAndDebugTransportPassThrough) {
  for (const char* mode : {"lt", "at"}) {
    SCOPED_TRACE(mode);
    run_isolated([mode] {
      auto target = make_or_fail(spec_for(PLUGIN_TEST_RAM, std::string("mode=") + mode));
      ASSERT_NE(target, nullptr);
      TlmHarness h;
      h.out.bind(target->in);
      h.at(sc_time(1, SC_NS)).read(4090, 8);  // crosses the end of the 4096 bytes
      h.then().write64(100, 0xfeedface);
      sc_core::sc_start(sc_core::SC_ZERO_TIME);  // elaborate

      // Debug write before the run, debug read after it: data only, no timing, no counters.
      std::uint64_t v = 0x0123456789abcdefull;
      tlm::tlm_generic_payload dbg;
      dbg.set_command(tlm::TLM_WRITE_COMMAND);
      dbg.set_address(200);
      dbg.set_data_ptr(reinterpret_cast<unsigned char*>(&v));
      dbg.set_data_length(8);
      EXPECT_EQ(target->in.get_base_export()->transport_dbg(dbg), 8u);
      sc_core::sc_start();
      EXPECT_EQ(h.result(0).status, tlm::TLM_ADDRESS_ERROR_RESPONSE);
      EXPECT_EQ(h.result(1).status, tlm::TLM_OK_RESPONSE);
      std::uint64_t back[2] = {0, 0};
      dbg.set_command(tlm::TLM_READ_COMMAND);
      dbg.set_address(100);
      dbg.set_data_ptr(reinterpret_cast<unsigned char*>(back));
      dbg.set_data_length(16);
      EXPECT_EQ(target->in.get_base_export()->transport_dbg(dbg), 16u);
      EXPECT_EQ(back[0], 0xfeedfaceu);
      dbg.set_address(200);
      dbg.set_data_length(8);
      EXPECT_EQ(target->in.get_base_export()->transport_dbg(dbg), 8u);
      EXPECT_EQ(back[0], 0x0123456789abcdefull);
      EXPECT_EQ(stat(*target, "errors"), 1);
      EXPECT_EQ(stat(*target, "reads"), 1);
      EXPECT_EQ(stat(*target, "read_bytes"), 0);  // the failed read moved nothing
      EXPECT_EQ(stat(*target, "write_bytes"), 8);
      EXPECT_EQ(stat(*target, "debug_accesses"), 3);
      tlm::tlm_dmi dmi;
      EXPECT_FALSE(target->in.get_base_export()->get_direct_mem_ptr(dbg, dmi));
    });
  }
}

TEST(PluginTarget, ApproximatelyTimedInitiatorIsServedWithOneResponseAtATime) {
  for (const char* mode : {"lt", "at"}) {
    SCOPED_TRACE(mode);
    run_isolated([mode] {
      auto target = make_or_fail(spec_for(PLUGIN_TEST_RAM, std::string("latency_ns=10,mode=") + mode));
      ASSERT_NE(target, nullptr);
      par::testing::AtInitiator c("c");
      at_reads(c, 2);
      c.out.bind(target->in);
      sc_core::sc_start();
      ASSERT_EQ(c.requests.size(), 2u);
      for (const auto& r : c.requests) {
        EXPECT_EQ(r.begin_req_status, tlm::TLM_UPDATED);
        EXPECT_EQ(r.begin_req_phase, tlm::END_REQ);
      }
      // Both accesses complete at 10 ns (lt) or 10 and 11 ns (at: one request per END_REQ,
      // accept_ns = 1); the second BEGIN_RESP waits for the first END_RESP (2 ns after it).
      EXPECT_EQ(c.requests[0].response, sc_time(10, SC_NS));
      EXPECT_EQ(c.requests[1].response, sc_time(12, SC_NS));
      EXPECT_EQ(statuses(c), (std::vector<tlm::tlm_response_status>{tlm::TLM_OK_RESPONSE, tlm::TLM_OK_RESPONSE}));
      EXPECT_EQ(c.freed, 2);  // the adapter released what it acquired
      EXPECT_EQ(stat(*target, "transactions"), 2);
    });
  }
}

TEST(PluginTarget, ConnectorBindsTheModel) {
  run_isolated([] {
    TargetSpec s = spec_for(PLUGIN_TEST_RAM, "");
    std::string seen;
    s.connect = [&seen](PluginTarget::OutSocket& out, TargetSocket& model) {
      seen = std::string(out.name()) + " -> " + model.get_base_export().name();
      out.bind(model);
    };
    auto target = make_or_fail(s);
    ASSERT_NE(target, nullptr);
    EXPECT_EQ(seen, "dram.out -> dram.model.socket");
    TlmHarness h;
    h.out.bind(target->in);
    h.at(sc_time(0, SC_NS)).write64(0, 7);
    h.then().read(0, 8);
    sc_core::sc_start();
    EXPECT_EQ(h.result(1).value(), 7u);
  });
}

// ip/tlm_check's base-protocol checker between the adapter and the model (every answer an
// approximately-timed model may give, and a loosely-timed model), and between an
// approximately-timed initiator and the adapter's `in`: no violation either way.
TEST(PluginTarget, ProtocolCheckerFindsNoViolation) {
  for (const char* args : {"mode=lt", "mode=at", "mode=at,at_style=updated", "mode=at,at_style=completed"}) {
    SCOPED_TRACE(args);
    run_isolated([args] {
      tlmcheck::CheckerConfig check;
      check.enable = true;
      check.stop_on_violation = false;  // record, so the test can list them
      tlmcheck::CheckedBindings<> links(check);
      TargetSpec s = spec_for(PLUGIN_TEST_RAM, std::string("latency_ns=10,") + args);
      s.connect = [&links](PluginTarget::OutSocket& out, TargetSocket& model) {
        links.bind(out, "dram.out", model, "dram.model.socket");
      };
      auto target = make_or_fail(s);
      ASSERT_NE(target, nullptr);
      std::vector<std::unique_ptr<TlmHarness>> hs;
      four_initiators_write_then_read(*target, hs);
      par::testing::AtInitiator c("c");
      at_reads(c, 3);
      links.bind(c.out, "c.out", target->in, "dram.in");
      sc_core::sc_start();
      for (const tlmcheck::Violation& v : links.violations()) ADD_FAILURE() << v.message;
      EXPECT_EQ(links.violation_count(), 0u);
      ASSERT_EQ(links.checkers().size(), 2u);
      const simkit::StatGroup& to_model = links.checkers()[0]->stats();
      const simkit::StatGroup& from_at = links.checkers()[1]->stats();
      const bool at = std::string(args) != "mode=lt";
      // 8 harness accesses and 3 from the AT caller reach the model, in the model's style.
      EXPECT_EQ(to_model.find("b_transport")->number(), at ? 0 : 11);
      EXPECT_EQ(to_model.find("nb_transactions")->number(), at ? 11 : 0);
      EXPECT_EQ(from_at.find("nb_transactions")->number(), 3);
      EXPECT_EQ(statuses(c), std::vector<tlm::tlm_response_status>(3, tlm::TLM_OK_RESPONSE));
      EXPECT_EQ(c.freed, 3);
      EXPECT_EQ(stat(*target, "model.violations"), 0);
    });
  }
}

// Loading a plug-in registers TLM extension types (simple_target_socket<Model> has one), so a
// payload constructed before has too few extension slots for them; the adapter grows it before
// the model (or a checker, which reads every slot) sees it.
//
// Whether the plug-in's own types are new to the process depends on what ran before in it (a test
// of the same binary may have loaded the library already, and it stays loaded), so the test also
// registers a type of its own after the payload exists: the payload is then short of a slot in
// every order.
struct LateExtensionType : tlm::tlm_extension_base {
  // A type no other code registers; called in the test's own (forked) process only.
  static unsigned register_now() { return register_extension(typeid(LateExtensionType)); }
};

class EarlyPayloadCaller : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<EarlyPayloadCaller> out;
  tlm::tlm_generic_payload tx;  // constructed with the module, before the plug-in is loaded
  std::uint64_t value = 0;

  explicit EarlyPayloadCaller(sc_core::sc_module_name name) : sc_module(name), out("out") {
    SC_HAS_PROCESS(EarlyPayloadCaller);
    SC_THREAD(run);
  }

 private:
  void run() {
    tx.set_command(tlm::TLM_WRITE_COMMAND);
    tx.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    tx.set_address(0);
    tx.set_data_ptr(reinterpret_cast<unsigned char*>(&value));
    tx.set_data_length(8);
    tx.set_streaming_width(8);
    value = 99;
    sc_time delay = sc_core::SC_ZERO_TIME;
    out->b_transport(tx, delay);
    tx.set_command(tlm::TLM_READ_COMMAND);
    tx.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    value = 0;
    out->b_transport(tx, delay);
  }
};

TEST(PluginTarget, PayloadsOlderThanThePluginGetItsExtensionSlots) {
  run_isolated([] {
    EarlyPayloadCaller caller("caller");
    const unsigned before = tlm::max_num_extensions();
    EXPECT_EQ(LateExtensionType::register_now(), before);  // the payload has no slot for it
    tlmcheck::CheckerConfig check;
    check.enable = true;
    tlmcheck::CheckedBindings<> links(check);
    TargetSpec s = spec_for(PLUGIN_TEST_RAM, "");
    s.connect = [&links](PluginTarget::OutSocket& out, TargetSocket& model) {
      links.bind(out, "dram.out", model, "dram.model.socket");
    };
    auto target = make_or_fail(s);
    ASSERT_NE(target, nullptr);
    EXPECT_GT(tlm::max_num_extensions(), before);  // what makes this test meaningful
    caller.out.bind(target->in);
    sc_core::sc_start();
    EXPECT_EQ(caller.value, 99u);
    EXPECT_EQ(links.violation_count(), 0u);
  });
}

TEST(PluginTarget, AssemblyErrorsNameTheOption) {
  run_isolated([] {
    const std::string ram = PLUGIN_TEST_RAM;
    auto error_of = [](const TargetSpec& s) {
      std::string error;
      EXPECT_EQ(make_target(s, error), nullptr);
      return error;
    };
    TargetSpec s = spec_for(ram, "size=64");
    EXPECT_EQ(error_of(s), "dram.plugin_args: 'size' is set by parsys (size=4096) and cannot be given here");
    s = spec_for(ram, "latency_ns=1,,");
    EXPECT_EQ(error_of(s), "dram.plugin_args: argument 2 is empty (two commas in a row, or a comma at an end)");
    s = spec_for(ram, "");
    s.config.model = "builtin";
    EXPECT_EQ(error_of(s), "dram.model: is 'builtin', so there is no plug-in to load");
    s.config.model = "plugin:/no/such/lib.so";
    EXPECT_EQ(error_of(s), "dram.model: plug-in '/no/such/lib.so': no such file");
    s = spec_for(ram, "");
    s.platform_args.erase("size");
    EXPECT_EQ(error_of(s), "dram.model: the platform gave the plug-in no 'size' argument");
    s = spec_for(ram, "latency_ns=abc", "host_mem");
    s.option_prefix = "host.memory";
    EXPECT_EQ(error_of(s), "host.memory.model: plug-in '" + ram +
                               "' (test_ram by parsys tests) could not create 'model': argument 'latency_ns': 'abc' "
                               "is not a number");
    s = spec_for(ram, "bad_stat=1");
    const std::string e = error_of(s);
    EXPECT_EQ(e.rfind("dram.model: plug-in '" + ram + "' (test_ram by parsys tests) reports statistic 'bad name': ", 0),
              0u)
        << e;
  });
}

}  // namespace
}  // namespace par::plugin
