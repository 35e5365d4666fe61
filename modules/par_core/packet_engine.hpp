// Runs PAR packets on one core: the fetch loop of the frontend (docs/core-timing.md §3, §5) over
// the control unit, the SIMT executor and, in timing mode, the timing model.
//
// With thread contexts (core.contexts, README "Thread contexts") each context has its own
// registers, control unit and round; the frontend selects one per issue slot (ContextSelector)
// and the rounds of the packet go to the contexts as they finish their previous one. The plain
// PAR core (one context, CoreConfig::selects_contexts() false) runs the single-stream loop.
//
// Plain C++ (no SystemC): the SC_MODULE ParCore wraps it, and unit tests and the reproduction
// scripts drive it directly.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "context_accounting.hpp"
#include "context_selector.hpp"
#include "control_unit.hpp"
#include "load_store_unit.hpp"
#include "core_config.hpp"
#include "core_stats.hpp"
#include "exec_listener.hpp"
#include "local_memory.hpp"
#include "par/isa/program.hpp"
#include "prefetch/packet_prefetcher.hpp"
#include "simt_executor.hpp"
#include "slot_state.hpp"
#include "slot_storage_pool.hpp"
#include "stream_unit.hpp"
#include "timing_model.hpp"

namespace par::core {

// Everything the fetch loop needs about one instruction, worked out once when the program is
// loaded: the fetch loop does no decoding, table lookup or opcode switch per instruction.
struct DecodedOp {
  enum class Kind : std::uint8_t { Illegal, Control, Backend };
  isa::Instruction in;
  TimingOp timing;                          // backend instructions
  SimtExecutor::Kernel kernel;              // backend instructions
  Kind kind = Kind::Illegal;
  std::uint8_t unit = 0;                    // isa::Unit
  std::uint8_t access_size = 0;             // loads and stores, else 0
  bool load = false, store = false, stream = false;
  bool waits_for_rd = false;                // xp r / loop r: the frontend reads rd
  ControlKind control = ControlKind::Brk;   // control instructions: the statistics' kind
  // Instructions from this one on that the fetch loop runs as one straight-line stretch: backend
  // instructions, not stream ones, none but the last with a stop bit (0: not such an instruction).
  std::uint32_t straight = 0;

  static DecodedOp from(const isa::Instruction& in, const CoreConfig& cfg);
  bool memory() const { return load || store; }
};

// A program decoded once at load time (the core never decodes on fetch).
class LoadedProgram {
 public:
  // Fails (returns nullptr, sets error) when the program does not fit the instruction cache.
  static std::unique_ptr<LoadedProgram> load(const isa::Program& program, const CoreConfig& cfg,
                                             std::string* error);
  // A program built directly from decoded instructions (tests, research tools). `source` may be
  // empty; its code words are not needed.
  static std::unique_ptr<LoadedProgram> from_instructions(std::vector<isa::Instruction> code,
                                                          const CoreConfig& cfg,
                                                          isa::Program source = {});
  std::size_t size() const { return ops_.size(); }
  const DecodedOp& op(std::uint64_t pc) const { return ops_[pc]; }
  const isa::Instruction& at(std::uint64_t pc) const { return ops_[pc].in; }
  const TimingOp& timing(std::uint64_t pc) const { return ops_[pc].timing; }
  bool legal(std::uint64_t pc) const { return ops_[pc].kind != DecodedOp::Kind::Illegal; }
  const std::string& illegal_reason(std::uint64_t pc) const { return reasons_[pc]; }
  const isa::Program& source() const { return program_; }
  // Bit r set when an instruction of the program may write r<r> (SlotState::start_round clears
  // only these): every destination and every rd field of a backend instruction, a superset.
  std::uint16_t writes() const { return writes_; }

 private:
  void find_writes();
  void find_straight_runs();
  isa::Program program_;
  std::uint16_t writes_ = 0;
  std::vector<DecodedOp> ops_;
  std::vector<std::string> reasons_;
};

// One packet (or the share of a packet that the thread scheduler gave this core).
struct Packet {
  std::uint64_t start = 0;
  std::int64_t threads = 0;
  std::uint64_t first_thread = 0;           // base of i0 (docs/isa.md §2.1)
  std::uint64_t inherited[16] = {};         // i1..i15 at 1..15
};

enum class RunMode { Timing, Functional };

// Register contents of chosen threads at the end of their round (ISA threads are independent,
// so a thread's final registers do not depend on L, T or the mode).
struct ThreadRegisters {
  std::uint64_t thread = 0;
  std::array<std::uint64_t, 16> r{};
  std::array<std::uint8_t, 8> p{};
};

class PacketEngine {
 public:
  // `functional_width` is the number of threads run side by side in functional mode (timing
  // mode uses L x T slots).
  // `global`, when given, carries the accesses outside the local-memory window (otherwise they
  // are runtime errors).
  PacketEngine(std::string name, const CoreConfig& cfg, const LoadedProgram& program,
               LocalMemory& local, GlobalMemoryPort* global, RunMode mode,
               int functional_width = 1024);

  // Reports the frontend stalls of every later packet to `listener` (null: none; not owned).
  void set_stall_listener(StallListener* listener) {
    stall_listener_ = listener;
    timing_settings_changed_ = true;
  }
  // Reports every executed instruction of later packets to `listener` (null: none; not owned).
  void set_exec_listener(ExecListener* listener) { exec_listener_ = listener; }
  // Where the packet prefetcher sends its requests (not owned). With core.prefetch.enabled, in
  // timing mode, later packets are prefetched for; otherwise nothing happens.
  void set_prefetch_port(PrefetchPort* port);
  // Runs the context-selection loop (and keeps the per-context statistics) even for the plain
  // core, in timing mode. Tests use it: with one context it must schedule exactly like the
  // single-stream loop.
  void always_select_contexts() {
    select_ = mode_ == RunMode::Timing;
    timing_settings_changed_ = true;
  }
  // Round replay of the timing model (TimingModel::set_replay; on by default). Tests turn it
  // off to compare: the statistics must be the same.
  void set_timing_replay(bool on) {
    timing_replay_ = on;
    timing_settings_changed_ = true;
  }
  // Rounds the timing model has replayed and replays that diverged, so far (tests: replay happened).
  TimingModel::ReplayCounts replay_counts() const { return timing_ ? timing_->replay_counts() : TimingModel::ReplayCounts{}; }
  // Later packets keep their registers in blocks taken from `pool` (not owned; null: each context
  // its own, the default) for the packet's length (slot_storage_pool.hpp). The pool must be made
  // for slots() slots.
  void set_slot_storage_pool(SlotStoragePool* pool);
  // Thread slots of each context: L x T in timing mode, the functional width otherwise.
  int slots() const { return S_; }

  // Polled between instructions (about every million cycles or fetches, and at least every few
  // host tenths of a second in practice): returning true stops the packet at once (run() then
  // returns false, stopped() is true, and the statistics cover the work done so far). The
  // platform uses it for Ctrl-C and the host-time limit inside a long packet.
  void set_stop_check(std::function<bool()> check) { stop_check_ = std::move(check); }
  bool stopped() const { return stopped_; }

  // Asks for the final registers of threads [first, first + count).
  void capture_registers(std::uint64_t first, std::uint64_t count);
  const std::vector<ThreadRegisters>& captured_registers() const { return captured_; }

  // The core's stream unit (core.stream.enabled), null without one. Its SRF and channels keep
  // their contents from packet to packet.
  StreamUnit* stream() { return stream_.get(); }
  const StreamUnit* stream() const { return stream_.get(); }

  // Runs one packet to completion. Returns false with a runtime error message (docs/isa.md §9.2) that
  // names the core, PC with source line, thread and cause.
  bool run(const Packet& packet, CoreStats& stats, std::string* error);

  // The statistics of the packet running now (call while run() is suspended in the port):
  // `running` (what run() counts as it goes: instructions, threads, control) plus what it adds at
  // the packet's end (fetched, rounds, stalls, ROB occupancy, global accesses) as of the last
  // call of the port's reached(), with `cycles` as the packet's execution time so far. The idle
  // breakdown of thread contexts is added at the packet's end only.
  CoreStats progress(const CoreStats& running, Cycle cycles) const;
  // The frontend's cycle at the last call of the port's reached().
  Cycle synced_cycle() const { return synced_fetch_; }

 private:
  struct PendingStore {  // a store whose data may still be arriving (store-to-load order, §4.7)
    // Per slot of the round's width (SimtExecutor::width(); the slots beyond it are never
    // qualified, so a short round's store costs its threads, not the core's L x T slots).
    std::vector<std::uint64_t> addr;
    std::vector<std::uint8_t> size;   // 0 where not qualified
    std::vector<Cycle> data_ready;    // per thread slot
    Cycle latest = 0;
  };
  // The pending stores of a context, oldest first: a ring whose entries keep their vectors, so
  // that the steady state allocates nothing.
  class PendingStores {
   public:
    bool empty() const { return count_ == 0; }
    std::size_t size() const { return count_; }
    PendingStore& front() { return ring_[head_]; }
    const PendingStore& operator[](std::size_t i) const { return ring_[(head_ + i) & (ring_.size() - 1)]; }
    void pop_front() {
      head_ = (head_ + 1) & (ring_.size() - 1);
      --count_;
    }
    PendingStore& push_back();  // a new youngest entry, its vectors left as an older store had them
    void clear() { head_ = count_ = 0; }

   private:
    std::vector<PendingStore> ring_;  // a power of two entries
    std::size_t head_ = 0, count_ = 0;
  };
  // Why a context's next instruction is not ready: causes in attribution order, each with the
  // cycle until which it holds (see DispatchWaits). For a backend instruction the last two are
  // the shared ROB and queue waits; `own` is the latest of the others, which only the context's
  // own dispatches change.
  struct NextWaits {
    static constexpr int kRob = 4, kQueue = 5;  // positions of the shared waits
    int unit = -1;  // its FU, -1 for a control instruction
    int n = 0;
    std::array<StallCause, 6> cause{};
    std::array<Cycle, 6> until{};
    Cycle own = 0;
    void add(StallCause c, Cycle u) {
      cause[static_cast<std::size_t>(n)] = c;
      until[static_cast<std::size_t>(n++)] = u;
    }
  };

  // One thread context: the registers of its L x T slots, PC, mask and control stack, its round.
  struct Context {
    Context(int slots, LocalMemory& local, bool global, int stack_depth);
    SlotState state;
    SimtExecutor exec;
    ControlUnit control;
    std::vector<std::uint8_t> valid;  // slots holding a thread in this round
    int index = 0;
    std::uint64_t round = 0;
    std::uint64_t round_first = 0;    // thread index of slot 0
    PendingStores stores;
    // Selection: the frontend may not fetch for it before `not_before` (a loop end's predicate,
    // a discarded expand target), and its current next instruction became next in `since`.
    Cycle not_before = 0;
    StallCause not_before_cause = StallCause::PredicateWait;
    Cycle since = 0;
    // Its next instruction's waits, kept until it is selected (valid) and refreshed in their
    // shared part when another context has dispatched.
    NextWaits waits;
    bool waits_valid = false;
  };
  void report_step(const Context& x, Cycle cycle) const;
  bool fail(std::string* error, const Context& x, const std::string& cause, std::int64_t slot = -1,
            std::int64_t slot2 = -1) const;
  // The load or store just executed accesses `size` bytes per thread.
  const Cycle* store_to_load_limits(Context& x, Cycle fetch, std::uint64_t size);
  void remember_store(Context& x, Cycle fetch, std::uint8_t size);
  void capture_round(const Context& x);
  void start_round(Context& x, std::uint64_t round, const Packet& packet, CoreStats& stats);
  // Fetches and executes the instruction at x's PC in cycle `fetch` and moves `fetch` to the
  // frontend's next free cycle. False on a runtime error.
  // kSelect: called by the context-selection loop (per-context accounting, any context).
  // kTrace: may report to the execution listener. kTimed: timing mode.
  template <bool kSelect, bool kTrace, bool kTimed>
  bool step(Context& x, Cycle& fetch, std::int64_t& fetched, CoreStats& stats, std::string* error);
  // The backend part of step() for `op` at `pc` (x's PC may lag behind within a straight run):
  // executes it, counts it and, in timing mode, dispatches it. kStraight: op is part of a
  // straight run (not a stream instruction). PC is not advanced.
  template <bool kSelect, bool kTrace, bool kTimed, bool kStraight>
  bool execute_backend(Context& x, const DecodedOp& op, std::uint64_t pc, Cycle& fetch, std::int64_t fetched,
                       CoreStats& stats, std::string* error);
  // step() for the instructions of the straight run at x's PC (DecodedOp::straight) one after
  // the other, with the fetch loop's checks that cannot fire within one left out; the port hears
  // of the frontend's position after each as in the loop. Not with an execution listener.
  template <bool kTimed>
  bool run_straight(Context& x, Cycle& fetch, std::int64_t& fetched, CoreStats& stats, std::string* error);
  // Called when the tick (cycle, functional mode: fetch count) passes watch_.next_check: the run
  // limit, the stop check and the endless-loop check (packet_engine_watch.cpp). False with the
  // error set when the packet must end.
  bool watch_point(Context& x, Cycle tick, std::string* error);
  bool same_as_snapshot() const;
  std::string endless_loop_cause(const Context& x, Cycle tick) const;
  std::uint64_t effects() const;
  void rearm(Cycle tick);
  template <bool kTrace, bool kTimed>
  bool run_single(const Packet& packet, std::uint64_t rounds, Cycle& fetch, std::int64_t& fetched, CoreStats& stats,
                  std::string* error);
  bool run_contexts(const Packet& packet, std::uint64_t rounds, Cycle& fetch, std::int64_t& fetched, CoreStats& stats,
                    std::string* error);
  // Tells the port the frontend's position and takes the next cycle it wants to hear of it.
  void sync(Cycle fetch, std::int64_t fetched);
  // What run() adds to a packet's statistics at its end, with `cycles` as its execution time.
  void add_packet_totals(CoreStats& stats, Cycle cycles, std::int64_t fetched) const;
  [[gnu::noinline, gnu::cold]] void begin_prefetch(const Packet& packet, std::uint64_t threads);
  [[gnu::noinline, gnu::cold]] void sort_captured();
  // First cycle >= from in which context x could be selected (its waits in x.waits).
  Cycle next_ready(Context& x, Cycle from);

  std::string name_;
  const CoreConfig& cfg_;
  const LoadedProgram& prog_;
  const std::uint64_t program_size_;  // prog_.size(), read at every fetch
  RunMode mode_;
  int S_;
  int T_;
  bool select_;  // the context-selection loop (timing mode, CoreConfig::selects_contexts())
  bool timing_replay_ = true;
  // The stall listener or the replay setting changed since the timing model was last told (it
  // keeps them from packet to packet: a packet that is one share of a launch need not repeat them).
  bool timing_settings_changed_ = true;
  std::vector<std::unique_ptr<Context>> contexts_;
  GlobalMemoryPort* port_;
  std::unique_ptr<LoadStoreUnit> lsu_;
  std::unique_ptr<PacketPrefetcher> prefetch_;  // null unless set_prefetch_port() enabled it
  SlotStoragePool* slot_pool_ = nullptr;
  std::unique_ptr<TimingModel> timing_;
  std::unique_ptr<StreamUnit> stream_;
  ContextSelector selector_;
  ContextAccounting accounting_;
  std::vector<std::uint8_t> active_;  // per context: it has a round
  // The shared waits per FU for the current number of dispatched instructions.
  std::array<Cycle, isa::kBackendUnits> queue_wait_{};
  Cycle rob_wait_ = 0;
  std::int64_t shared_waits_at_ = -1;
  std::vector<Cycle> min_result_;
  std::uint64_t capture_first_ = 0, capture_count_ = 0;
  std::vector<ThreadRegisters> captured_;
  StallListener* stall_listener_ = nullptr;
  ExecListener* exec_listener_ = nullptr;
  std::function<bool()> stop_check_;
  bool stopped_ = false;
  std::uint64_t rounds_started_ = 0;
  // Endless-loop check (README "Endless loops"): every `interval` ticks a snapshot of every
  // context's architectural state is taken at the selected context's PC; for the next interval/16
  // ticks each time that context is back at that PC its state is compared with the snapshot. Equal
  // state with no store and no global access in between repeats forever.
  struct Watch {
    Cycle next_check = 0;   // step() calls watch_point() once the tick passes this
    Cycle interval = 0;
    bool armed = false;
    Cycle armed_at = 0, until = 0;
    int context = 0;
    std::uint64_t pc = 0;
    std::uint64_t effects = 0;
    std::int64_t fetched_at = 0;
    struct Saved {  // one context
      ControlUnit::Saved control;
      std::vector<std::uint64_t> regs;
      std::vector<std::uint8_t> preds;
      std::uint64_t round = 0;
      bool active = false;
    };
    std::vector<Saved> saved;  // kept across packets: saving reuses the memory
  } watch_;
  std::int64_t fetched_now_ = 0;  // fetched count at the last watch point (for the message)
  Cycle sync_at_ = 0;             // the frontend calls sync() once its fetch cycle gets here
  Cycle synced_fetch_ = 0;        // fetch cycle and count at the last sync()
  std::int64_t synced_fetched_ = 0;
};

}  // namespace par::core
