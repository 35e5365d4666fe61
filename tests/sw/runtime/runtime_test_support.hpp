// Test doubles for the host runtime and the .MASTER interpreter without SystemC processes:
// FakePort (a HostPort with a flat memory, a fixed latency per transaction, a log of every
// transaction, and the scheduler's interrupts) and FakeScheduler (the thread scheduler's register
// protocol with scripted packet durations and failures, answering at exact times, and the
// completion interrupts it raises). sc_time is used as a plain value type.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include <systemc>

#include "par/master/host_port.hpp"
#include "par/sckit/interrupt.hpp"
#include "par/sched/scheduler_registers.hpp"

namespace par::runtime::testing {

using sc_core::sc_time;
using sc_core::SC_NS;

inline sc_time ns(double v) { return sc_time(v, SC_NS); }

// The scheduler's registers (thread_scheduler README) as a function of time. Packets complete in
// order: packet k completes at max(accepted_k + duration(k), completion of k - 1), where accepted
// is the DOORBELL's arrival + the register latency; a packet with CONTROL.interrupt raises its
// interrupt then. A DOORBELL that finds `depth` packets outstanding is refused.
class FakeScheduler {
 public:
  struct Packet {
    std::uint64_t seq = 0;
    std::uint64_t block[sched::kStagingEnd / 8] = {};  // the staging block at DOORBELL
    sc_time accepted, completion;
    bool failed = false;
  };
  std::function<sc_time(std::uint64_t seq)> duration = [](std::uint64_t) { return ns(1000); };
  std::function<bool(std::uint64_t seq)> fails = [](std::uint64_t) { return false; };
  bool never_complete = false;  // packets never complete (wait limits)
  std::uint64_t depth = 32;     // queue entries

  const std::vector<Packet>& packets() const { return packets_; }
  int clear_errors() const { return clears_; }
  int refused_doorbells() const { return refused_; }

  // The completion interrupts in arrival order.
  std::vector<sckit::Interrupt> interrupts() const {
    std::vector<sckit::Interrupt> v;
    for (const Packet& p : packets_) {
      if ((p.block[sched::kRegControl / 8] & sched::kControlInterrupt) == 0) continue;
      const auto tag = static_cast<std::uint32_t>(p.block[sched::kRegTag / 8]) & sched::kInterruptTagMask;
      v.push_back({tag | (p.failed ? sched::kInterruptFailedBit : 0u), p.completion});
    }
    std::stable_sort(v.begin(), v.end(), [](const sckit::Interrupt& a, const sckit::Interrupt& b) { return a.at < b.at; });
    return v;
  }

  // One access at offset `off` arriving at `t`; returns the completion time (t + latency) and the
  // response.
  sc_time access(bool write, std::uint64_t off, std::uint8_t* data, unsigned len, sc_time t, sc_time latency,
                 std::string& error) {
    const sc_time done = t + latency;
    if (off + len <= sched::kStagingEnd) {
      if (write) std::memcpy(reinterpret_cast<std::uint8_t*>(staging_) + off, data, len);
      else std::memcpy(data, reinterpret_cast<std::uint8_t*>(staging_) + off, len);
      return done;
    }
    if (len != 8) {
      error = "TLM_BURST_ERROR_RESPONSE";
      return done;
    }
    std::uint64_t v = 0;
    if (write) {
      if (off == sched::kRegDoorbell) {
        if (packets_.size() - completed(done) >= depth) {
          ++refused_;
          error = "TLM_GENERIC_ERROR_RESPONSE";
          return done;
        }
        Packet p;
        p.seq = packets_.size() + 1;
        std::memcpy(p.block, staging_, sizeof p.block);
        p.accepted = done;
        const sc_time prev = packets_.empty() ? sc_core::SC_ZERO_TIME : packets_.back().completion;
        p.completion = never_complete ? sc_core::sc_max_time() : std::max(done + duration(p.seq), prev);
        p.failed = fails(p.seq);
        packets_.push_back(p);
      } else if (off == sched::kRegClearError) {
        cleared_through_ = completed(done);
        ++clears_;
      } else {
        error = "TLM_COMMAND_ERROR_RESPONSE";
      }
      return done;
    }
    switch (off) {
      case sched::kRegCompleted: v = completed(done); break;
      case sched::kRegSubmitted: v = packets_.size(); break;
      case sched::kRegStatus:
        v = (completed(done) < packets_.size() ? sched::kStatusBusy : 0) | (failed_seq(done) ? sched::kStatusError : 0);
        break;
      case sched::kRegFailedSeq: v = failed_seq(done); break;
      default: error = "TLM_ADDRESS_ERROR_RESPONSE"; break;
    }
    std::memcpy(data, &v, 8);
    return done;
  }

  // The completion flag as the host reads it at `t`: the tag (| error bit) of the last packet with
  // a flag that completed by then, if any.
  bool flag_value(std::uint64_t address, sc_time t, std::uint64_t& value) const {
    bool any = false;
    for (const Packet& p : packets_) {
      if (p.block[sched::kRegFlagAddr / 8] != address || p.completion > t) continue;
      value = p.block[sched::kRegTag / 8] | (p.failed ? sched::kFlagErrorBit : 0);
      any = true;
    }
    return any;
  }

 private:
  std::uint64_t completed(sc_time t) const {
    std::uint64_t n = 0;
    for (const Packet& p : packets_) n += p.completion <= t;
    return n;
  }
  std::uint64_t failed_seq(sc_time t) const {
    for (const Packet& p : packets_)
      if (p.seq > cleared_through_ && p.failed && p.completion <= t) return p.seq;
    return 0;
  }

  std::uint64_t staging_[sched::kStagingEnd / 8] = {};
  std::vector<Packet> packets_;
  std::uint64_t cleared_through_ = 0;
  int clears_ = 0;
  int refused_ = 0;
};

// A HostPort over a flat memory [mem_base, mem_base + size) with a fixed latency per
// transaction, an optional FakeScheduler window, and a log of every transaction.
class FakePort : public master::HostPort {
 public:
  struct Tx {
    bool write = false;
    std::uint64_t address = 0;
    unsigned length = 0;
    sc_time issue, done;
    std::vector<std::uint8_t> data;  // written or read bytes
    std::string error;
  };

  sc_time latency = ns(100);
  sc_time period = ns(0.5);  // 2 GHz
  std::uint64_t mem_base = 0;
  std::vector<std::uint8_t> mem = std::vector<std::uint8_t>(1 << 20);
  FakeScheduler* scheduler = nullptr;
  std::uint64_t scheduler_base = 0x0000001000000000ull;
  std::vector<Tx> log;
  std::uint64_t compute_cycles = 0;

  sc_time now() const override { return now_; }
  sc_time clock_period() const override { return period; }
  void compute(std::uint64_t cycles) override {
    compute_cycles += cycles;
    now_ += sc_time::from_value(period.value() * cycles);
  }
  void wait_until(const sc_time& t) override { now_ = std::max(now_, t); }
  master::AccessResult transact(bool write, std::uint64_t address, std::uint8_t* data, unsigned length,
                        const sc_time& issue) override {
    EXPECT_GE(issue, now_) << "a transaction issued in the past";
    Tx tx{write, address, length, issue, issue + latency, {}, {}};
    if (scheduler != nullptr && address >= scheduler_base && address - scheduler_base < 0x1000) {
      tx.done = scheduler->access(write, address - scheduler_base, data, length, issue, latency, tx.error);
    } else if (address >= mem_base && length <= mem.size() && address - mem_base <= mem.size() - length) {
      std::uint8_t* p = mem.data() + (address - mem_base);
      std::uint64_t flag = 0;
      if (write) std::memcpy(p, data, length);
      else if (scheduler != nullptr && length == 8 && scheduler->flag_value(address, issue, flag)) std::memcpy(data, &flag, 8);
      else std::memcpy(data, p, length);
    } else {
      tx.error = "TLM_ADDRESS_ERROR_RESPONSE";
    }
    tx.data.assign(data, data + length);
    log.push_back(tx);
    return master::AccessResult{tx.error.empty(), tx.error, tx.done};
  }
  // The scheduler's next completion interrupt (they reach the CPU when they are raised).
  sckit::Interrupt wait_interrupt() override {
    const std::vector<sckit::Interrupt> all = scheduler != nullptr ? scheduler->interrupts() : std::vector<sckit::Interrupt>{};
    if (interrupts_taken >= all.size()) {
      ADD_FAILURE() << "waiting for an interrupt that is never raised";
      return sckit::Interrupt{0, now_};
    }
    const sckit::Interrupt m = all[interrupts_taken++];
    now_ = std::max(now_, m.at);
    return m;
  }
  std::size_t interrupts_taken = 0;

  std::uint64_t word(std::uint64_t address) const {
    std::uint64_t v;
    std::memcpy(&v, mem.data() + (address - mem_base), 8);
    return v;
  }
  void set_word(std::uint64_t address, std::uint64_t v) { std::memcpy(mem.data() + (address - mem_base), &v, 8); }

 private:
  sc_time now_;
};

}  // namespace par::runtime::testing
