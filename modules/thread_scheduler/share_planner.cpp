#include "share_planner.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace par::sched {

bool operator==(const Share& a, const Share& b) {
  return a.core == b.core && a.first_thread == b.first_thread && a.threads == b.threads;
}

std::vector<Share> static_shares(std::int64_t threads, const std::vector<std::uint64_t>& core_slots) {
  if (core_slots.empty()) throw std::invalid_argument("static_shares: no cores");
  std::uint64_t g = 0;
  for (const std::uint64_t s : core_slots) {
    if (s == 0) throw std::invalid_argument("static_shares: a core with no thread slot");
    g = std::gcd(g, s);
  }
  std::vector<Share> shares;
  if (threads <= 0) return shares;
  // q * W < N + W: with W <= 2^32 (a core has at most 256 x 64 slots) no product overflows
  // uint64 for any int64 N. Unsigned: n + W - 1 could overflow int64.
  std::uint64_t total = 0;
  for (const std::uint64_t s : core_slots) {
    total += s / g;
    if (total > (std::uint64_t{1} << 32)) throw std::invalid_argument("static_shares: more than 2^32 weight units");
  }
  const std::uint64_t n = static_cast<std::uint64_t>(threads);
  const std::uint64_t per_unit = n / total + (n % total != 0 ? 1 : 0);
  std::uint64_t units = 0;
  for (std::size_t c = 0; c < core_slots.size(); ++c) {
    const std::uint64_t begin = std::min<std::uint64_t>(n, per_unit * units);
    units += core_slots[c] / g;
    const std::uint64_t end = std::min<std::uint64_t>(n, per_unit * units);
    if (end > begin) shares.push_back(Share{c, begin, static_cast<std::int64_t>(end - begin)});
  }
  return shares;
}

std::vector<Share> static_shares(std::int64_t threads, std::size_t cores) {
  return static_shares(threads, std::vector<std::uint64_t>(cores, 1));
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
