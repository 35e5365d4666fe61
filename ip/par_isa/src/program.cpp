#include "par/isa/program.hpp"

#include <algorithm>

#include "names.hpp"

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

namespace {

using detail::hex;

void label_differences(const char* what, const std::map<std::string, std::uint64_t>& a,
                       const std::map<std::string, std::uint64_t>& b, std::vector<std::string>& out) {
  for (const auto& [name, addr] : a) {
    const auto it = b.find(name);
    if (it == b.end()) out.push_back(std::string(what) + " label '" + name + "' (" + hex(addr) + ") is missing");
    else if (it->second != addr)
      out.push_back(std::string(what) + " label '" + name + "' is at " + hex(it->second) + " instead of " + hex(addr));
  }
  for (const auto& [name, addr] : b)
    if (a.count(name) == 0) out.push_back(std::string(what) + " label '" + name + "' (" + hex(addr) + ") is extra");
}

}  // namespace

std::vector<std::string> program_differences(const Program& a, const Program& b) {
  std::vector<std::string> out;
  const auto kind = [](ProgramKind k) { return k == ProgramKind::Packet ? ".PAR" : ".MASTER"; };
  if (a.kind != b.kind) out.push_back(std::string(kind(b.kind)) + " instead of " + kind(a.kind));
  if (a.start != b.start) out.push_back(".ADDRESS " + std::to_string(b.start) + " instead of " + std::to_string(a.start));
  if (a.threads != b.threads)
    out.push_back(".THREADS " + std::to_string(b.threads) + " instead of " + std::to_string(a.threads));
  for (std::size_t i = 1; i < a.inherited.size(); ++i)
    if (a.inherited[i] != b.inherited[i])
      out.push_back(".I" + std::to_string(i) + " " + hex(b.inherited[i]) + " instead of " + hex(a.inherited[i]));
  if (a.code.size() != b.code.size())
    out.push_back(std::to_string(b.code.size()) + " instructions instead of " + std::to_string(a.code.size()));
  for (std::size_t pc = 0; pc < std::min(a.code.size(), b.code.size()); ++pc)
    if (a.code[pc] != b.code[pc])
      out.push_back("instruction " + std::to_string(pc) + ": " + hex(b.code[pc]) + " instead of " + hex(a.code[pc]));
  if (a.data.size() != b.data.size())
    out.push_back(std::to_string(b.data.size()) + " data sections instead of " + std::to_string(a.data.size()));
  for (std::size_t i = 0; i < std::min(a.data.size(), b.data.size()); ++i)
    if (a.data[i].address != b.data[i].address || a.data[i].bytes != b.data[i].bytes)
      out.push_back("data section " + std::to_string(i) + " (" + hex(a.data[i].address) + ", " +
                    std::to_string(a.data[i].bytes.size()) + " bytes) differs");
  label_differences("code", a.code_labels, b.code_labels, out);
  label_differences("data", a.data_labels, b.data_labels, out);
  return out;
}

}  // namespace par::isa
