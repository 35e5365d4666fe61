// The PAR core as a SystemC module (docs/architecture.md "Blocks and sockets").
//
// One SC_THREAD per core advances the plain-C++ PacketEngine (no SystemC process per pipeline
// stage). `ctrl` is a register target (par/core/core_registers.hpp): a descriptor block and a
// DOORBELL that starts the packet and returns at once; the end of the packet is signalled on the
// `irq` line, and STATUS says whether it failed. Loads and stores outside the local-memory window
// leave through `mem`.
#pragma once

#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "core_config.hpp"
#include "core_exec_trace.hpp"
#include "core_trace.hpp"
#include "core_stats.hpp"
#include "local_memory.hpp"
#include "packet_engine.hpp"
#include "par/core/core_registers.hpp"
#include "par/sckit/divider.hpp"
#include "par/sckit/target_check.hpp"
#include "par/trace/sc_ps.hpp"
#include "par/trace/timeline.hpp"
#include "par/trace/vcd_writer.hpp"

namespace par::core {

class ParCore : public sc_core::sc_module, private GlobalMemoryPort, private PrefetchPort {
 public:
  tlm_utils::simple_target_socket<ParCore> ctrl;
  tlm_utils::simple_initiator_socket<ParCore> mem;
  // The stream window (par/core/stream_registers.hpp), only with core.stream.enabled: bind it
  // where the host can reach it. Null without a stream unit.
  tlm_utils::simple_target_socket<ParCore>* streams() { return streams_.get(); }
  StreamUnit* stream_unit() { return engine_.stream(); }
  const StreamUnit* stream_unit() const { return engine_.stream(); }
  // Completion line: low while a launch runs, high from its end until the next one starts (false
  // before the first). Bind it to an sc_signal<bool> that the scheduler watches.
  sc_core::sc_out<bool> irq;

  // `program` is the shared, already decoded instruction memory (it outlives the module).
  // `functional_width`: threads run side by side in functional mode (run.functional_width).
  // `quantum`: how far the core may run ahead of the SystemC time before it synchronises (loosely
  // timed; smaller quanta interleave the cores' memory traffic more exactly, at some speed cost).
  ParCore(sc_core::sc_module_name name, const CoreConfig& cfg, const LoadedProgram& program,
          RunMode mode, int functional_width, sc_core::sc_time clock_period, sc_core::sc_time quantum);

  LocalMemory& local_memory() { return local_; }
  // The packets completed so far.
  const CoreStats& total_stats() const { return total_; }
  // The packets completed so far and the running packet's work up to the core's last
  // synchronisation with the SystemC time (every run.quantum_ns at most): what an interrupted run
  // reports (README "Statistics").
  CoreStats stats_so_far() const;
  // Statistics samples every `period` of simulated time (boundaries at its multiples; zero: none,
  // the default): the core records its statistics as of each boundary when its frontend passes it,
  // so that a sample taken at the boundary holds exactly the instructions dispatched before it,
  // although the core runs ahead of the SystemC time. Call before sc_start.
  void set_sample_period(sc_core::sc_time period);
  // The statistics as of sample boundary `at` (recorded when the frontend passed it; records of
  // earlier boundaries are discarded), or stats_so_far() when the core has not passed it.
  CoreStats take_sample(sc_core::sc_time at);
  // Launches this core has run, and the statistics of the last one. Only the last is kept: a
  // repeated packet makes millions of launches, and per-launch trees are the platform's job.
  std::int64_t packets_run() const { return packets_run_; }
  const CoreStats& last_packet_stats() const { return *last_packet_; }
  const std::string& error() const { return error_; }
  bool failed() const { return !error_.empty(); }
  // Threads of all launches so far that have started (progress of a long packet).
  std::int64_t threads_started() const;
  // What the core is busy with ("" when idle), for the deadlock watchdog.
  std::string pending_work() const;
  // Final registers of chosen threads (see PacketEngine::capture_registers).
  void capture_registers(std::uint64_t first, std::uint64_t count) { engine_.capture_registers(first, count); }
  const std::vector<ThreadRegisters>& captured_registers() const { return captured_; }
  // Tracing (README.md "Tracing"): per packet a busy interval, per run of frontend stall cycles a
  // stall interval, on tracks <name>/busy and <name>/stall (<name> = the module's base name, the
  // platform's "core<i>"); VCD <name>.busy and <name>.stall. Call before sc_start; null pointers
  // (the default) record nothing and cost the core one test per counted stall.
  void set_trace(trace::Timeline* timeline, trace::VcdWriter* vcd);
  // Execution trace (ip/trace ExecTrace): every executed instruction of this core, unless the
  // trace's core patterns leave it out. Call before sc_start; null (the default) records nothing.
  void set_exec_trace(trace::ExecTrace* exec);
  // Polled inside a running packet (PacketEngine::set_stop_check): when it returns true the packet
  // stops where it is, its work so far enters the statistics, the core reports no error and calls
  // sc_stop(). The platform uses it for Ctrl-C and the host-time limit.
  void set_stop_check(std::function<bool()> check) { engine_.set_stop_check(std::move(check)); }
  bool stopped() const { return stopped_; }
  // Keeps the registers of later packets in blocks lent by `pools` (slot_storage_pool.hpp; not
  // owned, outlives the core): the platform's cores then walk one block through the host's caches
  // instead of one each. Nothing simulated changes.
  void share_registers(SlotStoragePools& pools) { engine_.set_slot_storage_pool(&pools.for_slots(engine_.slots())); }

 private:
  void run_thread();
  // The thread's loop: waits for a DOORBELL, runs the packet, and again (never returns but when
  // the run is stopped). Not inlined: its frame must lie below run_thread's gap.
  [[gnu::noinline]] void run_packets();
  // The `irq` line's one driver: it falls at start_; at packet_end_ the packet in pending_ ends
  // (STATUS idle or failed, trace) and it rises.
  void drive_line();
  void ctrl_transport(tlm::tlm_generic_payload& tx, sc_core::sc_time& delay);
  // The stream window (par_core_streams.cpp).
  void stream_transport(tlm::tlm_generic_payload& tx, sc_core::sc_time& delay);
  tlm::tlm_response_status stream_access(tlm::tlm_generic_payload& tx);
  // The response to a `ctrl` access (README.md "Launch protocol"); the DOORBELL starts the packet
  // `delay` after the call.
  tlm::tlm_response_status ctrl_access(tlm::tlm_generic_payload& tx, const sc_core::sc_time& delay);
  // The ctrl and stream windows: aligned 64-bit registers, no byte enables (a streaming width below
  // the length is answered as a byte-enable error too).
  static constexpr sckit::AccessRules kRegisterRules{sckit::AccessRules::ByteEnables::Refused,
                                                     sckit::AccessRules::Ignore::OkAfterShape,
                                                     tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE, 0, 8};
  bool transact(bool write, std::uint64_t addr, std::uint8_t* data, unsigned len, const std::uint8_t* byte_enable,
                Cycle cycle, Cycle& done, std::string& error) override;
  Cycle reached(Cycle cycle) override;
  // PrefetchPort: a prefetch request (par/sckit/prefetch_hint.hpp) on `mem`.
  bool prefetch(std::uint64_t addr, unsigned len, Cycle cycle, Cycle& done) override;
  // Sends a prepared payload on `mem`, leaving in `cycle`; `done` = the cycle the answer is back.
  bool transact_payload(tlm::tlm_generic_payload& tx, Cycle cycle, Cycle& done, std::string& error);
  sc_core::sc_time at_cycle(Cycle c) const {
    return packet_start_ + sc_core::sc_time::from_value(period_.value() * static_cast<sc_dt::uint64>(c));
  }

  const CoreConfig& cfg_;
  const sc_core::sc_time period_;
  // Time-resolution units -> whole cycles (n / period_, rounded down) without a hardware division
  // per access.
  const sckit::Divider cycles_of_;
  const sc_core::sc_time quantum_;
  sc_core::sc_time packet_start_;
  LocalMemory local_;
  PacketEngine engine_;
  sc_core::sc_event start_;
  sc_core::sc_event packet_end_;  // at the running packet's end time
  bool busy_ = false;
  bool in_engine_ = false;
  // The statistics of the packet being run and of the last one: two slots whose roles swap at a
  // packet's end, so that a packet's statistics are never copied (a share of a launch per core
  // and launch; README "Host cost").
  CoreStats packet_slots_[2];
  CoreStats* running_ = &packet_slots_[0];
  sc_dt::uint64 sample_period_ = 0;  // time-resolution units; 0 = no samples
  sc_dt::uint64 next_sample_ = 0;    // the next boundary the frontend has not passed
  std::deque<std::pair<sc_dt::uint64, CoreStats>> samples_;  // (boundary, statistics then)
  PacketDescriptor staged_;   // the descriptor registers
  PacketDescriptor pending_;  // the launch started by the last DOORBELL
  bool last_ok_ = true;
  bool stopped_ = false;
  std::string error_;
  CoreStats total_;
  std::int64_t packets_run_ = 0;
  CoreStats* last_packet_ = &packet_slots_[1];
  std::vector<ThreadRegisters> captured_;
  tlm::tlm_generic_payload mem_payload_;
  bool in_memory_access_ = false;  // mem_payload_ is in flight on `mem`
  tlm::tlm_generic_payload prefetch_payload_;    // the packet prefetcher's requests
  std::vector<std::uint8_t> prefetch_buffer_;    // their data pointer (ignore commands move no data)
  std::unique_ptr<CoreTrace> trace_;  // null when tracing is off
  const LoadedProgram& program_;
  std::unique_ptr<CoreExecTrace> exec_trace_;  // null when this core is not in the execution trace
  trace::ScToPs to_ps_;
  std::unique_ptr<tlm_utils::simple_target_socket<ParCore>> streams_;
};

}  // namespace par::core
