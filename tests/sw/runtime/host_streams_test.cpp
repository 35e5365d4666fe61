// The runtime's stream calls against FakePort: the exact transactions on a core's stream window
// (par/core/stream_registers.hpp) and the errors for cores without a stream unit.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "host_runtime.hpp"
#include "par/core/stream_registers.hpp"
#include "runtime_test_support.hpp"

namespace par::runtime {
namespace {

using testing::FakePort;

constexpr std::uint64_t kStreamBase = 0x200000000000ull;

struct HostStreams : ::testing::Test {
  FakePort port;
  isa::Program program;
  simkit::StatGroup stats{"master"};
  RuntimeConfig cfg;
  HostStreams() {
    cfg.stream_base = kStreamBase;
    cfg.stream_cores = 2;
    port.mem_base = kStreamBase + core::kStreamWindowStride;  // core 1's window
  }
  std::uint64_t word(std::uint64_t offset) const {
    std::uint64_t v;
    std::memcpy(&v, port.mem.data() + offset, 8);
    return v;
  }
};

TEST_F(HostStreams, FillWritesTheElementsThenTheDescriptor) {
  HostRuntime rt(port, cfg, program, stats);
  rt.stream_fill(1, 2, 4, {10, 11, 12});
  ASSERT_EQ(port.log.size(), 2u);
  EXPECT_TRUE(port.log[0].write);
  EXPECT_EQ(port.log[0].address, port.mem_base + 0x1000 + 8 * 4);
  EXPECT_EQ(port.log[0].length, 24u);
  EXPECT_EQ(port.log[1].address, port.mem_base + 2 * 16);
  EXPECT_EQ(port.log[1].length, 16u);
  EXPECT_EQ(word(0x1000 + 8 * 5), 11u);
  EXPECT_EQ(word(2 * 16), 4u);      // CUR
  EXPECT_EQ(word(2 * 16 + 8), 7u);  // FIN
}

TEST_F(HostStreams, OpenAndDrainReadTheHeadAndTheElementsBeforeIt) {
  HostRuntime rt(port, cfg, program, stats);
  rt.stream_open(1, 1, 100, 50);
  EXPECT_EQ(word(16), 100u);
  EXPECT_EQ(word(24), 150u);
  // The kernel put three elements.
  const std::uint64_t put[] = {7, 8, 9};
  std::memcpy(port.mem.data() + 0x1000 + 8 * 100, put, sizeof put);
  const std::uint64_t head = 103;
  std::memcpy(port.mem.data() + 16, &head, 8);
  const StreamChannel c = rt.stream_channel(1, 1);
  EXPECT_EQ(c.cur, 103u);
  EXPECT_EQ(c.fin, 150u);
  EXPECT_EQ(rt.stream_drain(1, 1, 100), (std::vector<std::uint64_t>{7, 8, 9}));
  EXPECT_TRUE(rt.stream_drain(1, 1, 103).empty());
  try {
    rt.stream_drain(1, 1, 104);
    FAIL();
  } catch (const RuntimeError& e) {
    EXPECT_STREQ(e.what(), "stream_drain: channel s1 of core 1 has its head at 103, before the first element 104");
  }
}

TEST_F(HostStreams, CoresWithoutAStreamUnitAreErrors) {
  HostRuntime rt(port, cfg, program, stats);
  try {
    rt.stream_fill(2, 0, 0, {1});
    FAIL();
  } catch (const RuntimeError& e) {
    EXPECT_STREQ(e.what(), "stream_fill: core 2 has no stream unit (2 cores have one)");
  }
  cfg.stream_cores = 0;
  simkit::StatGroup other{"master"};
  HostRuntime off(port, cfg, program, other);
  try {
    off.stream_open(0, 0, 0, 1);
    FAIL();
  } catch (const RuntimeError& e) {
    EXPECT_STREQ(e.what(), "stream_open: core 0 has no stream unit (core.stream.enabled is off)");
  }
  EXPECT_TRUE(port.log.empty());
}

TEST_F(HostStreams, BusErrorsAreReported) {
  HostRuntime rt(port, cfg, program, stats);
  port.mem_base = 0;  // nothing answers at the window
  try {
    rt.stream_channel(1, 3);
    FAIL();
  } catch (const RuntimeError& e) {
    EXPECT_STREQ(e.what(), "read of 16 bytes at 0x200400000030 failed: TLM_ADDRESS_ERROR_RESPONSE");
  }
}

}  // namespace
}  // namespace par::runtime
