// The L1 as SystemC modules in front of a plain Memory (20 ns): latencies through the TLM socket,
// and the completion line: when the core's line rises, the L1 writes its dirty bytes back and
// empties itself before it passes the rise on. L1: 1 GHz, 1 KiB, 2 ways,
// hit 4, miss 2, refill 2 cycles.
#include <gtest/gtest.h>

#include <cstring>

#include <tlm_utils/simple_target_socket.h>

#include "support/sc_isolation.hpp"
#include "support/tlm_harness.hpp"
#include "l1_cache.hpp"
#include "memory.hpp"

namespace par::l1 {
namespace {

using par::testing::run_isolated;
using par::testing::TlmHarness;
using sc_core::SC_NS;
using sc_core::sc_time;

sc_time ns(double v) { return sc_time(v, SC_NS); }

L1Config small_enabled() {
  L1Config c;
  c.enabled = true;
  c.size_bytes = 1024;
  c.ways = 2;
  c.hit_latency = 4;
  c.miss_cycles = 2;
  c.refill_cycles = 2;
  return c;
}

// Stands in for a PAR core's completion line: low from `start`, high again 100 ns later; records
// when the L1 passes each change on.
class FakeCore : public sc_core::sc_module {
 public:
  sc_core::sc_signal<bool> line{"line", true}, done{"done", true};
  sc_time start = ns(200), done_rose = sc_core::SC_ZERO_TIME, done_fell = sc_core::SC_ZERO_TIME;
  explicit FakeCore(sc_core::sc_module_name name) : sc_module(name) {
    SC_HAS_PROCESS(FakeCore);
    SC_THREAD(share);
    SC_METHOD(watch);
    sensitive << done;
    dont_initialize();
  }

 private:
  void share() {
    sc_core::wait(start);
    line.write(false);
    sc_core::wait(ns(100));
    line.write(true);
  }
  void watch() { (done.read() ? done_rose : done_fell) = sc_core::sc_time_stamp(); }
};

struct ModuleRig {
  TlmHarness data{"data"};
  memory::Memory mem{"mem", memory::MemoryConfig{1 << 16, 20, 0}};
  FakeCore core{"core"};
  L1Caches l1;
  explicit ModuleRig(const L1Config& c) : l1("l1", c, 1, ns(1)) {
    data.out.bind(l1.cache(0).in);
    l1.cache(0).out.bind(mem.in);
    l1.cache(0).core_done.bind(core.line);
    l1.cache(0).done.bind(core.done);
  }
  double stat(const char* path) { return l1.stats().find(path)->number(); }
};

TEST(L1Cache, MissAndHitLatenciesThroughTheSocket) {
  run_isolated([] {
    ModuleRig r(small_enabled());
    r.data.at(ns(0)).read(0x100, 8).then().read(0x108, 8).then().read(0x100, 64).then().read(0x13c, 8);
    r.data.run();
    EXPECT_EQ(r.data.result(0).latency, ns(24));  // 2 + 20 + 2
    EXPECT_EQ(r.data.result(1).latency, ns(4));
    EXPECT_EQ(r.data.result(2).latency, ns(4));
    EXPECT_EQ(r.data.result(2).read_data[8], static_cast<std::uint8_t>(r.mem.data()[0x108]));
    // Spans two lines, both arriving together: the second takes the next port cycle and misses.
    EXPECT_EQ(r.data.result(3).latency, ns(1 + 24));
    EXPECT_EQ(r.mem.reads(), 2u);
    EXPECT_EQ(r.mem.bytes_read(), 128u);
    EXPECT_EQ(r.stat("core0.hits"), 3);  // 0x108, 0x100:64 and the first half of the last
    EXPECT_EQ(r.stat("core0.misses"), 2);
    EXPECT_EQ(r.stat("misses"), 2);  // the total over the cores
  });
}

TEST(L1Cache, TheShareEndReachesTheSchedulerAfterTheL1HasWrittenBackAndEmptiedItself) {
  run_isolated([] {
    ModuleRig r(small_enabled());
    r.data.at(ns(0)).write64(0x40, 0x1122334455667788ull);  // write-allocate: a fill, then dirty
    r.data.run();
    EXPECT_EQ(r.data.result(0).latency, ns(24));
    EXPECT_EQ(r.core.done_fell, ns(200));      // a share start passes at once
    EXPECT_EQ(r.core.done_rose, ns(300 + 20));  // the share's end, then one writeback
    std::uint64_t v = 0;
    std::memcpy(&v, r.mem.data() + 0x40, 8);
    EXPECT_EQ(v, 0x1122334455667788ull);
    EXPECT_EQ(r.mem.writes(), 1u);
    EXPECT_EQ(r.mem.bytes_written(), 8u);  // only the dirty bytes
    EXPECT_FALSE(r.l1.cache(0).model().contains(0x40));
    EXPECT_EQ(r.stat("flushes"), 1);
    EXPECT_EQ(r.stat("flush_writebacks"), 1);
  });
}

TEST(L1Cache, WriteThroughLaunchesNeedNoWriteback) {
  run_isolated([] {
    L1Config c = small_enabled();
    c.write_policy = WritePolicy::WriteThrough;
    ModuleRig r(c);
    r.data.at(ns(0)).write64(0x40, 7);
    r.data.run();
    EXPECT_EQ(r.data.result(0).latency, ns(24));  // fill 22 + refill 2; the write-through took 20 from 0
    EXPECT_EQ(r.core.done_rose, ns(300));
    EXPECT_EQ(r.mem.writes(), 1u);
    EXPECT_EQ(r.mem.data()[0x40], 7);
    EXPECT_EQ(r.stat("flush_writebacks"), 0);
  });
}

}  // namespace
}  // namespace par::l1
