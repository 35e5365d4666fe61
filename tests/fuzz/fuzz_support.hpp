// Shared by the fuzz targets: reading structured choices from the fuzzer's bytes, and stopping
// with a message when a target finds a property violated (libFuzzer reports the input).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace par::fuzz {

// Consumes the input from the front; once it runs out every read gives 0, so any input
// (including the empty one) describes a complete choice.
class ByteReader {
 public:
  ByteReader(const std::uint8_t* data, std::size_t size) : p_(data), n_(size) {}
  std::uint8_t byte() { return pos_ < n_ ? p_[pos_++] : 0; }
  std::uint64_t u64() {
    std::uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v |= std::uint64_t{byte()} << (8 * i);
    return v;
  }
  // A value in [lo, hi] (hi - lo < 256).
  int in(int lo, int hi) { return lo + byte() % (hi - lo + 1); }
  bool coin() { return (byte() & 1) != 0; }
  std::size_t left() const { return n_ - pos_; }

 private:
  const std::uint8_t* p_;
  std::size_t n_;
  std::size_t pos_ = 0;
};

// A property of the code under test does not hold: print why and abort (a finding).
[[noreturn]] inline void violated(const std::string& what) {
  std::fprintf(stderr, "fuzz property violated: %s\n", what.c_str());
  std::fflush(stderr);
  std::abort();
}

}  // namespace par::fuzz
