// ParCore's `ctrl` register protocol (par/core/core_registers.hpp): the descriptor block, a
// DOORBELL that returns at once and starts the packet, STATUS, the `irq` completion line, a
// refused DOORBELL while busy, a failed launch, and the access errors. One 1x4 core at 1 GHz;
// the register accesses take no time of their own.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "support/rise_probe.hpp"
#include "support/sc_isolation.hpp"
#include "support/tlm_harness.hpp"
#include "core_test_support.hpp"
#include "memory.hpp"
#include "par_core.hpp"
#include "par_core_test_support.hpp"

namespace par::core {
namespace {

using sc_core::sc_time;
using sc_core::SC_NS;

sc_time ns(double v) { return sc_time(v, SC_NS); }

// `ok` stores i0 + 1 at 0x80 + 8 * i0; `bad` makes a misaligned load.
const char* const kSource = R"(.PAR
.ADDRESS ok
.THREADS 8
.CODE
ok:     sll    r1 = i0, 3
        add    r2 = i0, 1
        st8    r1[0x80] = r2   #
bad:    set    r1 = 4
        ld8    r2 = r1[0]      #
)";

// A core, its completion line with a probe, a scripted initiator on `ctrl`.
struct Bench : testing::CoreBench {
  par::testing::RiseProbe done{"done"};
  par::testing::TlmHarness host{"host"};

  Bench() : CoreBench(kSource, CoreConfig{}) {
    done.in.bind(line);
    host.out.bind(core->ctrl);
  }
  PacketDescriptor packet(const std::string& label, std::int64_t threads) const {
    PacketDescriptor d;
    d.start = program.code_labels.at(label);
    d.threads = threads;
    return d;
  }
  std::uint64_t stored(std::uint64_t i0) const {
    std::uint64_t v = 0;
    core->local_memory().read_block(0x80 + 8 * i0, reinterpret_cast<std::uint8_t*>(&v), 8);
    return v;
  }
};

// Cycles of the `ok` packet of 8 threads on a core alone (the program runner).
double ok_cycles() {
  const ProgramRun reference = testing::run_source(kSource, CoreConfig{});
  EXPECT_TRUE(reference.ok) << reference.error;
  return static_cast<double>(reference.stats.cycles);
}

TEST(ParCoreCtrl, ADoorbellStartsTheStagedPacketAndTheLineRisesAtItsEnd) {
  const double cycles = ok_cycles();
  par::testing::run_isolated([cycles] {
    Bench b;
    par::testing::TlmHarness& h = b.host;
    testing::launch(h, ns(100), b.packet("ok", 8));  // 0, 1
    h.at(ns(101)).read(kCoreRegStatus, 8);           // 2: busy
    h.at(ns(102)).write64(kCoreRegDoorbell, 1);      // 3: refused while busy
    h.at(ns(103)).read(kCoreRegStart, kCoreDescriptorEnd);  // 4: the staged registers
    h.at(ns(200) + ns(cycles)).read(kCoreRegStatus, 8);     // 5: idle, the launch succeeded
    h.run();
    EXPECT_EQ(h.result(1).status, tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(h.result(1).completed, ns(100)) << "the DOORBELL returns at once";
    EXPECT_EQ(h.result(2).value(), kCoreStatusBusy);
    EXPECT_EQ(h.result(3).status, tlm::TLM_GENERIC_ERROR_RESPONSE);
    PacketDescriptor staged;
    std::memcpy(&staged, h.result(4).read_data.data(), sizeof staged);
    EXPECT_EQ(staged.start, 0u);
    EXPECT_EQ(staged.threads, 8);
    EXPECT_EQ(h.result(5).value(), kCoreStatusIdle);
    ASSERT_EQ(b.done.rises.size(), 1u) << "one launch ran: the refused DOORBELL started nothing";
    EXPECT_EQ(b.done.rises[0], ns(100) + ns(cycles));
    EXPECT_EQ(b.core->packets_run(), 1);
    for (std::uint64_t i = 0; i < 8; ++i) EXPECT_EQ(b.stored(i), i + 1) << "thread " << i;
  });
}

// The line's one driver lowers it when a launch starts and raises it at the launch's end, also
// for launches that take no simulated time (the line falls and rises within delta cycles).
TEST(ParCoreCtrl, TheLineRisesOnceAtTheEndOfEveryLaunchEmptyOnesToo) {
  const double cycles = ok_cycles();
  par::testing::run_isolated([cycles] {
    Bench b;
    par::testing::TlmHarness& h = b.host;
    testing::launch(h, ns(100), b.packet("ok", 0));  // 0, 1: empty
    testing::launch(h, ns(110), b.packet("ok", 0));  // 2, 3: empty, the line high before it
    testing::launch(h, ns(120), b.packet("ok", 8));  // 4, 5
    h.at(ns(119) + ns(cycles)).read(kCoreRegStatus, 8);  // 6: still busy
    h.at(ns(121) + ns(cycles)).read(kCoreRegStatus, 8);  // 7: idle
    testing::launch(h, ns(200) + ns(cycles), b.packet("ok", 8));  // 8, 9
    h.run();
    for (std::size_t i : {1u, 3u, 5u, 9u}) EXPECT_EQ(h.result(i).status, tlm::TLM_OK_RESPONSE) << "DOORBELL " << i;
    EXPECT_EQ(h.result(6).value(), kCoreStatusBusy);
    EXPECT_EQ(h.result(7).value(), kCoreStatusIdle);
    const std::vector<sc_time> rises = {ns(100), ns(110), ns(120) + ns(cycles), ns(200) + ns(2 * cycles)};
    EXPECT_EQ(b.done.rises, rises);
    EXPECT_EQ(b.core->packets_run(), 4);
  });
}

TEST(ParCoreCtrl, AFailedLaunchShowsInStatusUntilTheNextOneSucceeds) {
  par::testing::run_isolated([] {
    Bench b;
    par::testing::TlmHarness& h = b.host;
    testing::launch(h, ns(0), b.packet("bad", 2));    // 0, 1
    h.at(ns(1000)).read(kCoreRegStatus, 8);           // 2
    PacketDescriptor second = b.packet("ok", 4);
    second.first_thread = 4;                          // i0 = 4..7
    testing::launch(h, ns(1100), second);             // 3, 4
    h.at(ns(2000)).read(kCoreRegStatus, 8);           // 5
    h.run();
    EXPECT_EQ(h.result(2).value(), kCoreStatusFailed);
    EXPECT_EQ(h.result(5).value(), kCoreStatusIdle);
    ASSERT_EQ(b.done.rises.size(), 2u);
    EXPECT_LT(b.done.rises[0], ns(1000));
    EXPECT_TRUE(b.core->failed());
    EXPECT_NE(b.core->error().find("misaligned 8-byte load at 0x4"), std::string::npos) << b.core->error();
    for (std::uint64_t i = 4; i < 8; ++i) EXPECT_EQ(b.stored(i), i + 1) << "thread " << i;
    EXPECT_EQ(b.stored(0), 0u);
  });
}

TEST(ParCoreCtrl, BadAccessesGetTheirErrorResponses) {
  par::testing::run_isolated([] {
    Bench b;
    par::testing::TlmHarness& h = b.host;
    h.then().write64(0x004, 1);                                   // 0: misaligned
    h.then().write(0x000, std::vector<std::uint8_t>(12));         // 1: not a multiple of 8
    h.then().write(0x090, std::vector<std::uint8_t>(16));         // 2: crosses the block's end
    h.then().read(kCoreRegDoorbell, 8);                           // 3: DOORBELL is write-only
    h.then().write64(kCoreRegStatus, 0);                          // 4: STATUS is read-only
    h.then().read(kCoreRegStatus, 16);                            // 5: one word only
    h.then().read(0x098, 8);                                      // 6: between the block and DOORBELL
    h.then().read(kCoreRegSpaceEnd, 8);                           // 7
    h.run();
    const tlm::tlm_response_status expected[] = {
        tlm::TLM_ADDRESS_ERROR_RESPONSE, tlm::TLM_ADDRESS_ERROR_RESPONSE, tlm::TLM_BURST_ERROR_RESPONSE,
        tlm::TLM_COMMAND_ERROR_RESPONSE, tlm::TLM_COMMAND_ERROR_RESPONSE, tlm::TLM_BURST_ERROR_RESPONSE,
        tlm::TLM_ADDRESS_ERROR_RESPONSE, tlm::TLM_ADDRESS_ERROR_RESPONSE};
    for (std::size_t i = 0; i < 8; ++i) EXPECT_EQ(h.result(i).status, expected[i]) << "access " << i;
    EXPECT_TRUE(b.done.rises.empty());
    EXPECT_EQ(b.core->packets_run(), 0);
  });
}

}  // namespace
}  // namespace par::core
