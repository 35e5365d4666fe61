#include "local_memory.hpp"

#include <sys/mman.h>

#include <new>

namespace par::core {

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
              "PAR memory is little-endian; this model copies host words directly");

LocalMemory::LocalMemory(std::uint64_t base, std::uint64_t size) : base_(base), size_(size) {
  // MAP_NORESERVE: only touched pages count against memory.
  void* p = mmap(nullptr, static_cast<std::size_t>(size), PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
  bytes_ = static_cast<std::uint8_t*>(p);
}

LocalMemory::~LocalMemory() { munmap(bytes_, static_cast<std::size_t>(size_)); }

}  // namespace par::core
