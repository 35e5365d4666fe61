// Counters that every memory-like target keeps in its StatGroup: read and write transactions and
// their bytes (statistics reads, writes, read_bytes, write_bytes), and a time statistic that
// follows the latest completion (the denominator of a bandwidth).
#pragma once

#include <cstdint>

#include "par/simkit/stats.hpp"

namespace par::simkit {

struct TransferCounters {
  explicit TransferCounters(StatGroup& g)
      : reads(g.counter("reads", "transactions", "Read transactions")),
        writes(g.counter("writes", "transactions", "Write transactions")),
        read_bytes(g.counter("read_bytes", "bytes", "Bytes read")),
        write_bytes(g.counter("write_bytes", "bytes", "Bytes written")) {}

  void count(bool write, std::uint64_t bytes) {
    if (write) {
      ++writes;
      write_bytes += bytes;
    } else {
      ++reads;
      read_bytes += bytes;
    }
  }

  Counter& reads;
  Counter& writes;
  Counter& read_bytes;
  Counter& write_bytes;
};

// A Real statistic (ns) that follows the latest completion time seen. It advances by increments,
// so that it stays right after a statistics reset (warm-up) and in per-launch differences.
class LatestCompletion {
 public:
  explicit LatestCompletion(Real& stat) : stat_(stat) {}
  void reach(double ns) {
    if (ns <= latest_) return;
    stat_ += ns - latest_;
    latest_ = ns;
  }

 private:
  Real& stat_;
  double latest_ = 0;
};

}  // namespace par::simkit
