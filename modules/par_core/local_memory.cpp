#include "local_memory.hpp"

#include <algorithm>

namespace par::core {

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
              "PAR memory is little-endian; this model copies host words directly");

void LocalMemory::grow(std::uint64_t min_size) {
  // Geometric growth keeps streaming stores amortised O(1).
  const std::uint64_t target = std::min(size_, std::max(min_size, 2 * static_cast<std::uint64_t>(bytes_.size())));
  bytes_.resize(static_cast<std::size_t>(target), 0);
}

void LocalMemory::load_slow(std::uint64_t off, int len, std::uint64_t& v) const {
  // Bytes never written read as zero.
  for (int i = 0; i < len; ++i) {
    const std::uint64_t o = off + static_cast<std::uint64_t>(i);
    if (o < bytes_.size()) v |= static_cast<std::uint64_t>(bytes_[o]) << (8 * i);
  }
}

void LocalMemory::write_block(std::uint64_t addr, const std::uint8_t* data, std::size_t len) {
  if (len == 0) return;
  const std::uint64_t off = addr - base_;
  if (off + len > bytes_.size()) grow(off + len);
  std::memcpy(&bytes_[off], data, len);
}

void LocalMemory::read_block(std::uint64_t addr, std::uint8_t* data, std::size_t len) const {
  const std::uint64_t off = addr - base_;
  for (std::size_t i = 0; i < len; ++i) {
    const std::uint64_t o = off + i;
    data[i] = o < bytes_.size() ? bytes_[o] : 0;
  }
}

}  // namespace par::core
