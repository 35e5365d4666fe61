// The DRAM's sparse data store: zeros where nothing was written, pages allocated on first write,
// accesses across page and leaf boundaries, byte enables, the last byte of the capacity.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "backing_store.hpp"

namespace par::dram {
namespace {

constexpr std::uint64_t kPage = BackingStore::kPageBytes;

TEST(BackingStore, UnwrittenBytesReadAsZeroAndAllocateNothing) {
  BackingStore s(std::uint64_t{1} << 31);
  std::vector<std::uint8_t> buf(100, 0xAA);
  s.read(12345, buf.data(), buf.size());
  EXPECT_EQ(buf, std::vector<std::uint8_t>(100, 0));
  EXPECT_EQ(s.pages(), 0u);
}

TEST(BackingStore, AccessesAcrossPagesAndLeaves) {
  const std::uint64_t capacity = std::uint64_t{1} << 31;
  BackingStore s(capacity);
  // A write over the boundary between two pages of different leaves (512 pages per leaf), one
  // ending at the last byte of the capacity, one at address 0.
  const std::uint64_t across = 512 * kPage - 3;
  std::vector<std::uint8_t> data{1, 2, 3, 4, 5, 6, 7};
  s.write(across, data.data(), data.size());
  s.write(capacity - 2, data.data(), 2);
  s.write(0, data.data(), 1);
  EXPECT_EQ(s.pages(), 4u);
  std::vector<std::uint8_t> back(9, 0xAA);
  s.read(across - 1, back.data(), back.size());
  EXPECT_EQ(back, (std::vector<std::uint8_t>{0, 1, 2, 3, 4, 5, 6, 7, 0}));
  std::vector<std::uint8_t> end(3, 0xAA);
  s.read(capacity - 3, end.data(), end.size());
  EXPECT_EQ(end, (std::vector<std::uint8_t>{0, 1, 2}));
  // Writing a page again allocates nothing more.
  s.write(across + 1, data.data(), 2);
  EXPECT_EQ(s.pages(), 4u);
}

// A line (64 bytes) and other lengths within one page: the inline path copies exactly the bytes
// asked for; nothing at the end of the capacity allocates or reads beyond it.
TEST(BackingStore, AccessesWithinOnePage) {
  const std::uint64_t capacity = 512 * kPage;  // one leaf
  BackingStore s(capacity);
  std::vector<std::uint8_t> line(64), back(66, 0xAA);
  for (std::size_t i = 0; i < line.size(); ++i) line[i] = static_cast<std::uint8_t>(i + 1);
  s.read(kPage + 64, back.data() + 1, 64);
  EXPECT_EQ(back, [] {
    std::vector<std::uint8_t> v(66, 0);
    v.front() = v.back() = 0xAA;
    return v;
  }());
  s.write(kPage + 64, line.data(), line.size());
  s.write(kPage + 200, line.data(), 5);
  EXPECT_EQ(s.pages(), 1u);
  s.read(kPage + 64, back.data() + 1, 64);
  EXPECT_EQ(back.front(), 0xAA);
  EXPECT_EQ(back.back(), 0xAA);
  EXPECT_EQ(std::vector<std::uint8_t>(back.begin() + 1, back.end() - 1), line);
  std::vector<std::uint8_t> seven(7, 0xAA);
  s.read(kPage + 199, seven.data(), seven.size());
  EXPECT_EQ(seven, (std::vector<std::uint8_t>{0, 1, 2, 3, 4, 5, 0}));
  s.write(capacity, line.data(), 0);
  s.read(capacity, back.data(), 0);
  EXPECT_EQ(s.pages(), 1u);
}

TEST(BackingStore, ByteEnablesRepeatOverTheData) {
  BackingStore s(1 << 20);
  std::vector<std::uint8_t> data{1, 2, 3, 4, 5, 6};
  const std::uint8_t enable[2] = {0xff, 0};
  s.write(kPage - 2, data.data(), data.size(), enable, 2);  // across a page boundary
  std::vector<std::uint8_t> back(6, 0xAA);
  s.read(kPage - 2, back.data(), back.size());
  EXPECT_EQ(back, (std::vector<std::uint8_t>{1, 0, 3, 0, 5, 0}));
}

}  // namespace
}  // namespace par::dram
