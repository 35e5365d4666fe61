// Backing store of the Acme example DRAM: 4 KiB pages allocated on first write; unwritten bytes
// read as zero.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <memory>
#include <unordered_map>

namespace acme {

class SparseMemory {
 public:
  void read(std::uint64_t address, unsigned char* dst, std::uint64_t length) const {
    while (length > 0) {
      const std::uint64_t offset = address % kPage;
      const std::uint64_t n = std::min(length, kPage - offset);
      const auto it = pages_.find(address / kPage);
      if (it == pages_.end()) std::memset(dst, 0, n);
      else std::memcpy(dst, it->second->data() + offset, n);
      address += n;
      dst += n;
      length -= n;
    }
  }
  // Writes the bytes whose byte enable is non-zero (all when `enables` is null); enables repeat
  // with period enables_length.
  void write(std::uint64_t address, const unsigned char* src, std::uint64_t length,
             const unsigned char* enables = nullptr, std::uint64_t enables_length = 0) {
    for (std::uint64_t i = 0; i < length;) {
      const std::uint64_t offset = (address + i) % kPage;
      const std::uint64_t n = std::min(length - i, kPage - offset);
      auto& page = pages_[(address + i) / kPage];
      if (!page) page = std::make_unique<Page>(Page{});
      for (std::uint64_t k = 0; k < n; ++k)
        if (enables == nullptr || enables_length == 0 || enables[(i + k) % enables_length] != 0)
          (*page)[offset + k] = src[i + k];
      i += n;
    }
  }

 private:
  static constexpr std::uint64_t kPage = 4096;
  using Page = std::array<unsigned char, kPage>;
  std::unordered_map<std::uint64_t, std::unique_ptr<Page>> pages_;
};

}  // namespace acme
