// The device interconnect: routing with address translation, unmapped and crossing accesses,
// latency, port bandwidth queueing, overlap refusal, debug transport.
#include <gtest/gtest.h>

#include "support/sc_isolation.hpp"
#include "support/tlm_harness.hpp"
#include "interconnect.hpp"
#include "memory.hpp"

namespace par::interconnect {
namespace {

using sc_core::sc_time;
using sc_core::SC_NS;

struct Rig {
  testing::TlmHarness h;
  Interconnect bus;
  memory::Memory a, b;
  explicit Rig(InterconnectConfig cfg)
      : bus("bus", cfg), a("a", memory::MemoryConfig{4096, 5, 0}), b("b", memory::MemoryConfig{4096, 0, 0}) {
    h.out.bind(bus.in);
    bus.out.bind(a.in);
    bus.out.bind(b.in);
    EXPECT_EQ(bus.add_region({"a", 0x10000, 4096, 0, true}), "");
    EXPECT_EQ(bus.add_region({"b", 0x20000, 4096, 1, true}), "");
  }
};

TEST(Interconnect, RoutesByAddressAndTranslates) {
  par::testing::run_isolated([] {
    InterconnectConfig cfg;
    cfg.latency_ns = 3;
    Rig r(cfg);
    r.h.write64(0x10008, 0xAAAA).then().write64(0x20010, 0xBBBB).then().read(0x10008, 8).then().read(0x20010, 8);
    r.h.run();
    EXPECT_EQ(r.h.result(2).value(), 0xAAAAu);
    EXPECT_EQ(r.h.result(3).value(), 0xBBBBu);
    std::uint64_t va = 0, vb = 0;
    std::memcpy(&va, r.a.data() + 8, 8);  // translated: offset 8 in target a
    std::memcpy(&vb, r.b.data() + 0x10, 8);
    EXPECT_EQ(va, 0xAAAAu);
    EXPECT_EQ(vb, 0xBBBBu);
    EXPECT_EQ(r.h.result(2).latency, sc_time(8, SC_NS));  // 3 ns bus + 5 ns memory
    EXPECT_EQ(r.h.result(3).latency, sc_time(3, SC_NS));
    EXPECT_EQ(r.h.result(0).address, 0x10008u);  // the initiator sees its own address again
  });
}

TEST(Interconnect, UnmappedAndCrossingAccessesAreAddressErrors) {
  par::testing::run_isolated([] {
    Rig r(InterconnectConfig{});
    r.h.read(0x30000, 8).read(0x10FFC, 8).read(0x10FF8, 8);
    r.h.run();
    EXPECT_EQ(r.h.result(0).status, tlm::TLM_ADDRESS_ERROR_RESPONSE);
    EXPECT_EQ(r.h.result(1).status, tlm::TLM_ADDRESS_ERROR_RESPONSE);  // crosses the end of region a
    EXPECT_EQ(r.h.result(2).status, tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(r.bus.stats().find("unmapped")->number(), 2);
    EXPECT_EQ(r.bus.stats().find("routed")->number(), 1);
  });
}

TEST(Interconnect, PortBandwidthQueuesConcurrentAccesses) {
  par::testing::run_isolated([] {
    InterconnectConfig cfg;
    cfg.port_bytes_per_ns = 4;  // a 64-byte access occupies a port for 16 ns
    Rig r(cfg);
    r.h.at(sc_time(0, SC_NS)).read(0x20000, 64).read(0x20040, 64).read(0x10000, 64);
    r.h.run();
    EXPECT_EQ(r.h.result(0).latency, sc_time(0, SC_NS));
    EXPECT_EQ(r.h.result(1).latency, sc_time(16, SC_NS));  // waits for port b
    EXPECT_EQ(r.h.result(2).latency, sc_time(5, SC_NS));   // port a is free: only the memory latency
    EXPECT_EQ(r.bus.stats().find("b.queue_ns")->number(), 16);
    EXPECT_EQ(r.bus.stats().find("b.bytes")->number(), 128);
    EXPECT_DOUBLE_EQ(r.bus.stats().find("b.busy_ns")->number(), 32);
  });
}

// With serialise an access also takes its own beats: 64 bytes on a 16-byte/ns port add 4 ns, to a
// read after the target's answer and to a write before the target sees it; the port still queues.
TEST(Interconnect, SerialisedAccessesTakeTheirOwnBeats) {
  par::testing::run_isolated([] {
    InterconnectConfig cfg;
    cfg.latency_ns = 1;
    cfg.port_bytes_per_ns = 16;
    cfg.serialise = true;
    Rig r(cfg);
    r.h.at(sc_time(0, SC_NS)).read(0x10000, 64).read(0x10040, 64);
    r.h.at(sc_time(100, SC_NS)).write64(0x20000, 7).read(0x20008, 8);
    r.h.run();
    EXPECT_EQ(r.h.result(0).latency, sc_time(1 + 5 + 4, SC_NS));   // bus + memory + 4 beats
    EXPECT_EQ(r.h.result(1).latency, sc_time(1 + 4 + 5 + 4, SC_NS));  // + 4 ns waiting for the port
    EXPECT_EQ(r.h.result(2).latency, sc_time(1.5, SC_NS));  // 8 bytes: half a beat, memory b has no latency
    EXPECT_EQ(r.h.result(3).latency, sc_time(1.5 + 0.5, SC_NS));
    EXPECT_EQ(r.bus.stats().find("a.queue_ns")->number(), 4);
  });
}

TEST(Interconnect, WithoutSerialiseTheBandwidthOnlyQueues) {
  par::testing::run_isolated([] {
    InterconnectConfig cfg;
    cfg.latency_ns = 1;
    cfg.port_bytes_per_ns = 16;
    Rig r(cfg);
    r.h.at(sc_time(0, SC_NS)).read(0x10000, 64).read(0x10040, 64);
    r.h.run();
    EXPECT_EQ(r.h.result(0).latency, sc_time(1 + 5, SC_NS));
    EXPECT_EQ(r.h.result(1).latency, sc_time(1 + 4 + 5, SC_NS));
  });
}

// Loosely-timed initiators call out of time order: a request that is earlier in time uses the idle
// port before a reservation made first, instead of queueing behind it.
TEST(Interconnect, AnEarlierRequestUsesAGapBeforeALaterReservation) {
  par::testing::run_isolated([] {
    InterconnectConfig cfg;
    cfg.port_bytes_per_ns = 4;  // 64 bytes occupy a port for 16 ns
    Rig r(cfg);
    r.h.run();  // elaborate; the calls below come straight from the test at time 0
    std::uint8_t buf[64] = {};
    const auto read_at = [&](double ns) {
      tlm::tlm_generic_payload tx;
      tx.set_command(tlm::TLM_READ_COMMAND);
      tx.set_address(0x20000);
      tx.set_data_ptr(buf);
      tx.set_data_length(64);
      tx.set_streaming_width(64);
      sc_time delay(ns, SC_NS);
      r.h.out->b_transport(tx, delay);
      EXPECT_EQ(tx.get_response_status(), tlm::TLM_OK_RESPONSE);
      return delay;
    };
    EXPECT_EQ(read_at(100), sc_time(100, SC_NS));  // port b reserved [100, 116)
    EXPECT_EQ(read_at(0), sc_time(0, SC_NS));      // fits before it
    EXPECT_EQ(read_at(90), sc_time(116, SC_NS));   // [90, 106) would overlap: after it
    EXPECT_EQ(r.bus.stats().find("b.queue_ns")->number(), 26);
  });
}

TEST(Interconnect, OverlappingRegionsAreRefused) {
  par::testing::run_isolated([] {
    Interconnect bus("bus", InterconnectConfig{});
    EXPECT_EQ(bus.add_region({"dram", 0x1000, 0x1000, 0, true}), "");
    EXPECT_EQ(bus.add_region({"regs", 0x1800, 0x100, 1, true}), "address region 'regs' [0x1800, 0x1900) overlaps 'dram'");
  });
}

TEST(Interconnect, BindConnectsAPortAndRoutesItsRegionsInOneCall) {
  par::testing::run_isolated([] {
    testing::TlmHarness h;
    Interconnect bus("bus", InterconnectConfig{});
    memory::Memory a("a", memory::MemoryConfig{4096, 0, 0}), b("b", memory::MemoryConfig{8192, 0, 0});
    h.out.bind(bus.in);
    int connected = 0;
    const auto counted = [&connected](auto& out, auto& target) {
      ++connected;
      out.bind(target);
    };
    EXPECT_EQ(bus.bind(a.in, {{"a", 0x10000, 4096}}), "");
    // Refused whole: no binding, no region, and the port stays free for the next call.
    EXPECT_EQ(bus.bind(b.in, {{"b_low", 0x30000, 4096}, {"b_high", 0x10800, 4096}}, counted),
              "address region 'b_high' [0x10800, 0x11800) overlaps 'a'");
    EXPECT_EQ(connected, 0);
    EXPECT_EQ(bus.regions().size(), 1u);
    EXPECT_EQ(bus.bind(b.in, {{"b_low", 0x20000, 4096}, {"b_high", 0x40000, 4096}}, counted), "");
    EXPECT_EQ(connected, 1);
    ASSERT_EQ(bus.regions().size(), 3u);
    EXPECT_EQ(bus.regions()[0].port, 0);
    EXPECT_EQ(bus.regions()[1].port, 1);
    EXPECT_EQ(bus.regions()[2].port, 1);
    h.write64(0x10008, 0xAAAA).then().write64(0x20010, 0xBBBB).then().write64(0x40018, 0xCCCC);
    h.run();
    std::uint64_t va = 0, vb = 0, vc = 0;
    std::memcpy(&va, a.data() + 8, 8);
    std::memcpy(&vb, b.data() + 0x10, 8);  // port 1 is b, each region translated from its base
    std::memcpy(&vc, b.data() + 0x18, 8);
    EXPECT_EQ(va, 0xAAAAu);
    EXPECT_EQ(vb, 0xBBBBu);
    EXPECT_EQ(vc, 0xCCCCu);
  });
}

TEST(Interconnect, DebugTransportIsRoutedWithoutTiming) {
  par::testing::run_isolated([] {
    Rig r(InterconnectConfig{});
    r.h.run();  // multi-passthrough sockets complete their bindings at the end of elaboration
    std::uint64_t v = 0x1234;
    tlm::tlm_generic_payload tx;
    tx.set_command(tlm::TLM_WRITE_COMMAND);
    tx.set_address(0x20008);
    tx.set_data_ptr(reinterpret_cast<unsigned char*>(&v));
    tx.set_data_length(8);
    EXPECT_EQ(r.h.out->transport_dbg(tx), 8u);
    std::uint64_t back = 0;
    std::memcpy(&back, r.b.data() + 8, 8);
    EXPECT_EQ(back, 0x1234u);
    tx.set_address(0x90000);
    EXPECT_EQ(r.h.out->transport_dbg(tx), 0u);
  });
}

}  // namespace
}  // namespace par::interconnect
