// The ThreadScheduler module through TLM, against fake PAR cores (scheduler_test_support.hpp):
// registers, static and dynamic splitting with 1, 2 and 4 cores, completion (STATUS, COMPLETED,
// the completion interrupt, flag write), a full queue, failures, empty packets, overlap,
// statistics.
//
// Unless a test says otherwise: register access 10 ns, dispatch 10 ns per share, host memory
// (the `notify` target) 25 ns per access. A command staged with one burst and a doorbell issued
// at t = 0 takes effect at t = 20 ns (the DOORBELL returns then: register latency only); share i
// of a packet is then sent at 20 + 10 i and starts on its core at 30 + 10 i. Every command asks
// for the completion interrupt unless a test says otherwise.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <tlm_utils/simple_initiator_socket.h>

#include "support/sc_isolation.hpp"
#include "support/tlm_harness.hpp"
#include "memory.hpp"
#include "scheduler_test_support.hpp"
#include "thread_scheduler.hpp"

namespace par::sched {
namespace {

using par::testing::TlmHarness;
using sc_core::sc_time;
using sched::testing::command_block;
using sched::testing::FakeCore;
using sched::testing::InterruptRecorder;
using sched::testing::ns;
using sched::testing::submit;

constexpr std::uint64_t kMemBytes = 4096;

// A scheduler with one fake core (and its completion line) per entry of `ns_per_thread`, a
// scripted host on `regs`, a host memory on `notify` and a recorder on `irq`.
struct Bench {
  TlmHarness host{"host"};
  ThreadScheduler sched;
  sched::testing::FakeCores fakes;
  std::vector<std::unique_ptr<FakeCore>>& cores = fakes.cores;
  memory::Memory host_mem;
  InterruptRecorder irqs{"irqs"};

  Bench(const SchedulerConfig& cfg, const std::vector<double>& ns_per_thread, double mem_latency_ns = 25)
      : sched("sched", cfg), host_mem("host_mem", memory::MemoryConfig{kMemBytes, mem_latency_ns, 0}) {
    host.out.bind(sched.regs);
    for (double n : ns_per_thread) fakes.add(sched, n);
    sched.notify.bind(host_mem.in);
    sched.irq.bind(irqs.in);
  }

  double stat(const std::string& path) const {
    const simkit::Stat* s = sched.stats().find(path);
    EXPECT_NE(s, nullptr) << path;
    return s != nullptr ? s->number() : -1;
  }
  std::uint64_t mem64(std::uint64_t addr) {
    std::uint64_t v;
    std::memcpy(&v, host_mem.data() + addr, 8);
    return v;
  }
  std::uint64_t dbg_read(std::uint64_t addr) {
    std::uint64_t v = 0;
    tlm::tlm_generic_payload tx;
    tx.set_command(tlm::TLM_READ_COMMAND);
    tx.set_address(addr);
    tx.set_data_ptr(reinterpret_cast<unsigned char*>(&v));
    tx.set_data_length(8);
    tx.set_streaming_width(8);
    EXPECT_EQ(host.out->transport_dbg(tx), 8u) << std::hex << addr;
    return v;
  }
};

SchedulerConfig config(Policy policy = Policy::Static) {
  SchedulerConfig c;
  c.policy = policy;
  return c;
}

void expect_access(const TlmHarness& h, std::size_t i, tlm::tlm_response_status status, sc_time completed,
                   const std::string& what) {
  EXPECT_EQ(h.result(i).status, status) << what;
  EXPECT_EQ(h.result(i).completed, completed) << what;
}

std::vector<std::uint64_t> words_of(const std::vector<std::uint8_t>& bytes) {
  std::vector<std::uint64_t> w(bytes.size() / 8);
  std::memcpy(w.data(), bytes.data(), w.size() * 8);
  return w;
}

TEST(ThreadSchedulerModule, RegistersReadWriteBurstAndErrors) {
  par::testing::run_isolated([] {
    Bench b(config(), {1});
    std::vector<std::uint64_t> inherited(16);
    for (unsigned k = 1; k < 16; ++k) inherited[k] = 100 + k;
    const std::vector<std::uint8_t> block = command_block(0x40, -3, 0x1000, 0xabc, inherited);
    TlmHarness& h = b.host;
    h.then().write(kRegStart, block);                       // 0
    h.then().read(kRegStart, 256);                          // 1
    h.then().write64(reg_inherited(5), 55);                 // 2
    h.then().read(reg_inherited(5), 8);                     // 3
    h.then().read(kRegInheritedBase, 8);                    // 4: the place of i0 reads 0
    h.then().read(kRegThreads, 8);                          // 5
    h.then().read(kRegStatus, 8);                           // 6
    h.then().read(kRegSubmitted, 8);                        // 7
    h.then().read(kRegCompleted, 8);                        // 8
    h.then().read(kRegQueued, 8);                           // 9
    h.then().read(kRegFailedSeq, 8);                        // 10
    h.then().read(0x140, 8);                                // 11: reserved
    h.then().read(0x004, 8);                                // 12
    h.then().write64(kRegStatus, 0);                        // 13
    h.then().read(kRegStatus, 16);                          // 14
    h.then().read(kRegDoorbell, 8);                         // 15
    h.then().read(0x200, 8);                                // 16
    h.then().write(0x0F8, std::vector<std::uint8_t>(16));   // 17
    h.then().read(0x138, 8);                                // 18
    h.run();
    for (std::size_t i = 0; i < h.size(); ++i) EXPECT_EQ(h.result(i).latency, ns(10)) << "access " << i;
    EXPECT_EQ(h.result(18).completed, ns(190));
    const std::vector<std::uint64_t> back = words_of(h.result(1).read_data);
    const std::vector<std::uint64_t> sent = words_of(block);
    for (std::size_t i = 0; i < 32; ++i) {
      const bool reserved = i >= 5 && i <= 16;
      EXPECT_EQ(back[i], reserved ? 0 : sent[i]) << "word " << i;
    }
    EXPECT_EQ(h.result(3).value(), 55u);
    EXPECT_EQ(h.result(4).value(), 0u);
    EXPECT_EQ(h.result(5).value(), static_cast<std::uint64_t>(-3));
    for (std::size_t i = 6; i <= 10; ++i) {
      EXPECT_EQ(h.result(i).status, tlm::TLM_OK_RESPONSE) << i;
      EXPECT_EQ(h.result(i).value(), 0u) << i;
    }
    EXPECT_EQ(h.result(11).status, tlm::TLM_ADDRESS_ERROR_RESPONSE);
    EXPECT_EQ(h.result(12).status, tlm::TLM_ADDRESS_ERROR_RESPONSE);
    EXPECT_EQ(h.result(13).status, tlm::TLM_COMMAND_ERROR_RESPONSE);
    EXPECT_EQ(h.result(14).status, tlm::TLM_BURST_ERROR_RESPONSE);
    EXPECT_EQ(h.result(15).status, tlm::TLM_COMMAND_ERROR_RESPONSE);
    EXPECT_EQ(h.result(16).status, tlm::TLM_ADDRESS_ERROR_RESPONSE);
    EXPECT_EQ(h.result(17).status, tlm::TLM_BURST_ERROR_RESPONSE);
    EXPECT_EQ(h.result(18).status, tlm::TLM_ADDRESS_ERROR_RESPONSE);
    EXPECT_TRUE(b.cores[0]->launches().empty());

    // Debug transport: reads without time, writes only to the staging block.
    EXPECT_EQ(b.dbg_read(reg_inherited(5)), 55u);
    EXPECT_EQ(b.dbg_read(kRegStatus), 0u);
    std::uint64_t v = 9;
    tlm::tlm_generic_payload tx;
    tx.set_command(tlm::TLM_WRITE_COMMAND);
    tx.set_address(kRegDoorbell);
    tx.set_data_ptr(reinterpret_cast<unsigned char*>(&v));
    tx.set_data_length(8);
    tx.set_streaming_width(8);
    EXPECT_EQ(h.out->transport_dbg(tx), 0u);  // never rings the doorbell
    EXPECT_EQ(b.sched.peek(kRegSubmitted), 0u);
    tx.set_address(kRegTag);
    EXPECT_EQ(h.out->transport_dbg(tx), 8u);
    EXPECT_EQ(b.sched.peek(kRegTag), 9u);
  });
}

// Static split of 11 threads (divisible by neither 2 nor 4) over C cores taking 1 ns per thread.
void check_static_split(std::size_t cores) {
  Bench b(config(Policy::Static), std::vector<double>(cores, 1.0));
  std::vector<std::uint64_t> inherited(16);
  for (unsigned k = 1; k < 16; ++k) inherited[k] = 100 + k;
  TlmHarness& h = b.host;
  submit(h, 0x40, 11, 0, 0x7, inherited);
  h.run();

  const std::int64_t per_core = (11 + static_cast<std::int64_t>(cores) - 1) / static_cast<std::int64_t>(cores);
  sc_time finish = sc_core::SC_ZERO_TIME;
  double max_busy = 0;
  for (std::size_t c = 0; c < cores; ++c) {
    const std::int64_t first = per_core * static_cast<std::int64_t>(c);
    const std::int64_t threads = std::min<std::int64_t>(11, first + per_core) - first;
    const auto& launches = b.cores[c]->launches();
    ASSERT_EQ(launches.size(), 1u) << "core " << c;
    const core::PacketDescriptor& d = launches[0].desc;
    EXPECT_EQ(d.start, 0x40u);
    EXPECT_EQ(d.threads, threads) << "core " << c;
    EXPECT_EQ(d.first_thread, static_cast<std::uint64_t>(first)) << "core " << c;
    EXPECT_EQ(d.inherited[0], 0u);
    for (unsigned k = 1; k < 16; ++k) EXPECT_EQ(d.inherited[k], 100u + k) << "core " << c << " i" << k;
    EXPECT_EQ(launches[0].begin, ns(30.0 + 10.0 * static_cast<double>(c))) << "core " << c;
    finish = std::max(finish, launches[0].end);
    EXPECT_EQ(b.stat("core" + std::to_string(c) + ".busy_ns"), static_cast<double>(threads));
    EXPECT_EQ(b.stat("core" + std::to_string(c) + ".shares"), 1.0);
    EXPECT_EQ(b.stat("core" + std::to_string(c) + ".threads"), static_cast<double>(threads));
    max_busy = std::max(max_busy, static_cast<double>(threads));
  }
  const sc_time expected_finish[] = {ns(0), ns(41), ns(45), ns(0), ns(62)};
  EXPECT_EQ(finish, expected_finish[cores]);
  expect_access(h, 1, tlm::TLM_OK_RESPONSE, ns(20), "the DOORBELL returns after the register latency");
  ASSERT_EQ(b.irqs.received.size(), 1u);
  EXPECT_EQ(b.irqs.at(0), finish) << "the interrupt is raised when the last share has ended";
  EXPECT_EQ(b.irqs.received[0].data, 0x7u);  // TAG, no failure
  EXPECT_EQ(b.stat("interrupts"), 1.0);
  EXPECT_EQ(b.stat("shares"), static_cast<double>(cores));
  EXPECT_EQ(b.stat("threads_launched"), 11.0);
  EXPECT_EQ(b.stat("commands"), 1.0);
  EXPECT_EQ(b.stat("packets_completed"), 1.0);
  EXPECT_DOUBLE_EQ(b.stat("imbalance"), max_busy / (11.0 / static_cast<double>(cores)));
  const PacketRecord& r = b.sched.packet_records().at(0);
  EXPECT_EQ(r.submitted, ns(20));
  EXPECT_EQ(r.started, ns(20));
  EXPECT_EQ(r.executed, finish);
  EXPECT_EQ(r.finished, finish);
  EXPECT_EQ(r.shares, cores);
  EXPECT_EQ(r.threads_launched, 11);
  EXPECT_TRUE(r.ok && r.done);
}

TEST(ThreadSchedulerModule, StaticSplitOneCore) { par::testing::run_isolated([] { check_static_split(1); }); }
TEST(ThreadSchedulerModule, StaticSplitTwoCores) { par::testing::run_isolated([] { check_static_split(2); }); }
TEST(ThreadSchedulerModule, StaticSplitFourCores) { par::testing::run_isolated([] { check_static_split(4); }); }

TEST(ThreadSchedulerModule, DynamicChunksInOrderToTheFirstFreeCore) {
  par::testing::run_isolated([] {
    SchedulerConfig cfg = config(Policy::Dynamic);
    cfg.chunk_threads = 4;
    Bench b(cfg, {4.0, 1.0});  // core 0 is four times slower
    submit(b.host, 0x10, 20);
    b.host.run();
    // 20 threads = 5 chunks. t=20: both free -> chunk 0 to core 0 (30..46); t=30: chunk 1 to
    // core 1 (40..44); t=44: chunk 2 to core 1 (54..58); t=54: chunk 3 to core 0, free since 46
    // (64..80); t=64: chunk 4 to core 1 (74..78). Completion at 80.
    const auto& c0 = b.cores[0]->launches();
    const auto& c1 = b.cores[1]->launches();
    ASSERT_EQ(c0.size(), 2u);
    ASSERT_EQ(c1.size(), 3u);
    EXPECT_EQ(c0[0].desc.first_thread, 0u);
    EXPECT_EQ(c0[0].begin, ns(30));
    EXPECT_EQ(c0[1].desc.first_thread, 12u);
    EXPECT_EQ(c0[1].begin, ns(64));
    EXPECT_EQ(c1[0].desc.first_thread, 4u);
    EXPECT_EQ(c1[0].begin, ns(40));
    EXPECT_EQ(c1[1].desc.first_thread, 8u);
    EXPECT_EQ(c1[1].begin, ns(54));
    EXPECT_EQ(c1[2].desc.first_thread, 16u);
    EXPECT_EQ(c1[2].begin, ns(74));
    for (const auto* list : {&c0, &c1})
      for (const auto& l : *list) {
        EXPECT_EQ(l.desc.threads, 4);
        EXPECT_EQ(l.desc.start, 0x10u);
      }
    EXPECT_EQ(b.irqs.at(0), ns(80));
    EXPECT_EQ(b.stat("core0.busy_ns"), 32.0);
    EXPECT_EQ(b.stat("core1.busy_ns"), 12.0);
    EXPECT_EQ(b.stat("core0.shares"), 2.0);
    EXPECT_EQ(b.stat("core1.threads"), 12.0);
    EXPECT_EQ(b.stat("shares"), 5.0);
    EXPECT_DOUBLE_EQ(b.stat("imbalance"), 32.0 / 22.0);
    EXPECT_EQ(b.cores[0]->refused_doorbells() + b.cores[1]->refused_doorbells(), 0);
  });
}

TEST(ThreadSchedulerModule, CompletionStatusInterruptsAndFlagWrites) {
  par::testing::run_isolated([] {
    Bench b(config(), {1.0});
    TlmHarness& h = b.host;
    submit(h, 1, 100, 0x100, 0x11);  // 0, 1: in effect at 20; runs 30..130; flag written by 155
    submit(h, 2, 50, 0x108, 0x22);   // 2, 3: in effect at 40; starts at 155; runs 165..215; flag by 240
    h.at(ns(250)).read(kRegStatus, 8);     // 4
    h.at(ns(250)).read(kRegCompleted, 8);  // 5
    h.at(ns(50)).read(kRegStatus, 8);      // 6
    h.at(ns(50)).read(kRegSubmitted, 8);   // 7
    h.at(ns(50)).read(kRegCompleted, 8);   // 8
    h.at(ns(50)).read(kRegQueued, 8);      // 9
    h.at(ns(200)).read(kRegCompleted, 8);  // 10
    h.at(ns(200)).read(kRegQueued, 8);     // 11
    h.run();
    expect_access(h, 3, tlm::TLM_OK_RESPONSE, ns(40), "second doorbell");
    // One interrupt per packet, once its flag is written and it is counted in COMPLETED; the data
    // is the low 31 bits of its TAG.
    ASSERT_EQ(b.irqs.received.size(), 2u);
    EXPECT_EQ(b.irqs.at(0), ns(155));
    EXPECT_EQ(b.irqs.received[0].data, 0x11u);
    EXPECT_EQ(b.irqs.at(1), ns(240));
    EXPECT_EQ(b.irqs.received[1].data, 0x22u);
    EXPECT_EQ(h.result(4).value(), 0u);
    EXPECT_EQ(h.result(5).value(), 2u);
    EXPECT_EQ(h.result(6).value(), kStatusBusy);
    EXPECT_EQ(h.result(7).value(), 2u);
    EXPECT_EQ(h.result(8).value(), 0u);
    EXPECT_EQ(h.result(9).value(), 1u);
    EXPECT_EQ(h.result(10).value(), 1u);
    EXPECT_EQ(h.result(11).value(), 0u);
    EXPECT_EQ(b.mem64(0x100), 0x11u);
    EXPECT_EQ(b.mem64(0x108), 0x22u);
    EXPECT_EQ(b.host_mem.writes(), 2u);
    EXPECT_EQ(b.host_mem.bytes_written(), 16u);
    const auto& rec = b.sched.packet_records();
    ASSERT_EQ(rec.size(), 2u);
    EXPECT_EQ(rec[0].submitted, ns(20));
    EXPECT_EQ(rec[0].started, ns(20));
    EXPECT_EQ(rec[0].executed, ns(130));
    EXPECT_EQ(rec[0].finished, ns(155));
    EXPECT_EQ(rec[1].submitted, ns(40));
    EXPECT_EQ(rec[1].started, ns(155));
    EXPECT_EQ(rec[1].executed, ns(215));
    EXPECT_EQ(rec[1].finished, ns(240));
    EXPECT_EQ(rec[1].seq, 2u);
    EXPECT_EQ(rec[1].start, 2u);
    EXPECT_EQ(rec[1].threads, 50);
    EXPECT_EQ(b.cores[0]->launches().at(1).begin, ns(165));
    EXPECT_EQ(b.stat("flag_writes"), 2.0);
    EXPECT_EQ(b.stat("interrupts"), 2.0);
    EXPECT_EQ(b.stat("packet_ns"), 135.0 + 85.0);
    EXPECT_EQ(b.stat("core0.busy_ns"), 150.0);
    EXPECT_EQ(b.stat("imbalance"), 1.0);
    EXPECT_TRUE(b.sched.idle());
    EXPECT_EQ(b.sched.error(), "");
  });
}

TEST(ThreadSchedulerModule, OnlyPacketsThatAskForItRaiseTheInterrupt) {
  par::testing::run_isolated([] {
    Bench b(config(), {1.0});
    TlmHarness& h = b.host;
    h.then().write(kRegStart, command_block(1, 10, 0, 5, {}, 0));  // no CONTROL.interrupt: runs 30..40
    h.then().write64(kRegDoorbell, 1);
    submit(h, 2, 10, 0, 6);  // in effect at 40, runs 50..60
    h.run();
    ASSERT_EQ(b.irqs.received.size(), 1u);
    EXPECT_EQ(b.irqs.at(0), ns(60));
    EXPECT_EQ(b.irqs.received[0].data, 6u);
    EXPECT_EQ(b.stat("interrupts"), 1.0);
    EXPECT_EQ(b.sched.peek(kRegCompleted), 2u);
  });
}

TEST(ThreadSchedulerModule, AFullQueueRefusesTheDoorbellWithoutWaiting) {
  par::testing::run_isolated([] {
    Bench b(config(), {1.0});
    TlmHarness& h = b.host;
    // Packets of 1000 threads (1000 ns each). Doorbell j (1-based) is issued at 10 j and takes
    // effect at 10 j + 10; packet 1 runs 30..1030. Doorbell 33, at 330, finds the 32 entries of
    // the queue taken: it is refused at once (register latency only) and queues nothing.
    h.then().write(kRegStart, command_block(0x20, 1000, 0, 0, {}, 0));
    for (int j = 1; j <= 33; ++j) h.then().write64(kRegDoorbell, 1);
    h.then().read(kRegSubmitted, 8);        // 34
    h.at(ns(500)).read(kRegStatus, 8);     // 35
    h.at(ns(500)).read(kRegQueued, 8);     // 36
    h.at(ns(500)).read(kRegSubmitted, 8);  // 37
    h.at(ns(1040)).read(kRegStatus, 8);    // 38: packet 1 has completed, an entry is free
    h.at(ns(1050)).write64(kRegDoorbell, 1);  // 39: in effect at 1060
    h.run();
    for (int j = 1; j <= 32; ++j)
      expect_access(h, static_cast<std::size_t>(j), tlm::TLM_OK_RESPONSE, ns(10.0 * j + 10),
                    "doorbell " + std::to_string(j));
    expect_access(h, 33, tlm::TLM_GENERIC_ERROR_RESPONSE, ns(340), "doorbell 33 is refused");
    EXPECT_EQ(h.result(34).value(), 32u);
    EXPECT_EQ(h.result(35).value(), kStatusBusy | kStatusQueueFull);
    EXPECT_EQ(h.result(36).value(), 31u);
    EXPECT_EQ(h.result(37).value(), 32u);
    EXPECT_EQ(h.result(38).value(), kStatusBusy);
    expect_access(h, 39, tlm::TLM_OK_RESPONSE, ns(1060), "a doorbell with an entry free");
    EXPECT_EQ(b.stat("doorbells_refused"), 1.0);
    const auto& rec = b.sched.packet_records();
    ASSERT_EQ(rec.size(), 33u);
    EXPECT_EQ(rec[0].finished, ns(1030));
    EXPECT_EQ(rec[1].started, ns(1030));
    EXPECT_EQ(rec[32].submitted, ns(1060));
    EXPECT_EQ(b.cores[0]->launches().at(1).begin, ns(1040));
    EXPECT_EQ(b.sched.peek(kRegCompleted), 33u);
    EXPECT_EQ(b.sched.peek(kRegStatus), 0u);
  });
}

TEST(ThreadSchedulerModule, AFailingShareFailsItsPacketAndItsInterruptSaysSo) {
  par::testing::run_isolated([] {
    Bench b(config(), {1.0, 1.0});
    b.cores[1]->fails = [](const core::PacketDescriptor& d) { return d.start == 7; };
    TlmHarness& h = b.host;
    submit(h, 7, 10, 0x200, 0x5a);     // 0, 1: shares 30..35 and 40..45 (fails); flag by 70
    h.at(ns(75)).read(kRegStatus, 8);  // 2: after the interrupt
    h.then().read(kRegFailedSeq, 8);   // 3
    submit(h, 8, 4, 0x208, 0x6b);      // 4, 5: in effect at 115; shares 125..127, 135..137; flag by 162
    h.at(ns(170)).write64(kRegClearError, 1);  // 6
    h.then().read(kRegStatus, 8);      // 7
    h.then().read(kRegFailedSeq, 8);   // 8
    h.at(ns(50)).read(kRegStatus, 8);  // 9: while the flag (already in host memory) is on its way
    h.run();
    EXPECT_EQ(h.result(9).value(), kStatusBusy | kStatusError) << "a host that sees the flag finds the error";
    ASSERT_EQ(b.irqs.received.size(), 2u);
    EXPECT_EQ(b.irqs.at(0), ns(70));
    EXPECT_EQ(b.irqs.received[0].data, 0x5au | kInterruptFailedBit);
    EXPECT_EQ(b.irqs.at(1), ns(162));
    EXPECT_EQ(b.irqs.received[1].data, 0x6bu);
    EXPECT_EQ(h.result(2).value(), kStatusError);
    EXPECT_EQ(h.result(3).value(), 1u);
    EXPECT_EQ(h.result(7).value(), 0u);
    EXPECT_EQ(h.result(8).value(), 0u);
    EXPECT_EQ(b.mem64(0x200), 0x5aull | kFlagErrorBit);
    EXPECT_EQ(b.mem64(0x208), 0x6bull);
    EXPECT_EQ(b.sched.error(), "packet 1: threads 5..9 on core 1: the core reported a failure");
    const auto& rec = b.sched.packet_records();
    EXPECT_FALSE(rec.at(0).ok);
    EXPECT_EQ(rec.at(0).error, "threads 5..9 on core 1: the core reported a failure");
    EXPECT_EQ(rec.at(0).finished, ns(70));
    EXPECT_TRUE(rec.at(1).ok);
    EXPECT_EQ(b.stat("packets_completed"), 2.0);
    EXPECT_EQ(b.stat("packets_failed"), 1.0);
  });
}

TEST(ThreadSchedulerModule, EmptyPacketsCompleteInOrderAndFlagErrorsFail) {
  par::testing::run_isolated([] {
    Bench b(config(), {1.0, 1.0});
    TlmHarness& h = b.host;
    submit(h, 0, 0, 0x100, 1);         // in effect at 20, completes at once: flag by 45
    submit(h, 0, -5, 0x108, 2);        // in effect at 40, completes after packet 1: flag 45..70
    submit(h, 0, 0, 0x100000, 3);      // in effect at 60; the flag is outside host memory
    h.run();
    EXPECT_TRUE(b.cores[0]->launches().empty());
    EXPECT_TRUE(b.cores[1]->launches().empty());
    ASSERT_EQ(b.irqs.received.size(), 3u);
    EXPECT_EQ(b.irqs.at(0), ns(45));
    EXPECT_EQ(b.irqs.at(1), ns(70));
    EXPECT_EQ(b.irqs.at(2), ns(70));
    EXPECT_EQ(b.irqs.received[2].data, 3u | kInterruptFailedBit);
    EXPECT_EQ(b.mem64(0x100), 1u);
    EXPECT_EQ(b.mem64(0x108), 2u);
    const auto& rec = b.sched.packet_records();
    ASSERT_EQ(rec.size(), 3u);
    EXPECT_EQ(rec[0].started, ns(20));
    EXPECT_EQ(rec[0].finished, ns(45));
    EXPECT_EQ(rec[1].started, ns(45));
    EXPECT_EQ(rec[1].executed, ns(45));
    EXPECT_EQ(rec[1].finished, ns(70));
    EXPECT_EQ(rec[2].finished, ns(70));
    EXPECT_FALSE(rec[2].ok);
    EXPECT_EQ(b.sched.error(), "packet 3: completion flag write to 0x100000: TLM_ADDRESS_ERROR_RESPONSE");
    EXPECT_EQ(b.sched.peek(kRegFailedSeq), 3u);
    EXPECT_EQ(b.stat("empty_packets"), 3.0);
    EXPECT_EQ(b.stat("shares"), 0.0);
    EXPECT_EQ(b.stat("threads_launched"), 0.0);
    EXPECT_EQ(b.stat("flag_writes"), 3.0);
    EXPECT_EQ(b.stat("flag_write_errors"), 1.0);
    EXPECT_EQ(b.stat("packets_failed"), 1.0);
    EXPECT_TRUE(std::isnan(b.stat("imbalance")));  // no core was ever busy
  });
}

// Packet 1 (start 100) keeps core 0 busy for 100 ns and core 1 for 5 ns; packet 2's shares take
// 5 ns. Checks the fake cores' launch begin times [core][launch] and packet 2's interrupt.
void check_overlap(bool overlap, const std::vector<std::vector<sc_time>>& begins, sc_time done) {
  SchedulerConfig cfg = config(Policy::Static);
  cfg.overlap_packets = overlap;
  Bench b(cfg, {1.0, 1.0});
  for (auto& c : b.cores) c->duration = [](const core::PacketDescriptor&) { return ns(5); };
  b.cores[0]->duration = [](const core::PacketDescriptor& d) { return ns(d.start == 100 ? 100 : 5); };
  submit(b.host, 100, 10);
  submit(b.host, 200, 10);
  b.host.run();
  for (std::size_t c = 0; c < 2; ++c) {
    const auto& l = b.cores[c]->launches();
    ASSERT_EQ(l.size(), begins[c].size());
    for (std::size_t i = 0; i < l.size(); ++i) EXPECT_EQ(l[i].begin, begins[c][i]) << "core " << c << " launch " << i;
  }
  ASSERT_EQ(b.irqs.received.size(), 2u);
  EXPECT_EQ(b.irqs.at(0), ns(130));
  EXPECT_EQ(b.irqs.at(1), done);
  EXPECT_EQ(b.sched.packet_records().at(0).finished, ns(130));
}

TEST(ThreadSchedulerModule, WithoutOverlapAPacketStartsAfterThePreviousCompleted) {
  par::testing::run_isolated([] { check_overlap(false, {{ns(30), ns(140)}, {ns(40), ns(150)}}, ns(155)); });
}

TEST(ThreadSchedulerModule, WithOverlapAPacketUsesCoresThePreviousNoLongerNeeds) {
  // Packet 2's share for core 1 starts at 55, as soon as core 1 is free (45) plus the dispatch.
  par::testing::run_isolated([] { check_overlap(true, {{ns(30), ns(140)}, {ns(40), ns(55)}}, ns(145)); });
}

TEST(ThreadSchedulerModule, ImbalanceOfOneLaunchFromStatisticsDifferences) {
  par::testing::run_isolated([] {
    Bench b(config(), {1.0, 1.0});
    submit(b.host, 0, 10);        // shares 5 + 5: 30..35, 40..45
    b.host.at(ns(200)).write(kRegStart, command_block(0, 3));  // shares 2 + 1: 230..232, 240..241
    b.host.then().write64(kRegDoorbell, 1);
    sc_core::sc_start(ns(100));
    const simkit::Json before = b.sched.stats().snapshot();
    EXPECT_EQ(b.stat("imbalance"), 1.0);
    sc_core::sc_start(ns(1000));
    const simkit::Json launch = b.sched.stats().diff(b.sched.stats().snapshot(), before);
    EXPECT_EQ(simkit::find_stat(launch, "core0.busy_ns")->at("value").get<double>(), 2.0);
    EXPECT_EQ(simkit::find_stat(launch, "core1.busy_ns")->at("value").get<double>(), 1.0);
    EXPECT_DOUBLE_EQ(simkit::find_stat(launch, "imbalance")->at("value").get<double>(), 2.0 / 1.5);
    EXPECT_DOUBLE_EQ(b.stat("imbalance"), 7.0 / 6.5);
    EXPECT_EQ(b.sched.packet_records().at(1).finished, ns(241));
  });
}

// Eight cores whose shares end in the same delta cycle (core c starts at 30 + 10c and takes
// 70 - 10c ns), three packets queued at once: the scheduler hears every line that rose, each once,
// whether they rise together or alone; zero-time shares (the line falls and rises within delta
// cycles) too.
void check_simultaneous_completions(bool zero_time) {
  Bench b(config(Policy::Static), std::vector<double>(8, 0.0));
  for (std::size_t c = 0; c < 8; ++c)
    b.cores[c]->duration = [c, zero_time](const core::PacketDescriptor&) {
      return zero_time ? sc_core::SC_ZERO_TIME : ns(70.0 - 10.0 * static_cast<double>(c));
    };
  for (int p = 0; p < 3; ++p) submit(b.host, 0, 8);
  b.host.run();
  // Packet p's shares are sent from t0 = the previous packet's end (20 for the first), one per
  // 10 ns: core c's starts at t0 + 10 + 10c and all end at t0 + 80 (t0 + 10 + 10c when zero-time).
  const double ends[3] = {100, 180, 260};
  for (std::size_t c = 0; c < 8; ++c) {
    const auto& launches = b.cores[c]->launches();
    ASSERT_EQ(launches.size(), 3u) << "core " << c;
    EXPECT_EQ(b.stat("core" + std::to_string(c) + ".shares"), 3.0) << "core " << c;
    EXPECT_EQ(b.stat("core" + std::to_string(c) + ".threads"), 3.0) << "core " << c;
    EXPECT_EQ(b.stat("core" + std::to_string(c) + ".busy_ns"), zero_time ? 0.0 : 3 * (70.0 - 10.0 * static_cast<double>(c)))
        << "core " << c;
    for (int p = 0; p < 3; ++p) EXPECT_EQ(launches[static_cast<std::size_t>(p)].desc.first_thread, c) << "core " << c;
  }
  EXPECT_EQ(b.stat("packets_completed"), 3.0);
  EXPECT_EQ(b.stat("shares"), 24.0);
  ASSERT_EQ(b.irqs.received.size(), 3u);
  for (std::size_t p = 0; p < 3; ++p) {
    const PacketRecord& r = b.sched.packet_records().at(p);
    EXPECT_TRUE(r.done && r.ok) << "packet " << p + 1;
    EXPECT_EQ(r.shares, 8u) << "packet " << p + 1;
    if (!zero_time) {
      EXPECT_EQ(r.finished, ns(ends[p])) << "packet " << p + 1;
      EXPECT_EQ(b.irqs.at(p), ns(ends[p])) << "packet " << p + 1;
    } else {
      // The last share starts 80 ns after the packet's first dispatch and ends at once.
      EXPECT_EQ(r.finished - r.started, ns(80)) << "packet " << p + 1;
    }
  }
}

TEST(ThreadSchedulerModule, EveryCoreCompletionIsSeenOnceWhenEightEndTogether) {
  par::testing::run_isolated([] { check_simultaneous_completions(false); });
}

TEST(ThreadSchedulerModule, EveryCoreCompletionIsSeenOnceWithZeroTimeShares) {
  par::testing::run_isolated([] { check_simultaneous_completions(true); });
}

// An approximately-timed host: accesses one after the other by nb_transport_fw (BEGIN_REQ, then
// BEGIN_RESP on the backward path).
class AtHost : public sc_core::sc_module {
 public:
  struct Access {
    bool write;
    std::uint64_t address;
    std::vector<std::uint8_t> data;  // write data, or 8 bytes read
    tlm::tlm_response_status status = tlm::TLM_INCOMPLETE_RESPONSE;
    sc_time done;
    std::uint64_t value() const {
      std::uint64_t v;
      std::memcpy(&v, data.data(), 8);
      return v;
    }
  };
  tlm_utils::simple_initiator_socket<AtHost> out;
  std::vector<Access> script;

  explicit AtHost(sc_core::sc_module_name name) : sc_module(name), out("out") {
    out.register_nb_transport_bw(this, &AtHost::nb_transport_bw);
    SC_HAS_PROCESS(AtHost);
    SC_THREAD(run);
  }

 private:
  void run() {
    for (Access& a : script) {
      tlm::tlm_generic_payload tx;
      tx.set_command(a.write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
      tx.set_address(a.address);
      tx.set_data_ptr(a.data.data());
      tx.set_data_length(static_cast<unsigned>(a.data.size()));
      tx.set_streaming_width(static_cast<unsigned>(a.data.size()));
      tx.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
      tlm::tlm_phase phase = tlm::BEGIN_REQ;
      sc_time delay = sc_core::SC_ZERO_TIME;
      if (out->nb_transport_fw(tx, phase, delay) == tlm::TLM_COMPLETED) sc_core::wait(delay);
      else sc_core::wait(response_);
      a.status = tx.get_response_status();
      a.done = sc_core::sc_time_stamp();
    }
  }
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload&, tlm::tlm_phase& phase, sc_time& delay) {
    if (phase != tlm::BEGIN_RESP) return tlm::TLM_ACCEPTED;  // END_REQ
    response_.notify(delay);
    phase = tlm::END_RESP;
    return tlm::TLM_COMPLETED;
  }

  sc_core::sc_event response_;
};

TEST(ThreadSchedulerModule, ApproximatelyTimedHostThroughNbTransport) {
  par::testing::run_isolated([] {
    ThreadScheduler sched("sched", config());
    sched::testing::FakeCores fakes;
    const FakeCore& core = fakes.add(sched, 1.0);
    InterruptRecorder irqs("irqs");
    sched.irq.bind(irqs.in);
    AtHost host("at_host");
    host.out.bind(sched.regs);
    host.script.push_back({true, kRegStart, command_block(3, 10), {}, {}});                 // 0..10
    host.script.push_back({true, kRegDoorbell, std::vector<std::uint8_t>(8), {}, {}});       // 10..20: runs 30..40
    host.script.push_back({false, kRegStatus, std::vector<std::uint8_t>(8), {}, {}});        // 20..30
    // A flag with `notify` unbound fails the packet (in effect at 50, share 60..61).
    host.script.push_back({true, kRegStart, command_block(4, 1, 0x100, 9), {}, {}});        // 30..40
    host.script.push_back({true, kRegDoorbell, std::vector<std::uint8_t>(8), {}, {}});       // 40..50
    host.script.push_back({false, kRegCompleted, std::vector<std::uint8_t>(8), {}, {}});     // 50..60
    sc_core::sc_start(ns(1000));
    for (std::size_t i = 0; i < 6; ++i) EXPECT_EQ(host.script[i].status, tlm::TLM_OK_RESPONSE) << i;
    EXPECT_EQ(host.script[1].done, ns(20));
    EXPECT_EQ(host.script[2].value(), kStatusBusy);
    EXPECT_EQ(host.script[4].done, ns(50));
    EXPECT_EQ(host.script[5].value(), 1u);
    ASSERT_EQ(irqs.received.size(), 2u);
    EXPECT_EQ(irqs.at(0), ns(40));
    EXPECT_EQ(irqs.at(1), ns(61));
    EXPECT_EQ(irqs.received[1].data, 9u | kInterruptFailedBit);
    EXPECT_EQ(sched.error(), "packet 2: completion flag at 0x100 not written: `notify` is not bound");
    ASSERT_EQ(core.launches().size(), 2u);
    EXPECT_EQ(core.launches()[0].desc.start, 3u);
    EXPECT_EQ(core.launches()[1].begin, ns(60));
  });
}

TEST(ThreadSchedulerModule, EveryCoreNeedsItsCompletionLine) {
  par::testing::run_isolated([] {
    ThreadScheduler sched("sched", config());
    FakeCore core0("core0", 1.0), core1("core1", 1.0);
    sc_core::sc_signal<bool> line0("line0"), line1("line1");
    sched.cores.bind(core0.ctrl);
    sched.cores.bind(core1.ctrl);
    core0.irq.bind(line0);
    core1.irq.bind(line1);
    sched.core_irq.bind(line0);
    TlmHarness host("host");
    host.out.bind(sched.regs);
    try {
      sc_core::sc_start(ns(1));
      FAIL() << "a core without its completion line was accepted";
    } catch (const std::exception& e) {
      EXPECT_NE(std::string(e.what()).find("sched: 2 cores bound to `cores` but 1 completion lines to `core_irq`"),
                std::string::npos)
          << e.what();
    }
  });
}

TEST(ThreadSchedulerModule, InvalidConfigurationIsAClearError) {
  par::testing::run_isolated([] {
    SchedulerConfig cfg;
    cfg.queue_depth = 0;
    try {
      ThreadScheduler s("sched", cfg);
      FAIL() << "an invalid configuration was accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_EQ(std::string(e.what()),
                "invalid thread scheduler configuration: scheduler.queue_depth: 0 is out of range 1..65536");
    }
  });
}

}  // namespace
}  // namespace par::sched
