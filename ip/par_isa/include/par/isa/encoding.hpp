// Binary encoding and decoding of single instructions (docs/isa.md §5).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "par/isa/instruction.hpp"

namespace par::isa {

// Encodes a valid instruction. Fields out of range for their bit width are a programming error
// (the assembler checks ranges first); encode() asserts in debug builds and masks otherwise.
std::uint32_t encode(const Instruction& in);

// Decodes a word. Returns nothing for an illegal instruction (unassigned opcode or (x, f)
// combination, non-zero reserved field, destination in the inherited file) and, when `why` is
// given, stores a short reason such as "reserved field bits 9..6 not zero".
std::optional<Instruction> decode(std::uint32_t word, std::string* why = nullptr);

}  // namespace par::isa
