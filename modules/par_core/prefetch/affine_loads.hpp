// Finds the loads of a packet whose address is an affine function of i0 (README.md "Decoding").
//
// The inherited registers i1..i15 are fixed for the whole packet and r0..r15 start at 0 in every
// round (docs/isa.md §2.2), so along the straight-line code from the packet's start address every
// register holds either a known function scale * i0 + offset (mod 2^64) or something the decoder
// does not follow. A load of the form ra[rb] / ra[imm] whose two operands are known has address
// scale * i0 + offset for every thread of the packet. Plain C++.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "par/isa/instruction.hpp"

namespace par::core {

struct AffineLoad {
  std::uint64_t pc = 0;
  std::uint64_t scale = 0;   // address(i0) = scale * i0 + offset, modulo 2^64
  std::uint64_t offset = 0;
  int size = 0;              // access size in bytes
  std::uint64_t address(std::uint64_t i0) const { return scale * i0 + offset; }
};

// The instruction at `pc`, or null when there is none or it is illegal.
using InstructionAt = std::function<const isa::Instruction*(std::uint64_t pc)>;

// The affine loads of the block that starts at `start`: from there up to the first control
// instruction or the first instruction with a stop bit (included), at most `max_scan`
// instructions. Loads with a qualifying predicate are left out (they may not execute). `inherited`
// holds i1..i15 at 1..15.
std::vector<AffineLoad> find_affine_loads(const InstructionAt& at, std::uint64_t start,
                                          const std::uint64_t (&inherited)[16], int max_scan = 256);

}  // namespace par::core
