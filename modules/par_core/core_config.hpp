// Parameters of one PAR core (docs/core-timing.md §2): the twelve options of the 2011 simulator and
// this project's additions. Defaults reproduce the 2011 model.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "stream_unit.hpp"
#include "prefetch/prefetch_config.hpp"

namespace par::core {

// When a waiting-queue entry is freed (docs/core-timing.md §4.2, §10).
enum class QueueRelease { Issue, Commit };
// What a store needs before it can issue (§4.2, §10).
enum class StoreIssue { Address, AllOperands };
// When an FU's output buffer is freed: at commit (docs/core-timing.md §4.6) or when the
// instruction's last thread result has been written back (complete).
enum class OutputBufferRelease { Commit, Complete };
// When a lane's ROB entry is claimed: at dispatch (§4.1) or, in program order, at issue.
enum class RobAllocation { Dispatch, Issue };
// When a ROB entry is given back: at commit (§4.6) or when the instruction completes.
enum class RobRelease { Commit, Complete };
// Commit order: program order across all FUs (§4.6) or program order within each FU.
enum class CommitOrder { Program, PerFu };
// What a thread context's next instruction must have, beyond a free queue and ROB entry, before
// the frontend may select it (README "Thread contexts"): nothing (dispatch; operands are awaited
// in the waiting queue, the PAR core), thread 0's operands (operands), or every thread's operands
// (complete: no forwarding, the XD1000's semaphore until write-back).
enum class ContextReady { Dispatch, Operands, Complete };

struct CoreConfig {
  // The twelve parameters of the 2011 simulator.
  int lanes = 1;                        // L
  std::int64_t icache_size = 65536;     // instructions; ideal cache
  int gprs = 16;                        // fixed by the encoding
  int predicates = 8;                   // fixed by the encoding
  int inherited = 16;                   // fixed by the encoding
  int rob_size = 8;                     // ROB entries per lane
  int queue_size = 2;                   // waiting-queue entries per FU
  int threads_per_lane = 4;             // T
  int fpu_latency = 4;
  int alu_latency = 1;
  int cmp_latency = 1;
  int dcache_latency = 1;               // local-memory latency

  // Project additions.
  int output_buffers = 2;
  int input_buffers = 1;
  QueueRelease queue_release = QueueRelease::Issue;
  int commit_per_fu = 1;
  StoreIssue store_issue = StoreIssue::Address;
  OutputBufferRelease output_buffer_release = OutputBufferRelease::Commit;
  RobAllocation rob_allocation = RobAllocation::Dispatch;
  RobRelease rob_release = RobRelease::Commit;
  CommitOrder commit_order = CommitOrder::Program;
  bool store_uses_output_buffer = true;  // stores produce no result; false frees them from the OB rule
  int fpu_div_latency = 0;              // 0 = same as fpu_latency
  int frontend_latency = 0;
  int xp_disqualified_penalty = 1;
  int control_stack_depth = 64;
  int ls_max_outstanding = 16;
  std::uint64_t line_bytes = 64;        // coalescing granularity of the global load/store path
  bool read_whole_line = false;         // a global read fetches its whole line, not only the bytes used
  std::int64_t max_cycles = 10'000'000'000;

  // Thread contexts (README "Thread contexts"): independent thread groups that share the frontend
  // and the backend, selected round-robin with rotating priority at every issue slot.
  int contexts = 1;
  ContextReady context_ready = ContextReady::Dispatch;
  // FUs without hazard detection, comma-separated (alu, fpu, ls, cmp): a context's next
  // instruction for one of them waits until the context's previous instruction of that FU has
  // completed (the XD1000's "Inside ALU" rule). Empty: none.
  std::string context_fu_wait;

  // Local memory window of the core (byte addresses [base, base + size)).
  std::uint64_t local_mem_base = 0;
  std::uint64_t local_mem_size = 64ull << 20;

  // The optional stream unit (core.stream.*; off: the core has no SRF and get / put fail).
  StreamConfig stream;
  // The packet prefetcher (prefetch/README.md), off by default.
  PrefetchConfig prefetch;

  int slots() const { return lanes * threads_per_lane; }
  int div_latency() const { return fpu_div_latency > 0 ? fpu_div_latency : fpu_latency; }
  // Bit u (isa::Unit) set for every FU named in context_fu_wait (unknown names are ignored;
  // validate() reports them).
  unsigned fu_wait_mask() const;
  // Whether the frontend selects among contexts (more than one, or a selection rule that makes
  // even one context wait): the engine then keeps the per-context statistics. False for the
  // plain PAR core, which runs exactly the 2011 rules.
  bool selects_contexts() const {
    return contexts > 1 || context_ready != ContextReady::Dispatch || !context_fu_wait.empty();
  }
  // Host memory the state of one context takes (registers, masks, control stack, scoreboard).
  std::uint64_t context_state_bytes() const;
  static constexpr int kMaxContexts = 256;
  static constexpr std::uint64_t kMaxContextStateBytes = std::uint64_t{1} << 30;  // per core

  // Every violated constraint as "core.<option>: <why>"; empty when the configuration is valid.
  std::vector<std::string> validate() const;
};

const char* to_string(QueueRelease v);
const char* to_string(StoreIssue v);
const char* to_string(OutputBufferRelease v);
const char* to_string(RobAllocation v);
const char* to_string(RobRelease v);
const char* to_string(ContextReady v);

}  // namespace par::core
