// Dram::set_trace: one interval per burst on dram/ch<c> (arrival at the controller to the last
// data beat) with the row outcome; nothing recorded without a timeline, and the same latencies.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "support/sc_isolation.hpp"
#include "support/tlm_harness.hpp"
#include "ip/trace/recorded_events.hpp"
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

// The script on a traced DDR-333 controller: the accesses' results and the controller's timing.
struct ScriptRun {
  std::vector<par::testing::TlmAccess> accesses;
  EngineParams params;
  std::uint64_t tick_ps = 0;
};
ScriptRun run_traced_script(trace::Timeline& tl) {
  par::testing::TlmHarness h;
  Dram d("dram", ddr333());
  d.set_trace(&tl, nullptr);
  h.out.bind(d.in);
  script(h, d);
  h.run(sc_time(10, sc_core::SC_US));
  ScriptRun run{{}, d.engine().params(), d.tick_time(1).value()};
  for (std::size_t i = 0; i < h.size(); ++i) run.accesses.push_back(h.result(i));
  return run;
}

TEST(DramTrace, OneIntervalPerBurstWithTheRowOutcome) {
  par::testing::run_isolated([] {
    trace::Timeline tl;
    const std::vector<par::testing::TlmAccess> r = run_traced_script(tl).accesses;
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
    EXPECT_EQ(tl.recorded("dram"), 5u);  // the traced one's bursts only
    EXPECT_EQ(on_track(recorded_events(tl), "traced/ch0").size(), 5u);  // the process is the module's name
    for (std::size_t i = 0; i < h_plain.size(); ++i)
      EXPECT_EQ(h_plain.result(i).latency, h_traced.result(i).latency) << i;
  });
}

// The bank's command row (DRAMSys style): the script's miss, hit, conflict and two-burst hit give
// ACT RD | RD | PRE ACT RD | RD RD on ch0 rank0 bank0 (DDR-333 has two ranks), each command over
// the time before the bank's next one may follow (tRCD, tCCD, tRP), in a properly nested row.
TEST(DramTrace, BankCommandsOfAKnownPattern) {
  par::testing::run_isolated([] {
    trace::Timeline tl;
    const ScriptRun run = run_traced_script(tl);
    const std::vector<RecordedEvent> all = recorded_events(tl);
    const std::vector<RecordedEvent> ev = on_track(all, "dram/ch0 rank0 bank0");
    std::string names;
    for (const RecordedEvent& e : ev) names += (names.empty() ? "" : " ") + e.name;
    EXPECT_EQ(names, "ACT RD RD PRE ACT RD RD RD");
    EXPECT_TRUE(on_track(all, "dram/ch0 rank0 bank0 #2").empty());  // no overlap
    EXPECT_TRUE(on_track(all, "dram/ch0 rank0 bank1").empty());
    EXPECT_EQ(tl.recorded("dram_cmd"), 8u);
    const EngineParams& p = run.params;
    const auto ps = [&](Tick t) { return static_cast<std::uint64_t>(t) * run.tick_ps; };
    const std::uint64_t lengths[] = {ps(p.tRCD), ps(p.tCCD), ps(p.tCCD), ps(p.tRP), ps(p.tRCD), ps(p.tCCD), ps(p.tCCD), ps(p.tCCD)};
    for (std::size_t i = 0; i < ev.size() && i < 8; ++i) {
      EXPECT_EQ(ev[i].cat, "dram_cmd") << i;
      EXPECT_LE(diff(ev[i].end_ps - ev[i].begin_ps, lengths[i]), 1u) << i << " " << ev[i].name;
      EXPECT_EQ(ev[i].args.at("row"), i < 3 ? 0 : 1) << i;
    }
    // ACT to its RD: at least tRCD; the conflict's PRE closes row 0 after its last read.
    ASSERT_EQ(ev.size(), 8u);
    EXPECT_GE(ev[1].begin_ps, ev[0].end_ps);
    EXPECT_GE(ev[3].begin_ps, ev[2].end_ps);
  });
}

// With refresh on, every refresh window up to the latest completion is a REF on each bank row of
// its rank, from the precharge-all to the end of tRFC.
TEST(DramTrace, RefreshesOnEveryBankRow) {
  par::testing::run_isolated([] {
    trace::Timeline tl;
    par::testing::TlmHarness h;
    DramConfig cfg = ddr333();
    cfg.refresh = true;
    Dram d("dram", cfg);
    d.set_trace(&tl, nullptr);
    h.out.bind(d.in);
    const EngineParams& p = d.engine().params();
    // Just past the second refresh window.
    h.at(d.tick_time(2 * p.tREFI + p.tRFC + 10)).read(0, 32);
    h.run(sc_time(100, sc_core::SC_US));
    const std::vector<RecordedEvent> all = recorded_events(tl);
    const auto refs_on = [&](const std::string& track) {
      std::vector<RecordedEvent> refs;
      for (const RecordedEvent& e : on_track(all, track))
        if (e.name == "REF") refs.push_back(e);
      return refs;
    };
    ASSERT_EQ(d.config().ranks, 2u);
    for (unsigned b = 0; b < d.config().banks; ++b) {
      // Rank 1 refreshes half a tREFI later (staggered): at 1.5 tREFI; its next is after the access.
      EXPECT_EQ(refs_on("dram/ch0 rank1 bank" + std::to_string(b)).size(), 1u) << b;
      const std::vector<RecordedEvent> refs = refs_on("dram/ch0 rank0 bank" + std::to_string(b));
      ASSERT_EQ(refs.size(), 2u) << b;
      for (std::size_t k = 0; k < 2; ++k) {
        EXPECT_EQ(refs[k].end_ps - refs[k].begin_ps, d.tick_time(p.tRPab + p.tRFC).value()) << b << " " << k;
        EXPECT_EQ(refs[k].begin_ps, d.tick_time(static_cast<Tick>(k + 1) * p.tREFI - p.tRPab).value()) << b << " " << k;
      }
    }
  });
}

}  // namespace
}  // namespace par::dram
