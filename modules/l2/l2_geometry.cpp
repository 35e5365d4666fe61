#include "l2_geometry.hpp"

namespace par::l2 {

namespace {
unsigned log2_of(std::uint64_t v) {
  unsigned n = 0;
  while ((std::uint64_t{1} << n) < v) ++n;
  return n;
}
}  // namespace

L2Geometry::L2Geometry(const L2Config& cfg)
    : banks_(cfg.banks),
      line_bytes_(cfg.line_bytes),
      line_shift_(log2_of(cfg.line_bytes)),
      chunk_shift_(log2_of(cfg.interleave())),
      lines_per_chunk_(cfg.interleave() / cfg.line_bytes),
      sets_(cfg.sets()),
      xor_hash_(cfg.xor_hash && cfg.banks > 1),
      bank_bits_(log2_of(cfg.banks)),
      banks_pow2_((cfg.banks & (cfg.banks - 1)) == 0),
      sets_pow2_((sets_ & (sets_ - 1)) == 0) {}

unsigned L2Geometry::bank_of(std::uint64_t addr) const {
  const std::uint64_t chunk = addr >> chunk_shift_;
  if (!xor_hash_) return static_cast<unsigned>(banks_pow2_ ? chunk & (banks_ - 1) : chunk % banks_);
  std::uint64_t bank = 0;
  for (std::uint64_t c = chunk; c != 0; c >>= bank_bits_) bank ^= c & (banks_ - 1);
  return static_cast<unsigned>(bank);
}

std::uint64_t L2Geometry::set_of(std::uint64_t addr) const {
  const std::uint64_t chunk = addr >> chunk_shift_;
  // For both mappings, (chunk / banks) identifies a chunk uniquely among those of one bank.
  const std::uint64_t local_chunk = xor_hash_ || banks_pow2_ ? chunk >> bank_bits_ : chunk / banks_;
  const std::uint64_t line_in_chunk = line_of(addr) & (lines_per_chunk_ - 1);
  const std::uint64_t index = local_chunk * lines_per_chunk_ + line_in_chunk;
  return sets_pow2_ ? index & (sets_ - 1) : index % sets_;
}

}  // namespace par::l2
