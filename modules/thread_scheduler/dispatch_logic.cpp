#include "dispatch_logic.hpp"

#include <stdexcept>
#include <string>
#include <utility>

namespace par::sched {

DispatchLogic::DispatchLogic(const SchedulerConfig& cfg, std::size_t cores)
    : DispatchLogic(cfg, std::vector<std::uint64_t>(cores, 1)) {}

DispatchLogic::DispatchLogic(const SchedulerConfig& cfg, std::vector<std::uint64_t> core_slots)
    : policy_(checked(cfg).policy),
      chunk_(cfg.chunk_threads),
      overlap_(cfg.overlap_packets),
      depth_(cfg.queue_depth),
      core_slots_(std::move(core_slots)),
      core_busy_(core_slots_.size(), false) {
  if (core_slots_.empty()) throw std::invalid_argument("thread scheduler: no PAR core is bound to `cores`");
  for (std::size_t c = 0; c < core_slots_.size(); ++c)
    if (core_slots_[c] == 0)
      throw std::invalid_argument("thread scheduler: core " + std::to_string(c) + " has no thread slot");
}

std::uint64_t DispatchLogic::submit(const Command& cmd) {
  if (full()) throw std::logic_error("DispatchLogic::submit: the queue is full");
  Packet p{++submitted_, cmd, State::Queued, {}, ChunkCursor(cmd.threads, chunk_), 0, false};
  if (policy_ == Policy::Static) p.static_pending = static_shares(cmd.threads, core_slots_);
  packets_.push_back(std::move(p));
  ++queued_;
  ++outstanding_;
  return submitted_;
}

DispatchLogic::Packet& DispatchLogic::packet(std::uint64_t seq) {
  return const_cast<Packet&>(static_cast<const DispatchLogic*>(this)->packet(seq));
}

const DispatchLogic::Packet& DispatchLogic::packet(std::uint64_t seq) const {
  if (packets_.empty() || seq < packets_.front().seq || seq > packets_.back().seq)
    throw std::out_of_range("thread scheduler: packet " + std::to_string(seq) + " is not outstanding");
  const Packet& p = packets_[seq - packets_.front().seq];
  if (p.state == State::Finished)
    throw std::out_of_range("thread scheduler: packet " + std::to_string(seq) + " has finished");
  return p;
}

bool DispatchLogic::has_work(const Packet& p) const {
  if (p.failed) return false;  // shares not yet launched are dropped
  return policy_ == Policy::Static ? !p.static_pending.empty() : !p.chunks.done();
}

std::optional<Share> DispatchLogic::pick(Packet& p) {
  if (policy_ == Policy::Static) {
    for (auto it = p.static_pending.begin(); it != p.static_pending.end(); ++it) {
      if (core_busy_[it->core]) continue;
      const Share s = *it;
      p.static_pending.erase(it);
      return s;
    }
    return std::nullopt;
  }
  for (std::size_t c = 0; c < core_busy_.size(); ++c)
    if (!core_busy_[c]) return p.chunks.take(c);
  return std::nullopt;
}

Action DispatchLogic::launch(Packet& p, const Share& s) {
  if (p.state == State::Queued) {
    p.state = State::Active;
    --queued_;
  }
  core_busy_[s.core] = true;
  ++p.running;
  return Action{Action::Kind::Launch, p.seq, s};
}

Action DispatchLogic::complete(Packet& p) {
  if (p.state == State::Queued) --queued_;
  p.state = State::Signalling;
  return Action{Action::Kind::Complete, p.seq, Share{}};
}

std::optional<Action> DispatchLogic::next() {
  bool earlier_unfinished = false;
  for (Packet& p : packets_) {
    if (p.state == State::Finished) continue;
    if (p.state != State::Signalling) {
      if (p.cmd.threads <= 0) {
        if (earlier_unfinished) return std::nullopt;  // waits for every earlier packet
        return complete(p);
      }
      if (has_work(p)) {
        if (const std::optional<Share> s = pick(p)) return launch(p, *s);
      } else if (p.running == 0) {
        return complete(p);
      }
    }
    // p is unfinished and cannot go further now.
    if (!overlap_) return std::nullopt;
    earlier_unfinished = true;
  }
  return std::nullopt;
}

void DispatchLogic::share_done(std::uint64_t seq, std::size_t core, bool ok) {
  Packet& p = packet(seq);
  if (p.running == 0 || !core_busy_.at(core))
    throw std::logic_error("thread scheduler: share_done without a running share");
  core_busy_[core] = false;
  --p.running;
  if (!ok) p.failed = true;
}

void DispatchLogic::fail(std::uint64_t seq) { packet(seq).failed = true; }

void DispatchLogic::publish_failure(std::uint64_t seq) { publish_failure(packet(seq)); }

void DispatchLogic::publish_failure(const Packet& p) {
  if (p.failed && (failed_seq_ == 0 || p.seq < failed_seq_)) failed_seq_ = p.seq;
}

void DispatchLogic::finish(std::uint64_t seq) {
  Packet& p = packet(seq);
  if (p.state != State::Signalling)
    throw std::logic_error("thread scheduler: finish of packet " + std::to_string(seq) + " before its completion");
  p.state = State::Finished;
  --outstanding_;
  ++completed_;
  publish_failure(p);
  while (!packets_.empty() && packets_.front().state == State::Finished) packets_.pop_front();
}

const Command& DispatchLogic::command(std::uint64_t seq) const { return packet(seq).cmd; }

bool DispatchLogic::packet_failed(std::uint64_t seq) const { return packet(seq).failed; }

std::uint64_t DispatchLogic::status() const {
  std::uint64_t s = 0;
  if (outstanding_ > 0) s |= kStatusBusy;
  if (error()) s |= kStatusError;
  if (full()) s |= kStatusQueueFull;
  return s;
}

}  // namespace par::sched
