// Binary layout of a packet launch written to a PAR core's control socket (offset 0).
#pragma once

#include <cstdint>

namespace par::core {

struct PacketDescriptor {
  std::uint64_t start = 0;          // kernel start address (instruction index)
  std::int64_t threads = 0;         // threads of this share of the packet
  std::uint64_t first_thread = 0;   // i0 of the first thread
  std::uint64_t inherited[16] = {};  // i1..i15 at 1..15
};

// Control-socket register map of a PAR core.
inline constexpr std::uint64_t kCtrlLaunch = 0x00;  // write a PacketDescriptor: runs it, returns when done
inline constexpr std::uint64_t kCtrlStatus = 0x100;  // read 8 bytes: 0 idle, 1 busy, 2 failed

}  // namespace par::core
