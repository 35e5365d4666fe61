// Stream filtering (sw/kernels/stream-filter.par) against its C++ reference on several core
// shapes and in functional mode, and its cycles against the same job done with predicated loads
// and stores (stream-filter-predicated.par).
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "par/isa/assembler.hpp"
#include "program_runner.hpp"
#include "stream_filter_ref.hpp"

namespace par::kernels {
namespace {

using core::CoreConfig;
using core::ProgramRun;
using core::RunOptions;

constexpr std::size_t kThreads = 1024;  // .THREADS of both kernels
constexpr std::int64_t kThreshold = 0;  // .I1 of both kernels

std::string kernel_path(const std::string& name) { return std::string(PARSYS_SOURCE_DIR) + "/sw/kernels/" + name + ".par"; }

CoreConfig shape(int lanes, int threads_per_lane) {
  CoreConfig cfg;
  cfg.lanes = lanes;
  cfg.threads_per_lane = threads_per_lane;
  cfg.stream.enabled = true;
  return cfg;
}

struct StreamResult {
  ProgramRun run;
  std::vector<std::int64_t> kept;  // s1 from its start to its head
};

StreamResult run_stream(const CoreConfig& cfg, const std::vector<std::int64_t>& x,
                        core::RunMode mode = core::RunMode::Timing) {
  StreamResult out;
  RunOptions opt;
  opt.mode = mode;
  const std::uint64_t n = x.size();
  opt.stream_fill = [&](core::StreamUnit& su, std::string* error) {
    return su.write(0, std::vector<std::uint64_t>(x.begin(), x.end()), error) && su.set_channel(0, 0, n, error) &&
           su.set_channel(1, n, 2 * n, error);
  };
  opt.stream_drain = [&](core::StreamUnit& su) {
    std::vector<std::uint64_t> v;
    std::string error;
    EXPECT_TRUE(su.read(n, su.channel(1).cur - n, v, &error)) << error;
    out.kept.assign(v.begin(), v.end());
  };
  out.run = core::run_file(kernel_path("stream-filter"), cfg, opt);
  return out;
}

// The predicated kernel with x appended as its input section.
ProgramRun run_predicated(const CoreConfig& cfg, const std::vector<std::int64_t>& x) {
  std::ifstream f(kernel_path("stream-filter-predicated"));
  std::stringstream src;
  src << f.rdbuf() << "\n.DATA 0x10000\n";
  for (std::int64_t v : x) src << "        .i64 " << v << "\n";
  const isa::AssemblyResult a = isa::assemble(src.str(), "stream-filter-predicated.par");
  EXPECT_TRUE(a.ok()) << a.messages();
  return core::run_program(*a.program, cfg);
}

TEST(StreamFilter, MatchesTheReferenceOnEveryShapeAndInFunctionalMode) {
  const std::vector<std::int64_t> x = stream_filter_input(kThreads, 7);
  const std::vector<std::int64_t> expected = stream_filter(x, kThreshold);
  ASSERT_EQ(expected.size(), 519u);
  for (auto [lanes, T] : {std::pair{1, 1}, {1, 4}, {4, 4}, {8, 2}, {3, 5}}) {
    const StreamResult r = run_stream(shape(lanes, T), x);
    ASSERT_TRUE(r.run.ok) << r.run.error;
    EXPECT_EQ(r.kept, expected) << "L " << lanes << " T " << T;
  }
  const StreamResult f = run_stream(shape(1, 4), x, core::RunMode::Functional);
  ASSERT_TRUE(f.run.ok) << f.run.error;
  EXPECT_EQ(f.kept, expected);
}

TEST(StreamFilter, PredicatedVersionKeepsTheSameElementsInPlace) {
  const std::vector<std::int64_t> x = stream_filter_input(kThreads, 7);
  const ProgramRun r = run_predicated(shape(1, 4), x);
  ASSERT_TRUE(r.ok) << r.error;
  const std::vector<std::uint64_t> out = r.read(0x20000, kThreads);
  std::vector<std::int64_t> kept;
  for (std::size_t i = 0; i < kThreads; ++i) {
    if (x[i] > kThreshold) EXPECT_EQ(static_cast<std::int64_t>(out[i]), x[i]) << i;
    else EXPECT_EQ(out[i], 0u) << i;
    if (x[i] > kThreshold) kept.push_back(static_cast<std::int64_t>(out[i]));
  }
  EXPECT_EQ(kept, stream_filter(x, kThreshold));
}

// Exact cycles of both kernels on the 2011 core shape (L = 1) for each T, and on 8 lanes. With
// T = 1 both are bound by fetch (one instruction per cycle: 3 against 4 per thread, the stream
// needs no address arithmetic); from T = 2 both are bound by the LS unit (two LS instructions per
// thread) and take the same time to one cycle. The stream version's output is packed, the
// predicated one's is not (packing it would take a prefix-count pass over the flags).
TEST(StreamFilter, CyclesAgainstPredicatedLoadsAndStores) {
  const std::vector<std::int64_t> x = stream_filter_input(kThreads, 7);
  struct Figures {
    int lanes, T;
    std::int64_t stream, predicated;
  };
  const Figures kRows[] = {
      {1, 1, 3073, 4097}, {1, 2, 2561, 2562}, {1, 4, 2305, 2306}, {1, 8, 2177, 2178}, {8, 4, 289, 290},
  };
  for (const Figures& row : kRows) {
    const StreamResult s = run_stream(shape(row.lanes, row.T), x);
    const ProgramRun p = run_predicated(shape(row.lanes, row.T), x);
    ASSERT_TRUE(s.run.ok && p.ok) << s.run.error << p.error;
    EXPECT_EQ(s.run.stats.cycles, row.stream) << "L " << row.lanes << " T " << row.T;
    EXPECT_EQ(p.stats.cycles, row.predicated) << "L " << row.lanes << " T " << row.T;
  }
}

}  // namespace
}  // namespace par::kernels
