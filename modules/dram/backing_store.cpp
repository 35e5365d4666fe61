#include "backing_store.hpp"

#include <algorithm>
#include <cstring>

namespace par::dram {

BackingStore::BackingStore(std::uint64_t capacity)
    : leaves_((capacity + kLeafPages * kPageBytes - 1) / (kLeafPages * kPageBytes)) {}

BackingStore::Page& BackingStore::allocate(std::uint64_t n) {
  std::unique_ptr<Leaf>& leaf = leaves_[n / kLeafPages];
  if (!leaf) leaf = std::make_unique<Leaf>();
  std::unique_ptr<Page>& p = (*leaf)[n % kLeafPages];
  if (!p) {
    p = std::make_unique<Page>(Page{});  // zero-filled
    ++pages_;
  }
  return *p;
}

void BackingStore::read_pages(std::uint64_t address, std::uint8_t* dst, std::uint64_t len) const {
  while (len > 0) {
    const std::uint64_t offset = address % kPageBytes;
    const std::uint64_t n = std::min(len, kPageBytes - offset);
    const Page* p = find(address / kPageBytes);
    if (p == nullptr)
      std::memset(dst, 0, n);
    else
      std::memcpy(dst, p->data() + offset, n);
    address += n;
    dst += n;
    len -= n;
  }
}

void BackingStore::write_pages(std::uint64_t address, const std::uint8_t* src, std::uint64_t len,
                               const std::uint8_t* enable, std::uint64_t enable_len) {
  std::uint64_t i = 0;  // index into the transaction, for the byte-enable pattern
  while (i < len) {
    const std::uint64_t offset = address % kPageBytes;
    const std::uint64_t n = std::min(len - i, kPageBytes - offset);
    std::uint8_t* p = page(address / kPageBytes).data() + offset;
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
