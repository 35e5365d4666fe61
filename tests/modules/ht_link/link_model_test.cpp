// The link's timing without SystemC: outstanding limiter, packetisation and the
// latency stages of LinkModel. Times are in ps; the expected values are derived in the comments
// from docs/link-and-memory.md §1 (stages 70 + 32 + 51 + 12 + 30 + 110 = 305 ns; 1.25 ns/B on 8
// bits, 0.625 ns/B on 16 bits at 400 MHz DDR).
#include <gtest/gtest.h>

#include <cstdint>
#include <utility>
#include <vector>

#include "link_model.hpp"
#include "outstanding_limiter.hpp"
#include "par/simkit/stats.hpp"

namespace par::ht {
namespace {

constexpr Ps ns(double v) { return static_cast<Ps>(v * 1000.0 + 0.5); }

// --- OutstandingLimiter -------------------------------------------------------------------------

TEST(OutstandingLimiter, RequestsBeyondTheLimitTakeTheSlotThatFreesFirst) {
  OutstandingLimiter l(2, 0);
  auto a = l.acquire(ns(0));
  auto b = l.acquire(ns(0));
  EXPECT_EQ(a.start, ns(0));
  EXPECT_EQ(b.start, ns(0));
  l.release(a.slot, ns(300));
  l.release(b.slot, ns(200));
  auto c = l.acquire(ns(10));  // waits for b's slot (frees first)
  EXPECT_EQ(c.slot, b.slot);
  EXPECT_EQ(c.start, ns(200));
  EXPECT_EQ(l.waiting_at(ns(100)), 1u);
  EXPECT_EQ(l.held(), 1u);
  auto d = l.acquire(ns(500));  // a's slot is long free
  EXPECT_EQ(d.start, ns(500));
  EXPECT_FALSE(l.has_free_slot());  // both in flight with unknown end
  l.release(c.slot, ns(600));
  EXPECT_TRUE(l.has_free_slot());
}

TEST(OutstandingLimiter, ABoundedWaitQueueHoldsTheInterfaceUntilAnEntryLeaves) {
  OutstandingLimiter l(1, 1);
  auto a = l.acquire(l.admit(ns(0)));
  l.release(a.slot, ns(100));
  EXPECT_EQ(l.admit(ns(0)), ns(0));  // nobody waits yet
  auto b = l.acquire(ns(0));         // waits 0..100
  l.release(b.slot, ns(200));
  EXPECT_EQ(l.waiting_at(ns(50)), 1u);
  EXPECT_EQ(l.admit(ns(0)), ns(100));    // queue full until b leaves it
  EXPECT_EQ(l.admit(ns(100)), ns(100));  // b has left
  l.retire(ns(100));
  EXPECT_EQ(l.waiting_at(ns(50)), 0u);
}

// --- LinkModel ----------------------------------------------------------------------------------

// A far side with a fixed target latency that records every packet it performs.
class FixedFar : public FarSide {
 public:
  explicit FixedFar(Ps latency = 0, bool ok = true) : latency_(latency), ok_(ok) {}
  Done deliver(const Packet& p, Ps at) override {
    calls.emplace_back(p, at);
    return {at + latency_, ok_};
  }
  Ps wait_for_slot() override {
    ADD_FAILURE() << "no far side blocks here";
    return 0;
  }
  std::vector<std::pair<Packet, Ps>> calls;

 private:
  Ps latency_;
  bool ok_;
};

struct Link {
  explicit Link(HtConfig c = HtConfig()) : cfg(c), stats(group, c.core_clock_mhz), model(c, stats) {}
  static HtConfig width(unsigned bits) {
    HtConfig c;
    c.width_bits = bits;
    return c;
  }
  AccessResult run(Side origin, AccessKind kind, std::uint64_t length, Ps arrival, FarSide& far) {
    return model.transfer({origin, kind, length, arrival}, far);
  }
  HtConfig cfg;
  simkit::StatGroup group{"link"};
  LinkStats stats;
  LinkModel model;
};

TEST(LinkModel, PacketsAreAtMost64Bytes) {
  auto p = packetise(256);
  ASSERT_EQ(p.size(), 4u);
  for (unsigned i = 0; i < 4; ++i) {
    EXPECT_EQ(p[i].offset, 64u * i);
    EXPECT_EQ(p[i].length, 64u);
  }
  p = packetise(100);
  ASSERT_EQ(p.size(), 2u);
  EXPECT_EQ(p[1].offset, 64u);
  EXPECT_EQ(p[1].length, 36u);
  p = packetise(0);
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(p[0].length, 0u);
  EXPECT_EQ(packetise(64).size(), 1u);
  EXPECT_EQ(packetise(65).size(), 2u);
}

TEST(LinkModel, SerialisationFollowsWidthClockAndOverhead) {
  EXPECT_EQ(Link(Link::width(8)).model.packet_ps(28), ns(35));
  EXPECT_EQ(Link(Link::width(16)).model.packet_ps(28), ns(17.5));
  HtConfig c;
  c.packet_overhead_ns = 2;
  EXPECT_EQ(Link(c).model.packet_ps(8), ns(12));
}

// The example of docs/link-and-memory.md §1.2, §1.4: a 16-byte device read costs 8 B upstream and 4 + 16 B
// downstream. 8 bits: 70 + 8 x 1.25 + 32 + 51 + 12 + 30 + 20 x 1.25 + 110 = 305 + 35 = 340 ns.
TEST(LinkModel, DeviceRead16BytesOn8BitsTakes340ns) {
  Link l(Link::width(8));
  FixedFar far;
  const AccessResult r = l.run(Side::Device, AccessKind::Read, 16, 0, far);
  EXPECT_EQ(r.completion, ns(340));
  EXPECT_TRUE(r.ok);
  EXPECT_EQ(r.packets, 1u);
  ASSERT_EQ(far.calls.size(), 1u);
  EXPECT_EQ(far.calls[0].second, ns(70 + 10 + 32));  // host memory sees the read at 112 ns
  EXPECT_EQ(l.stats.d2h.packets.value(), 1u);
  EXPECT_EQ(l.stats.d2h.control_bytes.value(), 8u);
  EXPECT_EQ(l.stats.d2h.data_bytes.value(), 0u);
  EXPECT_EQ(l.stats.h2d.packets.value(), 1u);
  EXPECT_EQ(l.stats.h2d.control_bytes.value(), 4u);
  EXPECT_EQ(l.stats.h2d.data_bytes.value(), 16u);
  EXPECT_DOUBLE_EQ(l.stats.d2h.busy_ns.value(), 10);
  EXPECT_DOUBLE_EQ(l.stats.h2d.busy_ns.value(), 25);
  EXPECT_EQ(l.stats.d2h.reads.value(), 1u);
  EXPECT_EQ(l.stats.h2d.reads.value(), 0u);
  EXPECT_DOUBLE_EQ(l.stats.d2h.latency.mean(), 340);
  EXPECT_DOUBLE_EQ(l.stats.d2h.time_ns.value(), 340);
}

// 16 bits: 305 + 28 x 0.625 = 322.5 ns.
TEST(LinkModel, DeviceRead16BytesOn16BitsTakes322point5ns) {
  Link l(Link::width(16));
  FixedFar far;
  EXPECT_EQ(l.run(Side::Device, AccessKind::Read, 16, ns(1000), far).completion, ns(1322.5));
}

// With host memory as a DRAM model, ht.lat.sdram_ns = 0 and the memory's own latency counts.
TEST(LinkModel, SdramStageCanBeReplacedByTheMemoryLatency) {
  HtConfig c;
  c.lat.sdram_ns = 0;
  Link l(c);
  FixedFar far(ns(51));
  EXPECT_EQ(l.run(Side::Device, AccessKind::Read, 16, 0, far).completion, ns(340));
}

// Host-originated: host TX (30) + request + device RX (110) + target + device TX (70) + response +
// host RX (32) = 242 ns + serialisation + the device target's latency; no sdram/build stage.
TEST(LinkModel, HostReadUsesTheSymmetricStages) {
  Link l8(Link::width(8));
  FixedFar zero;
  EXPECT_EQ(l8.run(Side::Host, AccessKind::Read, 16, 0, zero).completion, ns(242 + 10 + 25));
  ASSERT_EQ(zero.calls.size(), 1u);
  EXPECT_EQ(zero.calls[0].second, ns(30 + 10 + 110));
  EXPECT_EQ(l8.stats.h2d.reads.value(), 1u);
  EXPECT_EQ(l8.stats.h2d.control_bytes.value(), 8u);
  EXPECT_EQ(l8.stats.d2h.data_bytes.value(), 16u);
  Link l16(Link::width(16));
  FixedFar slow(ns(40));
  EXPECT_EQ(l16.run(Side::Host, AccessKind::Read, 16, 0, slow).completion,
            ns(242 + 5 + 12.5 + 40));
}

// A posted write completes when it has left the sender: host TX 30 + (8 + 8) x 1.25 = 50 ns; the
// device sees it 110 ns later. A non-posted one waits for the 4-byte target-done response.
TEST(LinkModel, HostWritesPostedAndNonPosted) {
  Link l;
  FixedFar far(ns(40));
  const AccessResult posted = l.run(Side::Host, AccessKind::PostedWrite, 8, 0, far);
  EXPECT_EQ(posted.completion, ns(50));
  ASSERT_EQ(far.calls.size(), 1u);
  EXPECT_EQ(far.calls[0].second, ns(160));
  EXPECT_EQ(l.stats.h2d.data_bytes.value(), 8u);
  EXPECT_EQ(l.stats.d2h.packets.value(), 0u);  // no response
  // 1000 + 30 + 20 + 110 + 40 + 70 + 4 x 1.25 + 32
  const AccessResult np = l.run(Side::Host, AccessKind::NonPostedWrite, 8, ns(1000), far);
  EXPECT_EQ(np.completion, ns(1000 + 30 + 20 + 110 + 40 + 70 + 5 + 32));
  EXPECT_EQ(l.stats.d2h.packets.value(), 1u);
  EXPECT_EQ(l.stats.d2h.control_bytes.value(), 4u);
  EXPECT_EQ(l.stats.d2h.data_bytes.value(), 0u);
  EXPECT_EQ(l.stats.h2d.posted_writes.value(), 1u);
  EXPECT_EQ(l.stats.h2d.nonposted_writes.value(), 1u);
}

// Device write of 16 bytes, non-posted: request 24 B + target-done 4 B = the same 28 B and the
// same six stages as the 16-byte read: 340 ns. Posted: 70 + 24 x 1.25 = 100 ns.
TEST(LinkModel, DeviceWritesPostedAndNonPosted) {
  Link l;
  FixedFar far;
  EXPECT_EQ(l.run(Side::Device, AccessKind::NonPostedWrite, 16, 0, far).completion, ns(340));
  EXPECT_EQ(l.run(Side::Device, AccessKind::PostedWrite, 16, ns(1000), far).completion, ns(1100));
  EXPECT_EQ(far.calls.back().second, ns(1100 + 32));
}

// 256 bytes = 4 read requests back to back upstream, 4 responses of 68 B downstream:
// 305 + 10 + 4 x 85 = 655 ns on 8 bits; 305 + 5 + 4 x 42.5 = 480 ns on 16 bits.
TEST(LinkModel, Read256BytesIsFourPackets) {
  Link l;
  FixedFar far;
  const AccessResult r = l.run(Side::Device, AccessKind::Read, 256, 0, far);
  EXPECT_EQ(r.completion, ns(655));
  EXPECT_EQ(r.packets, 4u);
  ASSERT_EQ(far.calls.size(), 4u);
  for (unsigned i = 0; i < 4; ++i) {
    EXPECT_EQ(far.calls[i].first.offset, 64u * i);
    EXPECT_EQ(far.calls[i].first.length, 64u);
    EXPECT_EQ(far.calls[i].second, ns(112 + 10 * i));
  }
  EXPECT_EQ(l.stats.d2h.packets.value(), 4u);
  EXPECT_EQ(l.stats.d2h.control_bytes.value(), 32u);
  EXPECT_EQ(l.stats.h2d.packets.value(), 4u);
  EXPECT_EQ(l.stats.h2d.control_bytes.value(), 16u);
  EXPECT_EQ(l.stats.h2d.data_bytes.value(), 256u);
  EXPECT_EQ(l.stats.h2d.queued_packets.value(), 3u);  // responses ready every 10 ns, 85 ns long
  EXPECT_EQ(l.stats.d2h.reads.value(), 1u);
  Link l16(Link::width(16));
  EXPECT_EQ(l16.run(Side::Device, AccessKind::Read, 256, 0, far).completion, ns(480));
}

TEST(LinkModel, AnUnevenSplitKeepsTheTail) {
  Link l;
  FixedFar far;
  // Requests at 70..80, 80..90; responses 4+64 = 68 B (205..290) and 4+36 = 40 B (290..340).
  EXPECT_EQ(l.run(Side::Device, AccessKind::Read, 100, 0, far).completion, ns(340 + 110));
  EXPECT_EQ(l.stats.h2d.data_bytes.value(), 100u);
}

// 40 concurrent 4-byte reads (8 bits): requests and responses are 8 B = 10 ns each, so read k
// (k < 32) completes at 305 + 10 + 10 + 10k = 325 + 10k. Read 32 waits for read 0's slot
// (free at 325 ns) and completes 325 ns later; read 32 + j at 650 + 10j.
TEST(LinkModel, The33rdNonPostedRequestWaitsForTheFirstCompletion) {
  Link l;
  FixedFar far;
  for (unsigned k = 0; k < 40; ++k) {
    const Ps expected = k < 32 ? ns(325 + 10 * k) : ns(650 + 10 * (k - 32));
    EXPECT_EQ(l.run(Side::Device, AccessKind::Read, 4, 0, far).completion, expected) << k;
  }
  EXPECT_EQ(l.stats.d2h.outstanding_stalls.value(), 8u);
  EXPECT_DOUBLE_EQ(l.stats.d2h.wait_ns.value(), 8 * 325 + 10 * 28);  // sum of 325 + 10j
  // Requests 1..31 queue behind each other upstream (all ready at 70 ns: 10k ns each); the
  // responses, spaced 10 ns apart by then, never queue: the stage latency dominates.
  EXPECT_EQ(l.stats.d2h.queued_packets.value(), 31u);
  EXPECT_DOUBLE_EQ(l.stats.d2h.queue_ns.value(), 10 * (31 * 32 / 2));
  EXPECT_EQ(l.stats.h2d.queued_packets.value(), 0u);
  // The host side has its own 32 slots: a host read at 0 does not wait for one. Its request
  // (30..40) finds h2d free; its response, ready at 220, finds d2h busy with the device requests
  // (70..390 and 395..475; the 5-ns gap is too short) and leaves at 475..485: 485 + 32 = 517.
  EXPECT_EQ(l.run(Side::Host, AccessKind::Read, 4, 0, far).completion, ns(517));
  EXPECT_EQ(l.stats.h2d.outstanding_stalls.value(), 0u);
  EXPECT_DOUBLE_EQ(l.stats.d2h.queue_ns.value(), 10 * (31 * 32 / 2) + (475 - 220));
}

TEST(LinkModel, PostedWritesAreNotLimited) {
  HtConfig c;
  c.max_outstanding = 1;
  Link l(c);
  FixedFar far;
  // 64-byte posted writes, 72 B = 90 ns each: departures 70 + 90 (k + 1).
  for (unsigned k = 0; k < 40; ++k)
    EXPECT_EQ(l.run(Side::Device, AccessKind::PostedWrite, 64, 0, far).completion,
              ns(70 + 90 * (k + 1)));
  EXPECT_EQ(l.stats.d2h.outstanding_stalls.value(), 0u);
  EXPECT_EQ(l.stats.d2h.posted_writes.value(), 40u);
  EXPECT_EQ(l.stats.h2d.packets.value(), 0u);
}

// The response channel limits a stream of 64-byte reads: 68 B per response, so response k leaves
// at 205 + 85 (k + 1) on 8 bits and arrives 110 ns later: 400 + 85k; data rate 64 B / 85 ns =
// 0.753 GB/s = 64/68 of 0.8 GB/s. 16 bits: 352.5 + 42.5k, 1.506 GB/s.
TEST(LinkModel, StreamingReadsReachTheResponseChannelBandwidth) {
  for (const unsigned width : {8u, 16u}) {
    Link l(Link::width(width));
    FixedFar far;
    const double base = width == 8 ? 400 : 352.5;
    const double step = width == 8 ? 85 : 42.5;
    const unsigned n = 200;
    for (unsigned k = 0; k < n; ++k)
      ASSERT_EQ(l.run(Side::Device, AccessKind::Read, 64, 0, far).completion, ns(base + step * k))
          << width << " " << k;
    EXPECT_DOUBLE_EQ(l.stats.h2d.busy_ns.value(), n * step);
    EXPECT_DOUBLE_EQ(l.stats.h2d.time_ns.value(), base + step * (n - 1));
    EXPECT_GT(l.stats.d2h.outstanding_stalls.value(), 0u);
  }
}

// A response reserved ~200 ns ahead does not delay a host request issued later in call order but
// earlier in time; one that overlaps it queues behind it.
TEST(LinkModel, OneChannelCarriesRequestsAndResponsesInTimeOrder) {
  Link l;
  FixedFar far;
  l.run(Side::Device, AccessKind::Read, 16, 0, far);  // response on h2d at 205..230
  EXPECT_EQ(l.run(Side::Host, AccessKind::PostedWrite, 8, ns(100), far).completion, ns(150));
  EXPECT_EQ(l.stats.h2d.queued_packets.value(), 0u);
  // Ready at 210, 20 ns long: overlaps 205..230, goes at 230.
  EXPECT_EQ(l.run(Side::Host, AccessKind::PostedWrite, 8, ns(180), far).completion, ns(250));
  EXPECT_EQ(l.stats.h2d.queued_packets.value(), 1u);
  EXPECT_DOUBLE_EQ(l.stats.h2d.queue_ns.value(), 20);
}

// max_outstanding 1, wait_queue 1, host reads of 4 bytes (8 bits, zero-latency device):
// A: 30 + 10 + 110 + 70 + 10 + 32 = 262. B waits for A's slot: 262 + 262 = 524. C finds B in the
// queue, enters at 262, gets the slot at 524: 786. A posted write D arriving at 0 is held by the
// full queue until 262, ready at 292, queues behind B's request (292..302) and leaves at 322.
TEST(LinkModel, AFullWaitQueueHoldsBackEveryRequestOfThatSide) {
  HtConfig c;
  c.max_outstanding = 1;
  c.wait_queue = 1;
  Link l(c);
  FixedFar far;
  EXPECT_EQ(l.run(Side::Host, AccessKind::Read, 4, 0, far).completion, ns(262));
  EXPECT_EQ(l.run(Side::Host, AccessKind::Read, 4, 0, far).completion, ns(524));
  EXPECT_EQ(l.run(Side::Host, AccessKind::Read, 4, 0, far).completion, ns(786));
  EXPECT_EQ(l.run(Side::Host, AccessKind::PostedWrite, 8, 0, far).completion, ns(322));
  EXPECT_EQ(l.stats.h2d.outstanding_stalls.value(), 2u);
  EXPECT_EQ(l.stats.h2d.wait_queue_stalls.value(), 2u);
  EXPECT_DOUBLE_EQ(l.stats.h2d.wait_ns.value(), 262 + 524 + 262);
  // Unbounded: the posted write goes at once (behind A's request: 40..60).
  c.wait_queue = 0;
  Link u(c);
  for (int i = 0; i < 3; ++i) u.run(Side::Host, AccessKind::Read, 4, 0, far);
  EXPECT_EQ(u.run(Side::Host, AccessKind::PostedWrite, 8, 0, far).completion, ns(60));
  EXPECT_EQ(u.stats.h2d.wait_queue_stalls.value(), 0u);
}

// ht.core_clock_align: the device IP-core stages end on 10-ns edges. 16 bits: the request leaves
// the core at 70 (an edge), the response arrives at 327.5 and is delivered at 330 instead of
// 322.5. 8 bits from t = 3 ns: core done at 73 -> 80, ..., response in at 347 -> 350.
TEST(LinkModel, CoreClockAlignmentRoundsDeviceStagesToCoreEdges) {
  HtConfig c = Link::width(16);
  c.core_clock_align = true;
  Link l(c);
  FixedFar far;
  EXPECT_EQ(l.run(Side::Device, AccessKind::Read, 16, 0, far).completion, ns(330));
  HtConfig c8;
  c8.core_clock_align = true;
  Link l8(c8);
  EXPECT_EQ(l8.run(Side::Device, AccessKind::Read, 16, ns(3), far).completion, ns(350));
  // Host reads: the device RX stage ends on an edge before the target is called.
  EXPECT_EQ(l8.run(Side::Host, AccessKind::Read, 16, ns(1001), far).completion,
            ns(1001 + 30 + 10 + 110 + 9 + 70 + 25 + 32));
  EXPECT_EQ(far.calls.back().second, ns(1160));
  // A 4-byte read on 8 bits: its 8-byte response is in at +215 and delivered at +330, not +325.
  EXPECT_EQ(l8.run(Side::Device, AccessKind::Read, 4, ns(2000), far).completion, ns(2330));
}

TEST(LinkModel, PacketOverheadIsPaidPerPacket) {
  HtConfig c;
  c.packet_overhead_ns = 2;
  Link l(c);
  FixedFar far;
  EXPECT_EQ(l.run(Side::Device, AccessKind::Read, 16, 0, far).completion, ns(344));
  EXPECT_DOUBLE_EQ(l.stats.d2h.busy_ns.value(), 12);
  EXPECT_DOUBLE_EQ(l.stats.h2d.busy_ns.value(), 27);
}

TEST(LinkModel, AnErrorFromTheFarSideIsCountedAndStillTakesTheRoundTrip) {
  Link l;
  FixedFar far(0, false);
  const AccessResult r = l.run(Side::Device, AccessKind::Read, 16, 0, far);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.completion, ns(340));
  EXPECT_EQ(l.stats.d2h.errors.value(), 1u);
}

TEST(LinkModel, UtilisationIsAViewFormulaSoLaunchDifferencesWork) {
  Link l;
  FixedFar far;
  l.run(Side::Device, AccessKind::Read, 16, 0, far);
  const simkit::Json first = l.group.snapshot();
  // Utilisation of h2d: 25 ns busy over 340 ns.
  EXPECT_DOUBLE_EQ(l.group.find("h2d.utilisation")->number(), 25.0 / 340.0);
  l.run(Side::Device, AccessKind::Read, 64, ns(1000), far);  // 85 ns busy, ends at 1400
  const simkit::Json launch = l.group.diff(l.group.snapshot(), first);
  const simkit::Json* u = simkit::find_stat(launch, "h2d.utilisation");
  ASSERT_NE(u, nullptr);
  EXPECT_DOUBLE_EQ(u->at("value").get<double>(), 85.0 / (1400.0 - 340.0));
  EXPECT_DOUBLE_EQ(simkit::find_stat(launch, "h2d.data_bytes")->at("value").get<double>(), 64);
  EXPECT_DOUBLE_EQ(l.group.find("h2d.busy_cycles")->number(), 11.0);  // 110 ns at 100 MHz
}

}  // namespace
}  // namespace par::ht
