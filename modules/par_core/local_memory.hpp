// Per-core local memory: a byte-addressed window [base, base + size) with fixed latency
// (core.dcache_latency). The window is one anonymous mapping whose pages the OS creates on first
// touch, zero-filled: a 64 MiB (or larger) window costs nothing until it is used, never-written
// bytes read as zero, and every access is a plain pointer access.
#pragma once

#include <cstdint>
#include <cstring>

namespace par::core {

class LocalMemory {
 public:
  LocalMemory(std::uint64_t base, std::uint64_t size);
  ~LocalMemory();
  LocalMemory(const LocalMemory&) = delete;
  LocalMemory& operator=(const LocalMemory&) = delete;

  std::uint64_t base() const { return base_; }
  std::uint64_t size() const { return size_; }
  bool contains(std::uint64_t addr, std::uint64_t len) const {
    return addr >= base_ && len <= size_ && addr - base_ <= size_ - len;
  }
  // Host pointer of a byte address inside the window (callers check contains()).
  std::uint8_t* at(std::uint64_t addr) const { return bytes_ + (addr - base_); }

  std::uint64_t load(std::uint64_t addr, int len) const {
    std::uint64_t v = 0;
    std::memcpy(&v, at(addr), static_cast<std::size_t>(len));
    return v;  // little-endian host (static_assert in local_memory.cpp)
  }
  void store(std::uint64_t addr, int len, std::uint64_t v) {
    std::memcpy(at(addr), &v, static_cast<std::size_t>(len));
  }
  void write_block(std::uint64_t addr, const std::uint8_t* data, std::size_t len) {
    if (len) std::memcpy(at(addr), data, len);
  }
  void read_block(std::uint64_t addr, std::uint8_t* data, std::size_t len) const {
    if (len) std::memcpy(data, at(addr), len);
  }

 private:
  std::uint64_t base_;
  std::uint64_t size_;
  std::uint8_t* bytes_;
};

}  // namespace par::core
