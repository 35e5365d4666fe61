#include "par/isa/stream.hpp"

#include <utility>

namespace par::isa::stream {

Router::Router(int n)
    : n_(n),
      rank_(static_cast<std::size_t>(n), 0),
      scan_(static_cast<std::size_t>(n), 0),
      port_(static_cast<std::size_t>(n), 0),
      next_(static_cast<std::size_t>(n), 0) {}

int Router::compact(const std::uint8_t* cond) {
  // Inclusive scan: level d adds the value 2^d positions to the left, as the prefix network does.
  for (int p = 0; p < n_; ++p) scan_[static_cast<std::size_t>(p)] = cond[p] ? 1 : 0;
  for (int d = 1; d < n_; d *= 2) {
    for (int p = n_ - 1; p >= d; --p) scan_[static_cast<std::size_t>(p)] += scan_[static_cast<std::size_t>(p - d)];
  }
  for (int p = 0; p < n_; ++p)
    rank_[static_cast<std::size_t>(p)] = scan_[static_cast<std::size_t>(p)] - (cond[p] ? 1 : 0);
  return n_ > 0 ? scan_[static_cast<std::size_t>(n_ - 1)] : 0;
}

void Router::rotate(std::uint64_t cur) {
  const auto n = static_cast<std::uint64_t>(n_);
  shift_ = static_cast<int>(cur % n);
  base_row_ = cur / n;
  for (int r = 0; r < n_; ++r) port_[static_cast<std::size_t>(r)] = r;
  // Stage j rotates by 2^j when bit j of the shift is set: output r takes input r + 2^j mod N.
  for (int step = 1; step <= shift_; step *= 2) {
    if ((shift_ & step) == 0) continue;
    for (int r = 0; r < n_; ++r)
      next_[static_cast<std::size_t>(r)] = port_[static_cast<std::size_t>((r + step) % n_)];
    std::swap(port_, next_);
  }
}

template <bool kPut, class Word>
Status Router::access(Srf& srf, Descriptor& d, const std::uint8_t* cond, Word* data) {
  const int k = compact(cond);
  if (d.cur + static_cast<std::uint64_t>(k) > d.fin) return kPut ? Status::Full : Status::Empty;
  rotate(d.cur);
  for (int p = 0; p < n_; ++p) {
    if (!cond[p]) continue;
    const int bank = port(rank_[static_cast<std::size_t>(p)]);
    std::uint64_t& cell = srf.cell(bank, row(bank));
    if constexpr (kPut) cell = data[p];
    else data[p] = cell;
  }
  d.cur += static_cast<std::uint64_t>(k);
  return Status::Ok;
}

Status Router::get(Srf& srf, Descriptor& d, const std::uint8_t* cond, std::uint64_t* rd) {
  return access<false>(srf, d, cond, rd);
}

Status Router::put(Srf& srf, Descriptor& d, const std::uint8_t* cond, const std::uint64_t* rs) {
  return access<true>(srf, d, cond, rs);
}

}  // namespace par::isa::stream
