// Dram::set_trace: one interval per burst on dram/ch<c> (arrival at the controller to the last
// data beat) with the row outcome; nothing recorded without a timeline, and the same latencies.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "../../support/sc_isolation.hpp"
#include "../../support/tlm_harness.hpp"
#include "../../trace/recorded_events.hpp"
#include "dram.hpp"

namespace par::dram {
namespace {

using sc_core::sc_time;
using trace::testing::on_track;
using trace::testing::recorded_events;
using trace::testing::RecordedEvent;

std::uint64_t diff(std::uint64_t a, std::uint64_t b) { return a > b ? a - b : b - a; }

// DDR-333 (32-byte bursts), no refresh: a closed-row read, a row hit, a row conflict, then a
// 64-byte read (two bursts).
DramConfig ddr333() {
  DramConfig c;
  c.preset = Preset::Ddr_333;
  c.refresh = false;
  return c;
}

void script(par::testing::TlmHarness& h, const Dram& d) {
  Location row0, row1;
  row1.row = 1;
  const std::uint64_t a0 = d.mapping().encode(row0), a1 = d.mapping().encode(row1);
  h.at(d.cycles(0)).read(a0, 32);
  h.at(d.cycles(100)).read(a0 + 32, 32);
  h.at(d.cycles(200)).read(a1, 32);
  h.at(d.cycles(300)).read(a1, 64);
}

TEST(DramTrace, OneIntervalPerBurstWithTheRowOutcome) {
  par::testing::run_isolated([] {
    trace::Timeline tl;
    par::testing::TlmHarness h;
    Dram d("dram", ddr333());
    d.set_trace(&tl, nullptr);
    h.out.bind(d.in);
    script(h, d);
    h.run(sc_time(10, sc_core::SC_US));
    std::vector<par::testing::TlmAccess> r;
    for (std::size_t i = 0; i < h.size(); ++i) r.push_back(h.result(i));
    const std::vector<RecordedEvent> ev = on_track(recorded_events(tl), "dram/ch0");
    ASSERT_EQ(ev.size(), 5u);
    EXPECT_EQ(tl.recorded("dram"), 5u);
    const char* rows[] = {"miss", "hit", "conflict", "hit", "hit"};
    const std::size_t access[] = {0, 1, 2, 3, 3};
    for (std::size_t i = 0; i < 5; ++i) {
      EXPECT_EQ(ev[i].name, "read") << i;
      EXPECT_EQ(ev[i].cat, "dram") << i;
      EXPECT_EQ(ev[i].args.at("row"), rows[i]) << i;
      EXPECT_EQ(ev[i].args.at("bytes"), 32) << i;
      EXPECT_EQ(ev[i].args.at("bank"), 0) << i;
      const par::testing::TlmAccess& a = r[access[i]];
      EXPECT_GE(ev[i].begin_ps, a.issued.value()) << i;
      EXPECT_LT(ev[i].begin_ps, ev[i].end_ps) << i;
    }
    // An access ends with its last burst (within the 1 ps rounding of a tick). The two bursts of
    // the 64-byte read arrive together; at equal start the longer (second) one comes first.
    for (std::size_t i : {0u, 1u, 2u, 3u}) EXPECT_LE(diff(ev[i].end_ps, r[access[i]].completed.value()), 1u) << i;
    EXPECT_EQ(ev[3].begin_ps, ev[4].begin_ps);
    EXPECT_LT(ev[4].end_ps, ev[3].end_ps);
    EXPECT_EQ(ev[4].args.at("addr"), ev[2].args.at("addr"));
    EXPECT_EQ(ev[0].args.at("addr"), "0x0");
    EXPECT_EQ(ev[1].args.at("addr"), "0x20");
  });
}

TEST(DramTrace, NullTimelineRecordsNothingAndKeepsTheLatencies) {
  par::testing::run_isolated([] {
    trace::Timeline tl;
    par::testing::TlmHarness h_traced("h_traced"), h_plain("h_plain");
    Dram traced("traced", ddr333()), plain("plain", ddr333());
    traced.set_trace(&tl, nullptr);
    plain.set_trace(nullptr, nullptr);
    h_traced.out.bind(traced.in);
    h_plain.out.bind(plain.in);
    script(h_traced, traced);
    script(h_plain, plain);
    h_traced.run(sc_time(10, sc_core::SC_US));
    EXPECT_EQ(tl.recorded(), 5u);  // the traced one's bursts only
    EXPECT_EQ(on_track(recorded_events(tl), "traced/ch0").size(), 5u);  // the process is the module's name
    for (std::size_t i = 0; i < h_plain.size(); ++i)
      EXPECT_EQ(h_plain.result(i).latency, h_traced.result(i).latency) << i;
  });
}

}  // namespace
}  // namespace par::dram
