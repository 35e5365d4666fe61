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

#include "par/simkit/line_bytes.hpp"

namespace par::dram {

class BackingStore {
 public:
  static constexpr std::uint64_t kPageBytes = 4096;

  // Holds the addresses [0, capacity).
  explicit BackingStore(std::uint64_t capacity);

  // Copies `len` bytes at `address` into `dst` (zeros where nothing was written). Inline for an
  // access within one page, as every memory transaction is.
  void read(std::uint64_t address, std::uint8_t* dst, std::uint64_t len) const {
    const std::uint64_t offset = address % kPageBytes;
    if (offset + len > kPageBytes || len == 0) return read_pages(address, dst, len);
    const Page* p = find(address / kPageBytes);
    if (p == nullptr)
      simkit::zero_line_bytes(dst, len);
    else
      simkit::copy_line_bytes(dst, p->data() + offset, len);
  }
  // Copies `len` bytes from `src` to `address`. With byte enables, byte i is written only when
  // enable[i % enable_len] is non-zero (TLM-2.0 semantics).
  void write(std::uint64_t address, const std::uint8_t* src, std::uint64_t len,
             const std::uint8_t* enable = nullptr, std::uint64_t enable_len = 0) {
    const std::uint64_t offset = address % kPageBytes;
    if (offset + len > kPageBytes || len == 0 || (enable != nullptr && enable_len != 0))
      return write_pages(address, src, len, enable, enable_len);
    simkit::copy_line_bytes(page(address / kPageBytes).data() + offset, src, len);
  }
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
  Page& page(std::uint64_t n) {  // allocated (zero-filled) on first use
    Leaf* leaf = leaves_[n / kLeafPages].get();
    Page* p = leaf != nullptr ? (*leaf)[n % kLeafPages].get() : nullptr;
    return p != nullptr ? *p : allocate(n);
  }
  Page& allocate(std::uint64_t n);
  void read_pages(std::uint64_t address, std::uint8_t* dst, std::uint64_t len) const;
  void write_pages(std::uint64_t address, const std::uint8_t* src, std::uint64_t len,
                   const std::uint8_t* enable, std::uint64_t enable_len);
  std::vector<std::unique_ptr<Leaf>> leaves_;
  std::size_t pages_ = 0;
};

}  // namespace par::dram
