// Tracing of the thread scheduler: one `scheduler/launches` interval per packet (doorbell accepted
// to completion) with its arguments, the VCD signal scheduler.pending, and nothing recorded
// without a timeline. Fake cores as in scheduler_module_test.cpp (register access 10 ns,
// dispatch 10 ns per share).
#include <gtest/gtest.h>

#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "support/sc_isolation.hpp"
#include "support/tlm_harness.hpp"
#include "ip/trace/recorded_events.hpp"
#include "scheduler_test_support.hpp"
#include "thread_scheduler.hpp"

namespace par {
namespace {

using par::testing::TlmHarness;
using sched::Policy;
using sched::SchedulerConfig;
using sched::ThreadScheduler;
using sched::testing::ns;
using sched::testing::submit;
using trace::testing::on_track;
using trace::testing::recorded_events;
using trace::testing::RecordedEvent;

struct Bench {
  TlmHarness host{"host"};
  ThreadScheduler sched;
  sched::testing::FakeCores cores;

  Bench(const SchedulerConfig& cfg, const std::vector<double>& ns_per_thread) : sched("sched", cfg) {
    host.out.bind(sched.regs);
    for (double n : ns_per_thread) cores.add(sched, n);
  }
};

// Packet 1: 20 threads in dynamic chunks of 4 over two cores (20..80 ns, as in
// DynamicChunksInOrderToTheFirstFreeCore); packet 2: 2 threads, submitted right after packet 1,
// one chunk.
void run_two_packets(trace::Timeline* tl, trace::VcdWriter* vcd, std::vector<sched::PacketRecord>* records) {
  SchedulerConfig cfg;
  cfg.policy = Policy::Dynamic;
  cfg.chunk_threads = 4;
  Bench b(cfg, {4.0, 1.0});
  b.sched.set_trace(tl, vcd);
  submit(b.host, 0x10, 20);
  submit(b.host, 0x30, 2);
  b.host.run();
  EXPECT_EQ(b.host.result(3).status, tlm::TLM_OK_RESPONSE);
  *records = b.sched.packet_records();
}

TEST(ThreadSchedulerTrace, OneLaunchIntervalPerPacketAndThePendingSignal) {
  par::testing::run_isolated([] {
    trace::Timeline tl;
    trace::VcdWriter vcd;
    std::vector<sched::PacketRecord> records;
    run_two_packets(&tl, &vcd, &records);
    ASSERT_EQ(records.size(), 2u);
    EXPECT_EQ(records[0].submitted, ns(20));
    EXPECT_EQ(records[0].finished, ns(80));
    EXPECT_EQ(records[1].submitted, ns(40));

    EXPECT_EQ(tl.recorded(), 2u);
    EXPECT_EQ(tl.recorded("launch"), 2u);
    const std::vector<RecordedEvent> launches = on_track(recorded_events(tl), "scheduler/launches");
    ASSERT_EQ(launches.size(), 2u);
    for (std::size_t i = 0; i < 2; ++i) {
      const RecordedEvent& e = launches[i];
      const sched::PacketRecord& r = records[i];
      EXPECT_EQ(e.name, "packet") << i;
      EXPECT_EQ(e.cat, "launch") << i;
      EXPECT_EQ(e.begin_ps, r.submitted.value()) << i;
      EXPECT_EQ(e.end_ps, r.finished.value()) << i;
      EXPECT_EQ(e.args.at("seq"), i + 1) << i;
      EXPECT_EQ(e.args.at("threads"), r.threads) << i;
      EXPECT_EQ(e.args.at("start"), r.start) << i;
      EXPECT_EQ(e.args.at("ok"), true) << i;
    }
    EXPECT_EQ(launches[0].args.at("cores"), 2);  // five chunks on both cores
    EXPECT_EQ(launches[1].args.at("cores"), 1);

    // scheduler.pending: 1 at 20 ns, 2 at 40 ns, then 1 and 0 as the packets finish.
    EXPECT_EQ(vcd.declared(), std::vector<std::string>{"scheduler.pending"});
    EXPECT_EQ(vcd.recorded(), 4u);
    vcd.set_date("fixed");
    std::ostringstream os;
    vcd.write(os);
    const std::string text = os.str();
    EXPECT_NE(text.find("$var integer 16 ! pending $end"), std::string::npos) << text;
    EXPECT_NE(text.find("#20000\nb1 !\n#40000\nb10 !\n#80000\nb1 !\n"), std::string::npos) << text;
    EXPECT_NE(text.find("\n#" + std::to_string(records[1].finished.value()) + "\nb0 !\n"), std::string::npos)
        << text;
  });
}

TEST(ThreadSchedulerTrace, NullTimelineRecordsNothingAndChangesNoTime) {
  par::testing::run_isolated([] {
    std::vector<sched::PacketRecord> traced, untraced;
    trace::Timeline tl;
    run_two_packets(nullptr, nullptr, &untraced);
    EXPECT_EQ(tl.recorded(), 0u);
    ASSERT_EQ(untraced.size(), 2u);
    EXPECT_EQ(untraced[0].finished, ns(80));
  });
}

}  // namespace
}  // namespace par
