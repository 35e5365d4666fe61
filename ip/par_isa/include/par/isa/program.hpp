// An assembled PAR program: header, code words, data sections, symbols and source lines.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace par::isa {

enum class ProgramKind : std::uint8_t { Packet, Master };  // .PAR or .MASTER file

struct DataSection {
  std::uint64_t address = 0;
  std::vector<std::uint8_t> bytes;
};

struct Program {
  ProgramKind kind = ProgramKind::Packet;
  std::uint64_t start = 0;                  // .ADDRESS (instruction address)
  std::int64_t threads = 0;                 // .THREADS (packet files only)
  std::array<std::uint64_t, 16> inherited{};  // .I1 .. .I15 at index 1..15; index 0 unused (i0)
  std::vector<std::uint32_t> code;          // instruction k at address k
  std::vector<DataSection> data;            // in file order, non-overlapping
  std::map<std::string, std::uint64_t> code_labels;  // label -> instruction address
  std::map<std::string, std::uint64_t> data_labels;  // label -> byte address
  std::string source_file;                  // empty when unknown (image without debug info)
  std::vector<std::uint32_t> source_lines;  // source line of each instruction (empty if unknown)

  // "file:line" of instruction `pc` when known, otherwise "pc <n>".
  std::string location(std::uint64_t pc) const;
  // Lowest and one-past-highest data byte address (0, 0 when there is no data).
  std::pair<std::uint64_t, std::uint64_t> data_extent() const;
};

// How `b` differs from `a` as a program (kind, header, code, data, labels; not the source name
// and lines), one readable item per difference ("instruction 4: 0x0C21 instead of 0x0C23");
// empty when they are the same program.
std::vector<std::string> program_differences(const Program& a, const Program& b);

}  // namespace par::isa
