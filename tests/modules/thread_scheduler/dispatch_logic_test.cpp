// The scheduler's behaviour without SystemC: split planning (static shares, dynamic chunks) and
// DispatchLogic (queue bound, launch order, first free core, overlap, fences, failures,
// completion order, the register values).
#include <gtest/gtest.h>

#include <optional>
#include <ostream>
#include <stdexcept>
#include <vector>

#include "dispatch_logic.hpp"
#include "share_planner.hpp"

namespace par::sched {

void PrintTo(const Share& s, std::ostream* os) {
  *os << "{core " << s.core << ", first " << s.first_thread << ", threads " << s.threads << "}";
}

namespace {

Command packet(std::int64_t threads, std::uint64_t start = 0) {
  Command c;
  c.start = start;
  c.threads = threads;
  return c;
}

SchedulerConfig dispatch_config(Policy policy, bool overlap = false, unsigned depth = 32, std::int64_t chunk = 4) {
  SchedulerConfig c;
  c.policy = policy;
  c.overlap_packets = overlap;
  c.queue_depth = depth;
  c.chunk_threads = chunk;
  return c;
}

// Expects next() to launch `share` of packet `seq`.
void expect_launch(DispatchLogic& d, std::uint64_t seq, Share share) {
  const std::optional<Action> a = d.next();
  ASSERT_TRUE(a.has_value()) << "expected a launch of packet " << seq;
  EXPECT_EQ(a->kind, Action::Kind::Launch);
  EXPECT_EQ(a->seq, seq);
  EXPECT_EQ(a->share, share);
}

void expect_complete(DispatchLogic& d, std::uint64_t seq) {
  const std::optional<Action> a = d.next();
  ASSERT_TRUE(a.has_value()) << "expected the completion of packet " << seq;
  EXPECT_EQ(a->kind, Action::Kind::Complete);
  EXPECT_EQ(a->seq, seq);
}

void expect_nothing(DispatchLogic& d) {
  const std::optional<Action> a = d.next();
  EXPECT_FALSE(a.has_value()) << "unexpected action for packet " << (a ? a->seq : 0) << " on core "
                              << (a ? a->share.core : 0);
}

TEST(SharePlanner, StaticSharesAreContiguousCeilNOverC) {
  EXPECT_EQ(static_shares(10, 1), (std::vector<Share>{{0, 0, 10}}));
  EXPECT_EQ(static_shares(10, 2), (std::vector<Share>{{0, 0, 5}, {1, 5, 5}}));
  EXPECT_EQ(static_shares(11, 2), (std::vector<Share>{{0, 0, 6}, {1, 6, 5}}));
  EXPECT_EQ(static_shares(10, 4), (std::vector<Share>{{0, 0, 3}, {1, 3, 3}, {2, 6, 3}, {3, 9, 1}}));
  // ceil(9/4) = 3: the fourth core gets nothing (as the stand-alone launcher did).
  EXPECT_EQ(static_shares(9, 4), (std::vector<Share>{{0, 0, 3}, {1, 3, 3}, {2, 6, 3}}));
  EXPECT_EQ(static_shares(3, 4), (std::vector<Share>{{0, 0, 1}, {1, 1, 1}, {2, 2, 1}}));
  EXPECT_TRUE(static_shares(0, 4).empty());
  EXPECT_TRUE(static_shares(-7, 4).empty());
  const std::int64_t huge = INT64_MAX;
  const std::vector<Share> big = static_shares(huge, 3);
  ASSERT_EQ(big.size(), 3u);
  EXPECT_EQ(big[2].first_thread + static_cast<std::uint64_t>(big[2].threads), static_cast<std::uint64_t>(huge));
  EXPECT_THROW(static_shares(10, 0), std::invalid_argument);
}

// Cores of different shapes: every unit of gcd(slots) takes ceil(N / units) threads, so each
// core's share is in proportion to its L x T slots and every busy core but the last runs the
// same number of rounds. 64x4, 4x4, 64x2, 64x4 = 256, 16, 128, 256 slots = 16, 1, 8, 16 units
// of 16: 1280 threads -> 32 per unit -> 512, 32, 256 and the rest (480): 2 rounds on each core.
TEST(SharePlanner, StaticSharesFollowEachCoresThreadSlots) {
  EXPECT_EQ(static_shares(1280, {256, 16, 128, 256}),
            (std::vector<Share>{{0, 0, 512}, {1, 512, 32}, {2, 544, 256}, {3, 800, 480}}));
  EXPECT_EQ(static_shares(12, {1, 2}), (std::vector<Share>{{0, 0, 4}, {1, 4, 8}}));
  EXPECT_EQ(static_shares(13, {1, 2}), (std::vector<Share>{{0, 0, 5}, {1, 5, 8}}));
  // A small packet fills the cores in order, as with equal shapes.
  EXPECT_EQ(static_shares(3, {4, 8}), (std::vector<Share>{{0, 0, 1}, {1, 1, 2}}));
  // Equal shapes, whatever their size, give exactly the C shares of ceil(N / C).
  for (const std::int64_t n : {1, 3, 9, 10, 11, 1280, 1281})
    for (const std::uint64_t slots : {1u, 4u, 256u, 16384u})
      for (const std::size_t cores : {1u, 2u, 3u, 4u, 7u})
        EXPECT_EQ(static_shares(n, std::vector<std::uint64_t>(cores, slots)), static_shares(n, cores))
            << n << " threads, " << cores << " cores of " << slots;
  const std::vector<Share> big = static_shares(INT64_MAX, {16384, 1, 255});
  ASSERT_EQ(big.size(), 3u);
  EXPECT_EQ(big[2].first_thread + static_cast<std::uint64_t>(big[2].threads), static_cast<std::uint64_t>(INT64_MAX));
  EXPECT_THROW(static_shares(10, std::vector<std::uint64_t>{}), std::invalid_argument);
  EXPECT_THROW(static_shares(10, {4, 0}), std::invalid_argument);
}

TEST(DispatchLogic, StaticSharesFollowTheCoreShapesGiven) {
  DispatchLogic d(dispatch_config(Policy::Static), std::vector<std::uint64_t>{4, 12});
  d.submit(packet(16));
  expect_launch(d, 1, {0, 0, 4});
  expect_launch(d, 1, {1, 4, 12});
  EXPECT_THROW(DispatchLogic(dispatch_config(Policy::Static), std::vector<std::uint64_t>{4, 0}), std::invalid_argument);
}

TEST(SharePlanner, ChunksInThreadOrderLastOneShorter) {
  ChunkCursor c(10, 4);
  ASSERT_FALSE(c.done());
  EXPECT_EQ(c.take(1), (Share{1, 0, 4}));
  EXPECT_EQ(c.take(0), (Share{0, 4, 4}));
  EXPECT_EQ(c.take(1), (Share{1, 8, 2}));
  EXPECT_TRUE(c.done());
  EXPECT_TRUE(ChunkCursor(0, 4).done());
  EXPECT_TRUE(ChunkCursor(-1, 4).done());
  EXPECT_THROW(ChunkCursor(10, 0), std::invalid_argument);
}

TEST(DispatchLogic, StaticPacketsRunStrictlyInOrder) {
  DispatchLogic d(dispatch_config(Policy::Static), 2);
  EXPECT_EQ(d.submit(packet(10)), 1u);
  EXPECT_EQ(d.submit(packet(7)), 2u);
  EXPECT_EQ(d.queued(), 2u);
  EXPECT_EQ(d.status(), kStatusBusy);
  expect_launch(d, 1, {0, 0, 5});
  EXPECT_EQ(d.queued(), 1u);
  EXPECT_TRUE(d.core_busy(0));
  expect_launch(d, 1, {1, 5, 5});
  expect_nothing(d);
  d.share_done(1, 1, true);
  expect_nothing(d);  // core 1 is free, but packet 2 waits for packet 1
  d.share_done(1, 0, true);
  expect_complete(d, 1);
  expect_nothing(d);  // ... until its completion has been signalled
  EXPECT_EQ(d.completed(), 0u);
  d.finish(1);
  EXPECT_EQ(d.completed(), 1u);
  EXPECT_EQ(d.outstanding(), 1u);
  expect_launch(d, 2, {0, 0, 4});
  expect_launch(d, 2, {1, 4, 3});
  EXPECT_EQ(d.queued(), 0u);
  d.share_done(2, 0, true);
  d.share_done(2, 1, true);
  expect_complete(d, 2);
  d.finish(2);
  expect_nothing(d);
  EXPECT_EQ(d.status(), 0u);
  EXPECT_EQ(d.submitted(), 2u);
  EXPECT_EQ(d.completed(), 2u);
  EXPECT_FALSE(d.error());
  EXPECT_EQ(d.outstanding(), 0u);
}

TEST(DispatchLogic, StaticShareWaitsForItsOwnCore) {
  // With overlap, packet 2's share of core 1 starts while packet 1 still runs on core 0; its
  // share of core 0 waits for core 0.
  DispatchLogic d(dispatch_config(Policy::Static, true), 2);
  d.submit(packet(10));
  d.submit(packet(10));
  expect_launch(d, 1, {0, 0, 5});
  expect_launch(d, 1, {1, 5, 5});
  expect_nothing(d);
  d.share_done(1, 1, true);
  expect_launch(d, 2, {1, 5, 5});
  expect_nothing(d);
  d.share_done(1, 0, true);
  expect_complete(d, 1);
  expect_launch(d, 2, {0, 0, 5});
  d.finish(1);
  d.share_done(2, 0, true);
  d.share_done(2, 1, true);
  expect_complete(d, 2);
  d.finish(2);
  EXPECT_EQ(d.completed(), 2u);
}

TEST(DispatchLogic, DynamicChunksGoToTheFirstFreeCoreInOrder) {
  DispatchLogic d(dispatch_config(Policy::Dynamic, false, 32, 4), 3);
  d.submit(packet(18));
  expect_launch(d, 1, {0, 0, 4});
  expect_launch(d, 1, {1, 4, 4});
  expect_launch(d, 1, {2, 8, 4});
  expect_nothing(d);
  d.share_done(1, 2, true);
  d.share_done(1, 1, true);
  expect_launch(d, 1, {1, 12, 4});  // cores 1 and 2 are free: the lower index wins
  expect_launch(d, 1, {2, 16, 2});
  expect_nothing(d);
  d.share_done(1, 0, true);
  expect_nothing(d);  // chunks still running on cores 1 and 2
  d.share_done(1, 2, true);
  d.share_done(1, 1, true);
  expect_complete(d, 1);
  d.finish(1);
  EXPECT_EQ(d.status(), 0u);
}

TEST(DispatchLogic, DynamicOverlapUsesCoresTheEarlierPacketNoLongerNeeds) {
  DispatchLogic d(dispatch_config(Policy::Dynamic, true, 32, 4), 2);
  d.submit(packet(8));
  d.submit(packet(6));
  expect_launch(d, 1, {0, 0, 4});
  expect_launch(d, 1, {1, 4, 4});
  d.share_done(1, 1, true);
  expect_launch(d, 2, {1, 0, 4});
  expect_nothing(d);
  d.share_done(1, 0, true);
  expect_complete(d, 1);
  expect_launch(d, 2, {0, 4, 2});
  d.finish(1);
  EXPECT_EQ(d.queued(), 0u);
}

TEST(DispatchLogic, QueueDepthBoundsOutstandingPackets) {
  DispatchLogic d(dispatch_config(Policy::Static, false, 2), 1);
  d.submit(packet(1));
  EXPECT_FALSE(d.full());
  d.submit(packet(1));
  EXPECT_TRUE(d.full());
  EXPECT_EQ(d.status(), kStatusBusy | kStatusQueueFull);
  EXPECT_THROW(d.submit(packet(1)), std::logic_error);
  expect_launch(d, 1, {0, 0, 1});
  EXPECT_TRUE(d.full());  // a running packet still holds its entry
  d.share_done(1, 0, true);
  expect_complete(d, 1);
  EXPECT_TRUE(d.full());  // ... until its completion is signalled
  d.finish(1);
  EXPECT_FALSE(d.full());
  EXPECT_EQ(d.submit(packet(1)), 3u);
}

TEST(DispatchLogic, EmptyPacketCompletesInOrderAndFencesWithOverlap) {
  {
    DispatchLogic d(dispatch_config(Policy::Static), 2);
    d.submit(packet(0));
    d.submit(packet(-5));
    expect_complete(d, 1);
    expect_nothing(d);
    d.finish(1);
    expect_complete(d, 2);
    d.finish(2);
    EXPECT_EQ(d.completed(), 2u);
  }
  DispatchLogic d(dispatch_config(Policy::Static, true), 2);
  d.submit(packet(2));
  d.submit(packet(0));
  d.submit(packet(2));
  expect_launch(d, 1, {0, 0, 1});
  expect_launch(d, 1, {1, 1, 1});
  d.share_done(1, 1, true);
  expect_nothing(d);  // packet 3 must not pass the empty packet 2
  d.share_done(1, 0, true);
  expect_complete(d, 1);
  expect_nothing(d);  // packet 2 waits for packet 1 to finish
  d.finish(1);
  expect_complete(d, 2);
  expect_launch(d, 3, {0, 0, 1});
}

TEST(DispatchLogic, FailedShareFailsPacketAndLaterPacketsStillRun) {
  DispatchLogic d(dispatch_config(Policy::Static), 2);
  d.submit(packet(10));
  d.submit(packet(4));
  expect_launch(d, 1, {0, 0, 5});
  expect_launch(d, 1, {1, 5, 5});
  d.share_done(1, 1, false);
  EXPECT_TRUE(d.packet_failed(1));
  expect_nothing(d);  // core 0 still runs its share
  d.share_done(1, 0, true);
  expect_complete(d, 1);
  EXPECT_FALSE(d.error());  // shown when the packet finishes
  d.finish(1);
  EXPECT_TRUE(d.error());
  EXPECT_EQ(d.failed_seq(), 1u);
  EXPECT_EQ(d.completed(), 1u);
  EXPECT_EQ(d.status(), kStatusBusy | kStatusError);
  expect_launch(d, 2, {0, 0, 2});
  expect_launch(d, 2, {1, 2, 2});
  d.share_done(2, 0, true);
  d.share_done(2, 1, true);
  expect_complete(d, 2);
  EXPECT_FALSE(d.packet_failed(2));
  d.finish(2);
  EXPECT_EQ(d.failed_seq(), 1u);  // sticky
  d.clear_error();
  EXPECT_EQ(d.failed_seq(), 0u);
  EXPECT_EQ(d.status(), 0u);
}

TEST(DispatchLogic, AFailureCanBeShownBeforeThePacketFinishes) {
  DispatchLogic d(dispatch_config(Policy::Static), 1);
  d.submit(packet(1));
  d.submit(packet(1));
  expect_launch(d, 1, {0, 0, 1});
  d.share_done(1, 0, false);
  expect_complete(d, 1);
  d.publish_failure(1);  // e.g. while its completion flag is being written
  EXPECT_EQ(d.failed_seq(), 1u);
  EXPECT_EQ(d.status(), kStatusBusy | kStatusError);
  EXPECT_EQ(d.completed(), 0u);
  d.finish(1);
  EXPECT_EQ(d.failed_seq(), 1u);
  expect_launch(d, 2, {0, 0, 1});
  d.share_done(2, 0, true);
  expect_complete(d, 2);
  d.publish_failure(2);  // nothing to show
  d.finish(2);
  d.clear_error();
  EXPECT_EQ(d.failed_seq(), 0u);
}

TEST(DispatchLogic, FailureDropsTheChunksNotYetLaunched) {
  DispatchLogic d(dispatch_config(Policy::Dynamic, false, 32, 4), 1);
  d.submit(packet(12));
  expect_launch(d, 1, {0, 0, 4});
  d.share_done(1, 0, false);
  expect_complete(d, 1);  // threads 4..11 are never launched
  d.finish(1);
  EXPECT_EQ(d.failed_seq(), 1u);
}

TEST(DispatchLogic, FlagFailureMarksThePacketFailed) {
  DispatchLogic d(dispatch_config(Policy::Static), 1);
  d.submit(packet(1));
  expect_launch(d, 1, {0, 0, 1});
  d.share_done(1, 0, true);
  expect_complete(d, 1);
  d.fail(1);
  d.finish(1);
  EXPECT_EQ(d.failed_seq(), 1u);
}

TEST(DispatchLogic, OutOfOrderFinishCountsAndKeepsTheLowestFailure) {
  DispatchLogic d(dispatch_config(Policy::Static, true), 2);
  d.submit(packet(2));  // threads 0 on core 0, 1 on core 1
  d.submit(packet(1));  // thread 0 on core 0
  d.submit(packet(1));
  expect_launch(d, 1, {0, 0, 1});
  expect_launch(d, 1, {1, 1, 1});
  d.share_done(1, 0, true);
  expect_launch(d, 2, {0, 0, 1});
  d.share_done(2, 0, false);
  expect_complete(d, 2);  // packet 2 completes before packet 1
  d.finish(2);
  EXPECT_EQ(d.completed(), 1u);
  EXPECT_EQ(d.outstanding(), 2u);
  EXPECT_EQ(d.failed_seq(), 2u);
  expect_launch(d, 3, {0, 0, 1});
  d.share_done(1, 1, false);
  expect_complete(d, 1);
  d.finish(1);
  EXPECT_EQ(d.completed(), 2u);
  EXPECT_EQ(d.outstanding(), 1u);
  EXPECT_EQ(d.failed_seq(), 1u);  // the lowest failed sequence number
}

TEST(DispatchLogic, MisuseIsRejected) {
  EXPECT_THROW(DispatchLogic(dispatch_config(Policy::Static), 0), std::invalid_argument);
  SchedulerConfig bad;
  bad.queue_depth = 0;
  EXPECT_THROW(DispatchLogic(bad, 1), std::invalid_argument);
  DispatchLogic d(dispatch_config(Policy::Static), 1);
  d.submit(packet(1));
  EXPECT_THROW(d.finish(1), std::logic_error);  // not completed yet
  EXPECT_THROW(d.share_done(1, 0, true), std::logic_error);  // nothing launched
  EXPECT_THROW(d.command(2), std::out_of_range);
  expect_launch(d, 1, {0, 0, 1});
  d.share_done(1, 0, true);
  expect_complete(d, 1);
  d.finish(1);
  EXPECT_THROW(d.command(1), std::out_of_range);
}

}  // namespace
}  // namespace par::sched
