// The L2 as SystemC modules in front of a plain Memory (the DRAM stand-in): exact latencies and
// counters through the TLM harness and through an LSU-like initiator that does not wait between
// accesses. Memory: 50 ns latency, unlimited bandwidth unless stated; L2: 1 GHz, hit 10 cycles.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>

#include "support/sc_isolation.hpp"
#include "support/tlm_harness.hpp"
#include "l2_test_support.hpp"

namespace par::l2 {
namespace {

using namespace par::l2::testing;
using par::testing::run_isolated;
using par::testing::TlmHarness;

// The harness bound to an L2 whose banks share one Memory.
struct HarnessRig {
  TlmHarness h{"harness"};
  memory::Memory mem;
  FanIn fan{"fan"};
  L2 l2;
  HarnessRig(const L2Config& c, const memory::MemoryConfig& m) : mem("mem", m), l2("l2", c) {
    h.out.bind(l2.in);
    for (unsigned b = 0; b < l2.banks(); ++b) l2.bank(b).mem.bind(fan.in);
    fan.out.bind(mem.in);
  }
  std::uint64_t stat(unsigned bank, const char* name) {
    return static_cast<std::uint64_t>(l2.bank(bank).stats().find(name)->number());
  }
};

TEST(L2, HitTakesTheHitLatency) {
  run_isolated([] {
    HarnessRig r(L2Config{}, dram());
    r.h.at(ns(0)).write64(0x100, 0x1122334455667788ull).then().read(0x100, 8);
    r.h.run();
    EXPECT_EQ(r.h.result(0).latency, ns(60));  // a partial write miss fetches the line
    EXPECT_EQ(r.h.result(1).latency, ns(10));
    EXPECT_EQ(r.h.result(1).value(), 0x1122334455667788ull);
    EXPECT_EQ(r.stat(0, "hits"), 1u);  // 0x100 is line 4: bank 0
    EXPECT_EQ(r.stat(0, "misses"), 1u);
    EXPECT_EQ(r.mem.reads(), 1u);
  });
}

TEST(L2, MissTakesMemoryPlusHitLatency) {
  run_isolated([] {
    HarnessRig r(L2Config{}, dram());
    for (std::uint64_t i = 0; i < 64; ++i) r.mem.data()[0x40 + i] = static_cast<std::uint8_t>(i);
    r.h.at(ns(3)).read(0x40, 64);
    r.h.run();
    EXPECT_EQ(r.h.result(0).status, tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(r.h.result(0).latency, ns(60));
    EXPECT_EQ(r.h.result(0).read_data[63], 63);
    EXPECT_EQ(r.stat(1, "misses"), 1u);
    EXPECT_EQ(r.stat(1, "fills"), 1u);
    EXPECT_EQ(r.mem.reads(), 1u);
    EXPECT_EQ(r.mem.bytes_read(), 64u);
  });
}

TEST(L2, DirtyVictimIsWrittenBackWithoutDelayingTheMiss) {
  run_isolated([] {
    L2Config c;
    c.banks = 1;
    c.ways = 2;
    c.bank_bytes = 128;  // one set of two ways
    HarnessRig r(c, dram(50, 1));  // each 64-byte transfer occupies the memory for 64 ns
    r.h.at(ns(0)).write64(0x00, 0xabcdef0123456789ull);
    r.h.then().read(0x40, 8);  // second way
    r.h.then().read(0x80, 8);  // evicts line 0 (least recently used, dirty)
    r.h.then().read(0x00, 8);  // evicts line 1 (clean); waits 4 ns behind the writeback
    r.h.run();
    EXPECT_EQ(r.h.result(0).latency, ns(124));  // 64 transfer + 50 + 10
    EXPECT_EQ(r.h.result(1).latency, ns(124));
    EXPECT_EQ(r.h.result(2).latency, ns(124));  // writeback posted after the fill
    EXPECT_EQ(r.h.result(3).latency, ns(128));  // the memory is busy with the writeback until then
    EXPECT_EQ(r.h.result(3).value(), 0xabcdef0123456789ull);
    EXPECT_EQ(r.mem.writes(), 1u);
    EXPECT_EQ(r.mem.bytes_written(), 64u);
    std::uint64_t in_memory = 0;
    std::memcpy(&in_memory, r.mem.data(), 8);
    EXPECT_EQ(in_memory, 0xabcdef0123456789ull);
    EXPECT_EQ(r.stat(0, "writebacks"), 1u);
    EXPECT_EQ(r.stat(0, "misses"), 4u);
  });
}

TEST(L2, LruReplacementOrder) {
  run_isolated([] {
    L2Config c;
    c.banks = 1;
    c.ways = 4;
    c.bank_bytes = 256;  // one set of four ways
    HarnessRig r(c, dram());
    r.h.at(ns(0)).read(0x000, 8).then().read(0x040, 8).then().read(0x080, 8).then().read(0x0c0, 8);
    r.h.then().read(0x000, 8);  // hit: line 0 most recently used, line 1 least
    r.h.then().read(0x100, 8);  // evicts line 1
    r.h.then().read(0x040, 8);  // miss again; evicts line 2
    r.h.then().read(0x0c0, 8);  // still there: hit
    r.h.run();
    EXPECT_EQ(r.h.result(4).latency, ns(10));
    EXPECT_EQ(r.h.result(6).latency, ns(60));
    EXPECT_EQ(r.h.result(7).latency, ns(10));
    BankModel& m = r.l2.bank(0).model();
    EXPECT_FALSE(m.contains(0x080));
    for (std::uint64_t a : {0x000, 0x040, 0x0c0, 0x100}) EXPECT_TRUE(m.contains(a)) << a;
    EXPECT_EQ(r.mem.reads(), 6u);
  });
}

TEST(L2, AccessToALineInFlightMergesIntoItsMshr) {
  run_isolated([] {
    HarnessRig r(L2Config{}, dram());
    r.h.at(ns(0)).read(0x200, 8);
    r.h.at(ns(5)).read(0x208, 8);
    r.h.run();
    EXPECT_EQ(r.h.result(0).completed, ns(60));
    EXPECT_EQ(r.h.result(1).completed, ns(60));  // completes with the first fill
    EXPECT_EQ(r.h.result(1).latency, ns(55));
    EXPECT_EQ(r.mem.reads(), 1u);
    EXPECT_EQ(r.stat(0, "mshr_merges"), 1u);
    EXPECT_EQ(r.stat(0, "misses"), 1u);
  });
}

TEST(L2, MissesWaitWhenAllMshrsAreBusy) {
  run_isolated([] {
    L2Config c;
    c.banks = 1;
    c.mshrs = 2;
    HarnessRig r(c, dram());
    r.h.at(ns(0)).read(0x000, 8);
    r.h.at(ns(1)).read(0x040, 8);
    r.h.at(ns(2)).read(0x080, 8);  // both MSHRs busy until 50 and 51
    r.h.run();
    EXPECT_EQ(r.h.result(0).latency, ns(60));
    EXPECT_EQ(r.h.result(1).latency, ns(60));
    EXPECT_EQ(r.h.result(2).completed, ns(110));  // fill from 50 to 100, + 10
    EXPECT_EQ(r.stat(0, "mshr_full_stalls"), 1u);
    EXPECT_EQ(r.stat(0, "mshr_stall_cycles"), 48u);
    EXPECT_EQ(r.stat(0, "bank_conflicts"), 0u);
  });
}

TEST(L2, BankInterleavingAndXorHashing) {
  for (bool hashed : {false, true}) {
    run_isolated([hashed] {
      L2Config c;
      c.xor_hash = hashed;
      HarnessRig r(c, dram());
      for (std::uint64_t k = 0; k < 8; ++k) r.h.at(ns(0)).read(k * 64, 8);           // sequential
      for (std::uint64_t k = 0; k < 16; ++k) r.h.at(ns(1000)).read(0x10000 + k * 256, 8);  // stride
      r.h.run();
      if (!hashed) {
        for (std::uint64_t k = 0; k < 8; ++k) EXPECT_EQ(r.l2.bank_of(k * 64), k % 4);
      }
      std::array<std::uint64_t, 4> seq{}, strided{};
      for (std::uint64_t k = 0; k < 8; ++k) ++seq[r.l2.bank_of(k * 64)];
      EXPECT_EQ(seq, (std::array<std::uint64_t, 4>{2, 2, 2, 2}));  // consecutive lines spread
      // The stride of banks * line: one bank with modulo interleaving, all banks with hashing.
      for (std::uint64_t k = 0; k < 16; ++k) ++strided[r.l2.bank_of(0x10000 + k * 256)];
      using Counts = std::array<std::uint64_t, 4>;
      const Counts expected = hashed ? Counts{4, 4, 4, 4} : Counts{16, 0, 0, 0};
      EXPECT_EQ(strided, expected);
      for (unsigned b = 0; b < 4; ++b) EXPECT_EQ(r.stat(b, "accesses"), seq[b] + strided[b]) << b;
    });
  }
}

TEST(L2, OneAccessPerBankPerCycle) {
  run_isolated([] {
    Rig r(L2Config{}, dram(), [](LtInitiator& lsu) {
      lsu.read64(0x000, ns(0));  // warm lines 0 (bank 0), 4 (bank 0) and 1 (bank 1)
      lsu.read64(0x100, ns(1));
      lsu.read64(0x040, ns(2));
      // Two accesses at the same time to one bank: the second waits a cycle.
      std::uint64_t v = 0;
      EXPECT_EQ(lsu.read(0x000, &v, 8, ns(1000)).done, ns(1010));
      EXPECT_EQ(lsu.read(0x100, &v, 8, ns(1000)).done, ns(1011));
      // To two banks: no wait.
      EXPECT_EQ(lsu.read(0x000, &v, 8, ns(2000)).done, ns(2010));
      EXPECT_EQ(lsu.read(0x040, &v, 8, ns(2000)).done, ns(2010));
    });
    run_all();
    EXPECT_TRUE(r.lsu.finished);
    EXPECT_EQ(r.bank_stat(0, "bank_conflicts"), 1u);
    EXPECT_EQ(r.bank_stat(0, "bank_conflict_cycles"), 1u);
    EXPECT_EQ(r.bank_stat(1, "bank_conflicts"), 0u);
    EXPECT_EQ(r.total("bank_conflict_cycles"), 1.0);
  });
}

TEST(L2, BackToBackMissesFromOneInitiatorOverlap) {
  run_isolated([] {
    Rig r(L2Config{}, dram(), [](LtInitiator& lsu) {
      // Like a load/store unit: four line reads issued 1 ns apart without waiting in between.
      std::uint8_t line[64];
      for (int i = 0; i < 4; ++i) {
        const auto res = lsu.read(0x1000 + 64 * static_cast<std::uint64_t>(i), line, 64, ns(i));
        EXPECT_EQ(res.done, ns(60 + i));  // memory-level parallelism: not 60, 120, ...
      }
    });
    run_all();
    EXPECT_TRUE(r.lsu.finished);
    EXPECT_EQ(r.total("fills"), 4.0);
  });
}

TEST(L2, RequestsOutOfTimeOrderMergeIntoTheLaterMiss) {
  run_isolated([] {
    Rig r(L2Config{}, dram(), [](LtInitiator& lsu) {
      std::uint64_t v = 0;
      EXPECT_EQ(lsu.read(0x0, &v, 8, ns(100)).done, ns(160));
      // Issued later but annotated earlier: the line's fill is in the future for it.
      EXPECT_EQ(lsu.read(0x8, &v, 8, ns(20)).done, ns(160));
    });
    run_all();
    EXPECT_EQ(r.bank_stat(0, "misses"), 1u);
    EXPECT_EQ(r.bank_stat(0, "mshr_merges"), 1u);
    EXPECT_EQ(r.mem.reads(), 1u);
  });
}

TEST(L2, WriteMissPolicies) {
  run_isolated([] {
    L2Config around;
    around.write_allocate = false;
    Rig full(L2Config{}, dram(), [](LtInitiator& lsu) {
      std::uint8_t line[64] = {};
      EXPECT_EQ(lsu.write(0x400, line, 64).done, ns(10));  // whole line: no fill
    }, "_full");
    Rig wa(around, dram(), [](LtInitiator& lsu) {
      EXPECT_EQ(lsu.write64(0x400, 7).done, ns(50));  // straight to memory
    }, "_around");
    run_all();
    EXPECT_EQ(full.mem.reads(), 0u);
    EXPECT_EQ(full.total("write_validates"), 1.0);
    EXPECT_EQ(wa.mem.writes(), 1u);
    EXPECT_EQ(wa.mem.data()[0x400], 7);
    EXPECT_FALSE(wa.l2.bank(0).model().contains(0x400));
  });
}

// The property memory-latency studies rely on: on a pattern limited by bank occupancy (many same-time hits
// spread over the lines of the interleave), total time falls as banks are added.
TEST(L2, LatencyFallsWithMoreBanksOnABankBoundPattern) {
  run_isolated([] {
    constexpr int kLines = 64;
    const std::array<unsigned, 4> banks{1, 2, 4, 8};
    std::array<sc_time, 4> warm_time{}, cold_time{};
    std::vector<std::unique_ptr<Rig>> rigs;
    for (std::size_t i = 0; i < banks.size(); ++i) {
      L2Config c;
      c.banks = banks[i];
      rigs.push_back(std::make_unique<Rig>(
          c, dram(),
          [&, i](LtInitiator& lsu) {
            std::uint8_t line[64];
            sc_time last;
            for (int k = 0; k < kLines; ++k)  // cold: all misses at once
              last = std::max(last, lsu.read(64 * static_cast<std::uint64_t>(k), line, 64).done);
            cold_time[i] = last;
            lsu.wait_until(ns(10000));
            for (int k = 0; k < kLines; ++k)  // warm: all hits at once
              last = std::max(last, lsu.read(64 * static_cast<std::uint64_t>(k), line, 64).done);
            warm_time[i] = last - ns(10000);
          },
          "_" + std::to_string(banks[i])));
    }
    run_all();
    // Warm: each bank serves kLines / B hits, one per cycle: (kLines / B - 1) + 10 cycles.
    EXPECT_EQ(warm_time[0], ns(73));
    EXPECT_EQ(warm_time[1], ns(41));
    EXPECT_EQ(warm_time[2], ns(25));
    EXPECT_EQ(warm_time[3], ns(17));
    for (std::size_t i = 1; i < banks.size(); ++i) {
      EXPECT_LT(cold_time[i], cold_time[i - 1]) << banks[i] << " banks";
    }
    EXPECT_EQ(rigs[0]->bank_stat(0, "bank_conflict_cycles"), 2u * (63 * 64 / 2));
  });
}

}  // namespace
}  // namespace par::l2
