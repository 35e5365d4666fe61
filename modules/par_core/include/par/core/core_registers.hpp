// Register map of a PAR core's `ctrl` target socket, and its completion line (README.md,
// "Launch protocol"). The hardware/software contract of the core: the thread scheduler and tests
// include it; a vendor core model implements it. No SystemC dependency.
//
//   write the descriptor block [0x000, 0x098)   (one 152-byte write of a PacketDescriptor, or 8-byte writes)
//   write DOORBELL                               returns at once: the core starts the packet
//   ... the core's `irq` line goes low when it starts and high when the packet has ended
//   read STATUS                                  idle (the launch succeeded) or failed
#pragma once

#include <cstdint>

namespace par::core {

// The descriptor block at offset 0 (little-endian 8-byte words): the packet to run next.
struct PacketDescriptor {
  std::uint64_t start = 0;           // 0x000 START: kernel start address (instruction index)
  std::int64_t threads = 0;          // 0x008 THREADS: threads of this share of the packet
  std::uint64_t first_thread = 0;    // 0x010 FIRST_THREAD: i0 of the first thread
  std::uint64_t inherited[16] = {};  // 0x018 + 8k I[k]: i1..i15 (I[0] is ignored: i0 is the thread index)
};

inline constexpr std::uint64_t kCoreRegStart = 0x000;
inline constexpr std::uint64_t kCoreRegThreads = 0x008;
inline constexpr std::uint64_t kCoreRegFirstThread = 0x010;
inline constexpr std::uint64_t kCoreRegInheritedBase = 0x018;
inline constexpr std::uint64_t kCoreDescriptorEnd = sizeof(PacketDescriptor);  // 0x098
static_assert(kCoreDescriptorEnd == 0x098, "the descriptor block is 19 words");

// Control and status: single 8-byte accesses.
inline constexpr std::uint64_t kCoreRegDoorbell = 0x100;  // w  start the staged descriptor (any value)
inline constexpr std::uint64_t kCoreRegStatus = 0x108;    // r  kCoreStatus*
inline constexpr std::uint64_t kCoreRegSpaceEnd = 0x110;

// STATUS values.
inline constexpr std::uint64_t kCoreStatusIdle = 0;    // no launch yet, or the last one succeeded
inline constexpr std::uint64_t kCoreStatusBusy = 1;    // a launch is running (from DOORBELL to its end)
inline constexpr std::uint64_t kCoreStatusFailed = 2;  // idle; the last launch failed (ParCore::error())

}  // namespace par::core
