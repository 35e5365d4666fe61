#include "backing_store.hpp"

#include <algorithm>
#include <cstring>

namespace par::dram {

void BackingStore::read(std::uint64_t address, std::uint8_t* dst, std::uint64_t len) const {
  while (len > 0) {
    const std::uint64_t offset = address % kPageBytes;
    const std::uint64_t n = std::min(len, kPageBytes - offset);
    const auto it = pages_.find(address / kPageBytes);
    if (it == pages_.end())
      std::memset(dst, 0, n);
    else
      std::memcpy(dst, it->second->data() + offset, n);
    address += n;
    dst += n;
    len -= n;
  }
}

void BackingStore::write(std::uint64_t address, const std::uint8_t* src, std::uint64_t len,
                         const std::uint8_t* enable, std::uint64_t enable_len) {
  std::uint64_t i = 0;  // index into the transaction, for the byte-enable pattern
  while (i < len) {
    const std::uint64_t offset = address % kPageBytes;
    const std::uint64_t n = std::min(len - i, kPageBytes - offset);
    auto& page = pages_[address / kPageBytes];
    if (!page) page = std::make_unique<Page>(Page{});  // zero-filled
    std::uint8_t* p = page->data() + offset;
    if (enable == nullptr || enable_len == 0) {
      std::memcpy(p, src + i, n);
    } else {
      for (std::uint64_t k = 0; k < n; ++k)
        if (enable[(i + k) % enable_len] != 0) p[k] = src[i + k];
    }
    address += n;
    i += n;
  }
}

}  // namespace par::dram
