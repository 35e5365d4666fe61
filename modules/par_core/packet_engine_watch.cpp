// The packet engine's watch points: the run limit (core.max_cycles), the stop check (Ctrl-C, host
// time) and the endless-loop check (README "Endless loops").
//
// Cost: step() compares its tick with watch_.next_check, the comparison the run limit already
// needed. Between watches next_check lies an interval ahead; while armed it is -1, so every
// instruction comes here, but only a return to the snapshot PC compares state.
#include <algorithm>

#include "packet_engine.hpp"

namespace par::core {

namespace {

// The first check after 2^16 ticks (a hang is found in well under a second; shorter packets,
// most of them, never take a snapshot), later ones every 2^20 ticks.
constexpr Cycle kFirstInterval = Cycle{1} << 16;
constexpr Cycle kMaxInterval = Cycle{1} << 20;

// "threads 0-3, 6" (at most 8 ranges, then "...").
std::string thread_list(const std::uint8_t* mask, int slots, std::uint64_t first) {
  std::string out;
  int ranges = 0, total = 0;
  for (int s = 0; s < slots; ++s) {
    if (!mask[s]) continue;
    int e = s;
    while (e + 1 < slots && mask[e + 1]) ++e;
    total += e - s + 1;
    if (ranges++ < 8) {
      out += (out.empty() ? "" : ", ") + std::to_string(first + static_cast<std::uint64_t>(s));
      if (e > s) out += "-" + std::to_string(first + static_cast<std::uint64_t>(e));
    } else if (ranges == 9) {
      out += ", ...";
    }
    s = e;
  }
  return (total == 1 ? "thread " : "threads ") + out;
}

}  // namespace

std::uint64_t PacketEngine::effects() const {
  std::uint64_t n = 0;
  for (const auto& c : contexts_) n += c->exec.effects();
  if (stream_) n += stream_->gets() + stream_->puts();  // the channels' heads moved
  return n;
}

void PacketEngine::rearm(Cycle tick) {
  Watch& w = watch_;
  w.armed = false;
  w.interval = w.interval == 0 ? kFirstInterval : std::min(w.interval * 2, kMaxInterval);
  w.next_check = std::min<Cycle>(cfg_.max_cycles, tick + w.interval);
}

bool PacketEngine::same_as_snapshot() const {
  for (std::size_t i = 0; i < contexts_.size(); ++i) {
    const Context& c = *contexts_[i];
    const Watch::Saved& w = watch_.saved[i];
    const bool active = !select_ || active_[i];
    if (active != w.active) return false;
    if (!active) continue;
    if (c.round != w.round || !c.control.same_state(w.control) || !c.state.same_threads(w.regs, w.preds)) return false;
  }
  return true;
}

std::string PacketEngine::endless_loop_cause(const Context& x, Cycle tick) const {
  const bool timed = mode_ == RunMode::Timing;
  const auto where = [this](std::uint64_t pc) {
    const std::string loc = prog_.source().location(pc);
    return "pc " + std::to_string(pc) + (loc.rfind("pc ", 0) == 0 ? "" : " (" + loc + ")");
  };
  std::string msg = "endless loop: the state of every thread repeats after " +
                    std::to_string(fetched_now_ - watch_.fetched_at) + " instructions (" +
                    (timed ? "cycles " : "fetches ") + std::to_string(watch_.armed_at) + " to " +
                    std::to_string(tick) + ") that write no memory; " +
                    thread_list(x.control.mask(), S_, x.round_first) + " of round " + std::to_string(x.round) +
                    " loop here";
  const std::vector<std::string> open = x.control.describe_open_entries(where);
  if (open.empty()) {
    msg += "; no open control-stack entry";
  } else {
    msg += "; open control-stack entries: ";
    for (std::size_t i = 0; i < open.size(); ++i) msg += (i ? "; " : "") + open[i];
  }
  return msg;
}

bool PacketEngine::watch_point(Context& x, Cycle tick, std::string* error) {
  const bool timed = mode_ == RunMode::Timing;
  if (tick > cfg_.max_cycles)
    return fail(error, x,
                std::string("run limit exceeded: more than ") + std::to_string(cfg_.max_cycles) +
                    (timed ? " cycles" : " fetched instructions") +
                    " (core.max_cycles); probable endless loop; the frontend is stuck in round " +
                    std::to_string(x.round) + " with " + std::to_string(x.control.depth() - 1) +
                    " open control-stack entries");
  Watch& w = watch_;
  if (w.armed) {
    if (effects() != w.effects) {
      rearm(tick);  // memory was written (or global memory read): not provably the same
    } else if (x.index == w.context && x.control.pc() == w.pc && same_as_snapshot()) {
      return fail(error, x, endless_loop_cause(x, tick));
    } else if (tick >= w.until) {
      rearm(tick);
    }
    return true;
  }
  if (stop_check_ && stop_check_()) {
    stopped_ = true;
    return fail(error, x, "stopped on request");
  }
  w.armed = true;
  w.armed_at = tick;
  w.until = tick + std::max<Cycle>(w.interval / 16, 256);
  w.context = x.index;
  w.pc = x.control.pc();
  w.effects = effects();
  w.fetched_at = fetched_now_;
  w.saved.resize(contexts_.size());
  for (std::size_t i = 0; i < contexts_.size(); ++i) {
    const Context& c = *contexts_[i];
    Watch::Saved& saved = w.saved[i];
    c.control.save(saved.control);
    c.state.save_threads(saved.regs, saved.preds);
    saved.round = c.round;
    saved.active = !select_ || active_[i];
  }
  w.next_check = -1;
  return true;
}

}  // namespace par::core
