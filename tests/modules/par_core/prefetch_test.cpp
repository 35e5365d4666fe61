// The packet prefetcher without SystemC: which loads the decoder finds, and which requests the
// runahead schedule sends when (modules/par_core/prefetch/README.md).
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "core_test_support.hpp"
#include "prefetch/affine_loads.hpp"
#include "prefetch/packet_prefetcher.hpp"

namespace par::core {
namespace {

using testing::assemble_or_fail;

std::vector<AffineLoad> decode(const std::string& source) {
  const isa::Program p = assemble_or_fail(source);
  std::string error;
  const auto lp = LoadedProgram::load(p, CoreConfig{}, &error);
  EXPECT_NE(lp, nullptr) << error;
  if (lp == nullptr) return {};
  std::uint64_t inherited[16] = {};
  for (int i = 1; i < 16; ++i) inherited[i] = p.inherited[static_cast<std::size_t>(i)];
  return find_affine_loads(
      [&](std::uint64_t pc) { return pc < lp->size() && lp->legal(pc) ? &lp->at(pc) : nullptr; }, p.start,
      inherited);
}

TEST(AffineLoads, FollowsSumsShiftsAndConstantsOnly) {
  const auto loads = decode(testing::packet(4, ".I1 0x1000\n.I2 0x2000\n.I3 0x3000\n.I4 0x4000\n") +
                            "main: sll r1 = i0, 3\n"
                            " ld8 r2 = r1[i1]\n"        // 8 i0 + 0x1000
                            " add r3 = r1, 16\n"
                            " ld8 r4 = r3[i2]\n"        // 8 i0 + 0x2010
                            " ld8 r5 = r2[i1]\n"        // loaded value: not followed
                            " srl r6 = i0, 1\n"
                            " ld8 r7 = r6[i1]\n"        // shift right: not followed
                            " (p1) ld8 r8 = r1[i3]\n"   // predicated: left out
                            " subf r9 = r1, i4\n"       // 0x4000 - 8 i0
                            " ld4 r10 = r9[-4]\n"
                            " sla r11 = i1, i0, 2\n"    // 0x1000 + 4 i0
                            " set r12 = 3\n"
                            " mul r13 = r12, r11\n"     // 3 (0x1000 + 4 i0)
                            " ld2 r14 = r13[0]\n"
                            " st8 r1[i3] = r2 #\n"
                            " ld8 r15 = r1[i1] #\n");   // after the stop bit: another block
  ASSERT_EQ(loads.size(), 4u);
  EXPECT_EQ(loads[0].pc, 1u);
  EXPECT_EQ(loads[0].scale, 8u);
  EXPECT_EQ(loads[0].offset, 0x1000u);
  EXPECT_EQ(loads[0].size, 8);
  EXPECT_EQ(loads[1].offset, 0x2010u);
  EXPECT_EQ(loads[2].scale, static_cast<std::uint64_t>(-8));
  EXPECT_EQ(loads[2].offset, 0x4000u - 4);
  EXPECT_EQ(loads[2].size, 4);
  EXPECT_EQ(loads[2].address(3), 0x4000u - 4 - 24);
  EXPECT_EQ(loads[3].scale, 12u);
  EXPECT_EQ(loads[3].offset, 0x3000u);
  EXPECT_EQ(loads[3].size, 2);
}

TEST(AffineLoads, StopsAtTheFirstControlInstruction) {
  // DMMM: the loads are inside the loop body; the block before the loop has none.
  const auto loads = decode(testing::packet(4, ".I1 3\n.I2 0x1000\n") +
                            "main: sll r1 = i0, 3\n loop i1, body\n ld8 r3 = r1[i2] #\n"
                            "body: ld8 r2 = r1[i2] #\n");
  EXPECT_TRUE(loads.empty());
}

TEST(AffineLoads, StreamingSvaHasBothLoads) {
  const isa::AssemblyResult r = isa::assemble(testing::read_program("../../../../sw/kernels/stream-sva.par"), "sva");
  ASSERT_TRUE(r.ok()) << r.messages();
  std::string error;
  const auto lp = LoadedProgram::load(*r.program, CoreConfig{}, &error);
  ASSERT_NE(lp, nullptr);
  std::uint64_t inherited[16] = {};
  for (int i = 1; i < 16; ++i) inherited[i] = r.program->inherited[static_cast<std::size_t>(i)];
  const auto loads = find_affine_loads([&](std::uint64_t pc) { return &lp->at(pc); }, r.program->start, inherited);
  ASSERT_EQ(loads.size(), 2u);
  EXPECT_EQ(loads[0].scale, 8u);
  EXPECT_EQ(loads[0].offset, inherited[1]);
  EXPECT_EQ(loads[1].offset, inherited[2]);
}

// Records every request; each takes `latency` cycles.
struct RecordingPort : PrefetchPort {
  struct Request {
    std::uint64_t addr;
    Cycle cycle;
  };
  Cycle latency = 100;
  std::vector<Request> requests;
  bool prefetch(std::uint64_t addr, unsigned len, Cycle cycle, Cycle& done) override {
    EXPECT_EQ(len, 64u);
    requests.push_back({addr, cycle});
    done = cycle + latency;
    return true;
  }
};

// One load x[i0] (8 bytes) at 0x10000: a round of 16 threads covers two 64-byte lines.
std::vector<AffineLoad> stream_load() { return {AffineLoad{0, 8, 0x10000, 8}}; }

PrefetchConfig prefetch_config(int queue_rounds, std::int64_t early_ignore, int max_outstanding = 20,
                               std::uint64_t byte_limit = 0) {
  PrefetchConfig c;
  c.enabled = true;
  c.queue_rounds = queue_rounds;
  c.early_ignore = early_ignore;
  c.max_outstanding = max_outstanding;
  c.byte_limit = byte_limit;
  return c;
}

TEST(PacketPrefetcher, KeepsQueueRoundsDecodedAfterTheIgnoredRounds) {
  RecordingPort port;
  PacketPrefetcher pf(prefetch_config(3, 1), 64, 0x400000, 0x1000, 16, port);
  pf.begin_packet(stream_load(), 0, 16 * 6);  // six rounds
  pf.round_started(0, 0);
  // Round 0 is ignored (never decoded, so not in the queue); rounds 1..3 fill the queue of three.
  ASSERT_EQ(port.requests.size(), 6u);
  EXPECT_EQ(port.requests[0].addr, 0x10000u + 128);
  EXPECT_EQ(port.requests[5].addr, 0x10000u + 3 * 128 + 64);
  for (std::size_t i = 0; i < 6; ++i) EXPECT_EQ(port.requests[i].cycle, i);  // one per cycle
  pf.round_ended(0, 10);
  EXPECT_EQ(port.requests.size(), 6u);  // round 0 was not in the queue: nothing freed
  pf.round_started(1, 10);
  pf.round_ended(1, 20);
  ASSERT_EQ(port.requests.size(), 8u);  // from now on distance 2: rounds r, r+1, r+2 decoded
  EXPECT_EQ(port.requests[6].cycle, 20u);
  EXPECT_EQ(port.requests[6].addr, 0x10000u + 4 * 128);
  pf.round_started(2, 20);
  pf.round_ended(2, 30);
  pf.round_started(3, 30);
  pf.round_ended(3, 40);  // nothing beyond round 5
  EXPECT_EQ(port.requests.size(), 10u);
  EXPECT_EQ(port.requests.back().addr, 0x10000u + 5 * 128 + 64);
  const PrefetchCounts c = pf.end_packet();
  EXPECT_EQ(c.issued, 10);
  EXPECT_EQ(c.rounds, 5);
  EXPECT_EQ(c.bytes, 640);
  EXPECT_EQ(c.unsent, 0);
  EXPECT_EQ(c.loads, 1);
}

TEST(PacketPrefetcher, OutstandingLimitHoldsRequestsUntilAnAnswerIsBack) {
  RecordingPort port;
  PacketPrefetcher pf(prefetch_config(10, 0, 3), 64, 0x400000, 0x1000, 16, port);
  pf.begin_packet(stream_load(), 0, 16 * 4);  // 8 lines, two per round
  pf.round_started(0, 0);
  ASSERT_EQ(port.requests.size(), 3u);  // the rest waits for the answers at 100, 101, 102
  pf.round_ended(0, 50);
  EXPECT_EQ(port.requests.size(), 3u);  // no slot free yet
  pf.round_started(1, 150);
  // Sent with the cycles they would have left in: the first waited from cycle 3 for the slot
  // that freed at 100; the next two found theirs free in their own cycles. The seventh waits for
  // the answer at 200.
  ASSERT_EQ(port.requests.size(), 6u);
  EXPECT_EQ(port.requests[3].cycle, 100u);
  EXPECT_EQ(port.requests[4].cycle, 101u);
  EXPECT_EQ(port.requests[5].cycle, 102u);
  pf.round_ended(3, 160);  // round 3's two lines have not left: dropped
  pf.round_started(2, 250);
  EXPECT_EQ(port.requests.size(), 6u);
  const PrefetchCounts c = pf.end_packet();
  EXPECT_EQ(c.unsent, 2);
  EXPECT_EQ(c.issued, 6);
  EXPECT_EQ(c.stall_cycles, 100 - 3);
}

TEST(PacketPrefetcher, ByteLimitStopsDecodingUntilARoundEnds) {
  RecordingPort port;
  PacketPrefetcher pf(prefetch_config(10, 0, 20, 128), 64, 0x400000, 0x1000, 16, port);
  pf.begin_packet(stream_load(), 0, 16 * 4);
  pf.round_started(0, 0);
  EXPECT_EQ(port.requests.size(), 2u);  // round 0's 128 bytes reach the limit
  pf.round_ended(0, 10);
  EXPECT_EQ(port.requests.size(), 4u);
}

TEST(PacketPrefetcher, LeavesLocalMemoryAndRepeatedLinesOut) {
  RecordingPort port;
  PacketPrefetcher pf(prefetch_config(2, 0), 64, 0x10000, 0x80, 16, port);
  // x[i0] with its first two lines in the local window, and a second load of the same lines.
  pf.begin_packet({AffineLoad{0, 8, 0x10000, 8}, AffineLoad{1, 8, 0x10008, 8}, AffineLoad{2, 0, 0x90000, 8}}, 0,
                  16 * 2);
  pf.round_started(0, 0);
  std::vector<std::uint64_t> addrs;
  for (const auto& r : port.requests) addrs.push_back(r.addr);
  // Round 0: the second load's last thread (0x10080), the constant line; round 1: 0x100c0 and
  // 0x10100, not the lines round 0 already named.
  EXPECT_EQ(addrs, (std::vector<std::uint64_t>{0x10080, 0x90000, 0x100c0, 0x10100}));
}

}  // namespace
}  // namespace par::core
