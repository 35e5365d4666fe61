// Decoding of accesses to the scheduler's register window and the staging registers (plain C++;
// the SC_MODULE maps RegResult to TLM response statuses and performs the control registers'
// actions).
#pragma once

#include <cstddef>
#include <cstdint>

#include "command.hpp"

namespace par::sched {

enum class RegResult {
  Ok,
  AddressError,  // misaligned, not a multiple of 8 bytes, outside the window, or no register there
  BurstError,    // several words outside the staging block, or crossing its end
  CommandError,  // read of a write-only register or write of a read-only one
};

enum class Reg { Staging, Doorbell, Status, Submitted, Completed, Queued, FailedSeq, ClearError };

struct Decoded {
  RegResult result = RegResult::AddressError;
  Reg reg = Reg::Staging;  // valid when result == Ok
};

// Where an access of `length` bytes at `offset` goes (README.md, "Access rules").
Decoded decode(std::uint64_t offset, std::uint64_t length, bool write);

// The staging block [0x000, 0x100): START, THREADS, FLAG_ADDR, TAG, CONTROL and I[1..15]. Reserved
// words (0x028..0x078 and 0x080, the place of i0, which is never inherited) read as 0 and ignore
// writes.
class StagingRegisters {
 public:
  // `offset`/`length` must have decoded as Reg::Staging.
  void write(std::uint64_t offset, const std::uint8_t* data, std::size_t length);
  void read(std::uint64_t offset, std::uint8_t* data, std::size_t length) const;
  const Command& command() const { return staged_; }

 private:
  // The register at `offset`, or nullptr for a reserved word.
  std::uint64_t* word(std::uint64_t offset);
  const std::uint64_t* word(std::uint64_t offset) const;

  Command staged_;
};

}  // namespace par::sched
