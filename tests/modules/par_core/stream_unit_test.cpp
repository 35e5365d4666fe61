// The core's optional stream unit (modules/par_core/stream_unit.*, docs/isa.md §6.10,
// docs/core-timing.md §4.9): the lane-to-bank mapping, runtime errors with PC, source line and
// thread, and the golden micro-timings of get and put.
#include <gtest/gtest.h>

#include <numeric>

#include "core_test_support.hpp"

namespace par::core {
namespace {

using testing::packet;

CoreConfig stream_config(int lanes, int threads_per_lane) {
  CoreConfig cfg = testing::config(lanes, threads_per_lane);
  cfg.stream.enabled = true;
  return cfg;
}

// Fills SRF elements 0..count-1 with 0..count-1, channel s0 = [0, count), s1 = [count, capacity).
RunOptions fill_s0(std::uint64_t count) {
  RunOptions opt;
  opt.stream_fill = [count](StreamUnit& su, std::string* error) {
    std::vector<std::uint64_t> v(count);
    std::iota(v.begin(), v.end(), 0);
    return su.write(0, v, error) && su.set_channel(0, 0, count, error) &&
           su.set_channel(1, count, su.capacity(), error);
  };
  return opt;
}

ProgramRun run(const std::string& source, const CoreConfig& cfg, RunOptions opt) {
  return run_program(testing::assemble_or_fail(source, "s.par"), cfg, opt);
}

std::vector<std::uint64_t> reg_of_threads(const ProgramRun& r, int reg) {
  std::vector<std::uint64_t> v;
  for (const ThreadRegisters& t : r.registers) v.push_back(t.r[static_cast<std::size_t>(reg)]);
  return v;
}

// The published test vector with the lanes as the PEs (L = 4, T = 1): PE p is thread p.
TEST(StreamUnit, PublishedTestVectorOnFourLanes) {
  const std::string src = packet(4) +
                          "main: get r1 = s0\n"
                          " and r5 = i0, 1\n eq p1 = r5, 0\n (p1) get r2 = s0\n"
                          " ne p3 = i0, 0\n (p3) get r3 = s0 #\n";
  RunOptions opt = fill_s0(10);
  opt.capture_count = 4;
  std::uint64_t head = 0;
  opt.stream_drain = [&head](StreamUnit& su) { head = su.channel(0).cur; };
  const ProgramRun r = run(src, stream_config(4, 1), opt);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(reg_of_threads(r, 1), (std::vector<std::uint64_t>{0, 1, 2, 3}));
  EXPECT_EQ(reg_of_threads(r, 2), (std::vector<std::uint64_t>{4, 0, 5, 0}));  // 0: not written
  EXPECT_EQ(reg_of_threads(r, 3), (std::vector<std::uint64_t>{0, 6, 7, 8}));
  EXPECT_EQ(head, 9u);
  EXPECT_EQ(r.stats.instructions[static_cast<std::size_t>(isa::Unit::Ls)], 3);
}

TEST(StreamUnit, EmptyChannelIsARuntimeErrorWithPcLineAndThread) {
  const std::string src = packet(4) + "main: get r1 = s0\n get r2 = s0\n ltu p1 = i0, 2\n (p1) get r3 = s0 #\n";
  const ProgramRun r = run(src, stream_config(4, 1), fill_s0(9));
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error,
            "core0: runtime error at pc 3 (s.par:8), thread 0: get from s0: channel empty "
            "(2 elements wanted, 1 left: head 8, end 9)");
}

TEST(StreamUnit, FullChannelIsARuntimeError) {
  RunOptions opt;
  opt.stream_fill = [](StreamUnit& su, std::string* error) { return su.set_channel(2, 10, 13, error); };
  const ProgramRun r = run(packet(8) + "main: add r1 = i0, 0\n ne p1 = i0, 0\n (p1) put s2 = r1 #\n",
                           stream_config(4, 2), opt);
  EXPECT_FALSE(r.ok);
  // Slot position 0 (threads 0, 2, 4, 6; thread 0 unqualified) puts 3 elements, position 1 finds it full.
  EXPECT_EQ(r.error,
            "core0: runtime error at pc 2 (s.par:7), thread 1: put to s2: channel full "
            "(4 elements wanted, 0 left: head 13, end 13)");
}

TEST(StreamUnit, DisabledUnitAndMissingChannelAreRuntimeErrors) {
  const ProgramRun off = run(packet(1) + "main: get r1 = s0 #\n", testing::config(1, 1), {});
  EXPECT_EQ(off.error, "core0: runtime error at pc 0 (s.par:5): 'get' needs the stream unit (core.stream.enabled = false)");
  const ProgramRun missing = run(packet(1) + "main: put s8 = i0 #\n", stream_config(1, 1), {});
  EXPECT_EQ(missing.error, "core0: runtime error at pc 0 (s.par:5): put to s8: no such channel (core.stream.channels = 8)");
}

TEST(StreamUnit, HostRangesAreChecked) {
  StreamConfig c;
  c.srf_elements = 16;
  StreamUnit su(c, 4, 1);
  std::string error;
  EXPECT_FALSE(su.set_channel(8, 0, 1, &error));
  EXPECT_EQ(error, "no stream channel s8 (core.stream.channels = 8)");
  EXPECT_FALSE(su.set_channel(0, 4, 17, &error));
  EXPECT_EQ(error, "stream channel s0: head 4 or end 17 past the SRF's 16 elements (core.stream.srf_elements)");
  EXPECT_FALSE(su.write(15, {1, 2}, &error));
  EXPECT_EQ(error, "SRF elements [15, +2) outside its 16 elements (core.stream.srf_elements)");
  EXPECT_TRUE(su.set_channel(0, 16, 16, &error));
}

// T slots per lane: one access per slot position, all lanes at once. L = 2, T = 2: position 0 is
// threads 0 and 2 (lanes 0 and 1), position 1 threads 1 and 3.
TEST(StreamUnit, SlotPositionsAccessOneAfterAnother) {
  RunOptions opt = fill_s0(4);
  opt.capture_count = 4;
  const ProgramRun r = run(packet(4) + "main: get r1 = s0 #\n", stream_config(2, 2), opt);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(reg_of_threads(r, 1), (std::vector<std::uint64_t>{0, 2, 1, 3}));
}

std::int64_t cycles(const std::string& body, int T, int N, CoreConfig cfg, CoreStats* stats = nullptr) {
  cfg.threads_per_lane = T;
  const ProgramRun r = run(packet(N) + body, cfg, fill_s0(64));
  EXPECT_TRUE(r.ok) << r.error;
  if (stats) *stats = r.stats;
  return r.stats.cycles;
}

// Golden micro-timings (docs/core-timing.md §7, rows 12-15).
TEST(StreamMicroTiming, GetIsTimedLikeALoad) {
  const CoreConfig cfg = stream_config(1, 1);
  EXPECT_EQ(cycles("main: get r1 = s0 #\n", 1, 1, cfg), 2);
  EXPECT_EQ(cycles("main: get r1 = s0\n add r2 = r1, 1 #\n", 2, 2, cfg), 4);
  EXPECT_EQ(cycles("main: ld8 r1 = i1[0]\n add r2 = r1, 1 #\n", 2, 2, cfg), 4);  // the same as row 6
}

TEST(StreamMicroTiming, LatencyOption) {
  CoreConfig cfg = stream_config(1, 1);
  cfg.stream.latency = 4;
  EXPECT_EQ(cycles("main: get r1 = s0 #\n", 1, 1, cfg), 5);
  // get threads 0..3, results 4..7; add issues 4, threads 4..7, results 5..8, commits 8.
  EXPECT_EQ(cycles("main: get r1 = s0\n add r2 = r1, 1 #\n", 4, 4, cfg), 9);
}

TEST(StreamMicroTiming, PutWaitsForItsConditionAndData) {
  const CoreConfig cfg = stream_config(1, 1);
  // lt issues 0, commits 1; put issues 1 (qp committed this cycle), result 2, commits 2.
  EXPECT_EQ(cycles("main: lt p1 = i0, 1\n (p1) put s1 = i0 #\n", 1, 1, cfg), 3);
  // The data comes from an FPU result at 4: the put's thread enters then.
  EXPECT_EQ(cycles("main: mul.d r1 = i1, i1\n put s1 = r1 #\n", 1, 1, cfg), 6);
  // The filter kernel's body with four threads: get threads 0..3, results 1..4; lt issues 1,
  // threads 1..4, commits 5; put issues 5 (its qp is committed), threads 5..8, commits 9.
  EXPECT_EQ(cycles("main: get r1 = s0\n lt p1 = i1, r1\n (p1) put s1 = r1 #\n", 4, 4, cfg), 10);
}

}  // namespace
}  // namespace par::core
