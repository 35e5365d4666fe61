// Disassembler (the inverse of the assembler, docs/isa.md §8).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "par/isa/instruction.hpp"
#include "par/isa/program.hpp"

namespace par::isa {

// One instruction in assembly syntax, e.g. "(p3) ld8 r4 = i1[r2] #". Machine forms are printed
// (subf, not the sub pseudo); control targets as numbers unless `program` supplies code labels.
std::string disassemble(const Instruction& in, const Program* program = nullptr);

// A complete source file that assembles to the same program (header, code, data, labels). What
// has no source form (a label outside every data section, a missing final stop bit, an
// instruction the assembler refuses in this kind of file, ...) is listed in a comment block after
// the first line, "// This listing does not assemble back to the same program:", and in
// `problems`; `problems` is empty exactly when the listing assembles back to `program`.
std::string disassemble_program(const Program& program, std::vector<std::string>* problems = nullptr);

}  // namespace par::isa
