// One L2 bank's counters: those of every cache model (cachekit::CacheCounters), the port counters
// named `bank_conflicts`, `bank_conflict_cycles`.
#pragma once

#include <vector>

#include "par/cachekit/cache_counters.hpp"

namespace par::l2 {

using cachekit::CacheCounters;

struct BankStats : CacheCounters {
  explicit BankStats(simkit::StatGroup& group) : CacheCounters(group, "bank", "DRAM", "bank") {}
  static std::vector<Summed> summed() { return CacheCounters::summed("bank"); }
};

}  // namespace par::l2
