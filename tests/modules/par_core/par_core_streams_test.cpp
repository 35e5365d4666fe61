// ParCore's stream window (par/core/stream_registers.hpp): the host fills a channel, a packet
// gets from it and puts to another, the host drains it; accesses while the core runs and bad
// accesses get their error responses and change nothing. One 2x2 core with a stream unit, 1 GHz.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "support/sc_isolation.hpp"
#include "support/tlm_harness.hpp"
#include "core_test_support.hpp"
#include "memory.hpp"
#include "par/core/stream_registers.hpp"
#include "par_core.hpp"
#include "par_core_test_support.hpp"

namespace par::core {
namespace {

sc_core::sc_time stream_ns(double v) { return sc_core::sc_time(v, sc_core::SC_NS); }

// Every thread takes one element of s0 and puts it + 100 to s1.
const char* const kStreamCopy = R"(.PAR
.ADDRESS copy
.THREADS 4
.CODE
copy:   get    r1 = s0
        add    r1 = r1, 100
        put    s1 = r1         #
)";

std::vector<std::uint8_t> words(std::initializer_list<std::uint64_t> v) {
  std::vector<std::uint8_t> b(v.size() * 8);
  std::size_t i = 0;
  for (std::uint64_t x : v) std::memcpy(b.data() + 8 * i++, &x, 8);
  return b;
}

std::uint64_t word_at(const par::testing::TlmAccess& a, std::size_t i) {
  std::uint64_t v;
  std::memcpy(&v, a.read_data.data() + 8 * i, 8);
  return v;
}

CoreConfig stream_core() {
  CoreConfig c = testing::config(2, 2);
  c.stream.enabled = true;
  return c;
}

struct StreamBench : testing::CoreBench {
  par::testing::TlmHarness ctrl{"ctrl_host"};
  par::testing::TlmHarness window{"stream_host"};

  StreamBench() : CoreBench(kStreamCopy, stream_core()) {
    ctrl.out.bind(core->ctrl);
    EXPECT_NE(core->streams(), nullptr);
    window.out.bind(*core->streams());
  }
};

TEST(ParCoreStreams, TheHostFillsAndDrainsChannelsBetweenLaunches) {
  par::testing::run_isolated([] {
    StreamBench b;
    par::testing::TlmHarness& w = b.window;
    w.at(stream_ns(0)).write(stream_element_reg(0), words({1, 2, 3, 4}));           // 0
    w.then().write(stream_channel_reg(0, kStreamCur), words({0, 4, 8, 12}));        // 1: s0 = [0, 4), s1 = [8, 12)
    testing::launch(b.ctrl, stream_ns(100), testing::descriptor_of(b.program));
    w.at(stream_ns(101)).read(stream_element_reg(0), 8);                            // 2: the core is busy
    w.at(stream_ns(1000)).read(stream_channel_reg(0, kStreamCur), 32);              // 3
    w.then().read(stream_element_reg(8), 32);                                       // 4
    w.then().write64(stream_channel_reg(8, kStreamCur), 0);                         // 5: no channel 8
    w.then().write64(stream_channel_reg(0, kStreamFin), 4097);                      // 6: past the SRF
    w.then().read(stream_element_reg(4095), 16);                                    // 7: runs past the SRF
    w.then().read(stream_element_reg(0) + 4, 8);                                    // 8: misaligned
    w.then().read(stream_channel_reg(0, kStreamCur), 16);                           // 9: unchanged by 6
    b.ctrl.run();
    EXPECT_EQ(w.result(0).status, tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(w.result(0).completed, stream_ns(1)) << "one core cycle per transaction";
    EXPECT_EQ(w.result(2).status, tlm::TLM_COMMAND_ERROR_RESPONSE);
    ASSERT_EQ(w.result(3).status, tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(word_at(w.result(3), 0), 4u);   // s0 empty
    EXPECT_EQ(word_at(w.result(3), 2), 12u);  // s1 full
    // Slot positions in order: threads 0 and 2 (lanes 0, 1) take 1, 2; threads 1 and 3 take 3, 4.
    for (std::size_t i = 0; i < 4; ++i) EXPECT_EQ(word_at(w.result(4), i), 101 + i);
    for (std::size_t i = 5; i <= 8; ++i) EXPECT_EQ(w.result(i).status, tlm::TLM_ADDRESS_ERROR_RESPONSE) << i;
    EXPECT_EQ(word_at(w.result(9), 1), 4u);
    EXPECT_FALSE(b.core->failed()) << b.core->error();
    EXPECT_EQ(b.core->stream_unit()->elements_written(), 4u);
  });
}

}  // namespace
}  // namespace par::core
