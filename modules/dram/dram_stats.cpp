#include "dram_stats.hpp"

#include <string>

namespace par::dram {

using simkit::Buckets;
using simkit::Format;
using simkit::StatView;

namespace {

Buckets latency_buckets() {
  return Buckets::edges({0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 125, 150, 175, 200, 250, 300,
                         400, 500, 750, 1000, 1500, 2000, 5000, 10000});
}

}  // namespace

DramChannelStats::DramChannelStats(simkit::StatGroup& g)
    : bursts(g.counter("bursts", "bursts", "Bursts on this channel")),
      bytes(g.counter("bytes", "bytes", "Bytes read or written on this channel")),
      row_hits(g.counter("row_hits", "bursts", "Bursts served from an open row")),
      row_misses(g.counter("row_misses", "bursts", "Bursts that found their bank closed (ACT)")),
      row_conflicts(g.counter("row_conflicts", "bursts",
                              "Bursts that found another row open (PRE + ACT)")),
      activates(g.counter("activates", "commands", "ACT commands")),
      busy_ns(g.real("busy_ns", "ns", "Data-bus time of this channel's bursts")),
      outcome{&row_hits, &row_misses, &row_conflicts} {
  static_assert(static_cast<int>(RowOutcome::Hit) == 0 && static_cast<int>(RowOutcome::Miss) == 1 &&
                static_cast<int>(RowOutcome::Conflict) == 2);
}

DramBankStats::DramBankStats(simkit::StatGroup& g)
    : bursts(g.counter("bursts", "bursts", "Bursts to this bank")),
      row_hits(g.counter("row_hits", "bursts", "Bursts served from an open row")),
      row_misses(g.counter("row_misses", "bursts", "Bursts that found the bank closed")),
      row_conflicts(g.counter("row_conflicts", "bursts", "Bursts that found another row open")) {}

DramStats::DramStats(simkit::StatGroup& g, const DramConfig& c)
    : transfers(g),
      bursts(g.counter("bursts", "bursts", "Bursts (transactions split at burst boundaries)")),
      row_hits(g.counter("row_hits", "bursts", "Bursts served from an open row (no ACT)")),
      row_misses(g.counter("row_misses", "bursts", "Bursts that found their bank closed (ACT)")),
      row_conflicts(g.counter("row_conflicts", "bursts",
                              "Bursts that found another row open (PRE + ACT)")),
      activates(g.counter("activates", "commands", "ACT commands")),
      precharges(g.counter("precharges", "commands",
                           "PRE commands (conflicts and closed-page auto-precharge)")),
      refreshes(g.counter("refreshes", "commands",
                          "All-bank refreshes of all ranks up to the latest completion")),
      queue_stalls(g.counter("queue_stalls", "bursts",
                             "Bursts that waited for a free request-queue entry")),
      errors(g.counter("errors", "transactions", "Transactions answered with an error response")),
      time_ns(g.real("time_ns", "ns",
                     "Simulated time up to the latest completion (bandwidth denominator)")),
      busy_ns(g.real("busy_ns", "ns", "Data-bus time of all bursts, all channels")),
      latency(g.distribution("latency", "ns", "Transaction latency, arrival to completion",
                             latency_buckets())),
      read_latency(g.distribution("read_latency", "ns", "Read latency, arrival to last data beat",
                                  latency_buckets())),
      write_latency(g.distribution("write_latency", "ns",
                                   "Write latency, arrival to last data beat", latency_buckets())),
      outcome_{&row_hits, &row_misses, &row_conflicts},
      ranks_(c.ranks),
      banks_per_rank_(c.banks) {
  g.formula("avg_latency", "ns", "Mean transaction latency",
            [](const StatView& s) { return s["latency.sum"] / s["latency.count"]; });
  g.formula("bandwidth", "GB/s", "Achieved bandwidth: (read + written bytes) / time_ns",
            [](const StatView& s) { return (s["read_bytes"] + s["write_bytes"]) / s["time_ns"]; });
  g.formula("row_hit_rate", "ratio", "row_hits / bursts",
            [](const StatView& s) { return s["row_hits"] / s["bursts"]; }, Format::percent(2));
  const double channels = c.channels;
  g.formula("bus_utilisation", "ratio", "busy_ns / (time_ns x channels)",
            [channels](const StatView& s) { return s["busy_ns"] / (s["time_ns"] * channels); },
            Format::percent(2));
  channels_.reserve(c.channels);
  for (unsigned ch = 0; ch < c.channels; ++ch)
    channels_.emplace_back(g.group("ch" + std::to_string(ch)));
  if (c.bank_stats) {
    banks_.reserve(std::size_t{c.channels} * c.ranks * c.banks);
    for (unsigned ch = 0; ch < c.channels; ++ch)
      for (unsigned r = 0; r < c.ranks; ++r)
        for (unsigned b = 0; b < c.banks; ++b)
          banks_.emplace_back(g.group("ch" + std::to_string(ch))
                                  .group("rank" + std::to_string(r))
                                  .group("bank" + std::to_string(b)));
  }
}

void DramStats::bank_burst(const BurstRequest& req, std::size_t outcome) {
  DramBankStats& bank = banks_[(std::size_t{req.channel} * ranks_ + req.rank) * banks_per_rank_ + req.bank];
  ++bank.bursts;
  ++*(outcome == 0 ? &bank.row_hits : outcome == 1 ? &bank.row_misses : &bank.row_conflicts);
}

}  // namespace par::dram
