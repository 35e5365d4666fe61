#include "share_planner.hpp"

#include <algorithm>
#include <stdexcept>

namespace par::sched {

bool operator==(const Share& a, const Share& b) {
  return a.core == b.core && a.first_thread == b.first_thread && a.threads == b.threads;
}

std::vector<Share> static_shares(std::int64_t threads, std::size_t cores) {
  if (cores == 0) throw std::invalid_argument("static_shares: no cores");
  std::vector<Share> shares;
  if (threads <= 0) return shares;
  // Unsigned arithmetic: n + C - 1 could overflow int64 near its maximum.
  const std::uint64_t n = static_cast<std::uint64_t>(threads);
  const std::uint64_t per_core = n / cores + (n % cores != 0 ? 1 : 0);
  for (std::size_t c = 0; c < cores; ++c) {
    const std::uint64_t begin = std::min<std::uint64_t>(n, per_core * c);
    const std::uint64_t end = std::min<std::uint64_t>(n, per_core * (c + 1));
    if (end > begin) shares.push_back(Share{c, begin, static_cast<std::int64_t>(end - begin)});
  }
  return shares;
}

ChunkCursor::ChunkCursor(std::int64_t threads, std::int64_t chunk)
    : total_(threads > 0 ? static_cast<std::uint64_t>(threads) : 0),
      chunk_(static_cast<std::uint64_t>(chunk)) {
  if (chunk < 1) throw std::invalid_argument("ChunkCursor: chunk must be at least 1");
}

Share ChunkCursor::take(std::size_t core) {
  const std::uint64_t count = std::min(chunk_, total_ - next_);
  const Share s{core, next_, static_cast<std::int64_t>(count)};
  next_ += count;
  return s;
}

}  // namespace par::sched
