#include "core_options.hpp"

namespace par::core {

void register_options(simkit::OptionRegistry& reg, CoreConfig& c) {
  // The twelve parameters of the 2011 simulator (docs/core-timing.md §2.1).
  reg.add("core.lanes", c.lanes, "Lock-step lanes L per PAR core.").range(1, 256);
  reg.add("core.icache_size", c.icache_size, "Instruction cache capacity in instructions (ideal, never misses).")
      .range(1, std::int64_t{1} << 26);
  reg.add("core.gprs", c.gprs, "General registers per thread (fixed by the encoding, reported).").range(16, 16);
  reg.add("core.predicates", c.predicates, "Predicate registers per thread (fixed by the encoding).").range(8, 8);
  reg.add("core.inherited", c.inherited, "Inherited registers (fixed by the encoding).").range(16, 16);
  reg.add("core.rob_size", c.rob_size, "ROB entries per lane.").range(1, 4096);
  reg.add("core.queue_size", c.queue_size, "Waiting-queue entries per FU.").range(1, 4096);
  reg.add("core.threads_per_lane", c.threads_per_lane, "Interleaved threads T per lane.").range(1, 64);
  reg.add("core.fpu_latency", c.fpu_latency, "FPU pipeline stages (= FPU latency in cycles).").range(1, 1000);
  reg.add("core.alu_latency", c.alu_latency, "ALU latency in cycles.").range(1, 1000);
  reg.add("core.cmp_latency", c.cmp_latency, "Compare-unit latency in cycles.").range(1, 1000);
  reg.add("core.dcache_latency", c.dcache_latency, "Local-memory (data cache) hit latency in cycles.").range(1, 1000);
  // Project additions (§2.2) and the timing-rule variants of the core README.
  reg.add("core.output_buffers", c.output_buffers, "Output buffers per FU.").range(1, 4096);
  reg.add("core.input_buffers", c.input_buffers, "Input buffers per FU (never a constraint).").range(1, 4096);
  reg.add_enum("core.queue_release", c.queue_release, "When a waiting-queue entry is freed.",
               {{"issue", QueueRelease::Issue}, {"commit", QueueRelease::Commit}});
  reg.add("core.commit_per_fu", c.commit_per_fu, "Commits per FU per cycle.").range(1, 4096);
  reg.add_enum("core.store_issue", c.store_issue, "What a store needs to issue.",
               {{"address", StoreIssue::Address}, {"all_operands", StoreIssue::AllOperands}});
  reg.add_enum("core.output_buffer_release", c.output_buffer_release,
               "When an output buffer is freed: at commit, or when the last result is written back.",
               {{"commit", OutputBufferRelease::Commit}, {"complete", OutputBufferRelease::Complete}});
  reg.add_enum("core.rob_allocation", c.rob_allocation, "When a ROB entry is claimed (program order).",
               {{"dispatch", RobAllocation::Dispatch}, {"issue", RobAllocation::Issue}});
  reg.add_enum("core.rob_release", c.rob_release, "When a ROB entry is given back.",
               {{"commit", RobRelease::Commit}, {"complete", RobRelease::Complete}});
  reg.add_enum("core.commit_order", c.commit_order, "Commit in program order across FUs, or only within each FU.",
               {{"program", CommitOrder::Program}, {"per_fu", CommitOrder::PerFu}});
  reg.add("core.store_output_buffer", c.store_uses_output_buffer,
          "Whether a store (which produces no result) occupies an output buffer.");
  reg.add("core.fpu_div_latency", c.fpu_div_latency, "Latency of div/rem/sqrt (0 = core.fpu_latency).").range(0, 1000);
  reg.add("core.frontend_latency", c.frontend_latency, "Extra cycles between dispatch and the earliest issue.")
      .range(0, 1000);
  reg.add("core.xp_disqualified_penalty", c.xp_disqualified_penalty,
          "Extra fetch cycles of a direct xp that turns out disqualified.").range(0, 1000);
  reg.add("core.control_stack_depth", c.control_stack_depth, "Command-stack entries.").range(1, 1 << 20);
  reg.add("core.ls_max_outstanding", c.ls_max_outstanding,
          "Memory transactions in flight per lane (non-local addresses).").range(1, 1 << 20);
  reg.add("core.line_bytes", c.line_bytes,
          "Cache-line size in bytes: the global load/store path sends one transaction per line touched.")
      .range(8, 4096);
  reg.add("core.read_whole_line", c.read_whole_line,
          "A global read transaction fetches its whole line (core.line_bytes), not only the bytes the threads use.");
  reg.add("core.max_cycles", c.max_cycles, "Run limit in cycles (functional mode: fetched instructions).")
      .range(1, std::int64_t{1} << 62);
  reg.add("core.contexts", c.contexts,
          "Thread contexts per core: independent groups of L x T threads, each with its own PC, mask, "
          "control stack, round and registers; one is selected per issue slot, round-robin.")
      .range(1, CoreConfig::kMaxContexts);
  reg.add_enum("core.context_ready", c.context_ready,
               "What a context's next instruction needs before it is selected, beyond queue and ROB room: "
               "nothing (dispatch), thread 0's operands (operands), all threads' operands (complete).",
               {{"dispatch", ContextReady::Dispatch}, {"operands", ContextReady::Operands},
                {"complete", ContextReady::Complete}});
  reg.add("core.context_fu_wait", c.context_fu_wait,
          "FUs without hazard detection (comma-separated alu, fpu, ls, cmp): a context's next instruction "
          "for one waits until its previous instruction of that FU has completed.");
  reg.add("core.stream.enabled", c.stream.enabled,
          "Give the core a stream unit: an SRF with one bank per lane, channels, conditional get / put.");
  reg.add("core.stream.channels", c.stream.channels, "Stream channels (descriptors) of the stream unit.")
      .range(1, isa::kStreamChannels);
  reg.add("core.stream.srf_elements", c.stream.srf_elements, "64-bit elements of the stream register file (all banks).")
      .range(1, std::int64_t{1} << 30);
  reg.add("core.stream.latency", c.stream.latency, "Cycles from a slot's stream access to its result.")
      .range(1, 1000);
  reg.add("core.local_mem_base", c.local_mem_base, "Base byte address of the per-core local memory.").hex();
  reg.add("core.local_mem_size", c.local_mem_size, "Size of the per-core local memory in bytes.")
      .range(1, std::uint64_t{1} << 34);
  register_prefetch_options(reg, c.prefetch);
}

}  // namespace par::core
