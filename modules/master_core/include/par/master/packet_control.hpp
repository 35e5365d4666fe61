// How the master core's `par` and `sync` instructions reach the device (ISA: a `par` sends a PAR
// packet, a `sync` waits for every packet sent). The host runtime (sw/runtime) implements it on
// the thread scheduler's registers; the platform hands it to the master core.
#pragma once

#include <array>
#include <cstdint>

namespace par::master {

class PacketControl {
 public:
  virtual ~PacketControl() = default;
  // Sends a packet of `threads` (> 0) threads starting at instruction `start`, with i1..i15 at
  // inherited[1..15]. Throws std::runtime_error (bus error, ...) with a message.
  virtual void par(std::uint64_t start, std::int64_t threads, const std::array<std::uint64_t, 16>& inherited) = 0;
  // Returns when every packet sent so far has completed; throws std::runtime_error naming the
  // packet that failed.
  virtual void sync() = 0;
};

}  // namespace par::master
