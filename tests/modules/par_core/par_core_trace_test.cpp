// ParCore::set_trace: a packet launched through `ctrl` gives one busy interval (launch to
// completion) on core<i>/busy and one stall interval per run of stall cycles on core<i>/stall,
// the VCD signals core<i>.busy / core<i>.stall; without a timeline nothing is recorded and the
// timing is the same. sw/kernels/sva.par on one 1x4 core at 1 GHz (data in local memory).
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "support/rise_probe.hpp"
#include "support/sc_isolation.hpp"
#include "support/tlm_harness.hpp"
#include "ip/trace/recorded_events.hpp"
#include "memory.hpp"
#include "par/core/core_registers.hpp"
#include "par/isa/assembler.hpp"
#include "par_core.hpp"
#include "par_core_test_support.hpp"
#include "program_runner.hpp"

namespace par::core {
namespace {

using sc_core::sc_time;
using sc_core::SC_NS;
using trace::testing::on_track;
using trace::testing::recorded_events;
using trace::testing::RecordedEvent;

class CountingListener : public StallListener {
 public:
  std::size_t runs = 0;
  Cycle last_to = -1;
  void stall(StallCause, Cycle from, Cycle to) override {
    if (from > last_to) ++runs;
    last_to = std::max(last_to, to);
  }
};

isa::Program sva() {
  const isa::AssemblyResult a = isa::assemble_file(std::string(PARSYS_SOURCE_DIR) + "/sw/kernels/sva.par");
  EXPECT_TRUE(a.ok()) << a.messages();
  return *a.program;
}

struct Result {
  CoreStats stats;
  sc_time launched, completed;
};

// Launches sva at 100 ns and returns the core's statistics and the launch's times.
Result run_on_core(const isa::Program& program, trace::Timeline* tl, trace::VcdWriter* vcd) {
  const CoreConfig cfg;
  std::string error;
  const std::unique_ptr<LoadedProgram> loaded = LoadedProgram::load(program, cfg, &error);
  EXPECT_NE(loaded, nullptr) << error;
  par::testing::TlmHarness host("host");
  memory::Memory global("global", memory::MemoryConfig{4096, 0, 0});
  ParCore core("core0", cfg, *loaded, RunMode::Timing, /*functional_width=*/1, sc_time(1, SC_NS), sc_time(1000, SC_NS));
  core.set_trace(tl, vcd);
  EXPECT_TRUE(load_data(program, core.local_memory(), &error)) << error;
  core.mem.bind(global.in);
  host.out.bind(core.ctrl);
  sc_core::sc_signal<bool> line("line");
  core.irq.bind(line);
  par::testing::RiseProbe done("done");
  done.in.bind(line);
  testing::launch(host, sc_time(100, SC_NS), testing::descriptor_of(program));  // 0 ns each
  host.run();
  EXPECT_EQ(host.result(1).status, tlm::TLM_OK_RESPONSE) << core.error();
  EXPECT_EQ(done.rises.size(), 1u);
  return {core.total_stats(), host.result(1).issued, done.rises.empty() ? sc_time() : done.rises[0]};
}

TEST(ParCoreTrace, OneBusyIntervalPerPacketAndOneStallIntervalPerRun) {
  const isa::Program program = sva();
  CountingListener expected;
  RunOptions options;
  options.stall_listener = &expected;
  const ProgramRun reference = run_program(program, CoreConfig{}, options);
  ASSERT_TRUE(reference.ok) << reference.error;
  ASSERT_GT(expected.runs, 0u);

  par::testing::run_isolated([&] {
    trace::Timeline tl;
    trace::VcdWriter vcd;
    const Result r = run_on_core(program, &tl, &vcd);
    EXPECT_EQ(r.stats.cycles, reference.stats.cycles);
    EXPECT_EQ(r.completed - r.launched, sc_time(static_cast<double>(reference.stats.cycles), SC_NS));

    const std::vector<RecordedEvent> all = recorded_events(tl);
    EXPECT_EQ(tl.recorded(), expected.runs + 1);
    EXPECT_EQ(tl.recorded("core"), expected.runs + 1);
    const std::vector<RecordedEvent> busy = on_track(all, "core0/busy");
    ASSERT_EQ(busy.size(), 1u);
    EXPECT_EQ(busy[0].name, "busy");
    EXPECT_EQ(busy[0].begin_ps, 100'000u);
    EXPECT_EQ(busy[0].end_ps, r.completed.value());
    EXPECT_EQ(busy[0].args.at("threads"), program.threads);
    EXPECT_EQ(busy[0].args.at("pc"), program.start);
    const std::vector<RecordedEvent> stalls = on_track(all, "core0/stall");
    ASSERT_EQ(stalls.size(), expected.runs);
    std::int64_t cycles = 0, total = 0;
    for (const RecordedEvent& s : stalls) {
      EXPECT_EQ(s.cat, "core");
      EXPECT_EQ(s.name, s.args.at("reason"));
      EXPECT_GE(s.begin_ps, 100'000u);
      EXPECT_LE(s.end_ps, r.completed.value());
      cycles += s.args.at("cycles").get<std::int64_t>();
    }
    for (std::int64_t s : reference.stats.stalls) total += s;
    EXPECT_EQ(cycles, total);
    EXPECT_EQ(vcd.declared(), (std::vector<std::string>{"core0.busy", "core0.stall"}));
    EXPECT_EQ(vcd.recorded(), 2 + 2 * expected.runs);
  });
}

TEST(ParCoreTrace, NullTimelineRecordsNothingAndKeepsTheTiming) {
  const isa::Program program = sva();
  const ProgramRun reference = run_program(program, CoreConfig{});
  ASSERT_TRUE(reference.ok) << reference.error;
  par::testing::run_isolated([&] {
    trace::Timeline unused;
    const Result r = run_on_core(program, nullptr, nullptr);
    EXPECT_EQ(r.stats.cycles, reference.stats.cycles);
    EXPECT_EQ(r.stats.stalls, reference.stats.stalls);
    EXPECT_EQ(unused.recorded(), 0u);
  });
}

}  // namespace
}  // namespace par::core
