#include "par/cachekit/mshr_file.hpp"

#include <algorithm>
#include <cassert>

namespace par::cachekit {

namespace {
std::size_t leaves_for(unsigned entries) {
  std::size_t n = 1;
  while (n < entries) n *= 2;
  return n;
}
}  // namespace

MshrFile::MshrFile(unsigned entries)
    : lines_(entries, 0), ready_(entries + 1, 0), leaves_(leaves_for(entries)), win_(2 * leaves_) {
  ready_[entries] = ~ScTick{0};  // the padding never wins
  for (std::size_t i = 0; i < leaves_; ++i) win_[leaves_ + i] = static_cast<std::uint32_t>(std::min<std::size_t>(i, entries));
  // All free since time 0: the first entry wins everywhere it plays.
  for (std::size_t k = leaves_ - 1; k >= 1; --k) {
    const std::uint32_t l = win_[2 * k], r = win_[2 * k + 1];
    win_[k] = ready_[r] < ready_[l] ? r : l;
  }
}

void MshrFile::allocate(std::uint64_t line, ScTick t, ScTick ready) {
  const std::uint32_t e = win_[1];
  assert(ready_[e] <= t && "MshrFile::allocate without a free entry");
  if (ready_[e] > t) return;
  lines_[e] = line;
  ready_[e] = ready;
  for (std::size_t k = (leaves_ + e) / 2; k >= 1; k /= 2) {
    const std::uint32_t l = win_[2 * k], r = win_[2 * k + 1];
    win_[k] = ready_[r] < ready_[l] ? r : l;
  }
}

unsigned MshrFile::busy(ScTick t) const {
  return static_cast<unsigned>(std::count_if(ready_.begin(), ready_.end() - 1, [t](ScTick r) { return r > t; }));
}

bool MshrFile::in_flight(std::uint64_t line, ScTick t) const {
  for (std::size_t i = 0; i < lines_.size(); ++i)
    if (lines_[i] == line && ready_[i] > t) return true;
  return false;
}

}  // namespace par::cachekit
