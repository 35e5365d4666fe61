// The MasterCore SC_MODULE through its TLM socket and interrupt input, with the host runtime on
// its port as the platform builds it: copies against a fixed-latency RAM (exact transaction counts
// and times), `par` as one staging burst plus DOORBELL at a fake scheduler, every wait method
// (the completion interrupt among them), and failed packets that stop the master with an error
// instead of a hang, for host programs and .MASTER programs. One elaboration per process
// (run_isolated).
#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include "sw/runtime/runtime_test_support.hpp"
#include "support/sc_isolation.hpp"
#include "host_program.hpp"
#include "host_runtime.hpp"
#include "master_core.hpp"
#include "memory.hpp"
#include "par/isa/assembler.hpp"

namespace par::master {
namespace {

using runtime::LaunchRecord;
using runtime::testing::FakeScheduler;
using runtime::testing::ns;
using sc_core::sc_time;

constexpr std::uint64_t kSchedBase = 0x0000001000000000ull;
constexpr std::uint64_t kFlag = 0x3000;

// A host program given as a function.
class LambdaHost final : public runtime::HostProgram {
 public:
  using Fn = std::function<int(runtime::HostRuntime&, std::ostream&)>;
  explicit LambdaHost(Fn fn) : fn_(std::move(fn)) {}
  std::string name() const override { return "lambda"; }
  std::string description() const override { return "test"; }
  int run(runtime::HostRuntime& rt, std::ostream& log) override { return fn_(rt, log); }

 private:
  Fn fn_;
};

// A master core with the host runtime on its port, running `host`, or without one the program's
// .MASTER code with the runtime as its packet control: as the platform assembles them.
struct HostedMaster {
  MasterCore master;
  runtime::HostRuntime rt;
  std::unique_ptr<runtime::HostProgramRunner> runner;

  HostedMaster(const char* name, const MasterConfig& cfg, const runtime::RuntimeConfig& rcfg,
               const isa::Program& program, std::unique_ptr<runtime::HostProgram> host)
      : master(name, cfg, program), rt(master.port(), rcfg, program, master.stats()) {
    if (host) {
      runner = std::make_unique<runtime::HostProgramRunner>(std::move(host), rt);
      master.set_host_software(*runner);
    } else {
      master.set_packet_control(rt);
    }
  }
};

// FakeScheduler's register protocol behind a TLM target (10 ns per register access), raising the
// completion interrupt of a packet that asks for it on `irq`, plus a plain memory for the flag
// and data.
class FakeDevice : public sc_core::sc_module {
 public:
  struct Access {
    bool write;
    std::uint64_t address;
    std::vector<std::uint8_t> data;
    sc_time arrival;
  };
  tlm_utils::simple_target_socket<FakeDevice> in;
  sckit::InterruptOut irq;
  FakeScheduler sched;
  std::vector<std::uint8_t> mem = std::vector<std::uint8_t>(1 << 16);
  std::vector<Access> log;

  explicit FakeDevice(sc_core::sc_module_name n) : sc_module(n), in("in"), irq("irq") {
    in.register_b_transport(this, &FakeDevice::b_transport);
  }

 private:
  void b_transport(tlm::tlm_generic_payload& tx, sc_time& delay) {
    const sc_time arrival = sc_core::sc_time_stamp() + delay;
    const std::uint64_t a = tx.get_address();
    std::uint8_t* d = tx.get_data_ptr();
    const unsigned len = tx.get_data_length();
    std::string error;
    sc_time done = arrival + ns(10);
    if (a >= kSchedBase) {
      const std::size_t before = sched.interrupts().size();
      done = sched.access(tx.is_write(), a - kSchedBase, d, len, arrival, ns(10), error);
      // A new packet that asks for the interrupt: raised when it will complete.
      const std::vector<sckit::Interrupt> raised = sched.interrupts();
      if (raised.size() > before && irq.size() > 0)
        irq->interrupt(raised.back().data, raised.back().at - sc_core::sc_time_stamp());
    } else if (a + len <= mem.size()) {
      std::uint64_t flag = 0;
      if (tx.is_write()) std::memcpy(&mem[a], d, len);
      else if (len == 8 && sched.flag_value(a, arrival, flag)) std::memcpy(d, &flag, 8);
      else std::memcpy(d, &mem[a], len);
    } else {
      error = "TLM_ADDRESS_ERROR_RESPONSE";
    }
    log.push_back(Access{tx.is_write(), a, std::vector<std::uint8_t>(d, d + len), arrival});
    delay = done - sc_core::sc_time_stamp();
    tx.set_response_status(error.empty()                          ? tlm::TLM_OK_RESPONSE
                           : error == "TLM_GENERIC_ERROR_RESPONSE" ? tlm::TLM_GENERIC_ERROR_RESPONSE
                                                                   : tlm::TLM_ADDRESS_ERROR_RESPONSE);
  }
};

isa::Program assemble_checked(const std::string& source) {
  const isa::AssemblyResult a = isa::assemble(source, "m.par");
  EXPECT_TRUE(a.ok()) << a.messages();
  return a.ok() ? *a.program : isa::Program{};
}

const char* const kKernels = R"(.MASTER
.ADDRESS main
.CODE
main:   nop   #
kern:   add    r1 = i1, 1     #
other:  add    r1 = i1, 2     #
)";

TEST(MasterCoreModule, HostCopiesAreChunkedTransactionsWithExactTimes) {
  par::testing::run_isolated([] {
    const isa::Program program = assemble_checked(kKernels);
    runtime::RuntimeConfig rcfg;
    rcfg.heap_base = 0x1000;
    rcfg.heap_bytes = 0x1000;
    std::vector<std::uint8_t> back(256);
    auto host = std::make_unique<LambdaHost>([&back](runtime::HostRuntime& rt, std::ostream& log) {
      std::vector<std::uint8_t> src(256);
      for (std::size_t i = 0; i < src.size(); ++i) src[i] = static_cast<std::uint8_t>(i * 7);
      const runtime::DeviceBuffer b = rt.alloc(256);
      rt.copy_to_device(b, src.data(), 256);
      rt.copy_from_device(back.data(), b, 256);
      log << "copied at " << rt.now();
      return back == src ? 0 : 1;
    });
    HostedMaster hosted("master", MasterConfig{}, rcfg, program, std::move(host));
    MasterCore& master = hosted.master;
    memory::Memory ram("ram", memory::MemoryConfig{1 << 16, 100, 0});
    master.bus.bind(ram.in);
    sc_core::sc_start();
    ASSERT_TRUE(master.finished());
    EXPECT_EQ(master.error(), "");
    EXPECT_EQ(ram.writes(), 4u);
    EXPECT_EQ(ram.reads(), 4u);
    // Chunks issued 0.5 ns apart, 100 ns each: writes done at 101.5 ns, reads at 203 ns.
    EXPECT_EQ(master.finished_at(), ns(203));
    EXPECT_EQ(hosted.runner->log_text(), "copied at 203 ns");
    EXPECT_EQ(master.stats().find("transactions")->number(), 8);
    EXPECT_EQ(master.stats().find("transaction_bytes")->number(), 512);
    EXPECT_EQ(master.stats().find("copy_to_device_bytes")->number(), 256);
    EXPECT_EQ(master.final_registers(), nullptr);
  });
}

TEST(MasterCoreModule, ParIsOneStagingBurstAndADoorbellAndSyncWaits) {
  par::testing::run_isolated([] {
    const isa::Program program = assemble_checked(R"(.MASTER
.ADDRESS main
.I3 0x333
.CODE
main:   set    r1 = 11
        mov    r3 = i3
        set    r14 = 14
        set    r5 = 40
        par    r5, kern
        sync          #
kern:   add    r1 = i1, 1     #
)");
    HostedMaster hosted("master", MasterConfig{}, runtime::RuntimeConfig{}, program, nullptr);
    MasterCore& master = hosted.master;
    FakeDevice dev("dev");
    master.bus.bind(dev.in);
    dev.irq.bind(master.irq);
    sc_core::sc_start();
    ASSERT_TRUE(master.finished());
    ASSERT_EQ(master.error(), "");
    ASSERT_EQ(dev.log.size(), 2u);
    const FakeDevice::Access& burst = dev.log[0];
    EXPECT_TRUE(burst.write);
    EXPECT_EQ(burst.address, kSchedBase);
    ASSERT_EQ(burst.data.size(), 256u);
    std::uint64_t w[32];
    std::memcpy(w, burst.data.data(), 256);
    const std::uint64_t expected[32] = {6, 40, 0, 1, sched::kControlInterrupt, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                        0, 11, 0, 0x333, 0, 40, 0, 0, 0, 0, 0, 0, 0, 0, 14, 0};
    for (int k = 0; k < 32; ++k) EXPECT_EQ(w[k], expected[k]) << "word " << k;
    EXPECT_EQ(burst.arrival, ns(2));  // four instructions at 2 GHz
    EXPECT_EQ(dev.log[1].address, kSchedBase + sched::kRegDoorbell);
    EXPECT_EQ(dev.log[1].arrival, ns(12));
    // Accepted at 22 ns, 1000 ns of work: the completion interrupt wakes the sync at 1022 ns.
    EXPECT_EQ(master.finished_at(), ns(1022));
    EXPECT_EQ(master.stats().find("interrupts")->number(), 1.0);
    ASSERT_EQ(hosted.rt.launches().size(), 1u);
    const LaunchRecord& r = hosted.rt.launches()[0];
    EXPECT_EQ(r.kernel, "kern");
    EXPECT_EQ(r.threads, 40);
    EXPECT_EQ(r.submit_begin, ns(2));
    EXPECT_EQ(r.submitted, ns(22));
    EXPECT_EQ(r.wait_begin, ns(22));
    EXPECT_EQ(r.completed, ns(1022));
    ASSERT_NE(master.final_registers(), nullptr);
    EXPECT_EQ(master.final_registers()->r[14], 14u);
  });
}

// Two launches and a wait in each mode: the transactions each mode issues and when it returns.
TEST(MasterCoreModule, EveryWaitModeSeesThePacketsComplete) {
  struct Case {
    runtime::WaitMode mode;
    std::size_t transactions;  // after the two launches (2 x 2, plus the flag clear)
    double end_ns;
  };
  // Launch 1 is accepted at 20 ns (flag: 30 ns, after clearing the flag), launch 2 at 40 ns
  // (50 ns) and completes 1000 ns later; every access takes 10 ns.
  const Case cases[] = {// two interrupts, no transaction
                        {runtime::WaitMode::Interrupt, 0, 1040},
                        // COMPLETED read at 40, 150, ..., 1030 (the 10th sees 2), then STATUS.
                        {runtime::WaitMode::Poll, 10 + 1, 1050},
                        // the flag read at 50, 160, ..., 1150 (the 11th sees tag 2), then STATUS.
                        {runtime::WaitMode::Flag, 11 + 1, 1170}};
  for (const Case& c : cases) {
    SCOPED_TRACE(runtime::to_string(c.mode));
    par::testing::run_isolated([&c] {
      const isa::Program program = assemble_checked(kKernels);
      runtime::RuntimeConfig cfg;
      cfg.wait = c.mode;
      cfg.flag_addr = kFlag;
      auto host = std::make_unique<LambdaHost>([](runtime::HostRuntime& rt, std::ostream&) {
        rt.launch(rt.kernel("kern"), 8, {1});
        rt.launch(rt.kernel("other"), 8, {2});
        rt.wait();
        return 0;
      });
      HostedMaster hosted("master", MasterConfig{}, cfg, program, std::move(host));
      MasterCore& master = hosted.master;
      FakeDevice dev("dev");
      master.bus.bind(dev.in);
      dev.irq.bind(master.irq);
      sc_core::sc_start();
      ASSERT_TRUE(master.finished());
      ASSERT_EQ(master.error(), "");
      const std::size_t launches = c.mode == runtime::WaitMode::Flag ? 5 : 4;
      EXPECT_EQ(dev.log.size(), launches + c.transactions);
      EXPECT_EQ(master.finished_at(), ns(c.end_ns));
      ASSERT_EQ(hosted.rt.launches().size(), 2u);
      EXPECT_EQ(hosted.rt.launches()[1].completed, ns(c.end_ns));
      EXPECT_GE(hosted.rt.launches()[1].completed, dev.sched.packets()[1].completion);
    });
  }
}

TEST(MasterCoreModule, AFailedPacketIsAnErrorNotAHangForHostAndMasterPrograms) {
  for (runtime::WaitMode mode : {runtime::WaitMode::Interrupt, runtime::WaitMode::Poll, runtime::WaitMode::Flag}) {
    SCOPED_TRACE(runtime::to_string(mode));
    par::testing::run_isolated([mode] {
      const isa::Program program = assemble_checked(kKernels);
      runtime::RuntimeConfig cfg;
      cfg.wait = mode;
      cfg.flag_addr = kFlag;
      bool after_wait = false;
      auto host = std::make_unique<LambdaHost>([&after_wait](runtime::HostRuntime& rt, std::ostream&) {
        rt.wait(rt.launch(rt.kernel("kern"), 4));
        after_wait = true;
        return 0;
      });
      HostedMaster hosted("master", MasterConfig{}, cfg, program, std::move(host));
      MasterCore& master = hosted.master;
      hosted.rt.set_diagnostics([](std::uint64_t seq) { return "core 0 faulted in packet " + std::to_string(seq); });
      FakeDevice dev("dev");
      dev.sched.fails = [](std::uint64_t) { return true; };
      master.bus.bind(dev.in);
      dev.irq.bind(master.irq);
      sc_core::sc_start();
      ASSERT_TRUE(master.finished());
      EXPECT_FALSE(after_wait);
      EXPECT_EQ(master.error(), "master: packet 1 (kern, 4 threads) failed: core 0 faulted in packet 1");
      EXPECT_EQ(dev.sched.clear_errors(), 1);
    });
    par::testing::run_isolated([mode] {
      const isa::Program program = assemble_checked(R"(.MASTER
.ADDRESS main
.CODE
main:   set    r5 = 4
        par    r5, kern
        sync
        set    r6 = 1 #
kern:   add    r1 = i1, 1     #
)");
      runtime::RuntimeConfig cfg;
      cfg.wait = mode;
      cfg.flag_addr = kFlag;
      HostedMaster hosted("master", MasterConfig{}, cfg, program, nullptr);
      MasterCore& master = hosted.master;
      FakeDevice dev("dev");
      dev.sched.fails = [](std::uint64_t) { return true; };
      master.bus.bind(dev.in);
      dev.irq.bind(master.irq);
      sc_core::sc_start();
      ASSERT_TRUE(master.finished());
      EXPECT_EQ(master.error(),
                "master: runtime error at pc 2 (m.par:6): packet 1 (kern, 4 threads) failed: the thread scheduler "
                "reported it (FAILED_SEQ = 1)");
      EXPECT_EQ(master.final_registers()->r[6], 0u) << "the master stopped at the sync";
    });
  }
}

// One master per simulation: under AddressSanitizer, exceptions thrown on several SystemC
// coroutine stacks of one process trip a known false positive (google/sanitizers#189).
void expect_host_error(const char* name, LambdaHost::Fn fn, const std::string& error) {
  par::testing::run_isolated([&] {
    const isa::Program program = assemble_checked(kKernels);
    HostedMaster hosted(name, MasterConfig{}, runtime::RuntimeConfig{}, program, std::make_unique<LambdaHost>(fn));
    MasterCore& master = hosted.master;
    FakeDevice dev("dev");
    master.bus.bind(dev.in);
    sc_core::sc_start();
    ASSERT_TRUE(master.finished());
    EXPECT_EQ(master.error(), error);
  });
}

TEST(MasterCoreModule, AHostProgramThatFailsOrThrowsFailsTheRun) {
  expect_host_error("a", [](runtime::HostRuntime&, std::ostream&) { return 3; }, "a: host program 'lambda' returned 3");
  expect_host_error(
      "b",
      [](runtime::HostRuntime& rt, std::ostream&) {
        rt.kernel("missing");
        return 0;
      },
      "b: unknown kernel 'missing' (code labels of m.par: kern, main, other)");
  expect_host_error(
      "c", [](runtime::HostRuntime&, std::ostream&) -> int { throw std::logic_error("oops"); },
      "c: host program 'lambda' failed: oops");
}

TEST(MasterCoreModule, APacketProgramWithoutAHostProgramIsAnError) {
  par::testing::run_isolated([] {
    const isa::Program program = assemble_checked(".PAR\n.ADDRESS k\n.THREADS 1\n.CODE\nk: nop #\n");
    HostedMaster hosted("master", MasterConfig{}, runtime::RuntimeConfig{}, program, nullptr);
    MasterCore& master = hosted.master;
    FakeDevice dev("dev");
    master.bus.bind(dev.in);
    sc_core::sc_start();
    EXPECT_EQ(master.error(), "master: 'm.par' has no master program (.PAR file) and no host program was given");
  });
}

TEST(MasterCoreModule, AnInvalidConfigurationIsRefused) {
  par::testing::run_isolated([] {
    MasterConfig c;
    c.cpi = 0;
    EXPECT_THROW(MasterCore("bad", c, isa::Program{}), std::invalid_argument);
  });
}

}  // namespace
}  // namespace par::master
