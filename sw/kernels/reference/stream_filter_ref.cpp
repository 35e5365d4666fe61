#include "stream_filter_ref.hpp"

namespace par::kernels {

std::vector<std::int64_t> stream_filter_input(std::size_t n, std::uint64_t seed) {
  std::vector<std::int64_t> x(n);
  std::uint64_t s = seed;
  for (std::int64_t& v : x) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    v = static_cast<std::int64_t>((s >> 33) % 2000) - 1000;
  }
  return x;
}

std::vector<std::int64_t> stream_filter(const std::vector<std::int64_t>& x, std::int64_t t) {
  std::vector<std::int64_t> kept;
  for (std::int64_t v : x)
    if (v > t) kept.push_back(v);
  return kept;
}

}  // namespace par::kernels
