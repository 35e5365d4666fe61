#include "packet_engine.hpp"

#include <algorithm>
#include <chrono>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "par/isa/encoding.hpp"

namespace par::core {

using isa::Instruction;
using isa::Opcode;

// ---------------------------------------------------------------------------------------------
// LoadedProgram

namespace {
ControlKind control_kind(Opcode op) {
  switch (op) {
    case Opcode::Xp: return ControlKind::Xp;
    case Opcode::XpR: return ControlKind::XpIndirect;
    case Opcode::LoopR:
    case Opcode::Loop: return ControlKind::Loop;
    default: return ControlKind::Brk;
  }
}
}  // namespace

DecodedOp DecodedOp::from(const Instruction& in, const CoreConfig& cfg) {
  DecodedOp d;
  d.in = in;
  d.unit = static_cast<std::uint8_t>(in.unit());
  if (in.is_control()) {
    d.kind = Kind::Control;
    d.control = control_kind(in.op);
    d.waits_for_rd = in.op == Opcode::XpR || in.op == Opcode::LoopR;
    return d;
  }
  d.kind = Kind::Backend;
  d.timing = TimingOp::from(in, cfg);
  d.kernel = SimtExecutor::kernel_for(in);
  d.access_size = static_cast<std::uint8_t>(isa::access_size(in.op));
  d.load = in.is_load();
  d.store = in.is_store();
  d.stream = in.is_stream();
  return d;
}

std::unique_ptr<LoadedProgram> LoadedProgram::load(const isa::Program& program,
                                                   const CoreConfig& cfg, std::string* error) {
  if (program.code.empty()) {
    if (error) *error = "program has no instructions";
    return nullptr;
  }
  if (static_cast<std::int64_t>(program.code.size()) > cfg.icache_size) {
    if (error)
      *error = "program has " + std::to_string(program.code.size()) +
               " instructions, more than the instruction cache holds (core.icache_size = " +
               std::to_string(cfg.icache_size) + ")";
    return nullptr;
  }
  auto lp = std::unique_ptr<LoadedProgram>(new LoadedProgram());
  lp->program_ = program;
  const std::size_t n = program.code.size();
  lp->ops_.resize(n);
  lp->reasons_.resize(n);
  for (std::size_t pc = 0; pc < n; ++pc) {
    std::string why;
    if (auto in = isa::decode(program.code[pc], &why))
      lp->ops_[pc] = DecodedOp::from(*in, cfg);
    else
      lp->reasons_[pc] = why;  // an error only if the word is ever fetched
  }
  lp->find_writes();
  lp->find_straight_runs();
  return lp;
}

void LoadedProgram::find_writes() {
  writes_ = 0;
  auto add = [this](unsigned r) {
    if (r < isa::kFirstInherited) writes_ = static_cast<std::uint16_t>(writes_ | 1u << r);
  };
  for (const DecodedOp& op : ops_) {
    if (op.kind == DecodedOp::Kind::Illegal) continue;  // fails when fetched, writes nothing
    const isa::Operands o = isa::operands(op.in);
    for (int i = 0; i < o.num_dst; ++i) add(o.dst[static_cast<std::size_t>(i)]);
    if (op.kind == DecodedOp::Kind::Backend) add(op.in.rd);
  }
}

void LoadedProgram::find_straight_runs() {
  std::uint32_t after = 0;  // the run that starts at the next instruction
  for (std::size_t pc = ops_.size(); pc-- > 0;) {
    DecodedOp& op = ops_[pc];
    const bool plain = op.kind == DecodedOp::Kind::Backend && !op.stream;
    op.straight = !plain ? 0 : op.in.stop ? 1 : after + 1;
    after = op.straight;
  }
}

std::unique_ptr<LoadedProgram> LoadedProgram::from_instructions(std::vector<Instruction> code,
                                                                const CoreConfig& cfg,
                                                                isa::Program source) {
  auto lp = std::unique_ptr<LoadedProgram>(new LoadedProgram());
  lp->program_ = std::move(source);
  lp->reasons_.resize(code.size());
  lp->ops_.reserve(code.size());
  for (const Instruction& in : code) lp->ops_.push_back(DecodedOp::from(in, cfg));
  lp->find_writes();
  lp->find_straight_runs();
  return lp;
}

// ---------------------------------------------------------------------------------------------
// PacketEngine

PacketEngine::Context::Context(int slots, LocalMemory& local, bool global, int stack_depth)
    : state(slots),
      exec(state, local, global),
      control(state, stack_depth),
      valid(static_cast<std::size_t>(slots), 0) {}

PacketEngine::PacketEngine(std::string name, const CoreConfig& cfg, const LoadedProgram& program,
                           LocalMemory& local, GlobalMemoryPort* global, RunMode mode,
                           int functional_width)
    : name_(std::move(name)),
      cfg_(cfg),
      prog_(program),
      program_size_(program.size()),
      mode_(mode),
      S_(mode == RunMode::Timing ? cfg.slots() : functional_width),
      T_(mode == RunMode::Timing ? cfg.threads_per_lane : 1),
      select_(mode == RunMode::Timing && cfg.selects_contexts()),
      port_(global),
      lsu_(global != nullptr ? std::make_unique<LoadStoreUnit>(cfg, *global, S_, T_) : nullptr),
      // Functional mode runs every thread independently of the core's shape: one context.
      selector_(mode == RunMode::Timing ? cfg.contexts : 1),
      accounting_(mode == RunMode::Timing ? cfg.contexts : 1),
      min_result_(static_cast<std::size_t>(T_), 0) {
  const int contexts = mode == RunMode::Timing ? cfg.contexts : 1;
  for (int c = 0; c < contexts; ++c) {
    contexts_.push_back(std::make_unique<Context>(S_, local, global != nullptr, cfg.control_stack_depth));
    contexts_.back()->index = c;
  }
  active_.assign(static_cast<std::size_t>(contexts), 0);
  if (cfg.stream.enabled) stream_ = std::make_unique<StreamUnit>(cfg.stream, S_ / T_, T_);
  if (mode == RunMode::Timing) timing_ = std::make_unique<TimingModel>(cfg);
}

void PacketEngine::set_prefetch_port(PrefetchPort* port) {
  prefetch_.reset();
  if (port != nullptr && cfg_.prefetch.enabled && mode_ == RunMode::Timing)
    prefetch_ = std::make_unique<PacketPrefetcher>(cfg_.prefetch, cfg_.line_bytes, cfg_.local_mem_base,
                                                   cfg_.local_mem_size, S_, *port);
}

void PacketEngine::set_slot_storage_pool(SlotStoragePool* pool) {
  if (pool != nullptr && pool->slots() != S_)
    throw std::invalid_argument(name_ + ": a register pool of " + std::to_string(pool->slots()) +
                                " slots for contexts of " + std::to_string(S_));
  slot_pool_ = pool;
}

void PacketEngine::capture_registers(std::uint64_t first, std::uint64_t count) {
  capture_first_ = first;
  capture_count_ = count;
}

bool PacketEngine::fail(std::string* error, const Context& x, const std::string& cause, std::int64_t slot,
                        std::int64_t slot2) const {
  if (error == nullptr) return false;
  const std::uint64_t pc = x.control.pc();
  std::string msg = name_ + ": runtime error at pc " + std::to_string(pc);
  const std::string loc = prog_.source().location(pc);
  if (loc.rfind("pc ", 0) != 0) msg += " (" + loc + ")";
  if (slot >= 0) {
    msg += ", thread " + std::to_string(x.round_first + static_cast<std::uint64_t>(slot));
    if (slot2 >= 0) msg += " and thread " + std::to_string(x.round_first + static_cast<std::uint64_t>(slot2));
  }
  *error = msg + ": " + cause;
  return false;
}

void PacketEngine::report_step(const Context& x, Cycle cycle) const {
  ExecStep s;
  s.cycle = cycle;
  s.context = x.index;
  s.round = x.round;
  s.first_thread = x.round_first;
  s.pc = x.control.pc();
  s.mask = x.control.mask();
  s.slots = S_;
  s.active = x.control.active_count();
  s.depth = x.control.depth() - 1;
  exec_listener_->executed(s);
}

PacketEngine::PendingStore& PacketEngine::PendingStores::push_back() {
  if (count_ == ring_.size()) {
    std::vector<PendingStore> bigger(std::max<std::size_t>(4, 2 * ring_.size()));
    for (std::size_t i = 0; i < count_; ++i) bigger[i] = std::move(ring_[(head_ + i) & (ring_.size() - 1)]);
    ring_.swap(bigger);
    head_ = 0;
  }
  return ring_[(head_ + count_++) & (ring_.size() - 1)];
}

// Earliest result cycle per thread slot of the load just executed functionally, given older
// stores of the same slot whose data may not have arrived (docs/core-timing.md §4.7). Only the
// context's own stores count: other contexts run other threads. Null when none of them delays
// the load (the caller asks only when some store is pending).
const Cycle* PacketEngine::store_to_load_limits(Context& x, Cycle fetch, std::uint64_t size) {
  // A store whose data is available by the load's fetch cannot delay it.
  while (!x.stores.empty() && x.stores.front().latest <= fetch) x.stores.pop_front();
  const std::uint8_t* q = x.exec.qualified();
  const std::uint64_t* addr = x.exec.addresses();
  bool any = false;
  for (std::size_t i = 0, n = x.stores.size(); i < n; ++i) {
    const PendingStore& st = x.stores[i];
    for (int s = 0, w = static_cast<int>(st.size.size()); s < w; ++s) {
      const std::uint64_t a = addr[s], b = st.addr[static_cast<std::size_t>(s)];
      const std::uint8_t sz = st.size[static_cast<std::size_t>(s)];
      if (!q[s] || sz == 0 || !(a < b + sz && b < a + size)) continue;
      if (!any) std::fill(min_result_.begin(), min_result_.end(), Cycle{0});
      any = true;
      Cycle& m = min_result_[static_cast<std::size_t>(s % T_)];
      m = std::max(m, st.data_ready[static_cast<std::size_t>(s % T_)] + cfg_.dcache_latency);
    }
  }
  return any ? min_result_.data() : nullptr;
}

void PacketEngine::remember_store(Context& x, Cycle fetch, std::uint8_t sz) {
  const std::vector<Cycle>& data = timing_->last_store_data();
  const Cycle latest = *std::max_element(data.begin(), data.end());
  if (latest <= fetch) return;  // already available to any later load
  PendingStore& st = x.stores.push_back();
  const int n = x.exec.width();
  st.addr.assign(x.exec.addresses(), x.exec.addresses() + n);
  st.size.resize(static_cast<std::size_t>(n));
  const std::uint8_t* q = x.exec.qualified();
  for (int s = 0; s < n; ++s) st.size[static_cast<std::size_t>(s)] = q[s] ? sz : 0;
  st.data_ready.assign(data.begin(), data.end());
  st.latest = latest;
}

void PacketEngine::capture_round(const Context& x) {
  if (capture_count_ == 0) return;
  for (int s = 0; s < S_; ++s) {
    if (!x.valid[static_cast<std::size_t>(s)]) continue;
    const std::uint64_t t = x.round_first + static_cast<std::uint64_t>(s);
    if (t < capture_first_ || t - capture_first_ >= capture_count_) continue;
    ThreadRegisters tr;
    tr.thread = t;
    for (int r = 0; r < 16; ++r) tr.r[static_cast<std::size_t>(r)] = x.state.reg(r)[s];
    for (int p = 0; p < 8; ++p) tr.p[static_cast<std::size_t>(p)] = x.state.pred(p)[s];
    captured_.push_back(tr);
  }
}

// Round r holds threads first_thread + r*S .. (ISA §2.1); the next round of a context starts in
// the cycle after its previous one ended (§5).
[[gnu::always_inline]] inline void PacketEngine::start_round(Context& x, std::uint64_t round, const Packet& packet, CoreStats& stats) {
  const std::uint64_t threads = static_cast<std::uint64_t>(packet.threads);
  const std::uint64_t done = round * static_cast<std::uint64_t>(S_);
  x.round = round;
  x.round_first = packet.first_thread + done;
  const std::uint64_t in_round = std::min<std::uint64_t>(static_cast<std::uint64_t>(S_), threads - done);
  for (int s = 0; s < S_; ++s) x.valid[static_cast<std::size_t>(s)] = static_cast<std::uint64_t>(s) < in_round;
  x.state.start_round(x.round_first, static_cast<int>(in_round), prog_.writes());
  x.exec.set_width(static_cast<int>(in_round));
  ++rounds_started_;
  x.control.start_round(x.valid.data(), packet.start, static_cast<int>(in_round));
  if (timing_) timing_->start_round(x.index);
  stats.threads += static_cast<std::int64_t>(in_round);
}

// Inlined into both loops: the single stream then keeps its fetch cycle in a register, as the
// loop did before contexts existed.
template <bool kSelect, bool kTrace, bool kTimed>
[[gnu::always_inline]] inline bool PacketEngine::step(Context& x, Cycle& fetch, std::int64_t& fetched,
                                                      CoreStats& stats, std::string* error) {
  constexpr bool timed = kTimed;
  const std::uint64_t size = program_size_;
  const std::uint64_t pc = x.control.pc();
  if (pc >= size) return fail(error, x, "PC outside the program (" + std::to_string(size) + " instructions)");
  if (const Cycle tick = timed ? fetch : fetched; tick > watch_.next_check) {
    fetched_now_ = fetched;
    if (!watch_point(x, tick, error)) return false;
  }
  const DecodedOp& op = prog_.op(pc);
  if (op.kind == DecodedOp::Kind::Illegal) return fail(error, x, "illegal instruction: " + prog_.illegal_reason(pc));
  const Instruction& in = op.in;
  ++fetched;

  if (op.kind == DecodedOp::Kind::Control) {
    Cycle t = fetch;
    if (timed) {
      if (in.qp != 0) t = timing_->wait_for_committed(t, isa::pred_reg(in.qp), StallCause::PredicateWait, x.index);
      if (op.waits_for_rd) t = timing_->wait_for_committed(t, in.rd, StallCause::RegisterWait, x.index);
    }
    if (kTrace && exec_listener_ != nullptr) report_step(x, timed ? t : fetched - 1);
    const ControlUnit::Outcome out = x.control.execute(in, size);
    if (out.error) return fail(error, x, out.message, out.error_slots[0], out.error_slots[1]);
    ++stats.control[static_cast<std::size_t>(op.control)];
    fetch = t + 1;
    // The discarded fetch of the target takes the next issue slot(s), whichever context would
    // have used them.
    if (timed && out.disqualified_direct_xp && cfg_.xp_disqualified_penalty > 0) {
      fetch += cfg_.xp_disqualified_penalty;
      timing_->add_stall(StallCause::XpDisqualified, fetch - cfg_.xp_disqualified_penalty,
                         cfg_.xp_disqualified_penalty);
    }
    return true;
  }
  if (!execute_backend<kSelect, kTrace, kTimed, false>(x, op, pc, fetch, fetched, stats, error)) return false;
  x.control.advance(in.stop);
  return true;
}

template <bool kSelect, bool kTrace, bool kTimed, bool kStraight>
[[gnu::always_inline]] inline bool PacketEngine::execute_backend(Context& x, const DecodedOp& op, std::uint64_t pc,
                                                                 Cycle& fetch, std::int64_t fetched, CoreStats& stats,
                                                                 std::string* error) {
  constexpr bool timed = kTimed;
  const Instruction& in = op.in;
  if (auto fault = x.exec.execute(in, op.kernel, x.control.mask(), x.control.active_count())) {
    x.control.set_pc_within_block(pc);
    return fail(error, x, fault->describe(), fault->slot);
  }
  if (!kStraight && op.stream) {
    if (!stream_) return fail(error, x, "'" + std::string(in.meta().mnemonic) + "' needs the stream unit (core.stream.enabled = false)");
    if (auto fault = stream_->execute(in, x.exec.qualified(), x.state)) return fail(error, x, fault->cause, fault->slot);
  }
  const auto u = static_cast<std::size_t>(op.unit);
  ++stats.instructions[u];
  stats.thread_instructions[u] += x.control.active_count();
  stats.qualified_thread_instructions[u] += x.exec.qualified_count();
  LoadStoreUnit* lsu = nullptr;
  if (op.memory() && x.exec.has_global()) {
    lsu = lsu_.get();
    lsu->begin(in, x.exec.global_slots(), x.exec.addresses(), x.state);
  }
  if (timed) {
    const Cycle* limits = op.load && !x.stores.empty() ? store_to_load_limits(x, fetch, op.access_size) : nullptr;
    const OpSchedule sched = kSelect ? timing_->dispatch(op.timing, fetch, limits, lsu, x.index)
                                     : timing_->dispatch_single(op.timing, fetch, limits, lsu);
    if (op.store) remember_store(x, sched.dispatch, op.access_size);
    if (kSelect) accounting_.busy(in.unit(), timing_->last_starts());
    fetch = sched.dispatch + 1;
  } else if (lsu != nullptr) {
    lsu->run_untimed();
  }
  if (lsu != nullptr && lsu->failed()) {
    x.control.set_pc_within_block(pc);
    const GlobalFault& f = lsu->fault();
    std::ostringstream os;
    os << (f.cause == "TLM_ADDRESS_ERROR_RESPONSE" ? "unmapped " : "failed ") << int{op.access_size}
       << "-byte " << (op.store ? "store" : "load") << " at 0x" << std::hex << f.address << " ("
       << f.cause << ")";
    return fail(error, x, os.str(), f.slot);
  }
  if (kTrace && exec_listener_ != nullptr) report_step(x, timed ? fetch - 1 : fetched - 1);
  return true;
}

template <bool kTimed>
[[gnu::always_inline]] inline bool PacketEngine::run_straight(Context& x, Cycle& fetch, std::int64_t& fetched,
                                                              CoreStats& stats, std::string* error) {
  const std::uint64_t first = x.control.pc();
  const std::uint64_t last = first + prog_.op(first).straight - 1;
  for (std::uint64_t pc = first;; ++pc) {
    if (const Cycle tick = kTimed ? fetch : fetched; tick > watch_.next_check) {
      x.control.set_pc_within_block(pc);
      fetched_now_ = fetched;
      if (!watch_point(x, tick, error)) return false;
    }
    ++fetched;
    if (!execute_backend<false, false, kTimed, true>(x, prog_.op(pc), pc, fetch, fetched, stats, error)) return false;
    if (pc == last) break;
    // What the loop does between two instructions of a block (no block end, no predicates).
    if (kTimed && fetch >= sync_at_) sync(fetch, fetched);
  }
  x.control.set_pc_within_block(last);
  x.control.advance(prog_.op(last).in.stop);
  return true;
}

// The plain core: one instruction stream, rounds one after the other. kTrace: an execution
// listener is attached (a separate instantiation, so that the loop without one has no test).
template <bool kTrace, bool kTimed>
bool PacketEngine::run_single(const Packet& packet, std::uint64_t rounds, Cycle& fetch_out,
                              std::int64_t& fetched_out, CoreStats& stats, std::string* error) {
  constexpr bool timed = kTimed;
  Context& x = *contexts_.front();
  // Locals, not the caller's variables: they stay in registers across the calls of the loop.
  Cycle fetch = 0;
  std::int64_t fetched = 0;
  bool ok = true;
  for (std::uint64_t round = 0; ok && round < rounds; ++round) {
    start_round(x, round, packet, stats);
    if (prefetch_) prefetch_->round_started(round, fetch);
    while (!x.control.round_ended()) {
      const std::uint64_t pc = x.control.pc();
      if (!kTrace && pc < program_size_ && prog_.op(pc).straight > 0) {
        if (!run_straight<kTimed>(x, fetch, fetched, stats, error)) {
          ok = false;
          break;
        }
      } else if (!step<false, kTrace, kTimed>(x, fetch, fetched, stats, error)) {
        ok = false;
        break;
      }
      if (timed)
        for (std::uint8_t p : x.control.block_end_predicates())
          fetch = timing_->wait_for_committed(fetch, isa::pred_reg(p), StallCause::PredicateWait);
      // One comparison per instruction: the port is called only at the cycle it asked for.
      if (timed && fetch >= sync_at_) sync(fetch, fetched);
    }
    if (ok) capture_round(x);
    if (prefetch_) prefetch_->round_ended(round, fetch);
  }
  fetch_out = fetch;
  fetched_out = fetched;
  return ok;
}

Cycle PacketEngine::next_ready(Context& x, Cycle from) {
  NextWaits& w = x.waits;
  if (!x.waits_valid) {
    x.waits_valid = true;
    w.n = 0;
    w.unit = -1;
    w.add(x.not_before_cause, x.not_before);
    const std::uint64_t pc = x.control.pc();
    // An instruction outside the program or an illegal one is fetched (and fails) when its turn comes.
    if (pc < program_size_ && prog_.legal(pc)) {
      const Instruction& in = prog_.at(pc);
      if (in.is_control()) {
        if (in.qp != 0) w.add(StallCause::PredicateWait, timing_->committed_visible(isa::pred_reg(in.qp), x.index));
        if (in.op == Opcode::XpR || in.op == Opcode::LoopR)
          w.add(StallCause::RegisterWait, timing_->committed_visible(in.rd, x.index));
      } else {
        const DispatchWaits d = timing_->dispatch_waits(prog_.timing(pc), x.index);
        w.unit = static_cast<int>(in.unit());
        w.add(StallCause::MemoryWait, d.memory);
        w.add(StallCause::FuWait, d.fu);
        w.add(StallCause::OperandWait, d.operand);
        w.add(StallCause::RobFull, d.rob);
        w.add(static_cast<StallCause>(static_cast<int>(StallCause::QueueFullAlu) + w.unit), d.queue);
      }
    }
    w.own = 0;
    for (int i = 0; i < std::min(w.n, static_cast<int>(NextWaits::kRob)); ++i)
      w.own = std::max(w.own, w.until[static_cast<std::size_t>(i)]);
  }
  if (w.unit < 0) return std::max(from, w.own);
  // The ROB and the queues change with every dispatch, of any context.
  if (shared_waits_at_ != timing_->dispatched()) {
    shared_waits_at_ = timing_->dispatched();
    rob_wait_ = timing_->rob_wait();
    for (int u = 0; u < isa::kBackendUnits; ++u)
      queue_wait_[static_cast<std::size_t>(u)] = timing_->queue_wait(static_cast<isa::Unit>(u));
  }
  w.until[NextWaits::kRob] = rob_wait_;
  w.until[NextWaits::kQueue] = queue_wait_[static_cast<std::size_t>(w.unit)];
  return std::max({from, w.own, rob_wait_, w.until[NextWaits::kQueue]});
}

// Thread contexts: one issue slot per cycle, to the ready context chosen round-robin with
// rotating priority; a context that ends its round takes the next round not yet started.
bool PacketEngine::run_contexts(const Packet& packet, std::uint64_t rounds, Cycle& fetch, std::int64_t& fetched,
                                CoreStats& stats, std::string* error) {
  const int C = static_cast<int>(contexts_.size());
  stats.contexts.assign(static_cast<std::size_t>(C), ContextCounters{});
  accounting_.start_packet();
  selector_.reset();
  shared_waits_at_ = -1;
  std::uint64_t next_round = 0;
  int running = 0;
  for (auto& xp : contexts_) {
    Context& x = *xp;
    x.not_before = x.since = 0;
    x.not_before_cause = StallCause::PredicateWait;
    x.waits_valid = false;
    x.stores.clear();
    active_[static_cast<std::size_t>(x.index)] = next_round < rounds;
    if (next_round < rounds) {
      start_round(x, next_round++, packet, stats);
      if (prefetch_) prefetch_->round_started(x.round, fetch);
      ++stats.contexts[static_cast<std::size_t>(x.index)].rounds;
      ++running;
    } else {
      accounting_.finished(x.index, 0);
    }
  }
  std::int64_t selections = 0;
  while (running > 0) {
    Cycle at = fetch;
    const int c = selector_.select(
        fetch, active_, [&](int i) { return next_ready(*contexts_[static_cast<std::size_t>(i)], fetch); }, at);
    Context& x = *contexts_[static_cast<std::size_t>(c)];
    const NextWaits w = x.waits;
    x.waits_valid = false;  // it fetches its next instruction now
    // The issue slots up to `at` stay empty: they count against the causes of the context that
    // ends the wait, each cycle to the first cause still holding (as the single stream does).
    for (int i = 0; i < w.n && fetch < at; ++i) {
      const Cycle e = std::clamp(w.until[static_cast<std::size_t>(i)], fetch, at);
      if (e > fetch) timing_->add_stall(w.cause[static_cast<std::size_t>(i)], fetch, e - fetch);
      fetch = e;
    }
    fetch = at;
    if (!step<true, true, true>(x, fetch, fetched, stats, error)) return false;
    ContextCounters& counters = stats.contexts[static_cast<std::size_t>(c)];
    ++counters.slots;
    const bool backend = w.unit >= 0;
    accounting_.next_instruction(counters, w.unit, x.since, at + 1, w.until[0], backend ? w.until[1] : 0,
                                 backend ? w.until[2] : 0);
    x.since = at + 1;
    // The context's next fetch waits for the predicates its block end read, and for a discarded
    // expand target to pass.
    x.not_before = 0;
    x.not_before_cause = StallCause::PredicateWait;
    for (std::uint8_t p : x.control.block_end_predicates())
      x.not_before = std::max(x.not_before, timing_->committed_visible(isa::pred_reg(p), x.index));
    if (fetch > at + 1 && fetch > x.not_before) {
      x.not_before = fetch;
      x.not_before_cause = StallCause::XpDisqualified;
    }
    if (x.control.round_ended()) {
      capture_round(x);
      if (prefetch_) prefetch_->round_ended(x.round, fetch);
      if (next_round < rounds) {
        start_round(x, next_round++, packet, stats);
        if (prefetch_) prefetch_->round_started(x.round, fetch);
        ++counters.rounds;
      } else {
        active_[static_cast<std::size_t>(c)] = 0;
        accounting_.finished(c, at + 1);
        // The last context's final wait is the frontend's, as with a single stream.
        if (--running == 0 && x.not_before > fetch) {
          timing_->add_stall(x.not_before_cause, fetch, x.not_before - fetch);
          fetch = x.not_before;
        }
      }
    }
    selector_.selected(c);
    if ((++selections & 255) == 0) {
      Cycle oldest = fetch;
      for (const auto& y : contexts_)
        if (active_[static_cast<std::size_t>(y->index)]) oldest = std::min(oldest, y->since);
      accounting_.forget_before(oldest);
    }
    if (fetch >= sync_at_) sync(fetch, fetched);
  }
  return true;
}

void PacketEngine::sync(Cycle fetch, std::int64_t fetched) {
  synced_fetch_ = fetch;
  synced_fetched_ = fetched;
  sync_at_ = port_->reached(fetch);
}

void PacketEngine::add_packet_totals(CoreStats& stats, Cycle cycles, std::int64_t fetched) const {
  stats.rounds += static_cast<std::int64_t>(rounds_started_);
  stats.fetched += fetched;
  if (timing_ != nullptr && mode_ == RunMode::Timing) {
    stats.cycles += cycles;
    timing_->add_statistics(stats.stalls, stats.rob_occupancy_sum, stats.rob_max_occupancy);
  }
  if (lsu_) {
    stats.global_accesses = static_cast<std::int64_t>(lsu_->accesses());
    stats.global_transactions = static_cast<std::int64_t>(lsu_->transactions());
    stats.global_bytes = static_cast<std::int64_t>(lsu_->bytes());
    stats.global_latency_sum = lsu_->latency_sum();
    stats.ls_limit_stall_cycles = lsu_->limit_stall_cycles();
  }
}

CoreStats PacketEngine::progress(const CoreStats& running, Cycle cycles) const {
  CoreStats s = running;
  add_packet_totals(s, cycles, synced_fetched_);
  return s;
}

// The two below are out of line: the plain core without a prefetcher runs neither, and a packet
// share's code is refetched into the host's instruction cache for every share (README "Host cost").
void PacketEngine::begin_prefetch(const Packet& packet, std::uint64_t threads) {
  prefetch_->begin_packet(find_affine_loads(
                              [this](std::uint64_t pc) {
                                return pc < program_size_ && prog_.legal(pc) ? &prog_.at(pc) : nullptr;
                              },
                              packet.start, packet.inherited),
                          packet.first_thread, threads);
}

void PacketEngine::sort_captured() {
  // Rounds end in a different order on different contexts; captured registers go by thread.
  std::stable_sort(captured_.begin(), captured_.end(),
                   [](const ThreadRegisters& a, const ThreadRegisters& b) { return a.thread < b.thread; });
}

bool PacketEngine::run(const Packet& packet, CoreStats& stats, std::string* error) {
  const auto host_start = std::chrono::steady_clock::now();
  const bool timed = mode_ == RunMode::Timing;
  stats.lanes = timed ? cfg_.lanes : 1;
  stats.threads_per_lane = T_;
  stats.rob_size = cfg_.rob_size;
  captured_.clear();
  for (auto& x : contexts_) x->stores.clear();  // the ring keeps its entries' vectors for this packet
  if (packet.threads <= 0) return true;
  // The contexts' registers for this packet: blocks of the pool, given back however run() ends.
  struct LentRegisters {
    SlotStoragePool* pool;
    std::vector<std::unique_ptr<Context>>& contexts;
    LentRegisters(SlotStoragePool* p, std::vector<std::unique_ptr<Context>>& c) : pool(p), contexts(c) {
      if (pool != nullptr)
        for (auto& x : contexts) x->state.use(pool->take());
    }
    ~LentRegisters() {
      if (pool == nullptr) return;
      for (auto it = contexts.rbegin(); it != contexts.rend(); ++it) {
        pool->give_back((*it)->state.storage());
        (*it)->state.use((*it)->state.own());
      }
    }
  } lent(slot_pool_, contexts_);

  if (timed) {
    timing_->reset();
    if (timing_settings_changed_) {
      timing_->set_stall_listener(stall_listener_);
      timing_->set_replay(timing_replay_ && !select_);  // the selection loop reads the state between calls
      timing_settings_changed_ = false;
    }
  }
  if (lsu_) lsu_->reset_counters();
  const std::uint64_t threads = static_cast<std::uint64_t>(packet.threads);
  // Slots beyond the packet's threads never hold one of its threads.
  const int width = static_cast<int>(std::min<std::uint64_t>(threads, static_cast<std::uint64_t>(S_)));
  for (auto& x : contexts_) x->state.set_inherited(packet.inherited, width);
  const std::uint64_t rounds = (threads + static_cast<std::uint64_t>(S_) - 1) / static_cast<std::uint64_t>(S_);
  Cycle fetch = 0;
  std::int64_t fetched = 0;
  stopped_ = false;
  rounds_started_ = 0;
  if (prefetch_) begin_prefetch(packet, threads);
  watch_.interval = 0;
  rearm(0);
  // The port hears of the packet's start before its first instruction (a statistics sample due
  // at the start cycle then holds none of the packet's work), and then when it asks.
  synced_fetch_ = 0;
  synced_fetched_ = 0;
  sync_at_ = std::numeric_limits<Cycle>::max();
  if (timed && port_ != nullptr) sync(0, 0);
  // A failed or stopped packet still reports the work it did.
  const bool ok = select_            ? run_contexts(packet, rounds, fetch, fetched, stats, error)
                  : exec_listener_ ? (timed ? run_single<true, true>(packet, rounds, fetch, fetched, stats, error)
                                            : run_single<true, false>(packet, rounds, fetch, fetched, stats, error))
                  : timed ? run_single<false, true>(packet, rounds, fetch, fetched, stats, error)
                          : run_single<false, false>(packet, rounds, fetch, fetched, stats, error);
  if (select_) sort_captured();

  // The last round's replay ends first: its statistics are then the record's totals, added once,
  // not summed event by event by every getter below.
  if (timed && ok) timing_->end_packet();
  const Cycle end = timed ? std::max(timing_->last_commit() + 1, fetch) : 0;
  add_packet_totals(stats, end, fetched);
  if (timed && select_ && ok) accounting_.end_packet(end, stats.contexts);
  if (prefetch_) stats.prefetch = prefetch_->end_packet();
  stats.host_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - host_start).count();
  return ok;
}

}  // namespace par::core
