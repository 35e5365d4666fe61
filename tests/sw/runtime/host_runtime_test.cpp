// The host runtime against FakePort / FakeScheduler: allocation, copy chunking and timing,
// single accesses, symbols, the staging burst and doorbell of a launch, the three wait methods
// with exact times and transaction counts, waiting for a queue entry before a DOORBELL, failed
// packets (DeviceError, never a hang), limits.
#include <gtest/gtest.h>

#include <array>
#include <cstring>
#include <numeric>
#include <vector>

#include "host_runtime.hpp"
#include "support/sc_isolation.hpp"
#include "runtime_test_support.hpp"

namespace par::runtime {
namespace {

using testing::FakePort;
using testing::FakeScheduler;
using testing::ns;

isa::Program test_program() {
  isa::Program p;
  p.kind = isa::ProgramKind::Master;
  p.source_file = "t.par";
  p.code_labels = {{"kern", 5}, {"other", 9}};
  p.data_labels = {{"buf", 0x2000}, {"flag", 0x3000}};
  return p;
}

RuntimeConfig test_config() {
  RuntimeConfig c;
  c.heap_base = 0x10000;
  c.heap_bytes = 0x1000;
  return c;
}

struct Fixture : ::testing::Test {
  FakePort port;
  FakeScheduler sched;
  isa::Program program = test_program();
  simkit::StatGroup stats{"master"};
  Fixture() { port.scheduler = &sched; }
  double stat(const char* name) const { return stats.find(name)->number(); }
};

using HostRuntimeTest = Fixture;

TEST_F(HostRuntimeTest, AllocIsABumpAllocatorWithAlignmentAndAClearErrorWhenExhausted) {
  HostRuntime rt(port, test_config(), program, stats);
  EXPECT_EQ(rt.alloc(10).address, 0x10000u);
  EXPECT_EQ(rt.alloc(8, 8).address, 0x10010u);  // after 10 bytes, 8-aligned
  const DeviceBuffer b = rt.alloc(100);          // 64-aligned by default
  EXPECT_EQ(b.address, 0x10040u);
  EXPECT_EQ(b.bytes, 100u);
  EXPECT_EQ(rt.heap_used(), 0xA4u);
  EXPECT_EQ(rt.alloc(0x1000 - 0xC0, 64).address, 0x100C0u);  // exactly the rest
  try {
    rt.alloc(1);
    FAIL() << "no error";
  } catch (const RuntimeError& e) {
    EXPECT_STREQ(e.what(), "alloc of 1 bytes (align 64): device heap exhausted, 0 of 4096 bytes free in "
                           "[0x10000, 0x11000) (master.heap_base, master.heap_bytes)");
  }
  EXPECT_THROW(rt.alloc(8, 3), RuntimeError);
  EXPECT_TRUE(port.log.empty()) << "allocation is host bookkeeping, no transaction";
}

TEST_F(HostRuntimeTest, CopiesAreChunkedAtChunkBoundariesAndIssuedOneCycleApart) {
  HostRuntime rt(port, test_config(), program, stats);
  std::vector<std::uint8_t> src(200);
  std::iota(src.begin(), src.end(), 1);
  rt.copy_to_device(0x1010, src.data(), src.size());
  ASSERT_EQ(port.log.size(), 4u);
  const unsigned lengths[4] = {48, 64, 64, 24};
  const std::uint64_t addrs[4] = {0x1010, 0x1040, 0x1080, 0x10C0};
  for (int i = 0; i < 4; ++i) {
    EXPECT_TRUE(port.log[i].write);
    EXPECT_EQ(port.log[i].address, addrs[i]);
    EXPECT_EQ(port.log[i].length, lengths[i]);
    EXPECT_EQ(port.log[i].issue, ns(0.5 * i)) << "chunk " << i;
  }
  EXPECT_EQ(rt.now(), ns(101.5));  // the last chunk issued at 1.5 ns, 100 ns latency
  EXPECT_EQ(std::memcmp(port.mem.data() + 0x1010, src.data(), 200), 0);

  std::vector<std::uint8_t> back(200);
  rt.copy_from_device(back.data(), 0x1010, back.size());
  EXPECT_EQ(back, src);
  EXPECT_EQ(port.log.size(), 8u);
  EXPECT_FALSE(port.log[4].write);
  EXPECT_EQ(port.log[7].issue, ns(101.5 + 1.5));
  EXPECT_EQ(rt.now(), ns(203));
  EXPECT_EQ(stat("copy_to_device_bytes"), 200);
  EXPECT_EQ(stat("copy_from_device_bytes"), 200);
}

TEST_F(HostRuntimeTest, ChunkSizeAndIssueIntervalFollowTheConfiguration) {
  RuntimeConfig cfg = test_config();
  cfg.copy_chunk_bytes = 256;
  cfg.issue_cycles = 4;  // 2 ns apart
  HostRuntime rt(port, cfg, program, stats);
  std::vector<std::uint8_t> src(1024, 7);
  rt.copy_to_device(0x4000, src.data(), src.size());
  ASSERT_EQ(port.log.size(), 4u);
  EXPECT_EQ(port.log[3].length, 256u);
  EXPECT_EQ(port.log[3].issue, ns(6));
  EXPECT_EQ(rt.now(), ns(106));
}

TEST_F(HostRuntimeTest, BufferOverflowAndBusErrorsAreRuntimeErrors) {
  HostRuntime rt(port, test_config(), program, stats);
  const DeviceBuffer b = rt.alloc(16);
  std::uint8_t bytes[32] = {};
  try {
    rt.copy_to_device(b, bytes, 32);
    FAIL();
  } catch (const RuntimeError& e) {
    EXPECT_STREQ(e.what(), "copy_to_device: 32 bytes do not fit the 16-byte buffer at 0x10000");
  }
  try {
    rt.copy_from_device(bytes, 0x200000, 32);  // beyond the fake memory
    FAIL();
  } catch (const RuntimeError& e) {
    EXPECT_STREQ(e.what(), "copy_from_device: 32-byte read at 0x200000 failed: TLM_ADDRESS_ERROR_RESPONSE");
  }
  EXPECT_EQ(port.log.size(), 1u) << "the copy stops at its first failed chunk";
  try {
    rt.read(0x1004);
    FAIL();
  } catch (const RuntimeError& e) {
    EXPECT_STREQ(e.what(), "read: 0x1004 is not 8-byte aligned");
  }
}

TEST_F(HostRuntimeTest, SingleWordAccessesAreBlockingTransactions) {
  HostRuntime rt(port, test_config(), program, stats);
  rt.compute(10);  // 5 ns of host work
  rt.write(0x2000, 0x1122334455667788ull);
  EXPECT_EQ(port.log.at(0).issue, ns(5));
  EXPECT_EQ(rt.now(), ns(105));
  EXPECT_EQ(rt.read(0x2000), 0x1122334455667788ull);
  EXPECT_EQ(rt.now(), ns(205));
}

TEST_F(HostRuntimeTest, KernelsAndSymbolsComeFromTheProgramLabels) {
  HostRuntime rt(port, test_config(), program, stats);
  EXPECT_EQ(rt.kernel("other").start, 9u);
  EXPECT_EQ(rt.symbol("flag"), 0x3000u);
  try {
    rt.kernel("kernl");
    FAIL();
  } catch (const RuntimeError& e) {
    EXPECT_STREQ(e.what(), "unknown kernel 'kernl' (code labels of t.par: kern, other)");
  }
  try {
    rt.symbol("kern");
    FAIL();
  } catch (const RuntimeError& e) {
    EXPECT_STREQ(e.what(), "symbol 'kern': a code label, not a data label");
  }
  EXPECT_THROW(rt.kernel("buf"), RuntimeError);
  EXPECT_THROW(rt.symbol("nope"), RuntimeError);
}

TEST_F(HostRuntimeTest, LaunchStagesTheWholeBlockInOneBurstThenRingsTheDoorbell) {
  HostRuntime rt(port, test_config(), program, stats);
  const Launch l = rt.launch(rt.kernel("kern"), 1280, {0xA1, 0xA2, 0xA3});
  EXPECT_EQ(l.seq, 1u);
  ASSERT_EQ(port.log.size(), 2u);
  const FakePort::Tx& burst = port.log[0];
  EXPECT_TRUE(burst.write);
  EXPECT_EQ(burst.address, port.scheduler_base);
  ASSERT_EQ(burst.length, 256u);
  std::uint64_t w[32];
  std::memcpy(w, burst.data.data(), 256);
  EXPECT_EQ(w[0], 5u);     // START
  EXPECT_EQ(w[1], 1280u);  // THREADS
  EXPECT_EQ(w[2], 0u);     // FLAG_ADDR: not used by the interrupt wait
  EXPECT_EQ(w[3], 1u);     // TAG = sequence number, the interrupt's data
  EXPECT_EQ(w[4], sched::kControlInterrupt);  // CONTROL
  for (int k = 5; k < 16; ++k) EXPECT_EQ(w[k], 0u);
  EXPECT_EQ(w[16], 0u);    // i0 is never inherited
  EXPECT_EQ(w[17], 0xA1u);
  EXPECT_EQ(w[18], 0xA2u);
  EXPECT_EQ(w[19], 0xA3u);
  for (int k = 20; k < 32; ++k) EXPECT_EQ(w[k], 0u);
  EXPECT_EQ(port.log[1].address, port.scheduler_base + sched::kRegDoorbell);
  EXPECT_EQ(port.log[1].issue, ns(100));
  ASSERT_EQ(sched.packets().size(), 1u);
  EXPECT_EQ(sched.packets()[0].accepted, ns(200));
  const LaunchTiming t = rt.timing(l);
  EXPECT_EQ(t.kernel, "kern");
  EXPECT_EQ(t.threads, 1280);
  EXPECT_EQ(t.submit_begin, ns(0));
  EXPECT_EQ(t.submitted, ns(200));
  EXPECT_FALSE(t.done);
  EXPECT_EQ(stat("launches"), 1);

  // No packet for N <= 0 (docs/isa.md §7.8), and at most 15 inherited values.
  EXPECT_EQ(rt.launch(rt.kernel("kern"), 0).seq, 0u);
  EXPECT_EQ(port.log.size(), 2u);
  EXPECT_THROW(rt.launch(rt.kernel("kern"), 1, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}), RuntimeError);
}

TEST_F(HostRuntimeTest, InterruptWaitSleepsUntilTheCompletionInterruptWithoutATransaction) {
  HostRuntime rt(port, test_config(), program, stats);
  const Launch l = rt.launch(rt.kernel("kern"), 10);  // accepted at 200, completes at 1200
  rt.wait(l);
  EXPECT_EQ(port.log.size(), 2u);
  EXPECT_EQ(port.interrupts_taken, 1u);
  EXPECT_EQ(rt.now(), ns(1200));
  const LaunchTiming t = rt.timing(l);
  EXPECT_TRUE(t.done);
  EXPECT_EQ(t.wait_begin, ns(200));
  EXPECT_EQ(t.completed, ns(1200));
  EXPECT_EQ(stat("waits"), 1);
  EXPECT_EQ(stat("wait_ns"), 1000);
  rt.wait(l);  // known complete: no transaction
  rt.wait();
  EXPECT_EQ(port.log.size(), 2u);
  EXPECT_EQ(port.interrupts_taken, 1u);
  EXPECT_FALSE(rt.outstanding());
}

TEST_F(HostRuntimeTest, WithEveryQueueEntryTakenALaunchFirstWaitsForACompletion) {
  RuntimeConfig cfg = test_config();
  cfg.queue_depth = 2;
  sched.depth = 2;
  HostRuntime rt(port, cfg, program, stats);
  rt.launch(rt.kernel("kern"), 10);   // staged 0..100, DOORBELL 100..200: completes at 1200
  rt.launch(rt.kernel("other"), 10);  // staged 200..300, DOORBELL 300..400: completes at 1400
  rt.launch(rt.kernel("kern"), 10);   // waits for packet 1's interrupt at 1200, then stages
  ASSERT_EQ(port.log.size(), 6u);
  EXPECT_EQ(port.log[4].issue, ns(1200));
  EXPECT_EQ(port.log[5].address, port.scheduler_base + sched::kRegDoorbell);
  EXPECT_EQ(port.log[5].issue, ns(1300));
  EXPECT_EQ(sched.refused_doorbells(), 0);
  EXPECT_EQ(stat("queue_full_waits"), 1);
  EXPECT_TRUE(rt.launches()[0].done);
  EXPECT_EQ(rt.launches()[0].completed, ns(1200));
  EXPECT_FALSE(rt.launches()[1].done);
  rt.wait();  // packet 3: accepted at 1400, completes at 2400
  EXPECT_EQ(rt.now(), ns(2400));
  EXPECT_EQ(port.interrupts_taken, 3u);
  EXPECT_EQ(stat("waits"), 2);
}

TEST_F(HostRuntimeTest, PollWaitReadsCompletedEveryPollIntervalThenStatus) {
  RuntimeConfig cfg = test_config();
  cfg.wait = WaitMode::Poll;
  cfg.poll_ns = 100;
  HostRuntime rt(port, cfg, program, stats);
  rt.launch(rt.kernel("kern"), 10);  // completes at 1200
  rt.wait();
  // COMPLETED issued at 200, 400, ..., 1200 (seen at +100 ns); the sixth sees the packet.
  ASSERT_EQ(port.log.size(), 2u + 6 + 1);
  for (int i = 0; i < 6; ++i) {
    EXPECT_EQ(port.log[2 + i].address, port.scheduler_base + sched::kRegCompleted);
    EXPECT_EQ(port.log[2 + i].issue, ns(200 + 200 * i));
  }
  EXPECT_EQ(port.log[8].address, port.scheduler_base + sched::kRegStatus);
  EXPECT_EQ(rt.now(), ns(1400));
  EXPECT_EQ(stat("polls"), 6);
  EXPECT_EQ(rt.launches()[0].completed, ns(1400));
}

TEST_F(HostRuntimeTest, FlagWaitPollsTheHostFlagWhoseTagIsTheSequenceNumber) {
  RuntimeConfig cfg = test_config();
  cfg.wait = WaitMode::Flag;
  cfg.flag_addr = 0x3000;
  port.set_word(0x3000, 99);  // stale: the runtime clears it before its first launch
  HostRuntime rt(port, cfg, program, stats);
  rt.launch(rt.kernel("kern"), 10);  // flag cleared 0..100, staged 100..200, doorbell 200..300
  EXPECT_EQ(port.log[0].address, 0x3000u);
  EXPECT_TRUE(port.log[0].write);
  std::uint64_t w[32];
  std::memcpy(w, port.log[1].data.data(), 256);
  EXPECT_EQ(w[2], 0x3000u);  // FLAG_ADDR
  EXPECT_EQ(w[3], 1u);       // TAG = sequence number
  rt.wait();                 // completes at 1300
  ASSERT_EQ(port.log.size(), 3u + 6 + 1);
  for (int i = 0; i < 6; ++i) EXPECT_EQ(port.log[3 + i].address, 0x3000u) << i;
  EXPECT_EQ(port.log[9].address, port.scheduler_base + sched::kRegStatus);
  EXPECT_EQ(rt.now(), ns(1500));

  rt.launch(rt.kernel("other"), 3);  // no second clear
  std::memcpy(w, port.log[10].data.data(), 256);
  EXPECT_EQ(w[3], 2u);
}

TEST_F(HostRuntimeTest, AFailedPacketIsADeviceErrorInEveryWaitMode) {
  for (WaitMode mode : {WaitMode::Interrupt, WaitMode::Poll, WaitMode::Flag}) {
    SCOPED_TRACE(to_string(mode));
    FakePort p;
    FakeScheduler s;
    s.fails = [](std::uint64_t seq) { return seq == 2; };
    p.scheduler = &s;
    RuntimeConfig cfg = test_config();
    cfg.wait = mode;
    cfg.flag_addr = 0x3000;
    simkit::StatGroup g("m");
    HostRuntime rt(p, cfg, program, g);
    const Launch a = rt.launch(rt.kernel("kern"), 10);
    const Launch b = rt.launch(rt.kernel("other"), 7);
    rt.launch(rt.kernel("kern"), 1);
    try {
      rt.wait(a);  // covers every packet submitted so far
      FAIL() << "no error";
    } catch (const DeviceError& e) {
      EXPECT_EQ(e.seq(), 2u);
      EXPECT_STREQ(e.what(), "packet 2 (other, 7 threads) failed: the thread scheduler reported it (FAILED_SEQ = 2)");
    }
    EXPECT_EQ(s.clear_errors(), 1);
    EXPECT_FALSE(rt.outstanding());
    EXPECT_FALSE(rt.timing(b).ok);
    EXPECT_TRUE(rt.timing(a).ok);
    EXPECT_THROW(rt.wait(b), DeviceError);  // remembered
    EXPECT_NO_THROW(rt.wait(a));
    // The error was cleared: the next packet's wait succeeds.
    rt.launch(rt.kernel("kern"), 1);
    EXPECT_NO_THROW(rt.wait());
  }
}

TEST_F(HostRuntimeTest, DiagnosticsExplainAFailedPacket) {
  sched.fails = [](std::uint64_t) { return true; };
  HostRuntime rt(port, test_config(), program, stats);
  rt.set_diagnostics([](std::uint64_t seq) { return "core0 says no (seq " + std::to_string(seq) + ")"; });
  rt.launch(rt.kernel("kern"), 1280);
  try {
    rt.wait();
    FAIL();
  } catch (const DeviceError& e) {
    EXPECT_STREQ(e.what(), "packet 1 (kern, 1280 threads) failed: core0 says no (seq 1)");
  }
}

TEST_F(HostRuntimeTest, APollingWaitHasATimeLimitInsteadOfHanging) {
  sched.never_complete = true;
  RuntimeConfig cfg = test_config();
  cfg.wait = WaitMode::Poll;
  cfg.poll_ns = 1000;
  cfg.wait_limit_ns = 10000;
  HostRuntime rt(port, cfg, program, stats);
  rt.launch(rt.kernel("kern"), 1);
  try {
    rt.wait();
    FAIL();
  } catch (const RuntimeError& e) {
    EXPECT_STREQ(e.what(), "wait for packets 1..1 took longer than master.wait_limit_ns = 10000 ns");
  }
}

TEST(RuntimeConfigTest, InvalidValuesNameTheirOption) {
  RuntimeConfig c;
  c.copy_chunk_bytes = 48;
  c.queue_depth = 0;
  c.wait = WaitMode::Flag;
  c.poll_ns = 0;
  const std::vector<std::string> e = c.validate();
  ASSERT_EQ(e.size(), 4u);
  EXPECT_EQ(e[0], "master.copy_chunk_bytes: 48 is not a power of two in 1..1048576");
  EXPECT_EQ(e[1], "scheduler.queue_depth: must be at least 1");
  EXPECT_EQ(e[2], "master.poll_ns: must be in (0, 1e12]");
  EXPECT_EQ(e[3], "master.flag_addr: must be set (a host-memory address) when master.wait = flag");
  FakePort port;
  simkit::StatGroup g("m");
  const isa::Program p;
  EXPECT_THROW(HostRuntime(port, c, p, g), std::invalid_argument);
}

}  // namespace
}  // namespace par::runtime
