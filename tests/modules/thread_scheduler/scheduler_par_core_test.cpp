// The scheduler with real PAR cores: sw/kernels/sva.par (1280 threads, data in each core's local
// memory) split statically over two ParCores gives the same matrix as the packet on one core.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "support/sc_isolation.hpp"
#include "support/tlm_harness.hpp"
#include "memory.hpp"
#include "par/isa/assembler.hpp"
#include "par_core.hpp"
#include "program_runner.hpp"
#include "scheduler_test_support.hpp"
#include "thread_scheduler.hpp"

namespace par::sched {
namespace {

using sc_core::sc_time;
using sched::testing::command_block;
using sched::testing::ns;

TEST(ThreadSchedulerWithParCores, SvaOnTwoCoresEqualsOneCore) {
  const isa::AssemblyResult assembled = isa::assemble_file(std::string(PARSYS_SOURCE_DIR) + "/sw/kernels/sva.par");
  ASSERT_TRUE(assembled.ok()) << assembled.messages();
  const isa::Program& program = *assembled.program;
  ASSERT_EQ(program.threads, 1280);
  const core::CoreConfig cfg;  // 1 lane x 4 threads, local memory at 0
  const core::ProgramRun one_core = core::run_program(program, cfg);
  ASSERT_TRUE(one_core.ok) << one_core.error;
  const std::uint64_t z = program.data_labels.at("sva_z");
  const std::size_t row_bytes = 5 * 8, rows = 1280;
  std::vector<std::uint8_t> expected(rows * row_bytes);
  one_core.memory->read_block(z, expected.data(), expected.size());

  par::testing::run_isolated([&] {
    std::string error;
    const std::unique_ptr<core::LoadedProgram> loaded = core::LoadedProgram::load(program, cfg, &error);
    ASSERT_NE(loaded, nullptr) << error;
    const sc_time period = ns(1);  // 1 GHz: busy_ns = cycles
    par::testing::TlmHarness host("host");
    ThreadScheduler sched("sched", SchedulerConfig{});
    std::vector<std::unique_ptr<memory::Memory>> global;  // unused: the data is in local memory
    std::vector<std::unique_ptr<core::ParCore>> cores;
    std::vector<std::unique_ptr<sc_core::sc_signal<bool>>> lines;
    for (int c = 0; c < 2; ++c) {
      global.push_back(std::make_unique<memory::Memory>(("global" + std::to_string(c)).c_str(),
                                                        memory::MemoryConfig{4096, 0, 0}));
      cores.push_back(std::make_unique<core::ParCore>(("core" + std::to_string(c)).c_str(), cfg, *loaded,
                                                      core::RunMode::Timing, /*functional_width=*/1, period, ns(1000)));
      ASSERT_TRUE(core::load_data(program, cores.back()->local_memory(), &error)) << error;
      cores.back()->mem.bind(global.back()->in);
      lines.push_back(std::make_unique<sc_core::sc_signal<bool>>(("line" + std::to_string(c)).c_str()));
      sched.cores.bind(cores.back()->ctrl);
      cores.back()->irq.bind(*lines.back());
      sched.core_irq.bind(*lines.back());
    }
    sched::testing::InterruptRecorder irqs("irqs");
    sched.irq.bind(irqs.in);
    host.out.bind(sched.regs);
    std::vector<std::uint64_t> inherited(program.inherited.begin(), program.inherited.end());
    host.then().write(kRegStart, command_block(program.start, program.threads, 0, 0, inherited));
    host.then().write64(kRegDoorbell, 1);
    host.run();

    ASSERT_EQ(host.result(1).status, tlm::TLM_OK_RESPONSE) << sched.error();
    ASSERT_EQ(irqs.received.size(), 1u);
    EXPECT_EQ(irqs.received[0].data, 0u) << sched.error();  // completed, not failed
    EXPECT_EQ(irqs.at(0), sched.packet_records().at(0).finished);
    for (int c = 0; c < 2; ++c) {
      ASSERT_FALSE(cores[c]->failed()) << cores[c]->error();
      ASSERT_EQ(cores[c]->packets_run(), 1);
      EXPECT_EQ(cores[c]->last_packet_stats().threads, 640);
      const std::string g = "core" + std::to_string(c);
      EXPECT_EQ(sched.stats().find(g + ".threads")->number(), 640.0);
      EXPECT_EQ(sched.stats().find(g + ".busy_ns")->number(),
                static_cast<double>(cores[c]->last_packet_stats().cycles));
    }
    // Each core computed its own half of the rows in its own local memory.
    std::vector<std::uint8_t> merged(expected.size());
    const std::size_t half = rows / 2 * row_bytes;
    cores[0]->local_memory().read_block(z, merged.data(), half);
    cores[1]->local_memory().read_block(z + half, merged.data() + half, expected.size() - half);
    EXPECT_TRUE(merged == expected) << "the two-core matrix differs from the one-core matrix";
    // The shares ran side by side: the device time is about half the one-core time.
    const PacketRecord& r = sched.packet_records().at(0);
    EXPECT_LT((r.executed - r.started) / ns(1), 0.6 * static_cast<double>(one_core.stats.cycles));
  });
}

}  // namespace
}  // namespace par::sched
