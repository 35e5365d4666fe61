// The plain RAM target through the TLM harness: data, latency, bandwidth queueing, errors.
#include <gtest/gtest.h>

#include "support/sc_isolation.hpp"
#include "support/tlm_harness.hpp"
#include "memory.hpp"

namespace par::memory {
namespace {

using sc_core::sc_time;
using sc_core::SC_NS;

TEST(Memory, ReadsBackWhatWasWrittenWithItsLatency) {
  par::testing::run_isolated([] {
    MemoryConfig cfg;
    cfg.size = 4096;
    cfg.latency_ns = 20;
    par::testing::TlmHarness h;
    Memory mem("mem", cfg);
    h.out.bind(mem.in);
    h.at(sc_time(5, SC_NS)).write64(0x100, 0x1122334455667788ull).then().read(0x100, 8);
    h.run();
    EXPECT_EQ(h.result(0).status, tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(h.result(1).value(), 0x1122334455667788ull);
    EXPECT_EQ(h.result(0).latency, sc_time(20, SC_NS));
    EXPECT_EQ(h.result(1).issued, sc_time(25, SC_NS));
    EXPECT_EQ(mem.reads(), 1u);
    EXPECT_EQ(mem.bytes_written(), 8u);
    EXPECT_EQ(mem.stats().name(), "mem");
    EXPECT_EQ(mem.stats().find("read_bytes")->number(), 8);
    EXPECT_EQ(mem.stats().find("writes")->number(), 1);
  });
}

TEST(Memory, BandwidthLimitQueuesConcurrentAccesses) {
  par::testing::run_isolated([] {
    MemoryConfig cfg;
    cfg.size = 4096;
    cfg.bytes_per_ns = 1;  // a 64-byte access occupies the memory for 64 ns
    par::testing::TlmHarness h;
    Memory mem("mem", cfg);
    h.out.bind(mem.in);
    h.at(sc_time(0, SC_NS)).read(0, 64).read(64, 64).read(128, 64);
    h.run();
    EXPECT_EQ(h.result(0).latency, sc_time(64, SC_NS));
    EXPECT_EQ(h.result(1).latency, sc_time(128, SC_NS));
    EXPECT_EQ(h.result(2).latency, sc_time(192, SC_NS));
  });
}

TEST(Memory, AccessBeyondTheEndIsAnAddressError) {
  par::testing::run_isolated([] {
    MemoryConfig cfg;
    cfg.size = 256;
    par::testing::TlmHarness h;
    Memory mem("mem", cfg);
    h.out.bind(mem.in);
    h.read(252, 8).read(0x10000, 4);
    h.run();
    EXPECT_EQ(h.result(0).status, tlm::TLM_ADDRESS_ERROR_RESPONSE);
    EXPECT_EQ(h.result(1).status, tlm::TLM_ADDRESS_ERROR_RESPONSE);
  });
}

}  // namespace
}  // namespace par::memory
