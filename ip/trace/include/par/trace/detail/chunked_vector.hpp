// An append-only sequence in fixed blocks: push_back never moves what is stored, so a long trace
// neither copies its events on growth nor touches twice the memory it keeps (with a plain vector,
// growth doubled the page faults, which dominated the recording cost).
#pragma once

#include <cstddef>
#include <memory>
#include <type_traits>
#include <vector>

namespace par::trace::detail {

template <class T, unsigned kBlockBits = 14>
class ChunkedVector {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_default_constructible_v<T>,
                "blocks are left uninitialised until written");

 public:
  static constexpr std::size_t kBlock = std::size_t{1} << kBlockBits;

  void push_back(const T& value) {
    if (size_ == blocks_.size() * kBlock) {
      // Default-initialised: pages are touched (and paid for) only when written.
      blocks_.push_back(std::unique_ptr<T[]>(new T[kBlock]));
    }
    blocks_[size_ >> kBlockBits][size_ & (kBlock - 1)] = value;
    ++size_;
  }
  const T& operator[](std::size_t i) const { return blocks_[i >> kBlockBits][i & (kBlock - 1)]; }
  T& at(std::size_t i) { return blocks_[i >> kBlockBits][i & (kBlock - 1)]; }  // unchecked, for updates
  std::size_t size() const noexcept { return size_; }
  bool empty() const noexcept { return size_ == 0; }
  // Bytes reserved by the blocks and the block table.
  std::size_t memory_bytes() const noexcept {
    return blocks_.size() * kBlock * sizeof(T) + blocks_.capacity() * sizeof(blocks_[0]);
  }

 private:
  std::vector<std::unique_ptr<T[]>> blocks_;
  std::size_t size_ = 0;
};

}  // namespace par::trace::detail
