#include "core_statistics.hpp"

namespace par::core {

using simkit::Format;
using simkit::StatView;

namespace {
const char* kUnitNames[isa::kBackendUnits] = {"alu", "fpu", "ls", "cmp"};

// Splits "queue_full.alu" into the group and the statistic of `root`.
simkit::Counter& nested_counter(simkit::StatGroup& root, const std::string& dotted, const std::string& unit,
                                const std::string& desc) {
  const auto dot = dotted.find('.');
  if (dot == std::string::npos) return root.counter(dotted, unit, desc);
  return root.group(dotted.substr(0, dot)).counter(dotted.substr(dot + 1), unit, desc);
}
}  // namespace

CoreStatistics::CoreStatistics(const std::string& name, int lanes, int threads_per_lane, int rob_size, int contexts,
                               bool prefetch)
    : group_(name) {
  const double L = lanes, T = threads_per_lane, R = rob_size;
  cycles_ = &group_.counter("cycles", "cycles", "Execution time C (last commit + 1, first fetch in cycle 0)");
  rounds_ = &group_.counter("rounds", "rounds", "Rounds of L x T threads");
  threads_ = &group_.counter("threads", "threads", "Threads executed");
  fetched_ = &group_.counter("fetched", "instructions", "Instructions fetched, control included");
  auto& ins = group_.group("instructions");
  auto& tins = group_.group("thread_instructions");
  auto& qins = group_.group("qualified_thread_instructions");
  for (int u = 0; u < isa::kBackendUnits; ++u) {
    instructions_[u] = &ins.counter(kUnitNames[u], "instructions", "Committed instructions (once per core)");
    thread_instructions_[u] =
        &tins.counter(kUnitNames[u], "thread-instructions", "Sum over instructions of the active slots");
    qualified_[u] = &qins.counter(kUnitNames[u], "thread-instructions", "Sum over instructions of qp AND mask");
  }
  auto& ctl = group_.group("control_instructions");
  for (int k = 0; k < kControlKinds; ++k)
    control_[k] = &ctl.counter(control_kind_name(static_cast<ControlKind>(k)), "instructions",
                               "Control instructions fetched (never counted in IPC)");

  group_.formula("ipc", "thread-instructions/cycle", "(ALU + FPU + LS) thread-instructions / C, as the 2011 tables",
                 [](const StatView& s) {
                   return (s["thread_instructions.alu"] + s["thread_instructions.fpu"] + s["thread_instructions.ls"]) /
                          s["cycles"];
                 },
                 Format::fixed(2));
  group_.formula("ipc_with_cmp", "thread-instructions/cycle", "(ALU + FPU + LS + CMP) thread-instructions / C",
                 [](const StatView& s) {
                   return (s["thread_instructions.alu"] + s["thread_instructions.fpu"] + s["thread_instructions.ls"] +
                           s["thread_instructions.cmp"]) /
                          s["cycles"];
                 },
                 Format::fixed(2));
  group_.formula("fpu_throughput", "thread-operations/cycle/lane", "FPU thread-instructions / (C x L)",
                 [L](const StatView& s) { return s["thread_instructions.fpu"] / (s["cycles"] * L); }, Format::fixed(2));
  auto& util = group_.group("utilization");
  for (int u = 0; u < isa::kBackendUnits; ++u) {
    const std::string key = std::string("../instructions.") + kUnitNames[u];
    util.formula(kUnitNames[u], "ratio", "Busy cycles / (C x L); every slot is stepped through the FU",
                 [key, T](const StatView& s) { return s[key] * T / s["../cycles"]; }, Format::percent(2));
  }
  rob_occupancy_ = &group_.counter("rob_occupancy", "entry-cycles", "Sum over cycles of occupied ROB entries (one lane)");
  group_.formula("rob_utilization", "ratio", "Mean ROB occupancy / core.rob_size",
                 [R](const StatView& s) { return s["rob_occupancy"] / (s["cycles"] * R); }, Format::percent(2));
  rob_max_ = &group_.counter("rob_max_occupancy", "entries", "Maximum ROB occupancy");
  auto& stalls = group_.group("stall_cycles");
  stall_total_ = &stalls.counter("total", "cycles", "Frontend cycles without fetch progress");
  for (int c = 0; c < kStallCauses; ++c)
    stalls_[c] = &nested_counter(stalls, stall_cause_name(static_cast<StallCause>(c)), "cycles",
                                 "Frontend stall cycles by cause");
  auto& global = group_.group("global");
  global_accesses_ = &global.counter("accesses", "thread-accesses", "Thread accesses outside the local-memory window");
  global_transactions_ = &global.counter("transactions", "transactions", "Coalesced line transactions sent over the mem socket");
  global_bytes_ = &global.counter("bytes", "bytes", "Bytes carried by those transactions");
  global_latency_ = &global.counter("latency_sum", "cycles", "Sum of transaction latencies (leaving the core to the response)");
  global_limit_stalls_ = &global.counter("limit_stall_cycles", "cycles",
                                         "Cycles threads were held back by core.ls_max_outstanding");
  global.formula("mean_latency", "cycles", "Mean transaction latency",
                 [](const StatView& s) { return s["latency_sum"] / s["transactions"]; }, Format::fixed(2));
  global.formula("accesses_per_transaction", "thread-accesses/transaction", "Coalescing factor",
                 [](const StatView& s) { return s["accesses"] / s["transactions"]; }, Format::fixed(2));
  host_seconds_ = &group_.real("host_seconds", "s", "Host time spent simulating this core");
  host_seconds_->measures_host();
  group_.formula("thread_instructions_per_host_second", "thread-instructions/s", "Simulator speed",
                 [](const StatView& s) {
                   return (s["thread_instructions.alu"] + s["thread_instructions.fpu"] + s["thread_instructions.ls"] +
                           s["thread_instructions.cmp"]) /
                          s["host_seconds"];
                 },
                 Format::fixed(0))
      .measures_host();
  group_.formula("cycles_per_host_second", "cycles/s", "Simulator speed",
                 [](const StatView& s) { return s["cycles"] / s["host_seconds"]; }, Format::fixed(0))
      .measures_host();
  if (contexts > 0) add_context_statistics(contexts);
  if (prefetch) prefetch_ = std::make_unique<PrefetchStatistics>(group_.group("prefetch"));
}

// contexts.idle.<fu>.<cause> (summed over contexts) with its share of all context-cycles, and
// contexts.c<i>.{slots,rounds,idle.<fu>.<cause>}.
void CoreStatistics::add_context_statistics(int contexts) {
  auto& ctx = group_.group("contexts");
  const double C = contexts;
  auto& idle = ctx.group("idle");
  for (int u = 0; u < isa::kBackendUnits; ++u) {
    auto& fu = idle.group(kUnitNames[u]);
    for (int k = 0; k < kIdleCauses; ++k) {
      const std::string cause = idle_cause_name(static_cast<IdleCause>(k));
      context_idle_[u][k] = &fu.counter(cause, "context-cycles",
                                        "Cycles the FU accepted no thread, summed over contexts, by the context's next "
                                        "instruction");
      fu.formula(cause + "_share", "ratio", "The same over (contexts x C): the mean over contexts",
                 [cause, C](const StatView& s) { return s[cause] / (C * s["../../../cycles"]); }, Format::percent(2));
    }
  }
  per_context_.resize(static_cast<std::size_t>(contexts));
  for (int c = 0; c < contexts; ++c) {
    auto& g = ctx.group("c" + std::to_string(c));
    PerContext& pc = per_context_[static_cast<std::size_t>(c)];
    pc.slots = &g.counter("slots", "instructions", "Issue slots the context used (instructions fetched)");
    pc.rounds = &g.counter("rounds", "rounds", "Rounds the context ran");
    auto& gi = g.group("idle");
    for (int u = 0; u < isa::kBackendUnits; ++u) {
      auto& fu = gi.group(kUnitNames[u]);
      for (int k = 0; k < kIdleCauses; ++k)
        pc.idle[u][k] = &fu.counter(idle_cause_name(static_cast<IdleCause>(k)), "cycles",
                                    "Cycles the FU accepted no thread, by this context's next instruction");
    }
  }
}

void CoreStatistics::update(const CoreStats& s) {
  cycles_->set(static_cast<std::uint64_t>(s.cycles));
  rounds_->set(static_cast<std::uint64_t>(s.rounds));
  threads_->set(static_cast<std::uint64_t>(s.threads));
  fetched_->set(static_cast<std::uint64_t>(s.fetched));
  for (int u = 0; u < isa::kBackendUnits; ++u) {
    instructions_[u]->set(static_cast<std::uint64_t>(s.instructions[static_cast<std::size_t>(u)]));
    thread_instructions_[u]->set(static_cast<std::uint64_t>(s.thread_instructions[static_cast<std::size_t>(u)]));
    qualified_[u]->set(static_cast<std::uint64_t>(s.qualified_thread_instructions[static_cast<std::size_t>(u)]));
  }
  for (int k = 0; k < kControlKinds; ++k) control_[k]->set(static_cast<std::uint64_t>(s.control[static_cast<std::size_t>(k)]));
  for (int c = 0; c < kStallCauses; ++c) stalls_[c]->set(static_cast<std::uint64_t>(s.stalls[static_cast<std::size_t>(c)]));
  stall_total_->set(static_cast<std::uint64_t>(s.stall_total()));
  rob_occupancy_->set(static_cast<std::uint64_t>(s.rob_occupancy_sum));
  rob_max_->set(static_cast<std::uint64_t>(s.rob_max_occupancy));
  global_accesses_->set(static_cast<std::uint64_t>(s.global_accesses));
  global_transactions_->set(static_cast<std::uint64_t>(s.global_transactions));
  global_bytes_->set(static_cast<std::uint64_t>(s.global_bytes));
  global_latency_->set(static_cast<std::uint64_t>(s.global_latency_sum));
  global_limit_stalls_->set(static_cast<std::uint64_t>(s.ls_limit_stall_cycles));
  host_seconds_->set(s.host_seconds);
  if (prefetch_) prefetch_->update(s.prefetch);
  // No context group (functional mode, or a frontend that does not select among contexts): no
  // counter is left to set.
  if (per_context_.empty()) return;
  for (int u = 0; u < isa::kBackendUnits; ++u)
    for (int k = 0; k < kIdleCauses; ++k) {
      std::int64_t sum = 0;
      for (const ContextCounters& c : s.contexts) sum += c.idle[static_cast<std::size_t>(u)][static_cast<std::size_t>(k)];
      context_idle_[u][k]->set(static_cast<std::uint64_t>(sum));
    }
  // `s` has no context entries before the core's first share (a core that got no threads) and
  // may have fewer than the group: a context missing from `s` has counted nothing, so its
  // counters are set to 0 too. Every counter comes from `s` alone, never from an earlier update.
  const ContextCounters nothing;
  for (std::size_t c = 0; c < per_context_.size(); ++c) {
    const ContextCounters& from = c < s.contexts.size() ? s.contexts[c] : nothing;
    PerContext& to = per_context_[c];
    to.slots->set(static_cast<std::uint64_t>(from.slots));
    to.rounds->set(static_cast<std::uint64_t>(from.rounds));
    for (int u = 0; u < isa::kBackendUnits; ++u)
      for (int k = 0; k < kIdleCauses; ++k)
        to.idle[u][k]->set(static_cast<std::uint64_t>(from.idle[static_cast<std::size_t>(u)][static_cast<std::size_t>(k)]));
  }
}

}  // namespace par::core
