// The PAR core inside the SystemC platform: a .PAR packet launched over TLM gives the same
// results and cycles as the plain engine, and errors surface as messages.
#include <gtest/gtest.h>

#include "modules/par_core/core_test_support.hpp"
#include "support/sc_isolation.hpp"
#include "platform.hpp"

namespace par::platform {
namespace {

const char* kSva = R"(.PAR
.ADDRESS sva
.THREADS 10
.I1 x
.I2 y
.I3 z
.I4 a
.CODE
sva:    sll    r1 = i0, 3
        ld8    r2 = i1[r1]
        ld8    r3 = i2[r1]
        ld8    r4 = i4[0]
        mul.d  r5 = r4, r2
        add.d  r5 = r5, r3
        st8    i3[r1] = r5   #
.DATA 0x1000
x:      .f64  0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0
y:      .f64  1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0
a:      .f64  2.5
        .align 64
z:      .zero 80
)";

TEST(Platform, RunsPacketOverTlmLikeTheEngine) {
  par::testing::run_isolated([] {
    const isa::Program program = core::testing::assemble_or_fail(kSva, "sva.par");
    PlatformConfig cfg;
    cfg.core.threads_per_lane = 4;
    cfg.run.clock_mhz = 500;  // 2 ns cycles
    Platform p(cfg, program);
    ASSERT_TRUE(p.ok()) << p.error();
    ASSERT_TRUE(p.run()) << p.error();
    core::ProgramRun direct = core::run_program(program, cfg.core);
    ASSERT_TRUE(direct.ok);
    EXPECT_EQ(p.core(0).total_stats().cycles, direct.stats.cycles);
    // The launch costs the staging write and the doorbell (one register access each) and the
    // dispatch of the share to the core, before the core's own time.
    const double launch_ns = 2 * cfg.scheduler.register_latency_ns + cfg.scheduler.dispatch_latency_ns;
    EXPECT_EQ(p.simulated_time(),
              sc_core::sc_time(launch_ns + 2.0 * static_cast<double>(direct.stats.cycles), sc_core::SC_NS));
    const double expected[] = {1.0, 3.5, 6.0, 8.5, 11.0, 13.5, 16.0, 18.5, 21.0, 23.5};
    for (int i = 0; i < 10; ++i) {
      std::uint64_t raw = p.core(0).local_memory().load(0x10C0 + 8 * static_cast<std::uint64_t>(i), 8);
      double v;
      std::memcpy(&v, &raw, 8);
      EXPECT_EQ(v, expected[i]) << i;
    }
  });
}

TEST(Platform, AccessOutsideLocalMemoryIsAnErrorNamingCoreAndThread) {
  par::testing::run_isolated([] {
    const isa::Program program = core::testing::assemble_or_fail(
        ".PAR\n.ADDRESS main\n.THREADS 4\n.I1 0x10000000000\n.CODE\nmain: sll r1 = i0, 3\n ld8 r2 = i1[r1] #\n", "far.par");
    PlatformConfig cfg;
    Platform p(cfg, program);
    ASSERT_TRUE(p.ok()) << p.error();
    EXPECT_FALSE(p.run());
    EXPECT_EQ(p.error(), "core0: runtime error at pc 1 (far.par:7), thread 0: unmapped 8-byte load at 0x10000000000 (TLM_ADDRESS_ERROR_RESPONSE)");
  });
}

TEST(Platform, RejectsImpossibleConfiguration) {
  par::testing::run_isolated([] {
    const isa::Program program = core::testing::assemble_or_fail(kSva, "sva.par");
    PlatformConfig cfg;
    cfg.core.lanes = 0;
    cfg.core.rob_size = 0;
    Platform p(cfg, program);
    EXPECT_FALSE(p.ok());
    EXPECT_NE(p.error().find("core.lanes: 0 is out of range 1..256"), std::string::npos) << p.error();
    EXPECT_NE(p.error().find("core.rob_size: 0 is out of range 1..4096"), std::string::npos) << p.error();
  });
}

// SystemC's reports (such as W571) go to stderr, one line each, never to standard output, where
// the run's report goes; quiet (-q) leaves out warnings and infos.
TEST(Platform, SystemCReportsGoToStderrAndQuietLeavesOutWarnings) {
  par::testing::run_isolated([] {
    install_report_handler(false);
    ::testing::internal::CaptureStdout();
    ::testing::internal::CaptureStderr();
    SC_REPORT_WARNING("/parsys/test", "something odd");
    SC_REPORT_INFO("/parsys/test", "for your information");
    std::string out = ::testing::internal::GetCapturedStdout();
    std::string err = ::testing::internal::GetCapturedStderr();
    EXPECT_EQ(out, "");
    EXPECT_EQ(err, "parsys: SystemC warning: /parsys/test: something odd\n"
                   "parsys: SystemC info: /parsys/test: for your information\n");
    install_report_handler(true);
    ::testing::internal::CaptureStdout();
    ::testing::internal::CaptureStderr();
    SC_REPORT_WARNING("/parsys/test", "something odd");
    out = ::testing::internal::GetCapturedStdout();
    err = ::testing::internal::GetCapturedStderr();
    EXPECT_EQ(out, "");
    EXPECT_EQ(err, "");
  });
}

}  // namespace
}  // namespace par::platform
