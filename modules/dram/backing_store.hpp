// Sparse data storage of the DRAM: 4 KiB pages allocated on first write; bytes never written read
// as zero. A 2 GiB LPDDR3 memory costs only the pages a program touches.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <unordered_map>

namespace par::dram {

class BackingStore {
 public:
  static constexpr std::uint64_t kPageBytes = 4096;

  // Copies `len` bytes at `address` into `dst` (zeros where nothing was written).
  void read(std::uint64_t address, std::uint8_t* dst, std::uint64_t len) const;
  // Copies `len` bytes from `src` to `address`. With byte enables, byte i is written only when
  // enable[i % enable_len] is non-zero (TLM-2.0 semantics).
  void write(std::uint64_t address, const std::uint8_t* src, std::uint64_t len,
             const std::uint8_t* enable = nullptr, std::uint64_t enable_len = 0);
  std::size_t pages() const { return pages_.size(); }

 private:
  using Page = std::array<std::uint8_t, kPageBytes>;
  std::unordered_map<std::uint64_t, std::unique_ptr<Page>> pages_;
};

}  // namespace par::dram
