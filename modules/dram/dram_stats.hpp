// The DRAM controller's statistics (README.md, "Counters"), in the module's StatGroup.
#pragma once

#include <vector>

#include "dram_config.hpp"
#include "dram_timing.hpp"
#include "par/simkit/stats.hpp"
#include "par/simkit/transfer_counters.hpp"

namespace par::dram {

struct DramChannelStats {
  explicit DramChannelStats(simkit::StatGroup& g);
  simkit::Counter& bursts;
  simkit::Counter& bytes;
  simkit::Counter& row_hits;
  simkit::Counter& row_misses;
  simkit::Counter& row_conflicts;
  simkit::Counter& activates;
  simkit::Real& busy_ns;
  simkit::Counter* outcome[3];  // row_hits, row_misses, row_conflicts by RowOutcome
};

struct DramBankStats {
  explicit DramBankStats(simkit::StatGroup& g);
  simkit::Counter& bursts;
  simkit::Counter& row_hits;
  simkit::Counter& row_misses;
  simkit::Counter& row_conflicts;
};

class DramStats {
 public:
  DramStats(simkit::StatGroup& group, const DramConfig& resolved);

  // One burst as the engine scheduled it; `burst_ns` is its data-bus time. Inline: it runs for
  // every burst.
  void burst(const BurstRequest& req, const BurstResult& res, unsigned bytes, double burst_ns) {
    DramChannelStats& ch = channels_[req.channel];
    ++bursts;
    ++ch.bursts;
    ch.bytes += bytes;
    ch.busy_ns += burst_ns;
    busy_ns += burst_ns;
    const auto outcome = static_cast<std::size_t>(res.outcome);
    ++*outcome_[outcome];
    ++*ch.outcome[outcome];
    if (res.activate != kNever) {
      ++activates;
      ++ch.activates;
    }
    precharges += static_cast<unsigned>(res.precharge != kNever) + static_cast<unsigned>(res.auto_precharge != kNever);
    queue_stalls += static_cast<unsigned>(res.admitted > req.arrival);
    if (!banks_.empty()) bank_burst(req, outcome);
  }

  simkit::TransferCounters transfers;  // reads, writes, read_bytes, write_bytes
  simkit::Counter& bursts;
  simkit::Counter& row_hits;
  simkit::Counter& row_misses;
  simkit::Counter& row_conflicts;
  simkit::Counter& activates;
  simkit::Counter& precharges;
  simkit::Counter& refreshes;
  simkit::Counter& queue_stalls;
  simkit::Counter& errors;
  simkit::Real& time_ns;   // latest completion: the bandwidth denominator
  simkit::LatestCompletion latest{time_ns};
  simkit::Real& busy_ns;   // data-bus time of all bursts (all channels)
  simkit::Distribution& latency;
  simkit::Distribution& read_latency;
  simkit::Distribution& write_latency;

 private:
  void bank_burst(const BurstRequest& req, std::size_t outcome);  // dram.bank_stats

  simkit::Counter* outcome_[3];  // row_hits, row_misses, row_conflicts by RowOutcome
  std::vector<DramChannelStats> channels_;
  std::vector<DramBankStats> banks_;  // empty unless dram.bank_stats
  unsigned ranks_, banks_per_rank_;
};

}  // namespace par::dram
