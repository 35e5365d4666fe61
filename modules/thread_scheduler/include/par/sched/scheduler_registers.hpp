// Register map of the thread scheduler's `regs` target socket and the data of its completion
// interrupt (README.md, "Register map"). The hardware/software contract of the scheduler: the
// host runtime, the packet launcher and tests include it. No SystemC dependency.
// Every register is 8 bytes, little-endian, at an 8-byte aligned offset.
//
// Programming sequence (one packet):
//   write START, THREADS, FLAG_ADDR, TAG, CONTROL, I[1..15]   (or one burst of up to 256 bytes at 0x000)
//   write DOORBELL                                            (refused while the queue is full)
//   then one of: wait for the completion interrupt (CONTROL.interrupt), poll STATUS / COMPLETED,
//   or wait for TAG at FLAG_ADDR
#pragma once

#include <cstdint>

namespace par::sched {

// --- staging block [0x000, 0x100): the command being prepared --------------------------------
// Reads return the staged values; reserved words in the block read as 0 and ignore writes, so
// one write of 8*N bytes anywhere in the block stages several registers at once.
inline constexpr std::uint64_t kRegStart = 0x000;     // r/w  packet start address (instruction)
inline constexpr std::uint64_t kRegThreads = 0x008;   // r/w  thread count, s64; <= 0 launches nothing
inline constexpr std::uint64_t kRegFlagAddr = 0x010;  // r/w  completion flag address, 0 = none
inline constexpr std::uint64_t kRegTag = 0x018;       // r/w  value written to FLAG_ADDR
inline constexpr std::uint64_t kRegControl = 0x020;   // r/w  kControl* bits
inline constexpr std::uint64_t kRegInheritedBase = 0x080;  // I[k] at 0x080 + 8k, k = 1..15
inline constexpr unsigned kInheritedCount = 16;       // i0..i15; i0 (0x080) is reserved
inline constexpr std::uint64_t kStagingEnd = 0x100;   // end of the staging block

constexpr std::uint64_t reg_inherited(unsigned k) { return kRegInheritedBase + 8ull * k; }

// CONTROL bits.
inline constexpr std::uint64_t kControlInterrupt = 1ull << 0;  // raise the completion interrupt

// --- control and status (single 8-byte accesses only) ------------------------------------------
inline constexpr std::uint64_t kRegDoorbell = 0x100;    // w  queue the staged command (refused when full)
inline constexpr std::uint64_t kRegStatus = 0x108;      // r  kStatus* bits
inline constexpr std::uint64_t kRegSubmitted = 0x110;   // r  packets accepted (= last sequence number)
inline constexpr std::uint64_t kRegCompleted = 0x118;   // r  packets completed, successfully or not
inline constexpr std::uint64_t kRegQueued = 0x120;      // r  packets accepted but not started
inline constexpr std::uint64_t kRegFailedSeq = 0x128;   // r  lowest failed sequence number, 0 = none
inline constexpr std::uint64_t kRegClearError = 0x130;  // w  clears STATUS.error and FAILED_SEQ
inline constexpr std::uint64_t kRegSpaceEnd = 0x148;    // size of the register window (0x138, 0x140 reserved)

// STATUS bits.
inline constexpr std::uint64_t kStatusBusy = 1ull << 0;       // a packet is queued or running
inline constexpr std::uint64_t kStatusError = 1ull << 1;      // a packet failed (sticky)
inline constexpr std::uint64_t kStatusQueueFull = 1ull << 2;  // the next DOORBELL would be refused

// Written to FLAG_ADDR instead of TAG when the packet failed.
inline constexpr std::uint64_t kFlagErrorBit = 1ull << 63;

// The 32-bit data of the completion interrupt of a packet with CONTROL.interrupt: the low 31 bits
// of its TAG, and kInterruptFailedBit if it failed.
inline constexpr std::uint32_t kInterruptTagMask = 0x7fffffffu;
inline constexpr std::uint32_t kInterruptFailedBit = 1u << 31;

}  // namespace par::sched
