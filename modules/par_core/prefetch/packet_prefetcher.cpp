#include "prefetch/packet_prefetcher.hpp"

#include <algorithm>

namespace par::core {

PacketPrefetcher::PacketPrefetcher(const PrefetchConfig& cfg, std::uint64_t line_bytes, std::uint64_t local_base,
                                   std::uint64_t local_size, int slots, PrefetchPort& port)
    : cfg_(cfg),
      line_bytes_(line_bytes),
      local_base_(local_base),
      local_size_(local_size),
      slots_(static_cast<std::uint64_t>(slots)),
      port_(port) {}

void PacketPrefetcher::begin_packet(std::vector<AffineLoad> loads, std::uint64_t first_thread,
                                    std::uint64_t threads) {
  loads_ = std::move(loads);
  last_line_.assign(loads_.size(), 0);
  previous_lines_.clear();
  first_thread_ = first_thread;
  threads_ = threads;
  rounds_ = (threads + slots_ - 1) / slots_;
  next_round_ = static_cast<std::uint64_t>(cfg_.early_ignore);
  pending_.clear();
  pending_bytes_ = 0;
  queue_.clear();
  free_at_ = 0;
  in_flight_.clear();
  counts_ = PrefetchCounts{};
  counts_.loads = static_cast<std::int64_t>(loads_.size());
}

void PacketPrefetcher::round_started(std::uint64_t round, Cycle at) {
  // A round the lanes have started is not worth decoding any more, except the one starting now:
  // its first loads are still a few cycles away.
  next_round_ = std::max(next_round_, round);
  refill(at);
}

void PacketPrefetcher::round_ended(std::uint64_t round, Cycle at) {
  // The lanes acknowledge the round: its bytes leave the runahead counter, and its lines that
  // have not left yet are of no use any more.
  const auto p = std::find_if(pending_.begin(), pending_.end(), [round](const Pending& e) { return e.round == round; });
  if (p != pending_.end()) {
    pending_bytes_ -= p->bytes;
    pending_.erase(p);
  }
  const auto kept = std::remove_if(queue_.begin(), queue_.end(), [round](const Line& l) { return l.round == round; });
  counts_.unsent += queue_.end() - kept;
  queue_.erase(kept, queue_.end());
  refill(at);
}

PrefetchCounts PacketPrefetcher::end_packet() {
  counts_.unsent += static_cast<std::int64_t>(queue_.size());
  queue_.clear();
  pending_.clear();
  pending_bytes_ = 0;
  PrefetchCounts c = counts_;
  counts_ = PrefetchCounts{};
  return c;
}

void PacketPrefetcher::refill(Cycle at) {
  while (next_round_ < rounds_ && pending_.size() < static_cast<std::size_t>(cfg_.queue_rounds) &&
         (cfg_.byte_limit == 0 || pending_bytes_ < cfg_.byte_limit))
    decode(next_round_++, at);
  send_due(at);
}

// The lines of one round: every load's addresses over the round's threads, each line once, in
// load order and, within a load, thread order (the order the lanes will want them).
void PacketPrefetcher::decode(std::uint64_t round, Cycle at) {
  const std::uint64_t done = round * slots_;
  const std::uint64_t first = first_thread_ + done;
  const std::uint64_t count = std::min(slots_, threads_ - done);
  const std::uint64_t mask = ~(line_bytes_ - 1);
  round_lines_.clear();
  for (std::size_t k = 0; k < loads_.size(); ++k) {
    const AffineLoad& load = loads_[k];
    for (std::uint64_t i = 0; i < count; ++i) {
      const std::uint64_t a = load.address(first + i);
      if (a - local_base_ < local_size_) continue;  // the core's local memory
      const std::uint64_t line = a & mask;
      if (line + 1 == last_line_[k]) continue;  // consecutive threads on one line
      last_line_[k] = line + 1;
      round_lines_.emplace_back(line, static_cast<std::uint32_t>(round_lines_.size()));
    }
  }
  // Each line once (several loads may touch it): keep its first occurrence; and not again if the
  // round decoded before named it (rounds share the lines at their boundaries).
  std::sort(round_lines_.begin(), round_lines_.end());
  round_lines_.erase(std::unique(round_lines_.begin(), round_lines_.end(),
                                 [](const auto& a, const auto& b) { return a.first == b.first; }),
                     round_lines_.end());
  order_lines_.clear();
  for (const auto& l : round_lines_) order_lines_.push_back(l.first);
  round_lines_.erase(std::remove_if(round_lines_.begin(), round_lines_.end(),
                                    [this](const auto& l) {
                                      return std::binary_search(previous_lines_.begin(), previous_lines_.end(),
                                                                l.first);
                                    }),
                     round_lines_.end());
  previous_lines_.swap(order_lines_);
  std::sort(round_lines_.begin(), round_lines_.end(),
            [](const auto& a, const auto& b) { return a.second < b.second; });
  for (const auto& l : round_lines_) queue_.push_back(Line{round, l.first, at});
  const std::uint64_t bytes = round_lines_.size() * line_bytes_;
  pending_.push_back(Pending{round, bytes});
  pending_bytes_ += bytes;
  ++counts_.rounds;
}

// Sends queued lines, one per cycle, each as soon as fewer than max_outstanding requests are in
// flight; stops at the first that would have to wait beyond `at` (a later event sends it).
void PacketPrefetcher::send_due(Cycle at) {
  const auto limit = static_cast<std::size_t>(cfg_.max_outstanding);
  while (!queue_.empty()) {
    const Line& l = queue_.front();
    Cycle t = std::max(l.ready, free_at_);
    while (!in_flight_.empty() && in_flight_.front() <= t) in_flight_.pop_front();
    if (in_flight_.size() >= limit) {
      const Cycle slot = in_flight_.front();
      if (slot > at) return;
      counts_.stall_cycles += static_cast<std::int64_t>(slot - t);
      t = slot;
      in_flight_.pop_front();
    }
    Cycle back = t;
    if (!port_.prefetch(l.address, static_cast<unsigned>(line_bytes_), t, back)) ++counts_.errors;
    ++counts_.issued;
    counts_.bytes += static_cast<std::int64_t>(line_bytes_);
    counts_.latency_sum += static_cast<std::int64_t>(back - t);
    in_flight_.push(std::max(back, t + 1));
    free_at_ = t + 1;
    queue_.pop_front();
  }
}

}  // namespace par::core
