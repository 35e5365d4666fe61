#include "core_stats.hpp"

#include <algorithm>

namespace par::core {

namespace {
constexpr int idx(isa::Unit u) { return static_cast<int>(u); }
double ratio(double num, double den) { return den > 0 ? num / den : 0.0; }
}  // namespace

const char* control_kind_name(ControlKind k) {
  switch (k) {
    case ControlKind::Xp: return "xp";
    case ControlKind::XpIndirect: return "xp_indirect";
    case ControlKind::Loop: return "loop";
    case ControlKind::Brk: return "brk";
    case ControlKind::Count: break;
  }
  return "?";
}

const char* idle_cause_name(IdleCause c) {
  switch (c) {
    case IdleCause::MemoryWait: return "memory_wait";
    case IdleCause::FuWait: return "fu_wait";
    case IdleCause::OtherUnit: return "other_unit";
    case IdleCause::Other: return "other";
    case IdleCause::Finished: return "finished";
    case IdleCause::Count: break;
  }
  return "?";
}

std::int64_t CoreStats::stall_total() const {
  std::int64_t s = 0;
  for (std::int64_t v : stalls) s += v;
  return s;
}

std::int64_t CoreStats::total_thread_instructions() const {
  std::int64_t s = 0;
  for (std::int64_t v : thread_instructions) s += v;
  return s;
}

double CoreStats::ipc() const {
  return ratio(static_cast<double>(thread_instructions[idx(isa::Unit::Alu)] +
                                   thread_instructions[idx(isa::Unit::Fpu)] +
                                   thread_instructions[idx(isa::Unit::Ls)]),
               static_cast<double>(cycles));
}

double CoreStats::ipc_with_cmp() const {
  return ratio(static_cast<double>(total_thread_instructions()), static_cast<double>(cycles));
}

double CoreStats::fpu_throughput() const {
  return ratio(static_cast<double>(thread_instructions[idx(isa::Unit::Fpu)]),
               static_cast<double>(cycles) * lanes);
}

double CoreStats::utilization(isa::Unit u) const {
  // Every slot of an instruction is stepped through its FU: T busy cycles per lane.
  return ratio(static_cast<double>(instructions[static_cast<std::size_t>(idx(u))]) * threads_per_lane,
               static_cast<double>(cycles));
}

double CoreStats::rob_utilization() const {
  return ratio(static_cast<double>(rob_occupancy_sum), static_cast<double>(cycles) * rob_size);
}

double CoreStats::thread_instructions_per_host_second() const {
  return ratio(static_cast<double>(total_thread_instructions()), host_seconds);
}

double CoreStats::cycles_per_host_second() const {
  return ratio(static_cast<double>(cycles), host_seconds);
}

void CoreStats::accumulate(const CoreStats& o) {
  cycles += o.cycles;
  rounds += o.rounds;
  threads += o.threads;
  fetched += o.fetched;
  for (int i = 0; i < isa::kBackendUnits; ++i) {
    instructions[i] += o.instructions[i];
    thread_instructions[i] += o.thread_instructions[i];
    qualified_thread_instructions[i] += o.qualified_thread_instructions[i];
  }
  for (int i = 0; i < kControlKinds; ++i) control[i] += o.control[i];
  for (int i = 0; i < kStallCauses; ++i) stalls[i] += o.stalls[i];
  rob_occupancy_sum += o.rob_occupancy_sum;
  rob_max_occupancy = std::max(rob_max_occupancy, o.rob_max_occupancy);
  global_accesses += o.global_accesses;
  global_transactions += o.global_transactions;
  global_bytes += o.global_bytes;
  global_latency_sum += o.global_latency_sum;
  ls_limit_stall_cycles += o.ls_limit_stall_cycles;
  if (!o.contexts.empty()) accumulate_contexts(o.contexts);
  host_seconds += o.host_seconds;
  prefetch.accumulate(o.prefetch);
}

// Out of line: only a core that selects among contexts has any, and a packet's counters are summed
// once per packet on every core (README "Host cost": the code a share touches is refetched into the
// host's instruction cache for every share).
void CoreStats::accumulate_contexts(const std::vector<ContextCounters>& theirs_all) {
  if (contexts.size() < theirs_all.size()) contexts.resize(theirs_all.size());
  for (std::size_t c = 0; c < theirs_all.size(); ++c) {
    ContextCounters& mine = contexts[c];
    const ContextCounters& theirs = theirs_all[c];
    mine.slots += theirs.slots;
    mine.rounds += theirs.rounds;
    for (int u = 0; u < isa::kBackendUnits; ++u)
      for (int k = 0; k < kIdleCauses; ++k) mine.idle[u][k] += theirs.idle[u][k];
  }
}

}  // namespace par::core
