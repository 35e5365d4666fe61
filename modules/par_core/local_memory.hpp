// Per-core local memory: a byte-addressed window [base, base + size) with fixed latency
// (core.dcache_latency). Storage grows on demand up to the window size, so a large window costs
// nothing until it is written.
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

namespace par::core {

class LocalMemory {
 public:
  LocalMemory(std::uint64_t base, std::uint64_t size) : base_(base), size_(size) {}

  std::uint64_t base() const { return base_; }
  std::uint64_t size() const { return size_; }
  bool contains(std::uint64_t addr, std::uint64_t len) const {
    return addr >= base_ && len <= size_ && addr - base_ <= size_ - len;
  }

  // Callers check contains() first.
  std::uint64_t load(std::uint64_t addr, int len) const {
    const std::uint64_t off = addr - base_;
    std::uint64_t v = 0;
    if (off + static_cast<std::uint64_t>(len) <= bytes_.size()) std::memcpy(&v, &bytes_[off], static_cast<std::size_t>(len));
    else load_slow(off, len, v);
    return v;  // little-endian host (static_assert in local_memory.cpp)
  }
  void store(std::uint64_t addr, int len, std::uint64_t v) {
    const std::uint64_t off = addr - base_;
    if (off + static_cast<std::uint64_t>(len) > bytes_.size()) grow(off + static_cast<std::uint64_t>(len));
    std::memcpy(&bytes_[off], &v, static_cast<std::size_t>(len));
  }
  void write_block(std::uint64_t addr, const std::uint8_t* data, std::size_t len);
  void read_block(std::uint64_t addr, std::uint8_t* data, std::size_t len) const;

 private:
  void grow(std::uint64_t min_size);
  void load_slow(std::uint64_t off, int len, std::uint64_t& v) const;

  std::uint64_t base_;
  std::uint64_t size_;
  std::vector<std::uint8_t> bytes_;
};

}  // namespace par::core
