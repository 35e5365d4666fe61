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

  // One burst as the engine scheduled it; `burst_ns` is its data-bus time.
  void burst(const BurstRequest& req, const BurstResult& res, unsigned bytes, double burst_ns);

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
  std::vector<DramChannelStats> channels_;
  std::vector<DramBankStats> banks_;  // empty unless dram.bank_stats
  unsigned ranks_, banks_per_rank_;
};

}  // namespace par::dram
