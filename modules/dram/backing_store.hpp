// Sparse data storage of the DRAM: 4 KiB pages allocated on first write; bytes never written read
// as zero. A 2 GiB LPDDR3 memory costs only the pages a program touches.
//
// Pages are found through a two-level table indexed by page number (a directory of leaves of
// kLeafPages page pointers, each leaf allocated with its first page): a lookup is two loads, as
// every memory transaction makes one.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

namespace par::dram {

class BackingStore {
 public:
  static constexpr std::uint64_t kPageBytes = 4096;

  // Holds the addresses [0, capacity).
  explicit BackingStore(std::uint64_t capacity);

  // Copies `len` bytes at `address` into `dst` (zeros where nothing was written).
  void read(std::uint64_t address, std::uint8_t* dst, std::uint64_t len) const;
  // Copies `len` bytes from `src` to `address`. With byte enables, byte i is written only when
  // enable[i % enable_len] is non-zero (TLM-2.0 semantics).
  void write(std::uint64_t address, const std::uint8_t* src, std::uint64_t len,
             const std::uint8_t* enable = nullptr, std::uint64_t enable_len = 0);
  std::size_t pages() const { return pages_; }

 private:
  using Page = std::array<std::uint8_t, kPageBytes>;
  static constexpr std::uint64_t kLeafPages = 512;
  using Leaf = std::array<std::unique_ptr<Page>, kLeafPages>;

  // The page holding page number `n`, or null when it was never written.
  const Page* find(std::uint64_t n) const {
    const Leaf* leaf = leaves_[n / kLeafPages].get();
    return leaf != nullptr ? (*leaf)[n % kLeafPages].get() : nullptr;
  }
  Page& page(std::uint64_t n);  // allocated (zero-filled) on first use

  std::vector<std::unique_ptr<Leaf>> leaves_;
  std::size_t pages_ = 0;
};

}  // namespace par::dram
