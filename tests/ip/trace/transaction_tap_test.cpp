// TransactionTap: exact intervals for scripted blocking and non-blocking transactions, unchanged
// latencies and data, and nothing recorded (but everything forwarded) without a timeline.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "support/sc_isolation.hpp"
#include "support/tlm_harness.hpp"
#include "par/trace/sc_ps.hpp"
#include "par/trace/transaction_tap.hpp"
#include "recorded_events.hpp"

namespace {

using par::testing::run_isolated;
using par::testing::TlmHarness;
using par::trace::Timeline;
using par::trace::TransactionTap;
using par::trace::testing::recorded_events;
using par::trace::testing::RecordedEvent;
using sc_core::SC_NS;
using sc_core::sc_time;

constexpr std::uint64_t kNs = 1000;  // ps

// A 256-byte memory that serves one access at a time for 10 ns ("busy until"), by annotation.
// Non-blocking: BEGIN_REQ is completed at once (TLM_COMPLETED + the same delay) unless `at_`
// mode is on, in which case it answers END_REQ and sends BEGIN_RESP 20 ns later on the backward
// path (for AtInitiator below).
class BusyMemory : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<BusyMemory> in;
  bool at_mode = false;

  explicit BusyMemory(sc_core::sc_module_name name) : sc_module(name), in("in") {
    in.register_b_transport(this, &BusyMemory::b_transport);
    in.register_nb_transport_fw(this, &BusyMemory::nb_transport_fw);
    in.register_transport_dbg(this, &BusyMemory::transport_dbg);
    SC_HAS_PROCESS(BusyMemory);
    SC_THREAD(respond);
  }

 private:
  void access(tlm::tlm_generic_payload& tx, sc_time& delay) {
    const sc_time start = std::max(sc_core::sc_time_stamp() + delay, busy_until_);
    busy_until_ = start + sc_time(10, SC_NS);
    delay = busy_until_ - sc_core::sc_time_stamp();
    unsigned char* mem = bytes_ + (tx.get_address() & 0xff);
    if (tx.is_write()) std::memcpy(mem, tx.get_data_ptr(), tx.get_data_length());
    else std::memcpy(tx.get_data_ptr(), mem, tx.get_data_length());
    tx.set_response_status(tlm::TLM_OK_RESPONSE);
  }
  void b_transport(tlm::tlm_generic_payload& tx, sc_time& delay) { access(tx, delay); }
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& tx, tlm::tlm_phase& phase, sc_time& delay) {
    if (phase == tlm::END_RESP) return tlm::TLM_COMPLETED;
    if (!at_mode) {
      access(tx, delay);
      return tlm::TLM_COMPLETED;
    }
    pending_ = &tx;
    respond_at_ = sc_core::sc_time_stamp() + delay + sc_time(20, SC_NS);
    wake_.notify(delay);
    phase = tlm::END_REQ;
    return tlm::TLM_UPDATED;
  }
  void respond() {
    for (;;) {
      sc_core::wait(wake_);
      sc_core::wait(respond_at_ - sc_core::sc_time_stamp());
      sc_time zero = sc_core::SC_ZERO_TIME;
      access(*pending_, zero);
      tlm::tlm_phase phase = tlm::BEGIN_RESP;
      sc_time delay = sc_core::SC_ZERO_TIME;
      in->nb_transport_bw(*pending_, phase, delay);
    }
  }
  unsigned int transport_dbg(tlm::tlm_generic_payload& tx) {
    std::memcpy(tx.get_data_ptr(), bytes_ + (tx.get_address() & 0xff), tx.get_data_length());
    return tx.get_data_length();
  }

  unsigned char bytes_[256 + 64] = {};
  sc_time busy_until_ = sc_core::SC_ZERO_TIME;
  tlm::tlm_generic_payload* pending_ = nullptr;
  sc_time respond_at_;
  sc_core::sc_event wake_;
};

// Script: at 0 the harness reads 8 bytes at 0x10 and writes 4 at 0x20 (the write queues behind
// the read), at 50 ns reads 16 at 0x40.
void script(TlmHarness& h) {
  h.at(sc_time(0, SC_NS)).read(0x10, 8);
  h.at(sc_time(0, SC_NS)).write(0x20, {1, 2, 3, 4});
  h.at(sc_time(50, SC_NS)).read(0x20, 4);
}

TEST(TransactionTap, RecordsOneExactIntervalPerBlockingAccessAndChangesNoLatency) {
  run_isolated([] {
    Timeline tl;
    TlmHarness traced("traced"), direct("direct");
    BusyMemory mem_a("mem_a"), mem_b("mem_b");
    TransactionTap<> tap("tap", &tl, "dram", "ch0", "dram");
    tap.connect(traced.out, mem_a.in);
    direct.out.bind(mem_b.in);
    script(traced);
    script(direct);
    traced.run();

    for (std::size_t i = 0; i < traced.size(); ++i) {
      EXPECT_EQ(traced.result(i).latency, direct.result(i).latency) << i;
      EXPECT_EQ(traced.result(i).status, tlm::TLM_OK_RESPONSE) << i;
    }
    EXPECT_EQ(traced.result(2).read_data, (std::vector<std::uint8_t>{1, 2, 3, 4}));
    EXPECT_EQ(traced.result(1).latency, sc_time(20, SC_NS));

    const std::vector<RecordedEvent> ev = recorded_events(tl);
    ASSERT_EQ(ev.size(), 3u);
    EXPECT_EQ(tl.recorded("dram"), 3u);
    // Row order: by start, the longer first.
    EXPECT_EQ(ev[0].track, "dram/ch0");
    EXPECT_EQ(ev[0].cat, "dram");
    EXPECT_EQ(ev[0].name, "write");
    EXPECT_EQ(ev[0].begin_ps, 0u);
    EXPECT_EQ(ev[0].end_ps, 20 * kNs);
    EXPECT_EQ(ev[0].args.at("addr"), "0x20");
    EXPECT_EQ(ev[0].args.at("bytes"), 4);
    EXPECT_EQ(ev[1].name, "read");
    EXPECT_EQ(ev[1].begin_ps, 0u);
    EXPECT_EQ(ev[1].end_ps, 10 * kNs);
    EXPECT_EQ(ev[1].args.at("addr"), "0x10");
    EXPECT_EQ(ev[1].args.at("bytes"), 8);
    EXPECT_EQ(ev[2].name, "read");
    EXPECT_EQ(ev[2].begin_ps, 50 * kNs);
    EXPECT_EQ(ev[2].end_ps, 60 * kNs);
  });
}

// An initiator issuing with a nonzero delay annotation (b_transport), then three non-blocking
// transactions: completed in the forward call; END_REQ + BEGIN_RESP answered TLM_ACCEPTED and an
// explicit END_RESP 2 ns later; BEGIN_RESP answered TLM_COMPLETED.
class ScriptedInitiator : public sc_core::sc_module, public tlm::tlm_bw_transport_if<> {
 public:
  tlm::tlm_initiator_socket<> out;
  BusyMemory* memory = nullptr;
  sc_time b_latency;

  explicit ScriptedInitiator(sc_core::sc_module_name name) : sc_module(name), out("out") {
    out.bind(*this);
    SC_HAS_PROCESS(ScriptedInitiator);
    SC_THREAD(run);
  }

 private:
  static void prepare(tlm::tlm_generic_payload& tx, tlm::tlm_command cmd, std::uint64_t addr, unsigned char* data,
                      unsigned len) {
    tx.set_command(cmd);
    tx.set_address(addr);
    tx.set_data_ptr(data);
    tx.set_data_length(len);
    tx.set_streaming_width(len);
    tx.set_byte_enable_ptr(nullptr);
    tx.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  }
  void run() {
    unsigned char data[8] = {};
    // b_transport at 0 with 3 ns annotated: [3, 13] ns.
    sc_time delay(3, SC_NS);
    prepare(a_, tlm::TLM_READ_COMMAND, 0x8, data, 8);
    out->b_transport(a_, delay);
    b_latency = delay;
    sc_core::wait(100, SC_NS);
    // nb at 100 ns + 1 ns, completed in the call: [101, 111] ns.
    prepare(b_, tlm::TLM_WRITE_COMMAND, 0x30, data, 4);
    tlm::tlm_phase phase = tlm::BEGIN_REQ;
    delay = sc_time(1, SC_NS);
    EXPECT_EQ(out->nb_transport_fw(b_, phase, delay), tlm::TLM_COMPLETED);
    sc_core::wait(100, SC_NS);
    // nb at 200 ns: END_REQ, BEGIN_RESP at 220 ns (accepted), END_RESP at 222 ns: [200, 222] ns.
    memory->at_mode = true;
    complete_on_resp_ = false;
    prepare(c_, tlm::TLM_READ_COMMAND, 0x40, data, 2);
    phase = tlm::BEGIN_REQ;
    delay = sc_core::SC_ZERO_TIME;
    EXPECT_EQ(out->nb_transport_fw(c_, phase, delay), tlm::TLM_UPDATED);
    sc_core::wait(got_resp_);
    sc_core::wait(2, SC_NS);
    phase = tlm::END_RESP;
    delay = sc_core::SC_ZERO_TIME;
    EXPECT_EQ(out->nb_transport_fw(c_, phase, delay), tlm::TLM_COMPLETED);
    sc_core::wait(100, SC_NS);
    // nb at 322 ns: BEGIN_RESP at 342 ns answered TLM_COMPLETED with 5 ns: [322, 347] ns.
    complete_on_resp_ = true;
    prepare(d_, tlm::TLM_READ_COMMAND, 0x48, data, 1);
    phase = tlm::BEGIN_REQ;
    delay = sc_core::SC_ZERO_TIME;
    EXPECT_EQ(out->nb_transport_fw(d_, phase, delay), tlm::TLM_UPDATED);
    sc_core::wait(got_resp_);
  }
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload&, tlm::tlm_phase& phase, sc_time& delay) override {
    EXPECT_EQ(phase, tlm::BEGIN_RESP);
    got_resp_.notify(sc_core::SC_ZERO_TIME);
    if (!complete_on_resp_) return tlm::TLM_ACCEPTED;
    delay += sc_time(5, SC_NS);
    return tlm::TLM_COMPLETED;
  }
  void invalidate_direct_mem_ptr(sc_dt::uint64, sc_dt::uint64) override {}

  tlm::tlm_generic_payload a_, b_, c_, d_;
  bool complete_on_resp_ = false;
  sc_core::sc_event got_resp_;
};

TEST(TransactionTap, RecordsNonBlockingTransactionsFromBeginReqToEndResp) {
  run_isolated([] {
    Timeline tl;
    ScriptedInitiator init("init");
    BusyMemory mem("mem");
    init.memory = &mem;
    TransactionTap<> tap("tap", &tl, "l2", "bank0", "l2");
    tap.connect(init.out, mem.in);
    sc_core::sc_start(sc_time(1, sc_core::SC_US));

    EXPECT_EQ(init.b_latency, sc_time(13, SC_NS));  // the target's delay, untouched
    EXPECT_EQ(tap.recorder().open_count(), 0u);
    const std::vector<RecordedEvent> ev = recorded_events(tl);
    ASSERT_EQ(ev.size(), 4u);
    const std::uint64_t expect[4][2] = {{3, 13}, {101, 111}, {200, 222}, {322, 347}};
    const char* names[4] = {"read", "write", "read", "read"};
    for (std::size_t i = 0; i < 4; ++i) {
      EXPECT_EQ(ev[i].track, "l2/bank0") << i;
      EXPECT_EQ(ev[i].cat, "l2") << i;
      EXPECT_EQ(ev[i].name, names[i]) << i;
      EXPECT_EQ(ev[i].begin_ps, expect[i][0] * kNs) << i;
      EXPECT_EQ(ev[i].end_ps, expect[i][1] * kNs) << i;
    }
    EXPECT_EQ(ev[2].args.at("addr"), "0x40");
    EXPECT_EQ(ev[2].args.at("bytes"), 2);
  });
}

TEST(TransactionTap, WithoutTimelineForwardsEverythingAndRecordsNothing) {
  run_isolated([] {
    TlmHarness h;
    BusyMemory mem("mem");
    TransactionTap<> tap("tap", nullptr, "dram", "ch0", "dram");
    tap.connect(h.out, mem.in);
    script(h);
    h.run();
    EXPECT_FALSE(tap.recorder().enabled());
    EXPECT_EQ(h.result(0).latency, sc_time(10, SC_NS));
    EXPECT_EQ(h.result(1).latency, sc_time(20, SC_NS));
    EXPECT_EQ(h.result(2).read_data, (std::vector<std::uint8_t>{1, 2, 3, 4}));
    // Debug transport passes through (and takes no time).
    std::uint8_t buf[4] = {};
    tlm::tlm_generic_payload dbg;
    dbg.set_command(tlm::TLM_READ_COMMAND);
    dbg.set_address(0x20);
    dbg.set_data_ptr(buf);
    dbg.set_data_length(4);
    EXPECT_EQ(h.out->transport_dbg(dbg), 4u);
    EXPECT_EQ(buf[3], 4);
  });
}

TEST(ScToPs, ConvertsWithTheDefaultResolution) {
  run_isolated([] {
    const par::trace::ScToPs to_ps;
    EXPECT_EQ(to_ps(sc_time(1.5, SC_NS)), 1500u);
    EXPECT_EQ(to_ps(sc_time(3, sc_core::SC_MS)), 3'000'000'000u);
  });
}

}  // namespace
