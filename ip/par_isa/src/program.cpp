#include "par/isa/program.hpp"

#include <algorithm>

namespace par::isa {

std::string Program::location(std::uint64_t pc) const {
  if (!source_file.empty() && pc < source_lines.size() && source_lines[pc] != 0)
    return source_file + ":" + std::to_string(source_lines[pc]);
  return "pc " + std::to_string(pc);
}

std::pair<std::uint64_t, std::uint64_t> Program::data_extent() const {
  std::uint64_t lo = UINT64_MAX, hi = 0;
  for (const DataSection& d : data) {
    if (d.bytes.empty()) continue;
    lo = std::min(lo, d.address);
    hi = std::max(hi, d.address + d.bytes.size());
  }
  return lo == UINT64_MAX ? std::pair<std::uint64_t, std::uint64_t>{0, 0}
                          : std::pair<std::uint64_t, std::uint64_t>{lo, hi};
}

}  // namespace par::isa
