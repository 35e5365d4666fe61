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
      sets_pow2_((sets_ & (sets_ - 1)) == 0),
      shift_local_(xor_hash_ || banks_pow2_) {}

}  // namespace par::l2
