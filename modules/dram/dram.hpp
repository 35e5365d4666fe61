// The DRAM controller behind a TLM-2.0 target socket (README.md).
//
// Loosely timed: b_transport never calls wait(). Each transaction is split at burst boundaries,
// every burst is scheduled by the TimingEngine onto the bank/rank/channel timelines, and the
// annotated delay is set to (completion of the last burst) - sc_time_stamp(). nb_transport_fw
// (BEGIN_REQ ... BEGIN_RESP at the same completion time) and transport_dbg (data only, no timing)
// are served too. Data lives in a sparse backing store.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_target_socket.h>
#include <tlm_utils/peq_with_cb_and_phase.h>

#include "address_mapping.hpp"
#include "backing_store.hpp"
#include "dram_config.hpp"
#include "dram_stats.hpp"
#include "dram_timing.hpp"
#include "par/sckit/fast_time.hpp"
#include "par/sckit/response_sequencer.hpp"
#include "par/simkit/stats.hpp"
#include "par/trace/timeline.hpp"
#include "par/trace/vcd_writer.hpp"

namespace par::dram {

class Dram : public sc_core::sc_module {
 public:
  tlm_utils::multi_passthrough_target_socket<Dram, 32, tlm::tlm_base_protocol_types, 0,
                                             sc_core::SC_ONE_OR_MORE_BOUND>
      in;

  // `cfg` is resolved against its preset; throws std::invalid_argument with every message of
  // validate() when it is not valid.
  Dram(sc_core::sc_module_name name, const DramConfig& cfg = DramConfig());

  const DramConfig& config() const { return cfg_; }  // the resolved configuration
  const AddressMapping& mapping() const { return mapping_; }
  std::uint64_t capacity() const { return capacity_; }
  simkit::StatGroup& stats() { return stats_group_; }
  const simkit::StatGroup& stats() const { return stats_group_; }
  const TimingEngine& engine() const { return engine_; }

  // `n` clock cycles as simulated time (rounded to the time resolution).
  sc_core::sc_time cycles(double n) const;
  // Engine ticks (half cycles) <-> simulated time. Inline: they run for every transaction.
  sc_core::sc_time tick_time(Tick t) const {
    // sc_time(t x tick_ps_, SC_PS) with the constructor's own rounding (x units per ps, + 0.5,
    // truncated).
    const double units = static_cast<double>(t) * tick_ps_ * units_per_ps_ + 0.5;
    return t == 0 ? sc_core::SC_ZERO_TIME : sckit::time_from_value(static_cast<std::uint64_t>(units));
  }
  Tick tick_at_or_after(const sc_core::sc_time& t) const {
    // One resolution unit of tolerance keeps a time that tick_time() produced (rounded to the
    // resolution) on its own tick.
    const double ps = static_cast<double>(t.value()) * resolution_ps_;
    return ceil_to_tick((ps - resolution_ps_) / tick_ps_);
  }
  // t.to_seconds() * 1e9 to the last bit (SystemC's own arithmetic: units x resolution in fs x
  // 1e-15), without its library call: the statistics in ns of every transaction.
  double ns(const sc_core::sc_time& t) const { return units_ns(t.value()); }

  // Data access without timing or statistics (loaders, checks). False when out of range.
  bool peek(std::uint64_t address, std::uint8_t* dst, std::uint64_t len) const;
  bool poke(std::uint64_t address, const std::uint8_t* src, std::uint64_t len);

  // Tracing (README.md "Tracing"): one interval per burst on <name>/ch<c>, the bank commands
  // (ACT, PRE, RD, WR, REF) on <name>/ch<c> bank<b>, and the VCD signal <name>.ch<c>.queue (request
  // queue occupancy). Call before sc_start; null (the default) records nothing and costs one test
  // per burst.
  void set_trace(trace::Timeline* timeline, trace::VcdWriter* vcd);

 private:
  void b_transport(int id, tlm::tlm_generic_payload& tx, sc_core::sc_time& delay);
  tlm::tlm_sync_enum nb_transport_fw(int id, tlm::tlm_generic_payload& tx, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay);
  unsigned int transport_dbg(int id, tlm::tlm_generic_payload& tx);

  // Checks, moves the data and schedules the bursts of an access arriving at `arrival`; sets the
  // response status and returns the completion time (`arrival` for errors).
  sc_core::sc_time serve(tlm::tlm_generic_payload& tx, const sc_core::sc_time& arrival);
  // The access counters and latency statistics of one access (both latency models).
  void record_access(Op op, unsigned len, const sc_core::sc_time& arrival, const sc_core::sc_time& completion) {
    const double latency_ns = units_ns(completion.value() - arrival.value());
    const std::size_t bucket = stats_.latency.locate(latency_ns);  // the same bounds in all three
    stats_.latency.sample_at(latency_ns, bucket);
    stats_.transfers.count(op == Op::Write, len);
    (op == Op::Read ? stats_.read_latency : stats_.write_latency).sample_at(latency_ns, bucket);
  }
  double units_ns(std::uint64_t units) const { return static_cast<double>(units) * resolution_fs_ * 1e-15 * 1e9; }
  // std::ceil(x) as a Tick, inline (x is far inside the Tick range).
  static Tick ceil_to_tick(double x) {
    const auto t = static_cast<Tick>(x);  // towards zero
    return static_cast<double>(t) < x ? t + 1 : t;
  }
  bool in_range(std::uint64_t address, std::uint64_t len) const;
  void copy_data(tlm::tlm_generic_payload& tx, bool honour_byte_enables);
  void trace_burst(const BurstRequest& req, const BurstResult& res, std::uint64_t address, unsigned bytes);
  void trace_refreshes(Tick until);
  trace::Ps tick_ps(Tick t) const;

  // Approximately-timed responses: BEGIN_RESP per socket, one at a time (response exclusion).
  void response_due(tlm::tlm_generic_payload& tx, const tlm::tlm_phase& phase);

  DramConfig cfg_;
  AddressMapping mapping_;
  TimingEngine engine_;
  BackingStore store_;
  std::uint64_t capacity_;
  simkit::StatGroup stats_group_;
  DramStats stats_;
  double tick_ps_;        // half a clock cycle
  double resolution_ps_;  // sc_time resolution
  double resolution_fs_;  // the same, exactly as SystemC holds it (a power of ten)
  double units_per_ps_;   // sc_time resolution units per ps (exactly as sc_time's constructor scales)
  double burst_ns_;       // data-bus time of one burst
  std::uint64_t burst_mask_;  // burst bytes - 1 (a power of two)
  Tick frontend_ticks_;
  Tick return_ticks_;
  Tick latest_tick_ = 0;  // latest completion
  std::uint64_t refreshes_seen_ = 0;
  Tick refresh_changes_at_ = 0;  // refreshes_seen_ holds for every completion before this
  Tick retired_ = 0;
  // latency_model = fixed: fixed_latency_ns as simulated time, converted at the first access (the
  // time resolution is settled by then) instead of at every one.
  std::optional<sc_core::sc_time> fixed_latency_;
  std::uint64_t retire_checked_ = ~std::uint64_t{0};  // the SystemC time (units) retire() was last considered at

  tlm_utils::peq_with_cb_and_phase<Dram> peq_;
  std::unordered_map<tlm::tlm_generic_payload*, int> at_port_;
  sckit::ResponseSequencer<decltype(in)> responses_;

  // Tracing; empty / invalid when off.
  bool tracing_ = false;
  std::vector<trace::TrackRef> channel_tracks_;  // one per channel
  std::vector<trace::TrackRef> bank_tracks_;     // [channel][rank][bank]
  std::vector<trace::SignalRef> queue_signals_;  // one per channel
  trace::NameId read_name_, write_name_;
  trace::CategoryId dram_category_;
  enum class Command { Act, Pre, Rd, Wr, Ref };
  static constexpr int kCommandKinds = 5;
  static constexpr const char* kCommandNames[kCommandKinds] = {"ACT", "PRE", "RD", "WR", "REF"};
  trace::NameId command_names_[kCommandKinds];
  trace::CategoryId command_category_;
  std::vector<Tick> refresh_traced_;  // per rank: start of the last refresh window traced
};

}  // namespace par::dram
