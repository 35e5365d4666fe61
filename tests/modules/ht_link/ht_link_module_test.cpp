// The HtLink SC_MODULE through its TLM sockets: round trips against the stage/serialisation
// arithmetic of docs/link-and-memory.md §1, splitting, posted writes, the outstanding limit,
// bandwidth limits of both widths, errors, debug transport, nb_transport_fw and interrupts from
// the device side. Each test body runs in a forked child (one SystemC elaboration per process).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <cstring>
#include <string>
#include <vector>

#include <tlm_utils/simple_target_socket.h>

#include "support/interrupts.hpp"
#include "support/at_initiator.hpp"
#include "support/lt_initiator.hpp"
#include "support/sc_isolation.hpp"
#include "support/tlm_harness.hpp"
#include "ht_link.hpp"
#include "interconnect.hpp"
#include "memory.hpp"

namespace par::ht {
namespace {

using par::testing::run_isolated;
using par::testing::TlmHarness;
using sc_core::sc_time;
using sc_core::SC_NS;
using par::testing::AtInitiator;
using par::testing::LtInitiator;

memory::MemoryConfig memory_config(double latency_ns = 0, std::uint64_t size = 1u << 16) {
  memory::MemoryConfig m;
  m.size = size;
  m.latency_ns = latency_ns;
  return m;
}

void fill_pattern(memory::Memory& m) {
  for (std::uint64_t i = 0; i < m.size(); ++i) m.data()[i] = static_cast<std::uint8_t>(i * 7 + 3);
}

HtConfig width(unsigned bits) {
  HtConfig c;
  c.width_bits = bits;
  return c;
}

std::uint64_t counter(const HtLink& link, const char* path) {
  const simkit::Stat* s = link.stats().find(path);
  EXPECT_NE(s, nullptr) << path;
  return s == nullptr ? 0 : static_cast<std::uint64_t>(s->number());
}

double value(const HtLink& link, const char* path) {
  const simkit::Stat* s = link.stats().find(path);
  EXPECT_NE(s, nullptr) << path;
  return s == nullptr ? 0 : s->number();
}

// --- round trips ------------------------------------------------------------------------------

// 305 ns of stages + 8 B request + (4 + 16) B response: 28 B x 1.25 ns = 35 ns on 8 bits.
TEST(HtLinkModule, DeviceRead16BytesRoundTripIs340nsOn8Bits) {
  run_isolated([] {
    memory::Memory host_memory("host_memory", memory_config());
    fill_pattern(host_memory);
    HtLink link("link");
    TlmHarness device("device");
    device.out.bind(link.dev_in);
    link.host_out.bind(host_memory.in);
    device.at(sc_time(100, SC_NS)).read(0x100, 16);
    device.run();
    const auto& r = device.result(0);
    EXPECT_EQ(r.status, tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(r.latency, sc_time(340, SC_NS));
    EXPECT_EQ(r.read_data, std::vector<std::uint8_t>(host_memory.data() + 0x100,
                                                     host_memory.data() + 0x110));
    EXPECT_EQ(host_memory.reads(), 1u);
    EXPECT_EQ(counter(link, "d2h.packets"), 1u);
    EXPECT_EQ(counter(link, "d2h.control_bytes"), 8u);
    EXPECT_EQ(counter(link, "h2d.packets"), 1u);
    EXPECT_EQ(counter(link, "h2d.control_bytes"), 4u);
    EXPECT_EQ(counter(link, "h2d.data_bytes"), 16u);
    EXPECT_EQ(counter(link, "d2h.reads"), 1u);
    EXPECT_DOUBLE_EQ(value(link, "d2h.latency"), 340);
    EXPECT_EQ(link.stats().name(), "link");
  });
}

// 16 bits: 305 + 28 x 0.625 = 322.5 ns.
TEST(HtLinkModule, DeviceRead16BytesRoundTripIs322point5nsOn16Bits) {
  run_isolated([] {
    memory::Memory host_memory("host_memory", memory_config());
    HtLink link("link", width(16));
    TlmHarness device("device");
    device.out.bind(link.dev_in);
    link.host_out.bind(host_memory.in);
    device.at(sc_time(0, SC_NS)).read(0x0, 16);
    device.run();
    EXPECT_EQ(device.result(0).latency, sc_time(322.5, SC_NS));
  });
}

// Host memory as a timed model: ht.lat.sdram_ns = 0 and the memory's 51 ns count instead.
TEST(HtLinkModule, MemoryLatencyReplacesTheSdramStage) {
  run_isolated([] {
    memory::Memory host_memory("host_memory", memory_config(51));
    HtConfig c;
    c.lat.sdram_ns = 0;
    HtLink link("link", c);
    TlmHarness device("device");
    device.out.bind(link.dev_in);
    link.host_out.bind(host_memory.in);
    device.at(sc_time(0, SC_NS)).read(0x0, 16);
    device.run();
    EXPECT_EQ(device.result(0).latency, sc_time(340, SC_NS));
  });
}

// Host-originated (MMIO, copies): host TX 30 + request + device RX 110 + target (40) + device TX 70
// + response + host RX 32. Read 16 B: 282 + 10 + 25 = 317 ns. Posted write of 8 B: returns after
// 30 + 16 x 1.25 = 50 ns; the device target sees it at 160 ns.
TEST(HtLinkModule, HostReadAndPostedWrite) {
  run_isolated([] {
    memory::Memory device_memory("device_memory", memory_config(40));
    fill_pattern(device_memory);
    HtLink link("link");
    TlmHarness host("host");
    host.out.bind(link.host_in);
    link.dev_out.bind(device_memory.in);
    host.at(sc_time(0, SC_NS)).read(0x40, 16);
    host.at(sc_time(1000, SC_NS)).write64(0x80, 0x1122334455667788ull);
    host.run();
    EXPECT_EQ(host.result(0).status, tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(host.result(0).latency, sc_time(317, SC_NS));
    EXPECT_EQ(host.result(0).read_data, std::vector<std::uint8_t>(device_memory.data() + 0x40,
                                                                  device_memory.data() + 0x50));
    EXPECT_EQ(host.result(1).status, tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(host.result(1).latency, sc_time(50, SC_NS));
    std::uint64_t written = 0;
    std::memcpy(&written, device_memory.data() + 0x80, 8);
    EXPECT_EQ(written, 0x1122334455667788ull);
    EXPECT_EQ(counter(link, "h2d.reads"), 1u);
    EXPECT_EQ(counter(link, "h2d.posted_writes"), 1u);
    EXPECT_EQ(counter(link, "h2d.packets"), 2u);
    EXPECT_EQ(counter(link, "h2d.data_bytes"), 8u);
    EXPECT_EQ(counter(link, "d2h.packets"), 1u);  // the read response only
    EXPECT_EQ(counter(link, "d2h.data_bytes"), 16u);
  });
}

// Non-posted host write of 8 B: 30 + 20 + 110 + 40 + 70 + 4 x 1.25 + 32 = 307 ns.
TEST(HtLinkModule, HostNonPostedWriteWaitsForTargetDone) {
  run_isolated([] {
    memory::Memory device_memory("device_memory", memory_config(40));
    HtConfig c;
    c.posted_writes = false;
    HtLink link("link", c);
    TlmHarness host("host");
    host.out.bind(link.host_in);
    link.dev_out.bind(device_memory.in);
    host.at(sc_time(0, SC_NS)).write64(0x80, 42);
    host.run();
    EXPECT_EQ(host.result(0).latency, sc_time(307, SC_NS));
    EXPECT_EQ(device_memory.data()[0x80], 42);
    EXPECT_EQ(counter(link, "h2d.nonposted_writes"), 1u);
    EXPECT_EQ(counter(link, "d2h.control_bytes"), 4u);
    EXPECT_EQ(counter(link, "d2h.data_bytes"), 0u);
  });
}

// --- packetisation ------------------------------------------------------------------------------

// 256 B = 4 requests (8 B, back to back upstream) and 4 responses of 68 B downstream:
// 305 + 10 + 4 x 85 = 655 ns. Host memory sees four 64-byte reads.
TEST(HtLinkModule, Read256BytesIsSplitIntoFourPackets) {
  run_isolated([] {
    memory::Memory host_memory("host_memory", memory_config());
    fill_pattern(host_memory);
    HtLink link("link");
    TlmHarness device("device");
    device.out.bind(link.dev_in);
    link.host_out.bind(host_memory.in);
    device.at(sc_time(0, SC_NS)).read(0x1000, 256);
    device.run();
    EXPECT_EQ(device.result(0).status, tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(device.result(0).latency, sc_time(655, SC_NS));
    EXPECT_EQ(device.result(0).read_data,
              std::vector<std::uint8_t>(host_memory.data() + 0x1000, host_memory.data() + 0x1100));
    EXPECT_EQ(host_memory.reads(), 4u);
    EXPECT_EQ(host_memory.bytes_read(), 256u);
    EXPECT_EQ(counter(link, "d2h.packets"), 4u);
    EXPECT_EQ(counter(link, "d2h.control_bytes"), 32u);
    EXPECT_EQ(counter(link, "h2d.packets"), 4u);
    EXPECT_EQ(counter(link, "h2d.control_bytes"), 16u);
    EXPECT_EQ(counter(link, "h2d.data_bytes"), 256u);
    EXPECT_EQ(counter(link, "d2h.reads"), 1u);
  });
}

// A 128-byte posted write with a 2-byte byte-enable pattern: two packets of 72 B (70 + 2 x 90 =
// 250 ns), each with the pattern applied from its own offset.
TEST(HtLinkModule, SplitWritesKeepTheirByteEnables) {
  run_isolated([] {
    memory::Memory host_memory("host_memory", memory_config());
    HtLink link("link");
    LtInitiator device("device", [](LtInitiator& d) {
      std::vector<std::uint8_t> data(128, 0xab);
      std::uint8_t be[2] = {0xff, 0x00};
      const auto r = d.access(tlm::TLM_WRITE_COMMAND, 0x200, data.data(), 128,
                              sc_core::SC_ZERO_TIME, be, 2);
      EXPECT_EQ(r.status, tlm::TLM_OK_RESPONSE);
      EXPECT_EQ(r.delay, sc_time(250, SC_NS));
    });
    device.out.bind(link.dev_in);
    link.host_out.bind(host_memory.in);
    sc_core::sc_start();
    EXPECT_EQ(host_memory.writes(), 2u);
    for (unsigned i = 0; i < 128; ++i)
      EXPECT_EQ(host_memory.data()[0x200 + i], i % 2 == 0 ? 0xab : 0x00) << i;
    EXPECT_EQ(counter(link, "d2h.packets"), 2u);
    EXPECT_EQ(counter(link, "d2h.data_bytes"), 128u);
  });
}

// --- posted writes and the outstanding limit -------------------------------------------------

// 40 posted 64-byte writes issued together with ht.max_outstanding = 1: none waits for a slot;
// they leave back to back, 72 B = 90 ns each, write k returning at 70 + 90 (k + 1) ns.
TEST(HtLinkModule, PostedWritesReturnEarlyAndAreNotLimited) {
  run_isolated([] {
    memory::Memory host_memory("host_memory", memory_config());
    HtConfig c;
    c.max_outstanding = 1;
    HtLink link("link", c);
    LtInitiator device("device", [](LtInitiator& d) {
      for (unsigned k = 0; k < 40; ++k)
        EXPECT_EQ(d.write(0x40 * k, std::vector<std::uint8_t>(64, 1)), sc_time(70 + 90 * (k + 1), SC_NS))
            << k;
    });
    device.out.bind(link.dev_in);
    link.host_out.bind(host_memory.in);
    sc_core::sc_start();
    EXPECT_EQ(host_memory.writes(), 40u);
    EXPECT_EQ(counter(link, "d2h.posted_writes"), 40u);
    EXPECT_EQ(counter(link, "d2h.outstanding_stalls"), 0u);
    EXPECT_EQ(counter(link, "h2d.packets"), 0u);
  });
}

// 40 concurrent 4-byte reads on 8 bits: 8-byte requests and responses take 10 ns each, so the
// stages dominate: read k < 32 completes at 325 + 10k; read 32 + j waits for read j's slot
// (free at 325 + 10j) and completes at 650 + 10j.
std::vector<sc_time> expected_limit_completions() {
  std::vector<sc_time> t;
  for (unsigned k = 0; k < 40; ++k) t.push_back(sc_time(k < 32 ? 325 + 10 * k : 650 + 10 * (k - 32), SC_NS));
  return t;
}

TEST(HtLinkModule, The33rdNonPostedReadWaitsForASlot) {
  run_isolated([] {
    memory::Memory host_memory("host_memory", memory_config());
    HtLink link("link");
    std::vector<sc_time> completions;
    LtInitiator device("device", [&completions](LtInitiator& d) {
      for (unsigned k = 0; k < 40; ++k) completions.push_back(d.read(0x10 * k, 4));
    });
    device.out.bind(link.dev_in);
    link.host_out.bind(host_memory.in);
    sc_core::sc_start();
    EXPECT_EQ(completions, expected_limit_completions());
    EXPECT_EQ(counter(link, "d2h.outstanding_stalls"), 8u);
    EXPECT_DOUBLE_EQ(value(link, "d2h.wait_ns"), 8 * 325 + 10 * 28);
  });
}

// The same 40 reads from 40 SystemC threads that each wait for their own access: the same set of
// completion times, whatever order the threads run in.
TEST(HtLinkModule, TheLimitHoldsForConcurrentThreads) {
  run_isolated([] {
    memory::Memory host_memory("host_memory", memory_config());
    HtLink link("link");
    std::vector<sc_time> completions;
    LtInitiator device("device", [&completions](LtInitiator& d) {
      std::vector<sc_core::sc_process_handle> threads;
      for (unsigned k = 0; k < 40; ++k) {
        threads.push_back(sc_core::sc_spawn([&d, &completions, k] {
          sc_core::wait(d.read(0x10 * k, 4));
          completions.push_back(sc_core::sc_time_stamp());
        }));
      }
    });
    device.out.bind(link.dev_in);
    link.host_out.bind(host_memory.in);
    sc_core::sc_start();
    std::sort(completions.begin(), completions.end());
    EXPECT_EQ(completions, expected_limit_completions());
    EXPECT_EQ(counter(link, "d2h.outstanding_stalls"), 8u);
  });
}

// A target that synchronises inside b_transport (wait(delay), then 50 ns more) while it holds the
// only slot: the second read waits on the link's event until the first returns (at 162 ns), then
// for the slot itself (free at 390 ns). First: 70 + 10 + 32 = 112, + 50 = 162, + 93 = 255, + 25 +
// 110 = 390. Second: starts 390, request 460..470, delivered 502, target done 552, 645..670,
// completes 780.
class BlockingTarget : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<BlockingTarget> in;
  explicit BlockingTarget(sc_core::sc_module_name name) : sc_module(name), in("in") {
    in.register_b_transport(this, &BlockingTarget::b_transport);
  }

 private:
  void b_transport(tlm::tlm_generic_payload& tx, sc_time& delay) {
    sc_core::wait(delay);
    sc_core::wait(50, SC_NS);
    delay = sc_core::SC_ZERO_TIME;
    tx.set_response_status(tlm::TLM_OK_RESPONSE);
  }
};

TEST(HtLinkModule, ABlockingTargetHoldingEverySlotMakesTheNextRequestWait) {
  run_isolated([] {
    BlockingTarget host_memory("host_memory");
    HtConfig c;
    c.max_outstanding = 1;
    HtLink link("link", c);
    TlmHarness device("device");
    device.out.bind(link.dev_in);
    link.host_out.bind(host_memory.in);
    device.at(sc_time(0, SC_NS)).read(0x0, 16);
    device.at(sc_time(0, SC_NS)).read(0x40, 16);
    device.run();
    std::vector<sc_time> done = {device.result(0).completed, device.result(1).completed};
    std::sort(done.begin(), done.end());
    EXPECT_EQ(done, (std::vector<sc_time>{sc_time(390, SC_NS), sc_time(780, SC_NS)}));
    EXPECT_EQ(counter(link, "d2h.outstanding_stalls"), 1u);
  });
}

// --- interrupts -----------------------------------------------------------------------------

// A device interrupt crosses as a posted write of 4 data bytes: device TX 70 + (8 + 4) x 1.25 +
// host RX 32 = 117 ns on 8 bits (the time a read response of 8 bytes takes), the channel shared
// with the device's requests; the data arrives unchanged and in order.
TEST(HtLinkModule, AnInterruptCrossesAsAPostedFourByteWrite) {
  run_isolated([] {
    HtLink link("link");
    par::testing::InterruptSource device("device");
    par::testing::InterruptRecorder host("host");
    device.out.bind(link.dev_irq);
    link.host_irq.bind(host.in);
    device.raise_at(sc_time(100, SC_NS), 0x80000005u);
    device.raise_at(sc_time(100, SC_NS), 6);  // queues behind the first on d2h: +15 ns
    sc_core::sc_start();
    ASSERT_EQ(host.received.size(), 2u);
    EXPECT_EQ(host.received[0].data, 0x80000005u);
    EXPECT_EQ(host.at(0), sc_time(217, SC_NS));
    EXPECT_EQ(host.received[1].data, 6u);
    EXPECT_EQ(host.at(1), sc_time(232, SC_NS));
    EXPECT_EQ(counter(link, "d2h.interrupts"), 2u);
    EXPECT_EQ(counter(link, "d2h.packets"), 2u);
    EXPECT_EQ(counter(link, "d2h.control_bytes"), 16u);
    EXPECT_EQ(counter(link, "d2h.data_bytes"), 8u);
    EXPECT_EQ(counter(link, "d2h.queued_packets"), 1u);
    EXPECT_EQ(counter(link, "h2d.packets"), 0u);
  });
}

TEST(HtLinkModule, AnInterruptWithNothingOnTheHostSideIsCountedAsAnError) {
  run_isolated([] {
    HtLink link("link");
    par::testing::InterruptSource device("device");
    device.out.bind(link.dev_irq);
    device.raise_at(sc_time(10, SC_NS), 1);
    sc_core::sc_start();
    EXPECT_EQ(counter(link, "d2h.errors"), 1u);
    EXPECT_EQ(counter(link, "d2h.packets"), 0u);
  });
}

// --- bandwidth ------------------------------------------------------------------------------

// A stream of 64-byte device reads is bounded by the response channel: 68 B per response. Read k
// completes at 400 + 85k ns on 8 bits (352.5 + 42.5k on 16 bits); the data rate between
// completions is 64 B / (68 B x ns_per_byte): 0.753 GB/s and 1.506 GB/s.
void streaming_reads(unsigned bits) {
  memory::Memory host_memory("host_memory", memory_config());
  HtLink link("link", width(bits));
  const double ns_per_byte = link.config().ns_per_byte();
  const double step = 68 * ns_per_byte;
  const double base = bits == 8 ? 400 : 352.5;
  constexpr unsigned kReads = 200;
  std::vector<sc_time> completions;
  LtInitiator device("device", [&completions](LtInitiator& d) {
    for (unsigned k = 0; k < kReads; ++k) completions.push_back(d.read(0x40 * k, 64));
  });
  device.out.bind(link.dev_in);
  link.host_out.bind(host_memory.in);
  sc_core::sc_start();
  ASSERT_EQ(completions.size(), kReads);
  for (unsigned k = 0; k < kReads; ++k)
    ASSERT_EQ(completions[k], sc_time(base + step * k, SC_NS)) << k;
  const double span_ns = (completions.back() - completions.front()).to_seconds() * 1e9;
  const double achieved = (kReads - 1) * 64.0 / span_ns;  // GB/s
  EXPECT_NEAR(achieved, 64.0 / (68.0 * ns_per_byte), 1e-9);
  EXPECT_NEAR(achieved, bits == 8 ? 0.8 * 64 / 68 : 1.6 * 64 / 68, 1e-9);
  EXPECT_EQ(counter(link, "h2d.data_bytes"), 64u * kReads);
  EXPECT_DOUBLE_EQ(value(link, "h2d.busy_ns"), step * kReads);
  const double last = base + step * (kReads - 1);
  EXPECT_DOUBLE_EQ(value(link, "h2d.utilisation"), step * kReads / last);
  EXPECT_DOUBLE_EQ(value(link, "h2d.data_bandwidth"), 64.0 * kReads / last);
  EXPECT_EQ(counter(link, "d2h.outstanding_stalls"), kReads - 32);
}

TEST(HtLinkModule, StreamingReadsReachThe8BitBandwidthLimit) { run_isolated([] { streaming_reads(8); }); }
TEST(HtLinkModule, StreamingReadsReachThe16BitBandwidthLimit) { run_isolated([] { streaming_reads(16); }); }

// --- configuration --------------------------------------------------------------------------

TEST(HtLinkModule, AnInvalidConfigurationIsRefusedWithItsMessages) {
  run_isolated([] {
    HtConfig c;
    c.width_bits = 12;
    c.lat.resp_device_ns = -1;
    try {
      HtLink link("link", c);
      ADD_FAILURE() << "no exception";
    } catch (const std::invalid_argument& e) {
      EXPECT_STREQ(e.what(),
                   "invalid HT link configuration: ht.width_bits: 12 is not a supported link width "
                   "(8 or 16); ht.lat.resp_device_ns: -1 is out of range 0..1000000000");
    }
  });
}

// --- errors -----------------------------------------------------------------------------------

// The far side's error status comes back unchanged, after the same round trip.
TEST(HtLinkModule, AnAddressErrorFromHostMemoryPropagates) {
  run_isolated([] {
    memory::Memory host_memory("host_memory", memory_config(0, 4096));
    fill_pattern(host_memory);
    HtLink link("link");
    LtInitiator device("device", [&host_memory](LtInitiator& d) {
      std::vector<std::uint8_t> buf(256, 0);
      auto r = d.access(tlm::TLM_READ_COMMAND, 8192, buf.data(), 16);
      EXPECT_EQ(r.status, tlm::TLM_ADDRESS_ERROR_RESPONSE);
      EXPECT_EQ(r.delay, sc_time(340, SC_NS));
      EXPECT_FALSE(r.dmi_allowed);
      // A split read whose last packet is outside: the error, and the first three packets' data.
      r = d.access(tlm::TLM_READ_COMMAND, 4096 - 192, buf.data(), 256, sc_time(1000, SC_NS));
      EXPECT_EQ(r.status, tlm::TLM_ADDRESS_ERROR_RESPONSE);
      EXPECT_EQ(r.delay, sc_time(1655, SC_NS));
      EXPECT_EQ(std::vector<std::uint8_t>(buf.begin(), buf.begin() + 192),
                std::vector<std::uint8_t>(host_memory.data() + 4096 - 192,
                                          host_memory.data() + 4096));
    });
    device.out.bind(link.dev_in);
    link.host_out.bind(host_memory.in);
    sc_core::sc_start();
    EXPECT_EQ(host_memory.reads(), 3u);
    EXPECT_EQ(counter(link, "d2h.errors"), 2u);
    EXPECT_EQ(counter(link, "d2h.reads"), 2u);
  });
}

// Host side through the device interconnect: an unmapped device address gets the interconnect's
// TLM_ADDRESS_ERROR_RESPONSE back at the host.
TEST(HtLinkModule, AnUnmappedDeviceAddressPropagatesThroughTheInterconnect) {
  run_isolated([] {
    memory::Memory device_memory("device_memory", memory_config());
    interconnect::Interconnect bus("bus", interconnect::InterconnectConfig{});
    ASSERT_EQ(bus.add_region({"mem", 0x10000, 0x10000, 0, true}), "");
    HtLink link("link");
    TlmHarness host("host");
    host.out.bind(link.host_in);
    link.dev_out.bind(bus.in);
    bus.out.bind(device_memory.in);
    host.at(sc_time(0, SC_NS)).read(0x10040, 8);
    host.at(sc_time(1000, SC_NS)).read(0x50000, 8);
    host.run();
    EXPECT_EQ(host.result(0).status, tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(host.result(1).status, tlm::TLM_ADDRESS_ERROR_RESPONSE);
    EXPECT_EQ(counter(link, "h2d.errors"), 1u);
  });
}

TEST(HtLinkModule, AnUnboundFarSideOrAStreamingAccessIsAnError) {
  run_isolated([] {
    memory::Memory host_memory("host_memory", memory_config());
    HtLink link("link");  // dev_out unbound: no device side to deliver host requests to
    LtInitiator host("host", [](LtInitiator& h) {
      std::vector<std::uint8_t> buf(8);
      const auto r = h.access(tlm::TLM_READ_COMMAND, 0x0, buf.data(), 8, sc_time(5, SC_NS));
      EXPECT_EQ(r.status, tlm::TLM_ADDRESS_ERROR_RESPONSE);
      EXPECT_EQ(r.delay, sc_time(5, SC_NS));
      EXPECT_EQ(h.debug(tlm::TLM_READ_COMMAND, 0x0, buf.data(), 8), 0u);
    });
    LtInitiator device("device", [](LtInitiator& d) {
      std::vector<std::uint8_t> buf(8);
      tlm::tlm_generic_payload tx;
      tx.set_command(tlm::TLM_READ_COMMAND);
      tx.set_address(0);
      tx.set_data_ptr(buf.data());
      tx.set_data_length(8);
      tx.set_streaming_width(4);  // a FIFO-style access: not an HT packet
      sc_time delay = sc_core::SC_ZERO_TIME;
      d.out->b_transport(tx, delay);
      EXPECT_EQ(tx.get_response_status(), tlm::TLM_BURST_ERROR_RESPONSE);
    });
    host.out.bind(link.host_in);
    device.out.bind(link.dev_in);
    link.host_out.bind(host_memory.in);
    sc_core::sc_start();
    EXPECT_EQ(host_memory.reads(), 0u);
    EXPECT_EQ(counter(link, "h2d.errors"), 1u);
    EXPECT_EQ(counter(link, "d2h.errors"), 1u);
    EXPECT_EQ(counter(link, "h2d.packets"), 0u);
  });
}

// --- debug transport and AT initiators --------------------------------------------------------

TEST(HtLinkModule, DebugTransportPassesStraightThrough) {
  run_isolated([] {
    memory::Memory host_memory("host_memory", memory_config());
    memory::Memory device_memory("device_memory", memory_config());
    fill_pattern(host_memory);
    HtLink link("link");
    LtInitiator host("host", [](LtInitiator& h) {
      std::uint8_t data[8] = {1, 2, 3, 4, 5, 6, 7, 8};
      EXPECT_EQ(h.debug(tlm::TLM_WRITE_COMMAND, 0x300, data, 8), 8u);
    });
    LtInitiator device("device", [&host_memory](LtInitiator& d) {
      std::vector<std::uint8_t> buf(100);
      EXPECT_EQ(d.debug(tlm::TLM_READ_COMMAND, 0x500, buf.data(), 100), 100u);
      EXPECT_EQ(buf, std::vector<std::uint8_t>(host_memory.data() + 0x500,
                                               host_memory.data() + 0x564));
      EXPECT_EQ(sc_core::sc_time_stamp(), sc_core::SC_ZERO_TIME);
    });
    host.out.bind(link.host_in);
    device.out.bind(link.dev_in);
    link.dev_out.bind(device_memory.in);
    link.host_out.bind(host_memory.in);
    sc_core::sc_start();
    EXPECT_EQ(device_memory.data()[0x300], 1);
    EXPECT_EQ(device_memory.data()[0x307], 8);
    EXPECT_EQ(counter(link, "h2d.packets") + counter(link, "d2h.packets"), 0u);
    EXPECT_EQ(host_memory.reads() + device_memory.writes(), 0u);
  });
}

// BEGIN_REQ through the simple socket's conversion: BEGIN_RESP at the same 340 ns.
TEST(HtLinkModule, ApproximatelyTimedInitiatorsAreAccepted) {
  run_isolated([] {
    memory::Memory host_memory("host_memory", memory_config());
    fill_pattern(host_memory);
    HtLink link("link");
    AtInitiator device("device");
    device.read(0x20, 16);
    device.out.bind(link.dev_in);
    link.host_out.bind(host_memory.in);
    sc_core::sc_start();
    EXPECT_EQ(device.requests[0].status, tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(device.requests[0].response, sc_time(340, SC_NS));
    EXPECT_EQ(device.requests[0].data,
              std::vector<std::uint8_t>(host_memory.data() + 0x20, host_memory.data() + 0x30));
  });
}

}  // namespace
}  // namespace par::ht
