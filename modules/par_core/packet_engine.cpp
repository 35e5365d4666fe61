#include "packet_engine.hpp"

#include <algorithm>
#include <chrono>
#include <sstream>

#include "par/isa/encoding.hpp"

namespace par::core {

using isa::Instruction;
using isa::Opcode;

// ---------------------------------------------------------------------------------------------
// LoadedProgram

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
  lp->code_.resize(n);
  lp->timing_.resize(n);
  lp->legal_.assign(n, 0);
  lp->reasons_.resize(n);
  for (std::size_t pc = 0; pc < n; ++pc) {
    std::string why;
    if (auto in = isa::decode(program.code[pc], &why)) {
      lp->code_[pc] = *in;
      lp->timing_[pc] = TimingOp::from(*in, cfg);
      lp->legal_[pc] = 1;
    } else {
      lp->reasons_[pc] = why;  // an error only if the word is ever fetched
    }
  }
  return lp;
}

std::unique_ptr<LoadedProgram> LoadedProgram::from_instructions(std::vector<Instruction> code,
                                                                const CoreConfig& cfg,
                                                                isa::Program source) {
  auto lp = std::unique_ptr<LoadedProgram>(new LoadedProgram());
  lp->program_ = std::move(source);
  lp->code_ = std::move(code);
  const std::size_t n = lp->code_.size();
  lp->legal_.assign(n, 1);
  lp->reasons_.resize(n);
  lp->timing_.reserve(n);
  for (const Instruction& in : lp->code_) lp->timing_.push_back(TimingOp::from(in, cfg));
  return lp;
}

// ---------------------------------------------------------------------------------------------
// PacketEngine

PacketEngine::PacketEngine(std::string name, const CoreConfig& cfg, const LoadedProgram& program,
                           LocalMemory& local, GlobalMemoryPort* global, RunMode mode,
                           int functional_width)
    : name_(std::move(name)),
      cfg_(cfg),
      prog_(program),
      mode_(mode),
      S_(mode == RunMode::Timing ? cfg.slots() : functional_width),
      T_(mode == RunMode::Timing ? cfg.threads_per_lane : 1),
      state_(S_),
      exec_(state_, local, global != nullptr),
      control_(state_, cfg.control_stack_depth),
      port_(global),
      lsu_(global != nullptr ? std::make_unique<LoadStoreUnit>(cfg, *global, state_, S_, T_) : nullptr),
      valid_(static_cast<std::size_t>(S_), 0),
      min_result_(static_cast<std::size_t>(T_), 0) {}

void PacketEngine::capture_registers(std::uint64_t first, std::uint64_t count) {
  capture_first_ = first;
  capture_count_ = count;
}

bool PacketEngine::fail(std::string* error, std::uint64_t pc, const std::string& cause,
                        std::int64_t slot, std::int64_t slot2) const {
  if (error == nullptr) return false;
  std::string msg = name_ + ": runtime error at pc " + std::to_string(pc);
  const std::string loc = prog_.source().location(pc);
  if (loc.rfind("pc ", 0) != 0) msg += " (" + loc + ")";
  if (slot >= 0) {
    msg += ", thread " + std::to_string(round_first_ + static_cast<std::uint64_t>(slot));
    if (slot2 >= 0) msg += " and thread " + std::to_string(round_first_ + static_cast<std::uint64_t>(slot2));
  }
  *error = msg + ": " + cause;
  return false;
}

// Earliest result cycle per thread slot of the load just executed functionally, given older
// stores of the same slot whose data may not have arrived (docs/core-timing.md §4.7).
const Cycle* PacketEngine::store_to_load_limits(Cycle fetch) {
  // A store whose data is available by the load's fetch cannot delay it.
  while (!stores_.empty() && stores_.front().latest <= fetch) stores_.pop_front();
  if (stores_.empty()) return nullptr;
  std::fill(min_result_.begin(), min_result_.end(), Cycle{0});
  const std::uint8_t* q = exec_.qualified();
  const std::uint64_t* addr = exec_.addresses();
  const int size = isa::access_size(prog_.at(control_.pc()).op);
  bool any = false;
  for (const PendingStore& st : stores_) {
    for (int s = 0; s < S_; ++s) {
      if (!q[s] || st.size[s] == 0) continue;
      const std::uint64_t a = addr[s], b = st.addr[s];
      if (a < b + st.size[s] && b < a + static_cast<std::uint64_t>(size)) {
        Cycle& m = min_result_[static_cast<std::size_t>(s % T_)];
        m = std::max(m, st.data_ready[static_cast<std::size_t>(s % T_)] + cfg_.dcache_latency);
        any = true;
      }
    }
  }
  return any ? min_result_.data() : nullptr;
}

void PacketEngine::remember_store(Cycle fetch) {
  const std::vector<Cycle>& data = timing_->last_store_data();
  const Cycle latest = *std::max_element(data.begin(), data.end());
  if (latest <= fetch) return;  // already available to any later load
  PendingStore st;
  st.addr.assign(exec_.addresses(), exec_.addresses() + S_);
  st.size.assign(static_cast<std::size_t>(S_), 0);
  const std::uint8_t* q = exec_.qualified();
  const auto sz = static_cast<std::uint8_t>(isa::access_size(prog_.at(control_.pc()).op));
  for (int s = 0; s < S_; ++s)
    if (q[s]) st.size[static_cast<std::size_t>(s)] = sz;
  st.data_ready = data;
  st.latest = latest;
  stores_.push_back(std::move(st));
}

void PacketEngine::capture_round() {
  if (capture_count_ == 0) return;
  for (int s = 0; s < S_; ++s) {
    if (!valid_[static_cast<std::size_t>(s)]) continue;
    const std::uint64_t t = round_first_ + static_cast<std::uint64_t>(s);
    if (t < capture_first_ || t - capture_first_ >= capture_count_) continue;
    ThreadRegisters tr;
    tr.thread = t;
    for (int r = 0; r < 16; ++r) tr.r[static_cast<std::size_t>(r)] = state_.reg(r)[s];
    for (int p = 0; p < 8; ++p) tr.p[static_cast<std::size_t>(p)] = state_.pred(p)[s];
    captured_.push_back(tr);
  }
}

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

bool PacketEngine::run(const Packet& packet, CoreStats& stats, std::string* error) {
  const auto host_start = std::chrono::steady_clock::now();
  const bool timed = mode_ == RunMode::Timing;
  stats.lanes = timed ? cfg_.lanes : 1;
  stats.threads_per_lane = T_;
  stats.rob_size = cfg_.rob_size;
  captured_.clear();
  stores_.clear();
  if (packet.threads <= 0) return true;

  if (timed) {
    timing_ = std::make_unique<TimingModel>(cfg_);
    timing_->set_stall_listener(stall_listener_);
  }
  if (lsu_) lsu_->reset_counters();
  state_.set_inherited(packet.inherited);
  const std::uint64_t threads = static_cast<std::uint64_t>(packet.threads);
  const std::uint64_t rounds = (threads + static_cast<std::uint64_t>(S_) - 1) / static_cast<std::uint64_t>(S_);
  const std::uint64_t size = prog_.size();
  Cycle fetch = 0;
  std::int64_t fetched = 0;

  for (std::uint64_t round = 0; round < rounds; ++round) {
    const std::uint64_t done = round * static_cast<std::uint64_t>(S_);
    round_first_ = packet.first_thread + done;
    const std::uint64_t in_round = std::min<std::uint64_t>(static_cast<std::uint64_t>(S_), threads - done);
    for (int s = 0; s < S_; ++s) valid_[static_cast<std::size_t>(s)] = static_cast<std::uint64_t>(s) < in_round;
    state_.start_round(round_first_);
    control_.start_round(valid_.data(), packet.start);
    if (timed) timing_->start_round();
    stats.threads += static_cast<std::int64_t>(in_round);

    while (!control_.round_ended()) {
      const std::uint64_t pc = control_.pc();
      if (pc >= size)
        return fail(error, pc, "PC outside the program (" + std::to_string(size) + " instructions)");
      if ((timed ? fetch : fetched) > cfg_.max_cycles)
        return fail(error, pc,
                    std::string("run limit exceeded: more than ") + std::to_string(cfg_.max_cycles) +
                        (timed ? " cycles" : " fetched instructions") +
                        " (core.max_cycles); probable endless loop; the frontend is stuck in round " +
                        std::to_string(round) + " with " + std::to_string(control_.depth() - 1) +
                        " open control-stack entries");
      if (!prog_.legal(pc)) return fail(error, pc, "illegal instruction: " + prog_.illegal_reason(pc));
      const Instruction& in = prog_.at(pc);
      ++fetched;

      if (in.is_control()) {
        Cycle t = fetch;
        if (timed) {
          if (in.qp != 0) t = timing_->wait_for_committed(t, isa::pred_reg(in.qp), StallCause::PredicateWait);
          if (in.op == Opcode::XpR || in.op == Opcode::LoopR)
            t = timing_->wait_for_committed(t, in.rd, StallCause::RegisterWait);
        }
        const ControlUnit::Outcome out = control_.execute(in, size);
        if (out.error) return fail(error, pc, out.message, out.error_slots[0], out.error_slots[1]);
        ++stats.control[static_cast<std::size_t>(control_kind(in.op))];
        fetch = t + 1;
        if (timed && out.disqualified_direct_xp && cfg_.xp_disqualified_penalty > 0) {
          fetch += cfg_.xp_disqualified_penalty;
          timing_->add_stall(StallCause::XpDisqualified, fetch - cfg_.xp_disqualified_penalty,
                             cfg_.xp_disqualified_penalty);
        }
      } else {
        if (auto fault = exec_.execute(in, control_.mask(), control_.active_count()))
          return fail(error, pc, fault->describe(), fault->slot);
        const auto u = static_cast<std::size_t>(in.unit());
        ++stats.instructions[u];
        stats.thread_instructions[u] += control_.active_count();
        stats.qualified_thread_instructions[u] += exec_.qualified_count();
        LoadStoreUnit* lsu = nullptr;
        if (in.is_memory() && exec_.has_global()) {
          lsu = lsu_.get();
          lsu->begin(in, exec_.global_slots(), exec_.addresses());
        }
        if (timed) {
          const Cycle* limits = in.is_load() ? store_to_load_limits(fetch) : nullptr;
          const OpSchedule sched = timing_->dispatch(prog_.timing(pc), fetch, limits, lsu);
          if (in.is_store()) remember_store(sched.dispatch);
          fetch = sched.dispatch + 1;
        } else if (lsu != nullptr) {
          lsu->run_untimed();
        }
        if (lsu != nullptr && lsu->failed()) {
          const GlobalFault& f = lsu->fault();
          std::ostringstream os;
          os << (f.cause == "TLM_ADDRESS_ERROR_RESPONSE" ? "unmapped " : "failed ") << isa::access_size(in.op)
             << "-byte " << (in.is_store() ? "store" : "load") << " at 0x" << std::hex << f.address << " ("
             << f.cause << ")";
          return fail(error, pc, os.str(), f.slot);
        }
        control_.advance(in.stop);
      }
      if (timed)
        for (std::uint8_t p : control_.block_end_predicates())
          fetch = timing_->wait_for_committed(fetch, isa::pred_reg(p), StallCause::PredicateWait);
      if (port_ != nullptr) port_->reached(timed ? fetch : 0);
    }
    capture_round();
  }

  stats.rounds += static_cast<std::int64_t>(rounds);
  stats.fetched += fetched;
  if (timed) {
    stats.cycles += std::max(timing_->last_commit() + 1, fetch);
    for (int c = 0; c < kStallCauses; ++c) stats.stalls[static_cast<std::size_t>(c)] += timing_->stall_cycles(static_cast<StallCause>(c));
    stats.rob_occupancy_sum += timing_->rob_occupancy_sum();
    stats.rob_max_occupancy = std::max(stats.rob_max_occupancy, timing_->rob_max_occupancy());
  }
  if (lsu_) {
    stats.global_accesses = static_cast<std::int64_t>(lsu_->accesses());
    stats.global_transactions = static_cast<std::int64_t>(lsu_->transactions());
    stats.global_bytes = static_cast<std::int64_t>(lsu_->bytes());
    stats.global_latency_sum = lsu_->latency_sum();
    stats.ls_limit_stall_cycles = lsu_->limit_stall_cycles();
  }
  stats.host_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - host_start).count();
  return true;
}

}  // namespace par::core
