// End to end on the mini system (mini_system.hpp: master -> HT link -> scheduler -> 2 PAR cores,
// device DRAM, host memory): the .MASTER red-black Gauss-Seidel of sw/fullsystem/rb_gs.par
// converges to the C++ reference bit for bit with the reference's number of sweeps, with the
// data in device DRAM or (XD1000-style) in host memory, with every wait method; a faulting
// kernel stops the master program with the core's message; with every scheduler queue entry
// taken the master waits for a completion before its next DOORBELL, and every packet completes.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "support/sc_isolation.hpp"
#include "mini_system.hpp"
#include "par/isa/assembler.hpp"
#include "rb_gs_reference.hpp"

namespace par::master {
namespace {

using runtime::LaunchRecord;
using testing::MiniSystem;
using testing::MiniSystemConfig;

isa::Program rb_gs_program() {
  const isa::AssemblyResult a = isa::assemble_file(std::string(PARSYS_FULLSYSTEM_DIR) + "/rb_gs.par");
  EXPECT_TRUE(a.ok()) << a.messages();
  return *a.program;
}

TEST(RbGsReference, ConvergesAfter95Sweeps) {
  const fullsystem::RbGsResult r = fullsystem::rb_gs_reference(rb_gs_program());
  EXPECT_TRUE(r.converged);
  EXPECT_EQ(r.sweeps, 95);
  EXPECT_EQ(r.red.size(), 18u * 16u);
}

// The mini system's timing of one run (it changes when a module's timing model does).
struct ExpectedTiming {
  sc_core::sc_time end;          // the master program finished
  double transactions;           // on the master's bus
  sc_core::sc_time first_launch; // staging burst + DOORBELL of packet 1 (+ the flag clear)
  sc_core::sc_time first_device; // packet 1 from its first share to its last
};

// Runs rb_gs.par's master program; checks grids, sweeps, the launch records and the timing.
void check_master_rb_gs(const MiniSystemConfig& cfg, const ExpectedTiming& t) {
  const isa::Program program = rb_gs_program();
  const fullsystem::RbGsResult ref = fullsystem::rb_gs_reference(program);
  MiniSystem sys(program, cfg, nullptr);
  ASSERT_EQ(sys.run(), "");
  const fullsystem::RbGsParams p = fullsystem::rb_gs_params(sys.program());
  EXPECT_EQ(static_cast<std::int64_t>(sys.word(p.sweeps_addr)), ref.sweeps);
  std::size_t differ = 0;
  for (std::size_t i = 0; i < ref.red.size(); ++i) {
    differ += std::memcmp(sys.at(p.red + 8 * i), &ref.red[i], 8) != 0;
    differ += std::memcmp(sys.at(p.black + 8 * i), &ref.black[i], 8) != 0;
  }
  EXPECT_EQ(differ, 0u) << "grid points that differ from the C++ reference";
  const auto& launches = sys.launches();
  ASSERT_EQ(launches.size(), static_cast<std::size_t>(2 * ref.sweeps));
  EXPECT_EQ(sys.scheduler().packet_records().size(), launches.size());
  EXPECT_EQ(launches[0].kernel, "rb_red");
  EXPECT_EQ(launches[1].kernel, "rb_black");
  for (const LaunchRecord& r : launches) {
    EXPECT_TRUE(r.done && r.ok);
    const sched::PacketRecord& s = sys.scheduler().packet_records().at(r.seq - 1);
    EXPECT_LE(r.submit_begin, s.submitted);
    EXPECT_LE(s.finished, r.completed) << "the host learned of completion before it happened";
  }
  EXPECT_EQ(sys.master().stats().find("launches")->number(), 2.0 * static_cast<double>(ref.sweeps));
  EXPECT_EQ(sys.master().stats().find("waits")->number(), 2.0 * static_cast<double>(ref.sweeps));
  EXPECT_EQ(sys.master().finished_at(), t.end);
  EXPECT_EQ(sys.master().stats().find("transactions")->number(), t.transactions);
  EXPECT_EQ(launches[0].submitted - launches[0].submit_begin, t.first_launch);
  const sched::PacketRecord& first = sys.scheduler().packet_records()[0];
  EXPECT_EQ(first.executed - first.started, t.first_device);
}

TEST(FullSystemMaster, RedBlackGaussSeidelWithDataInDeviceDram) {
  // 190 packets: per sweep 2 x (staging, DOORBELL) + flag store + flag load = 6, + the final store;
  // each sync sleeps until the packet's completion interrupt has crossed the link.
  par::testing::run_isolated([] {
    // The first launch: the posted staging burst and DOORBELL leave the host in 440 ns.
    check_master_rb_gs(MiniSystemConfig{}, {sc_core::sc_time(1039919.5, sc_core::SC_NS), 95 * 6 + 1,
                                            sc_core::sc_time(440, sc_core::SC_NS), sc_core::sc_time(4669, sc_core::SC_NS)});
  });
}

TEST(FullSystemMaster, RedBlackGaussSeidelWithDataInHostMemoryAndPolling) {
  par::testing::run_isolated([] {
    MiniSystemConfig cfg;
    cfg.data_in_host_memory = true;
    cfg.runtime.wait = runtime::WaitMode::Poll;
    // The cores read the grids across the link: 8.6 times as long per packet (the host's polls
    // share the link with them).
    check_master_rb_gs(cfg, {sc_core::sc_time(7887882.5, sc_core::SC_NS), 19382, sc_core::sc_time(440, sc_core::SC_NS),
                             sc_core::sc_time(40250, sc_core::SC_NS)});
  });
}

TEST(FullSystemMaster, RedBlackGaussSeidelWithTheCompletionFlag) {
  par::testing::run_isolated([] {
    MiniSystemConfig cfg;
    cfg.runtime.wait = runtime::WaitMode::Flag;
    // The first launch clears the flag first (one more write, 50 ns).
    check_master_rb_gs(cfg, {sc_core::sc_time(1083830.5, sc_core::SC_NS), 6989, sc_core::sc_time(490, sc_core::SC_NS),
                             sc_core::sc_time(4669, sc_core::SC_NS)});
  });
}

TEST(FullSystemMaster, AFaultingKernelStopsTheMasterWithTheCoresMessage) {
  par::testing::run_isolated([] {
    const isa::AssemblyResult a = isa::assemble(R"(.MASTER
.ADDRESS main
.CODE
main:   set    r1 = 4              // a misaligned pointer for the kernel
        set    r5 = 6
        par    r5, bad
        sync
        set    r6 = 1     #
bad:    ld8    r2 = i1[0] #
)", "f.par");
    ASSERT_TRUE(a.ok()) << a.messages();
    MiniSystem sys(*a.program, MiniSystemConfig{}, nullptr);
    EXPECT_EQ(sys.run(),
              "master: runtime error at pc 3 (f.par:7): packet 1 (bad, 6 threads) failed: threads 0..2 on core 0: "
              "the core reported a failure; core0: runtime error at pc 5 (f.par:9), thread 0: misaligned 8-byte load "
              "at 0x4; core1: runtime error at pc 5 (f.par:9), thread 3: misaligned 8-byte load at 0x4");
    EXPECT_EQ(sys.master().final_registers()->r[6], 0u);
  });
}

// Six packets launched back to back without a sync, 1024 threads each, each thread storing its
// packet number + 1 at out[packet][i0]. Used with scheduler.queue_depth = 2 to fill the queue.
const char* const kBurstSource = R"(.MASTER
.ADDRESS main
.I1 out
.CODE
main:   mov    r1 = i1              // kernel i1: this packet's row of out
        set    r2 = 0               // kernel i2: packet number
        set    r5 = 1024            // threads per packet
        set    r6 = 6               // packets
        set    r8 = 8192            // bytes per row
        loop   r6, launch
        set    r7 = 1     #         // the end of the program is an implicit sync
launch: par    r5, kern
        add    r2 = r2, 1
        add    r1 = r1, r8  #
kern:   sll    r3 = i0, 3
        add    r4 = i2, 1
        st8    i1[r3] = r4  #
.DATA 0x10000
        .align 64
out:    .zero 49152
)";

constexpr int kBurstPackets = 6;
constexpr std::int64_t kBurstThreads = 1024;

// Every packet ran completely and in order, no DOORBELL was refused; returns how many launches
// waited for a queue entry.
double check_burst(MiniSystem& sys) {
  const std::uint64_t out = sys.program().data_labels.at("out");
  std::size_t wrong = 0;
  for (int k = 0; k < kBurstPackets; ++k)
    for (std::int64_t t = 0; t < kBurstThreads; ++t)
      wrong += sys.word(out + 8 * (static_cast<std::uint64_t>(k) * kBurstThreads + static_cast<std::uint64_t>(t))) !=
               static_cast<std::uint64_t>(k + 1);
  EXPECT_EQ(wrong, 0u) << "thread results missing or wrong";
  const auto& launches = sys.launches();
  const auto& records = sys.scheduler().packet_records();
  EXPECT_EQ(launches.size(), static_cast<std::size_t>(kBurstPackets));
  EXPECT_EQ(records.size(), static_cast<std::size_t>(kBurstPackets));
  for (const LaunchRecord& r : launches) EXPECT_TRUE(r.done && r.ok) << "packet " << r.seq;
  EXPECT_EQ(sys.scheduler().stats().find("packets_completed")->number(), kBurstPackets);
  EXPECT_EQ(sys.scheduler().stats().find("doorbells_refused")->number(), 0.0);
  return sys.master().stats().find("queue_full_waits")->number();
}

// With two queue entries, the host stages packet k >= 3 only once packet k - 2's completion
// interrupt has come back across the link: no DOORBELL is refused or held, and everything
// completes.
void check_back_pressure(MiniSystem& sys) {
  EXPECT_EQ(check_burst(sys), kBurstPackets - 2.0);
  const auto& launches = sys.launches();
  const auto& records = sys.scheduler().packet_records();
  const sc_core::sc_time unblocked = launches[0].submitted - launches[0].submit_begin;
  EXPECT_EQ(launches[1].submitted - launches[1].submit_begin, unblocked);
  for (std::size_t k = 2; k < launches.size(); ++k) {
    // The interrupt of packet k - 2 is the posted write the link carries after it finished.
    EXPECT_GT(launches[k - 2].completed, records[k - 2].finished) << "packet " << k - 1;
    EXPECT_LT(launches[k - 2].completed - records[k - 2].finished, sc_core::sc_time(200, sc_core::SC_NS));
    EXPECT_EQ(launches[k].submitted - launches[k - 2].completed, unblocked) << "packet " << k + 1 << " staged at once";
    EXPECT_GT(records[k].submitted, launches[k].submitted) << "DOORBELL of packet " << k + 1 << " returned before it took effect";
  }
}

TEST(FullSystemMaster, AFullCommandQueueBlocksTheMastersParAndEverythingCompletes) {
  par::testing::run_isolated([] {
    const isa::AssemblyResult a = isa::assemble(kBurstSource, "burst.par");
    ASSERT_TRUE(a.ok()) << a.messages();
    MiniSystemConfig cfg;
    cfg.scheduler.queue_depth = 2;
    MiniSystem sys(*a.program, cfg, nullptr);
    ASSERT_EQ(sys.run(), "");
    check_back_pressure(sys);
    EXPECT_EQ(sys.master().final_registers()->r[2], static_cast<std::uint64_t>(kBurstPackets));
  });
}

TEST(FullSystemMaster, AFullCommandQueueBlocksAHostProgramsLaunch) {
  par::testing::run_isolated([] {
    const isa::AssemblyResult a = isa::assemble(kBurstSource, "burst.par");
    ASSERT_TRUE(a.ok()) << a.messages();
    class Burst final : public runtime::HostProgram {
     public:
      std::string name() const override { return "burst"; }
      std::string description() const override { return "six launches without a wait"; }
      int run(runtime::HostRuntime& rt, std::ostream&) override {
        const std::uint64_t out = rt.symbol("out");
        for (std::uint64_t k = 0; k < kBurstPackets; ++k)
          rt.launch(rt.kernel("kern"), kBurstThreads, {out + 8 * kBurstThreads * k, k});
        rt.wait();
        return 0;
      }
    };
    MiniSystemConfig cfg;
    cfg.scheduler.queue_depth = 2;
    MiniSystem sys(*a.program, cfg, std::make_unique<Burst>());
    ASSERT_EQ(sys.run(), "");
    check_back_pressure(sys);
  });
}

TEST(FullSystemMaster, WithAFreeQueueEntryTheDoorbellDoesNotBlock) {
  par::testing::run_isolated([] {
    const isa::AssemblyResult a = isa::assemble(kBurstSource, "burst.par");
    ASSERT_TRUE(a.ok()) << a.messages();
    MiniSystem sys(*a.program, MiniSystemConfig{}, nullptr);  // queue_depth 32
    ASSERT_EQ(sys.run(), "");
    EXPECT_EQ(check_burst(sys), 0.0);
    // Every launch takes the same time (staging burst + DOORBELL), whatever the device is doing.
    const auto& launches = sys.launches();
    for (const LaunchRecord& r : launches)
      EXPECT_EQ(r.submitted - r.submit_begin, launches[0].submitted - launches[0].submit_begin) << "packet " << r.seq;
    EXPECT_LT(launches[2].submitted, sys.scheduler().packet_records()[0].finished);
  });
}

}  // namespace
}  // namespace par::master
