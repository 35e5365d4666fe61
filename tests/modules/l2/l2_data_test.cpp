// Data correctness of the L2 (random traffic against a reference, debug transport, flushes,
// split accesses), its statistics tree, the AT (nb_transport) path and error responses.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <sstream>

#include "support/at_initiator.hpp"
#include "support/sc_isolation.hpp"
#include "support/tlm_harness.hpp"
#include "l2_test_support.hpp"

namespace par::l2 {
namespace {

using namespace par::l2::testing;
using par::testing::run_isolated;
using par::testing::TlmHarness;

constexpr std::uint64_t kBase = 0x4000;
constexpr std::uint64_t kSize = 16 * 1024;  // far larger than the small caches below

// Random reads, writes (some with byte enables, some spanning lines) and debug accesses from an
// LSU-like initiator that runs ahead with increasing (and sometimes decreasing) delay
// annotations; every read is checked against a reference at once. Then the whole region is
// checked through debug reads, after flush() in memory itself, and again after invalidation.
void random_traffic(const L2Config& cfg, std::uint32_t seed) {
  std::vector<std::uint8_t> ref(1u << 20);
  Rig* rig = nullptr;
  int mismatches = 0;
  auto body = [&](LtInitiator& lsu) {
    std::mt19937 rng(seed);
    sc_time ahead;  // the initiator's local time offset
    std::vector<std::uint8_t> buf, be;
    const unsigned lens[] = {1, 2, 4, 8, 16, 32, 64};
    for (int i = 0; i < 6000; ++i) {
      const std::uint64_t addr = kBase + rng() % kSize;
      unsigned len = rng() % 4 == 0 ? 1 + rng() % 130 : lens[rng() % 7];
      len = static_cast<unsigned>(std::min<std::uint64_t>(len, kBase + kSize - addr));
      ahead += ns(rng() % 3);
      sc_time delay = ahead;
      if (rng() % 8 == 0 && ahead > ns(5)) delay = ahead - ns(rng() % 5);  // out of order
      if (i % 50 == 49) {  // synchronise now and then, like a quantum keeper
        sc_core::wait(ahead);
        ahead = sc_core::SC_ZERO_TIME;
      }
      buf.resize(len);
      const unsigned op = rng() % 10;
      if (op < 4) {
        const auto res = lsu.read(addr, buf.data(), len, delay);
        EXPECT_TRUE(res.ok());
        if (std::memcmp(buf.data(), ref.data() + addr, len) != 0 && ++mismatches < 5)
          ADD_FAILURE() << "read " << i << " at 0x" << std::hex << addr << std::dec << " len "
                        << len;
      } else if (op < 7) {
        for (auto& b : buf) b = static_cast<std::uint8_t>(rng());
        EXPECT_TRUE(lsu.write(addr, buf.data(), len, delay).ok());
        std::memcpy(ref.data() + addr, buf.data(), len);
      } else if (op == 7) {
        for (auto& b : buf) b = static_cast<std::uint8_t>(rng());
        be.resize(1 + rng() % 8);
        for (auto& b : be) b = rng() % 2 ? 0xff : 0x00;
        const auto be_len = static_cast<unsigned>(be.size());
        EXPECT_TRUE(lsu.access(tlm::TLM_WRITE_COMMAND, addr, buf.data(), len, delay, be.data(), be_len).ok());
        for (unsigned k = 0; k < len; ++k)
          if (be[k % be_len]) ref[addr + k] = buf[k];
      } else if (op == 8) {
        EXPECT_EQ(lsu.debug(tlm::TLM_READ_COMMAND, addr, buf.data(), len), len);
        if (std::memcmp(buf.data(), ref.data() + addr, len) != 0 && ++mismatches < 5)
          ADD_FAILURE() << "debug read " << i << " at 0x" << std::hex << addr;
      } else {
        for (auto& b : buf) b = static_cast<std::uint8_t>(rng());
        EXPECT_EQ(lsu.debug(tlm::TLM_WRITE_COMMAND, addr, buf.data(), len), len);
        std::memcpy(ref.data() + addr, buf.data(), len);
      }
    }
    sc_core::wait(ahead + ns(10000));
    buf.resize(kSize);
    EXPECT_EQ(lsu.debug(tlm::TLM_READ_COMMAND, kBase, buf.data(), static_cast<unsigned>(kSize)), kSize);
    EXPECT_EQ(std::memcmp(buf.data(), ref.data() + kBase, kSize), 0) << "debug view";
    rig->l2.flush();
    EXPECT_EQ(std::memcmp(rig->mem.data() + kBase, ref.data() + kBase, kSize), 0) << "after flush";
    rig->l2.flush(true);
    for (std::uint64_t a = kBase; a < kBase + kSize; a += 64) {
      const auto res = lsu.read(a, buf.data(), 64);
      EXPECT_TRUE(res.ok());
      if (std::memcmp(buf.data(), ref.data() + a, 64) != 0 && ++mismatches < 5)
        ADD_FAILURE() << "after invalidate at 0x" << std::hex << a;
      lsu.wait_until(res.done);
    }
  };
  Rig r(cfg, dram(20, 8), body);
  rig = &r;
  std::mt19937 init(seed ^ 0x5a5a5a5au);
  for (std::uint64_t i = 0; i < r.mem.size(); ++i) {
    r.mem.data()[i] = static_cast<std::uint8_t>(init());
  }
  std::memcpy(ref.data(), r.mem.data(), ref.size());
  run_all();
  EXPECT_TRUE(r.lsu.finished);
  EXPECT_EQ(mismatches, 0);
  // The counters add up.
  EXPECT_EQ(r.total("accesses"), r.total("hits") + r.total("misses") + r.total("mshr_merges"));
  EXPECT_EQ(r.total("accesses"), r.total("reads") + r.total("writes"));
  EXPECT_GT(r.total("writebacks"), 0.0);
  EXPECT_GT(r.total("split_requests"), 0.0);
}

TEST(L2Data, RandomTrafficSmallCache) {
  run_isolated([] {
    L2Config c;
    c.banks = 2;
    c.bank_bytes = 1024;
    c.ways = 2;
    c.mshrs = 4;
    random_traffic(c, 1);
  });
}

TEST(L2Data, RandomTrafficXorHashWideInterleave) {
  run_isolated([] {
    L2Config c;
    c.banks = 4;
    c.bank_bytes = 512;
    c.ways = 4;
    c.interleave_bytes = 128;
    c.xor_hash = true;
    random_traffic(c, 2);
  });
}

TEST(L2Data, RandomTrafficNoWriteAllocateThreeBanksDirectMapped) {
  run_isolated([] {
    L2Config c;
    c.banks = 3;
    c.bank_bytes = 512;
    c.ways = 1;
    c.mshrs = 1;
    c.write_allocate = false;
    c.write_validate = false;
    random_traffic(c, 3);
  });
}

TEST(L2Data, RandomTrafficShortLinesFullyAssociative) {
  run_isolated([] {
    L2Config c;
    c.banks = 8;
    c.line_bytes = 32;
    c.bank_bytes = 256;
    c.ways = 8;
    random_traffic(c, 4);
  });
}

TEST(L2Data, AccessSpanningTwoLinesIsSplitOverTheirBanks) {
  run_isolated([] {
    Rig r(L2Config{}, dram(), [](LtInitiator& lsu) {
      std::uint8_t in[16], out[16] = {};
      for (int i = 0; i < 16; ++i) in[i] = static_cast<std::uint8_t>(0xa0 + i);
      EXPECT_EQ(lsu.write(0x38, in, 16).done, ns(60));  // two misses in parallel
      EXPECT_EQ(lsu.read(0x38, out, 16, ns(100)).done, ns(110));
      EXPECT_EQ(std::memcmp(in, out, 16), 0);
    });
    run_all();
    EXPECT_EQ(r.total("split_requests"), 2.0);
    EXPECT_EQ(r.total("requests"), 2.0);
    EXPECT_EQ(r.bank_stat(0, "accesses"), 2u);
    EXPECT_EQ(r.bank_stat(1, "accesses"), 2u);
  });
}

TEST(L2Data, DebugTransportSeesDirtyLinesAndFlushWritesThemBack) {
  run_isolated([] {
    TlmHarness h;
    memory::Memory mem("mem", dram());
    FanIn fan("fan");
    L2 l2("l2", L2Config{});
    h.out.bind(l2.in);
    for (unsigned b = 0; b < l2.banks(); ++b) l2.bank(b).mem.bind(fan.in);
    fan.out.bind(mem.in);
    h.at(ns(0)).write64(0x80, 0x0102030405060708ull);
    h.run();
    auto dbg = [&](bool write, std::uint64_t addr, std::uint64_t& v) {
      tlm::tlm_generic_payload tx;
      tx.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
      tx.set_address(addr);
      tx.set_data_ptr(reinterpret_cast<unsigned char*>(&v));
      tx.set_data_length(8);
      tx.set_streaming_width(8);
      return l2.in.get_base_export()->transport_dbg(tx);
    };
    std::uint64_t v = 0, m = 0;
    EXPECT_EQ(dbg(false, 0x80, v), 8u);
    EXPECT_EQ(v, 0x0102030405060708ull);  // the dirty cached copy
    std::memcpy(&m, mem.data() + 0x80, 8);
    EXPECT_EQ(m, 0u);                      // memory is stale
    v = 0x1111;
    EXPECT_EQ(dbg(true, 0x84, v), 8u);     // through the cache
    v = 0x2222;
    EXPECT_EQ(dbg(true, 0x8000, v), 8u);   // not cached: to memory, nothing allocated
    std::memcpy(&m, mem.data() + 0x8000, 8);
    EXPECT_EQ(m, 0x2222u);
    EXPECT_FALSE(l2.bank(l2.bank_of(0x8000)).model().contains(0x8000));
    l2.flush();
    std::memcpy(&m, mem.data() + 0x80, 8);
    EXPECT_EQ(m, 0x0000111105060708ull);
    EXPECT_FALSE(l2.bank(2).model().is_dirty(0x80));
    EXPECT_TRUE(l2.bank(2).model().contains(0x80));
    EXPECT_EQ(l2.bank(2).stats().find("flush_writebacks")->number(), 1.0);
  });
}

TEST(L2Data, FlushThroughTheControlRegister) {
  run_isolated([] {
    TlmHarness ctrl("ctrl_harness");
    Rig r(L2Config{}, dram(), [](LtInitiator& lsu) {
      lsu.write64(0x000, 1, ns(0));  // bank 0
      lsu.write64(0x100, 2, ns(1));  // bank 0
      lsu.write64(0x040, 3, ns(2));  // bank 1
    });
    ctrl.out.bind(r.l2.ctrl);
    ctrl.at(ns(1000)).write64(L2::kCtrlFlush, 1);
    ctrl.at(ns(2000)).write64(L2::kCtrlFlushInvalidate, 1);
    ctrl.at(ns(3000)).write64(0x10, 1);
    run_all();
    // Bank 0 writes back two lines in consecutive cycles: the last completes 51 ns later.
    EXPECT_EQ(ctrl.result(0).latency, ns(51));
    EXPECT_EQ(r.mem.writes(), 3u);
    EXPECT_EQ(r.mem.data()[0x000], 1);
    EXPECT_EQ(r.mem.data()[0x100], 2);
    EXPECT_EQ(r.mem.data()[0x040], 3);
    EXPECT_EQ(ctrl.result(1).latency, ns(0));  // nothing dirty any more; lines dropped
    EXPECT_FALSE(r.l2.bank(0).model().contains(0x000));
    EXPECT_EQ(ctrl.result(2).status, tlm::TLM_ADDRESS_ERROR_RESPONSE);
    EXPECT_EQ(r.total("flush_writebacks"), 3.0);
  });
}

TEST(L2Data, ApproximatelyTimedInitiatorWorks) {
  run_isolated([] {
    // Two reads through the simple socket's nb-to-b conversion, the second once the first's
    // BEGIN_RESP has arrived.
    par::testing::AtInitiator at("at");
    at.read(0x300, 8);
    at.read(0x300, 8).after_previous = true;
    memory::Memory mem("mem", dram());
    FanIn fan("fan");
    L2 l2("l2", L2Config{});
    at.out.bind(l2.in);
    for (unsigned b = 0; b < l2.banks(); ++b) l2.bank(b).mem.bind(fan.in);
    fan.out.bind(mem.in);
    const std::uint64_t v = 0xfeedfacecafebeefull;
    std::memcpy(mem.data() + 0x300, &v, 8);
    run_all();
    for (const auto& r : at.requests) {
      EXPECT_EQ(r.begin_req_status, tlm::TLM_ACCEPTED);
      EXPECT_EQ(r.status, tlm::TLM_OK_RESPONSE);
      std::uint64_t value = 0;
      std::memcpy(&value, r.data.data(), 8);
      EXPECT_EQ(value, v);
    }
    EXPECT_EQ(at.requests[0].response, ns(60));  // miss
    EXPECT_EQ(at.requests[1].response, ns(70));  // hit, requested at 60
  });
}

TEST(L2Data, StatisticsTreeAndPerLaunchDifferences) {
  run_isolated([] {
    simkit::StatGroup root;
    simkit::Json before, launch;
    Rig* rig = nullptr;
    Rig r(L2Config{}, dram(), [&](LtInitiator& lsu) {
      for (std::uint64_t k = 0; k < 4; ++k) lsu.read64(k * 64, ns(static_cast<double>(k)));
      lsu.wait_until(ns(1000));
      before = root.snapshot();
      for (std::uint64_t k = 0; k < 8; ++k) lsu.read64(k * 64, ns(static_cast<double>(k)));
      lsu.wait_until(ns(2000));
      launch = root.diff(root.snapshot(), before);
      (void)rig;
    });
    rig = &r;
    root.attach(r.l2.stats());
    run_all();
    EXPECT_EQ(r.l2.bank(0).stats().path(), "l2.bank0");
    ASSERT_NE(root.find("l2.bank3.hits"), nullptr);
    EXPECT_EQ(root.find("l2.bank0.hits")->number(), 1.0);
    EXPECT_EQ(root.find("l2.hits")->number(), 4.0);
    EXPECT_EQ(root.find("l2.misses")->number(), 8.0);
    EXPECT_DOUBLE_EQ(root.find("l2.hit_rate")->number(), 4.0 / 12.0);
    // Per launch: the second phase had 4 hits out of 8 accesses.
    EXPECT_EQ(simkit::find_stat(launch, "l2.hits")->at("value").get<double>(), 4.0);
    EXPECT_DOUBLE_EQ(simkit::find_stat(launch, "l2.hit_rate")->at("value").get<double>(), 0.5);
    EXPECT_DOUBLE_EQ(simkit::find_stat(launch, "l2.bank0.hit_rate")->at("value").get<double>(),
                     0.5);
    EXPECT_EQ(simkit::find_stat(launch, "l2.requests")->at("value").get<std::uint64_t>(), 8u);
    std::ostringstream table;
    root.write_table(table);
    EXPECT_NE(table.str().find("l2.bank2.mshr_merges"), std::string::npos);
    EXPECT_NE(table.str().find("l2.bank_conflict_cycles"), std::string::npos);
  });
}

TEST(L2Data, MemoryErrorsReachTheInitiator) {
  run_isolated([] {
    Rig r(L2Config{}, dram(50, 0, 4096), [](LtInitiator& lsu) {
      std::uint64_t v = 0;
      EXPECT_EQ(lsu.read(0x10000, &v, 8).status, tlm::TLM_ADDRESS_ERROR_RESPONSE);
      EXPECT_EQ(lsu.read(0x40, &v, 8, ns(10)).status, tlm::TLM_OK_RESPONSE);
    });
    run_all();
    EXPECT_EQ(r.total("errors"), 1.0);
    EXPECT_FALSE(r.l2.bank(0).model().contains(0x10000));
  });
}

TEST(L2Data, InvalidConfigurationIsRejected) {
  run_isolated([] {
    L2Config c;
    c.ways = 0;
    try {
      L2 l2("l2", c);
      ADD_FAILURE() << "no exception";
    } catch (const std::invalid_argument& e) {
      EXPECT_EQ(std::string(e.what()),
                "invalid L2 configuration: l2.ways: 0 is out of range 1..64");
    }
  });
}

}  // namespace
}  // namespace par::l2
