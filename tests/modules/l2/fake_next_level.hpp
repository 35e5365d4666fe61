// A next level for the plain cache models' unit tests (the L2 bank's DRAM, the L1's interconnect):
// a byte array with a fixed latency that records every timed call. Bytes start as i * 7 + 3.
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

#include "par/cachekit/request.hpp"

namespace par::l2::testing {

using cachekit::NextLevel;
using cachekit::ScTick;

constexpr ScTick kNs = 1000;  // ticks of 1 ps

class FakeNext : public NextLevel {
 public:
  struct Call {
    bool write;
    std::uint64_t addr;
    unsigned len;
    ScTick start;
  };
  explicit FakeNext(std::size_t size = 1 << 16, ScTick latency = 50 * kNs)
      : bytes(size), latency_(latency) {
    for (std::size_t i = 0; i < size; ++i) bytes[i] = static_cast<std::uint8_t>(i * 7 + 3);
  }
  bool read(std::uint64_t addr, std::uint8_t* data, unsigned len, ScTick start, ScTick& done) override {
    calls.push_back({false, addr, len, start});
    if (!read_dbg(addr, data, len)) return false;
    done = start + latency_;
    return true;
  }
  bool write(std::uint64_t addr, std::uint8_t* data, unsigned len, const std::uint8_t* be,
             ScTick start, ScTick& done) override {
    calls.push_back({true, addr, len, start});
    if (!write_dbg(addr, data, len, be)) return false;
    done = start + latency_;
    return true;
  }
  bool read_dbg(std::uint64_t addr, std::uint8_t* data, unsigned len) override {
    if (addr + len > bytes.size()) return false;
    std::memcpy(data, bytes.data() + addr, len);
    return true;
  }
  bool write_dbg(std::uint64_t addr, std::uint8_t* data, unsigned len,
                 const std::uint8_t* be) override {
    if (addr + len > bytes.size()) return false;
    for (unsigned i = 0; i < len; ++i)
      if (be == nullptr || be[i] != 0) bytes[addr + i] = data[i];
    return true;
  }
  std::vector<std::uint8_t> bytes;
  std::vector<Call> calls;

 private:
  ScTick latency_;
};

}  // namespace par::l2::testing
