// The host program registry, and the host programs end to end on the mini system: sva-copy on
// sw/kernels/sva.par and rb-gauss-seidel on sw/fullsystem/rb_gs.par give the C++ references'
// results; a host program that waits on a faulting packet gets a DeviceError, not a hang.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "support/sc_isolation.hpp"
#include "host_programs.hpp"
#include "kernel_refs.hpp"
#include "modules/master_core/mini_system.hpp"
#include "par/isa/assembler.hpp"
#include "rb_gs_reference.hpp"

namespace par::host {
namespace {

using master::testing::MiniSystem;
using master::testing::MiniSystemConfig;

isa::Program load(const std::string& path) {
  const isa::AssemblyResult a = isa::assemble_file(std::string(PARSYS_SOURCE_DIR) + "/" + path);
  EXPECT_TRUE(a.ok()) << a.messages();
  return *a.program;
}

TEST(HostProgramRegistry, ListsEveryProgramAndNamesTheKnownOnesForAnUnknownName) {
  const auto& table = host_programs();
  ASSERT_EQ(table.size(), 3u);
  EXPECT_EQ(table[0].name, "rb-gauss-seidel");
  EXPECT_EQ(table[1].name, "sva-copy");
  EXPECT_EQ(table[2].name, "stream-filter");
  for (const HostProgramInfo& p : table) {
    EXPECT_FALSE(p.description.empty());
    std::string error;
    const auto program = make_host_program(p.name, &error);
    ASSERT_NE(program, nullptr);
    EXPECT_EQ(program->name(), p.name);
    EXPECT_EQ(error, "");
  }
  std::string error;
  EXPECT_EQ(make_host_program("sva", &error), nullptr);
  EXPECT_EQ(error, "unknown host program 'sva' (known: rb-gauss-seidel, sva-copy, stream-filter)");
}

TEST(HostPrograms, SvaCopyComputesTheReferenceMatrix) {
  par::testing::run_isolated([] {
    const isa::Program program = load("sw/kernels/sva.par");
    MiniSystem sys(program, MiniSystemConfig{}, make_host_program("sva-copy", nullptr));
    ASSERT_EQ(sys.run(), "");
    EXPECT_NE(sys.host_log().find("Z matches the C++ reference"), std::string::npos) << sys.host_log();
    // The result is in the device buffer the host allocated (x, y, then Z in the heap).
    const std::vector<double> ref = kernels::sva_reference(program);
    const std::uint64_t z = 0x200000 + 2 * 1280 * 8;
    EXPECT_EQ(std::memcmp(sys.at(z), ref.data(), ref.size() * 8), 0);
    ASSERT_EQ(sys.launches().size(), 1u);
    EXPECT_EQ(sys.launches()[0].threads, 1280);
    const double copied = 2 * 1280 * 8 + 2 * 1280 * 40;
    EXPECT_EQ(sys.master().stats().find("copy_to_device_bytes")->number() +
                  sys.master().stats().find("copy_from_device_bytes")->number(),
              copied);
    // 64-byte chunks (one link packet each), a staging burst and DOORBELL; the wait is the
    // completion interrupt.
    EXPECT_EQ(sys.master().stats().find("transactions")->number(), copied / 64 + 2);
    EXPECT_EQ(sys.master().finished_at(), sc_core::sc_time(174523, sc_core::SC_NS));
    const runtime::LaunchRecord& l = sys.launches()[0];
    const sched::PacketRecord& r = sys.scheduler().packet_records()[0];
    EXPECT_EQ(r.executed - r.started, sc_core::sc_time(4684, sc_core::SC_NS));
    EXPECT_EQ(l.submitted - l.submit_begin, sc_core::sc_time(440, sc_core::SC_NS));
  });
}

void check_host_rb_gs(const MiniSystemConfig& cfg) {
  const isa::Program program = load("sw/fullsystem/rb_gs.par");
  const fullsystem::RbGsResult ref = fullsystem::rb_gs_reference(program);
  MiniSystem sys(program, cfg, make_host_program("rb-gauss-seidel", nullptr));
  ASSERT_EQ(sys.run(), "");
  EXPECT_EQ(sys.host_log(),
            "rb-gauss-seidel: converged after 95 sweeps (190 packets of 256 threads, eps 1e-06); reference: 95 sweeps; "
            "grids match the C++ reference\n");
  const fullsystem::RbGsParams p = fullsystem::rb_gs_params(sys.program());
  EXPECT_EQ(static_cast<std::int64_t>(sys.word(p.sweeps_addr)), ref.sweeps);
  for (std::size_t i = 0; i < ref.red.size(); ++i) {
    ASSERT_EQ(std::memcmp(sys.at(p.red + 8 * i), &ref.red[i], 8), 0) << "red " << i;
    ASSERT_EQ(std::memcmp(sys.at(p.black + 8 * i), &ref.black[i], 8), 0) << "black " << i;
  }
  EXPECT_EQ(sys.launches().size(), 190u);
  if (!cfg.data_in_host_memory) {
    // Per sweep: flag clear, 2 x (staging, DOORBELL), flag read; then the sweep count
    // store and two 2304-byte grids in 64-byte chunks. The .MASTER program takes 1039.92 us.
    EXPECT_EQ(sys.master().finished_at(), sc_core::sc_time(1046346, sc_core::SC_NS));
    EXPECT_EQ(sys.master().stats().find("transactions")->number(), 95 * 6 + 1 + 2 * 36);
  }
}

TEST(HostPrograms, RedBlackGaussSeidelMatchesTheReferenceAndTheMasterProgram) {
  par::testing::run_isolated([] { check_host_rb_gs(MiniSystemConfig{}); });
}

TEST(HostPrograms, RedBlackGaussSeidelWithDataInHostMemory) {
  par::testing::run_isolated([] {
    MiniSystemConfig cfg;
    cfg.data_in_host_memory = true;
    cfg.runtime.wait = runtime::WaitMode::Flag;
    check_host_rb_gs(cfg);
  });
}

TEST(HostPrograms, WaitingOnAFaultingPacketIsADeviceErrorNotAHang) {
  const isa::AssemblyResult a = isa::assemble(R"(.MASTER
.ADDRESS main
.CODE
main:   nop      #
bad:    ld8    r2 = i1[0] #
)", "f.par");
  ASSERT_TRUE(a.ok()) << a.messages();
  for (runtime::WaitMode mode : {runtime::WaitMode::Interrupt, runtime::WaitMode::Poll, runtime::WaitMode::Flag}) {
    SCOPED_TRACE(runtime::to_string(mode));
    // Uncaught: the run fails with the packet's message.
    par::testing::run_isolated([&] {
      MiniSystemConfig cfg;
      cfg.runtime.wait = mode;
      class Faulting final : public runtime::HostProgram {
       public:
        std::string name() const override { return "faulting"; }
        std::string description() const override { return "waits on a misaligned load"; }
        int run(runtime::HostRuntime& rt, std::ostream&) override {
          rt.wait(rt.launch(rt.kernel("bad"), 2, {4}));
          return 0;
        }
      };
      MiniSystem sys(*a.program, cfg, std::make_unique<Faulting>());
      EXPECT_EQ(sys.run(),
                "master: packet 1 (bad, 2 threads) failed: threads 0..0 on core 0: the core reported a failure; "
                "core0: runtime error at pc 1 (f.par:5), thread 0: misaligned 8-byte load at 0x4; "
                "core1: runtime error at pc 1 (f.par:5), thread 1: misaligned 8-byte load at 0x4");
    });
  }
  // Caught: the host goes on, and its next packet runs.
  par::testing::run_isolated([&] {
    class Recovering final : public runtime::HostProgram {
     public:
      std::string name() const override { return "recovering"; }
      std::string description() const override { return "catches the DeviceError"; }
      int run(runtime::HostRuntime& rt, std::ostream& log) override {
        try {
          rt.wait(rt.launch(rt.kernel("bad"), 1, {4}));
        } catch (const runtime::DeviceError& e) {
          log << "caught packet " << e.seq() << '\n';
        }
        rt.wait(rt.launch(rt.kernel("bad"), 1, {8}));
        log << "second packet ok\n";
        return 0;
      }
    };
    MiniSystem sys(*a.program, MiniSystemConfig{}, std::make_unique<Recovering>());
    EXPECT_EQ(sys.run(), "");
    EXPECT_EQ(sys.host_log(), "caught packet 1\nsecond packet ok\n");
  });
}

}  // namespace
}  // namespace par::host
