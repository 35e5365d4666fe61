// The PAR thread scheduler as a SystemC/TLM-2.0 module (docs/architecture.md "Blocks and sockets";
// README.md).
//
//   host (over the link) --> regs      [registers, bounded packet queue]
//                            cores[c] --> PAR core c `ctrl`  (one binding per core, core order)
//   PAR core c `irq` line --> core_irq[c]                    (same order)
//                            notify   --> device interconnect (completion-flag writes)
//                            irq      --> the host's interrupt input (completion interrupts)
//
// The host stages a packet in the registers (par/sched/scheduler_registers.hpp) and rings
// DOORBELL, which returns after the register latency. One SC_THREAD reacts to doorbells, to the
// cores' completion lines and to its own timers: it splits each packet into shares by the
// configured policy, starts each share with a descriptor write and a DOORBELL to its core (a
// register access that returns at once, par/core/core_registers.hpp), and when a packet's last
// share has ended writes its flag and raises its interrupt. No b_transport here waits. The
// decisions are DispatchLogic's (plain C++); this class adds time, TLM and statistics.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "dispatch_logic.hpp"
#include "par/sched/scheduler_registers.hpp"
#include "par/sckit/interrupt.hpp"
#include "par/simkit/stats.hpp"
#include "par/trace/sc_ps.hpp"
#include "par/trace/timeline.hpp"
#include "par/trace/vcd_writer.hpp"
#include "register_block.hpp"
#include "scheduler_config.hpp"
#include "scheduler_stats.hpp"

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
  sc_core::sc_time submitted;  // DOORBELL in effect (its arrival + the register latency)
  sc_core::sc_time started;    // first share taken for dispatch (for THREADS <= 0: = executed)
  sc_core::sc_time executed;   // last share returned; completion signalling starts
  sc_core::sc_time finished;   // flag written, counted in COMPLETED
  bool done = false;           // `finished` is valid
};

class ThreadScheduler : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<ThreadScheduler> regs;
  tlm_utils::multi_passthrough_initiator_socket<ThreadScheduler> cores;
  // The cores' completion lines (ParCore::irq), one binding per `cores` binding, in the same order.
  sc_core::sc_port<sc_core::sc_signal_in_if<bool>, 0> core_irq;
  tlm_utils::simple_initiator_socket_optional<ThreadScheduler> notify;
  // Completion interrupts (packets with CONTROL.interrupt); may stay unbound if none asks for one.
  sckit::InterruptOut irq;

  // Throws std::invalid_argument with every message of cfg.validate() when it is invalid.
  ThreadScheduler(sc_core::sc_module_name name, const SchedulerConfig& cfg = SchedulerConfig());

  const SchedulerConfig& config() const { return cfg_; }
  // The thread slots (L x T) of each core, in `cores` binding order, for cores of different
  // shapes: the static policy gives each core a share in proportion (README.md "Behaviour").
  // Call before the end of elaboration; not called = all cores alike. A count different from
  // the number of bindings, or a 0, is an error at the end of elaboration.
  void set_core_slots(std::vector<std::uint64_t> slots) { core_slots_ = std::move(slots); }
  // Number of `cores` bindings (0 before the end of elaboration).
  std::size_t core_count() const { return logic_ != nullptr ? logic_->cores() : 0; }
  simkit::StatGroup& stats() { return stats_group_; }
  const simkit::StatGroup& stats() const { return stats_group_; }
  // One record per accepted packet, index = sequence number - 1.
  const std::vector<PacketRecord>& packet_records() const { return records_; }
  // Records with `done` set, without a walk over them (the platform asks between run slices).
  std::uint64_t packets_done() const { return packets_done_; }
  // The first failure ("" if none), e.g. "packet 2: threads 50..99 on core 1: TLM_GENERIC_ERROR_RESPONSE".
  const std::string& error() const { return first_error_; }
  // No packet outstanding (accepted doorbells included).
  bool idle() const { return doorbells_.empty() && (logic_ == nullptr || logic_->outstanding() == 0); }
  // Notified (delta) whenever a packet finishes.
  const sc_core::sc_event& completion_event() const { return finished_; }
  // The value a read of a control/status register would return now, without time (e.g. kRegStatus).
  std::uint64_t peek(std::uint64_t offset) const;
  // Tracing (README.md "Tracing"): one `scheduler/launches` interval per packet and the VCD
  // signal `scheduler.pending`. Call before sc_start; null pointers (the default) record nothing.
  void set_trace(trace::Timeline* timeline, trace::VcdWriter* vcd);

 private:
  // A doorbell that takes effect at `at` (its arrival + the register latency).
  struct Doorbell {
    sc_core::sc_time at;
    Command cmd;
  };
  // A share on its way to a core (during the dispatch latency) or running there.
  struct ShareRun {
    std::uint64_t seq = 0;
    Share share;
    sc_core::sc_time at;  // when the descriptor reaches the core / when it was started
  };
  // A packet whose completion flag is being written; it finishes at `at`.
  struct Finishing {
    sc_core::sc_time at;
    std::uint64_t seq = 0;
  };

  void end_of_elaboration() override;
  void b_transport(tlm::tlm_generic_payload& tx, sc_core::sc_time& delay);
  unsigned int transport_dbg(tlm::tlm_generic_payload& tx);
  tlm::tlm_response_status doorbell(const sc_core::sc_time& delay);

  // The one process: reacts to doorbells, core completions and its timers.
  void control_thread();
  void accept_doorbells();
  void collect_core_completions();
  void finish_due();
  void dispatch();  // takes actions until the dispatcher is busy sending a descriptor or idle
  void start_share(const ShareRun& s);
  void share_done(const ShareRun& s, bool ok, const std::string& why);
  void start_completion(std::uint64_t seq);
  void finish(std::uint64_t seq);
  // Reads or writes one register of core `c`; returns the response status.
  tlm::tlm_response_status core_access(std::size_t c, tlm::tlm_command cmd, std::uint64_t offset, void* data,
                                       unsigned length);
  // Writes the flag; returns "" or why it failed; `done` = when the write has completed.
  std::string write_flag(std::uint64_t address, std::uint64_t value, sc_core::sc_time& done);
  void note_failure(PacketRecord& r, const std::string& why);
  void trace_pending();
  void trace_packet(const PacketRecord& r);

  const SchedulerConfig cfg_;
  const sc_core::sc_time register_latency_;
  const sc_core::sc_time dispatch_latency_;
  std::vector<std::uint64_t> core_slots_;  // empty: all cores alike
  std::unique_ptr<DispatchLogic> logic_;  // created when the number of cores is known
  StagingRegisters staging_;
  simkit::StatGroup stats_group_;
  SchedulerStats stats_;
  std::vector<PacketRecord> records_;
  std::uint64_t packets_done_ = 0;
  std::string first_error_;
  std::deque<Doorbell> doorbells_;           // accepted, not yet in effect; in time order
  std::optional<ShareRun> sending_;          // the descriptor being sent (dispatch latency)
  std::vector<std::optional<ShareRun>> running_;  // per core: the share it runs
  // Per core: the completion line's interface (core_irq[c], looked up once) and whether running_
  // holds a share: every wake-up looks at every core's line (README.md "Host cost").
  std::vector<sc_core::sc_signal_in_if<bool>*> lines_;
  std::vector<std::uint8_t> has_share_;
  std::vector<Finishing> finishing_;         // packets whose flag write is under way
  tlm::tlm_generic_payload core_payload_;    // every access to a core's registers (core_access)
  sc_core::sc_event doorbell_rung_;          // a doorbell was accepted: the process re-plans
  // A core's line rose: notified by a method statically sensitive to every line, so that the
  // process is sensitive to three events, not to one per core (README.md "Host cost").
  sc_core::sc_event line_rose_;
  sc_core::sc_event timer_;                  // the process's next timed wake-up (control_thread)
  sc_core::sc_event_or_list inputs_;         // doorbell_rung_ and line_rose_ (a zero timeout)
  sc_core::sc_event finished_;               // a packet finished

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
