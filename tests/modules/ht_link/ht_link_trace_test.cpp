// Tracing of the HyperTransport link: one interval per packet on link/h2d and link/d2h with exact
// wire times, the `queue` counter (exact depth whatever order the packets are recorded in), the
// VCD busy/queue signals, unchanged timing, and nothing recorded without a timeline.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "support/sc_isolation.hpp"
#include "support/tlm_harness.hpp"
#include "ip/trace/recorded_events.hpp"
#include "ht_link.hpp"
#include "link_trace.hpp"
#include "memory.hpp"


namespace par::ht {
namespace {

using par::testing::run_isolated;
using par::testing::TlmHarness;
using par::trace::Timeline;
using par::trace::VcdWriter;
using par::trace::testing::on_track;
using par::trace::testing::recorded_events;
using par::trace::testing::RecordedEvent;
using sc_core::sc_time;
using sc_core::SC_NS;

constexpr std::uint64_t kNs = 1000;

// The counter's value from each sample time on (the last sample at a time wins), in ns.
std::map<std::uint64_t, double> depth_curve(const std::vector<RecordedEvent>& all, const std::string& track) {
  std::map<std::uint64_t, double> curve;
  for (const RecordedEvent& e : on_track(all, track, "C")) curve[e.begin_ps / kNs] = e.args.at("value");
  return curve;
}

// The value changes written at time `ps` ("" when none): the lines after "#ps" up to the next "#".
std::string changes_at(const std::string& vcd_text, std::uint64_t ps) {
  const std::string mark = "\n#" + std::to_string(ps) + "\n";
  const auto at = vcd_text.find(mark);
  if (at == std::string::npos) return "";
  const auto from = at + mark.size();
  const auto to = vcd_text.find("\n#", from);
  return vcd_text.substr(from, to == std::string::npos ? std::string::npos : to + 1 - from);
}

bool has_line(const std::string& block, const std::string& line) {
  return ("\n" + block).find("\n" + line + "\n") != std::string::npos;
}

// README "Worked example": a 256-byte device read of host memory at t = 0 is four 8-byte requests
// on d2h at 70..110 ns (all ready at 70) and four 68-byte responses back to back on h2d from
// 205 ns (ready at 205, 215, 225, 235); the read completes at 655 ns.
void run_256_byte_read(Timeline* tl, VcdWriter* vcd, sc_time* latency) {
  memory::MemoryConfig m;
  m.size = 1u << 16;
  memory::Memory host_memory("host_memory", m);
  HtLink link("link");
  link.set_trace(tl, vcd);
  TlmHarness device("device");
  device.out.bind(link.dev_in);
  link.host_out.bind(host_memory.in);
  device.at(sc_time(0, SC_NS)).read(0x100, 256);
  device.run();
  *latency = device.result(0).latency;
}

TEST(HtLinkTrace, OneIntervalPerPacketWithExactWireTimesAndQueueDepth) {
  run_isolated([] {
    Timeline tl;
    VcdWriter vcd;
    sc_time latency;
    run_256_byte_read(&tl, &vcd, &latency);
    EXPECT_EQ(latency, sc_time(655, SC_NS));  // as without tracing (ht_link_module_test)

    const std::vector<RecordedEvent> all = recorded_events(tl);
    EXPECT_EQ(tl.recorded("link"), 8u);
    const std::vector<RecordedEvent> d2h = on_track(all, "link/d2h");
    ASSERT_EQ(d2h.size(), 4u);
    for (std::size_t k = 0; k < 4; ++k) {
      EXPECT_EQ(d2h[k].name, "read") << k;
      EXPECT_EQ(d2h[k].cat, "link") << k;
      EXPECT_EQ(d2h[k].begin_ps, (70 + 10 * k) * kNs) << k;
      EXPECT_EQ(d2h[k].end_ps, (80 + 10 * k) * kNs) << k;
      EXPECT_EQ(d2h[k].args.at("bytes"), 8) << k;
      EXPECT_EQ(d2h[k].args.at("data"), 0) << k;
      EXPECT_EQ(d2h[k].args.at("queued_ps"), 10 * k * kNs) << k;
    }
    const std::vector<RecordedEvent> h2d = on_track(all, "link/h2d");
    ASSERT_EQ(h2d.size(), 4u);
    for (std::size_t k = 0; k < 4; ++k) {
      EXPECT_EQ(h2d[k].name, "read_resp") << k;
      EXPECT_EQ(h2d[k].begin_ps, (205 + 85 * k) * kNs) << k;
      EXPECT_EQ(h2d[k].end_ps, (290 + 85 * k) * kNs) << k;
      EXPECT_EQ(h2d[k].args.at("bytes"), 68) << k;
      EXPECT_EQ(h2d[k].args.at("data"), 64) << k;
    }
    EXPECT_EQ(depth_curve(all, "link/d2h"),
              (std::map<std::uint64_t, double>{{70, 4}, {80, 3}, {90, 2}, {100, 1}, {110, 0}}));
    EXPECT_EQ(depth_curve(all, "link/h2d"),
              (std::map<std::uint64_t, double>{
                  {205, 1}, {215, 2}, {225, 3}, {235, 4}, {290, 3}, {375, 2}, {460, 1}, {545, 0}}));

    EXPECT_EQ(vcd.declared(), (std::vector<std::string>{"link.h2d.busy", "link.h2d.queue", "link.d2h.busy",
                                                         "link.d2h.queue"}));
    vcd.set_date("fixed");
    std::ostringstream os;
    vcd.write(os);
    const std::string text = os.str();
    // d2h busy (#) from 70 to 110 ns without a gap; h2d busy (!) from 205 to 545 ns.
    EXPECT_TRUE(has_line(changes_at(text, 70000), "1#")) << text;
    EXPECT_TRUE(has_line(changes_at(text, 70000), "b100 $")) << text;
    EXPECT_TRUE(has_line(changes_at(text, 110000), "0#")) << text;
    EXPECT_FALSE(has_line(changes_at(text, 80000), "0#")) << text;
    EXPECT_TRUE(has_line(changes_at(text, 205000), "1!")) << text;
    EXPECT_TRUE(has_line(changes_at(text, 205000), "b1 \"")) << text;
    EXPECT_TRUE(has_line(changes_at(text, 545000), "0!")) << text;
    EXPECT_TRUE(has_line(changes_at(text, 545000), "b0 \"")) << text;
  });
}

TEST(HtLinkTrace, WithoutTimelineOrVcdNothingIsRecordedAndTimingIsTheSame) {
  run_isolated([] {
    Timeline unused;
    sc_time latency;
    run_256_byte_read(nullptr, nullptr, &latency);
    EXPECT_EQ(latency, sc_time(655, SC_NS));
    EXPECT_EQ(unused.recorded(), 0u);
  });
}

// Without SystemC: packets recorded out of time order still give the exact depth and busy curves.
TEST(LinkTrace, OutOfOrderPacketsGiveTheExactQueueDepth) {
  Timeline tl;
  VcdWriter vcd;
  LinkTrace t(&tl, &vcd);
  t.packet(Direction::HostToDevice, PacketKind::Write, 16, 8, 100 * kNs, 120 * kNs, 130 * kNs);
  t.packet(Direction::HostToDevice, PacketKind::Read, 8, 0, 90 * kNs, 100 * kNs, 120 * kNs);
  const std::vector<RecordedEvent> all = recorded_events(tl);
  EXPECT_EQ(depth_curve(all, "link/h2d"),
            (std::map<std::uint64_t, double>{{90, 1}, {100, 2}, {120, 1}, {130, 0}}));
  const std::vector<RecordedEvent> h2d = on_track(all, "link/h2d");
  ASSERT_EQ(h2d.size(), 2u);
  EXPECT_EQ(h2d[0].name, "read");
  EXPECT_EQ(h2d[1].name, "write");
  EXPECT_EQ(tl.recorded("link"), 2u);
  vcd.set_date("fixed");
  std::ostringstream os;
  vcd.write(os);
  EXPECT_TRUE(has_line(changes_at(os.str(), 100000), "1!")) << os.str();
  EXPECT_FALSE(has_line(changes_at(os.str(), 120000), "0!")) << os.str();  // no gap between them
  EXPECT_TRUE(has_line(changes_at(os.str(), 130000), "0!")) << os.str();
}

}  // namespace
}  // namespace par::ht
