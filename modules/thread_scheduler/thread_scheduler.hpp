// The PAR thread scheduler as a SystemC/TLM-2.0 module (docs/architecture.md "Blocks and sockets";
// README.md).
//
//   host (over the link) --> regs      [registers, bounded packet queue]
//                            cores[c] --> PAR core c `ctrl`  (one binding per core, core order)
//                            notify   --> device interconnect (completion-flag writes)
//
// The host stages a packet in the registers (thread_scheduler_regs.hpp) and rings DOORBELL; an
// SC_THREAD dispatcher splits each packet into shares by the configured policy and launches each
// share with a blocking write of a par::core::PacketDescriptor to its core, in a process of its
// own (a WorkerPool reuses them), so the cores run concurrently. The decisions are DispatchLogic's (plain C++);
// this class adds time, TLM and statistics.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "dispatch_logic.hpp"
#include "par/simkit/stats.hpp"
#include "par/trace/sc_ps.hpp"
#include "par/trace/timeline.hpp"
#include "par/trace/vcd_writer.hpp"
#include "register_block.hpp"
#include "scheduler_config.hpp"
#include "scheduler_stats.hpp"
#include "thread_scheduler_regs.hpp"
#include "worker_pool.hpp"

namespace par::sched {

// What happened to one packet (the lead's per-launch report: host, link and device time).
struct PacketRecord {
  std::uint64_t seq = 0;
  std::uint64_t start = 0;
  std::int64_t threads = 0;
  std::int64_t threads_launched = 0;  // less than `threads` when a failure dropped shares
  unsigned shares = 0;                 // shares or chunks launched
  bool ok = true;
  std::string error;                   // why it failed ("" when ok)
  sc_core::sc_time submitted;  // DOORBELL accepted
  sc_core::sc_time started;    // first share taken for dispatch (for THREADS <= 0: = executed)
  sc_core::sc_time executed;   // last share returned; completion signalling starts
  sc_core::sc_time finished;   // flag written, counted in COMPLETED
  bool done = false;           // `finished` is valid
};

class ThreadScheduler : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<ThreadScheduler> regs;
  tlm_utils::multi_passthrough_initiator_socket<ThreadScheduler> cores;
  tlm_utils::simple_initiator_socket_optional<ThreadScheduler> notify;

  // Throws std::invalid_argument with every message of cfg.validate() when it is invalid.
  ThreadScheduler(sc_core::sc_module_name name, const SchedulerConfig& cfg = SchedulerConfig());

  const SchedulerConfig& config() const { return cfg_; }
  // Number of `cores` bindings (0 before the end of elaboration).
  std::size_t core_count() const { return logic_ != nullptr ? logic_->cores() : 0; }
  simkit::StatGroup& stats() { return stats_group_; }
  const simkit::StatGroup& stats() const { return stats_group_; }
  // One record per accepted packet, index = sequence number - 1.
  const std::vector<PacketRecord>& packet_records() const { return records_; }
  // The first failure ("" if none), e.g. "packet 2: threads 50..99 on core 1: TLM_GENERIC_ERROR_RESPONSE".
  const std::string& error() const { return first_error_; }
  // No packet outstanding.
  bool idle() const { return logic_ == nullptr || logic_->outstanding() == 0; }
  // Notified (delta) whenever a packet finishes.
  const sc_core::sc_event& completion_event() const { return progress_; }
  // The value a read of a control/status register would return now, without time (e.g. kRegStatus).
  std::uint64_t peek(std::uint64_t offset) const;
  // Tracing (README.md "Tracing"): one `scheduler/launches` interval per packet and the VCD
  // signal `scheduler.pending`. Call before sc_start; null pointers (the default) record nothing.
  void set_trace(trace::Timeline* timeline, trace::VcdWriter* vcd);

 private:
  void end_of_elaboration() override;
  void b_transport(tlm::tlm_generic_payload& tx, sc_core::sc_time& delay);
  unsigned int transport_dbg(tlm::tlm_generic_payload& tx);
  void doorbell(sc_core::sc_time& delay);
  tlm::tlm_response_status wait_read(std::uint64_t& value, sc_core::sc_time& delay);

  void dispatch_thread();
  void run_share(std::uint64_t seq, Share share);
  void signal_completion(std::uint64_t seq);
  // Writes the flag; returns "" or why it failed.
  std::string write_flag(std::uint64_t address, std::uint64_t value);
  void note_failure(PacketRecord& r, const std::string& why);
  void trace_pending();
  void trace_packet(const PacketRecord& r);

  const SchedulerConfig cfg_;
  const sc_core::sc_time register_latency_;
  const sc_core::sc_time dispatch_latency_;
  std::unique_ptr<DispatchLogic> logic_;  // created when the number of cores is known
  StagingRegisters staging_;
  simkit::StatGroup stats_group_;
  SchedulerStats stats_;
  std::vector<PacketRecord> records_;
  std::string first_error_;
  sc_core::sc_event wake_;      // the dispatcher may have something to do
  sc_core::sc_event progress_;  // a packet finished: queue entries and WAIT readers
  WorkerPool shares_{"share"};            // run_share: one process per share in flight
  WorkerPool completions_{"completion"};  // signal_completion (the flag write may wait)

  // Tracing; all null when off.
  trace::TrackRef launches_;
  trace::NameId packet_name_;
  trace::CategoryId launch_category_;
  trace::SignalRef pending_signal_;
  trace::ScToPs to_ps_;
  // Per outstanding packet, the cores that ran a share of it (maintained only when tracing).
  std::map<std::uint64_t, std::vector<bool>> cores_of_packet_;
};

}  // namespace par::sched
