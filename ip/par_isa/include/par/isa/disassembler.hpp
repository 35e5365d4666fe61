// Disassembler (the inverse of the assembler, docs/isa.md §8).
#pragma once

#include <cstdint>
#include <string>

#include "par/isa/instruction.hpp"
#include "par/isa/program.hpp"

namespace par::isa {

// One instruction in assembly syntax, e.g. "(p3) ld8 r4 = i1[r2] #". Machine forms are printed
// (subf, not the sub pseudo); control targets as numbers unless `program` supplies code labels.
std::string disassemble(const Instruction& in, const Program* program = nullptr);

// A complete source file that assembles to the same program (header, code, data).
std::string disassemble_program(const Program& program);

}  // namespace par::isa
