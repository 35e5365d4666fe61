// Fuzz target: the program-image loader and the disassembler on arbitrary bytes.
//
// Properties: the loader never crashes and accepts or refuses with a message; an accepted image
// writes back to an image that loads as the same program; its listing either assembles back to
// the same program, or says what it cannot say, and then only for the reasons the
// disassembler documents (a program the loader accepts but source form cannot express).
#include <string>
#include <vector>

#include "fuzz_support.hpp"
#include "par/isa/assembler.hpp"
#include "par/isa/disassembler.hpp"
#include "par/isa/image.hpp"

using namespace par;

namespace {

bool contains(const std::string& s, const char* what) { return s.find(what) != std::string::npos; }

// The documented things source form cannot say (ip/par_isa/README.md, "Disassembler").
bool documented(const std::string& problem) {
  if (problem.rfind("code label '", 0) == 0 || problem.rfind("data label '", 0) == 0) return contains(problem, " is left out: ");
  if (problem.rfind("line ", 0) == 0)
    return contains(problem, ": last instruction has no stop bit '#'") ||
           contains(problem, "' is only allowed in a .MASTER file") ||
           contains(problem, ": loop count must be an inherited register i1..i15") ||
           contains(problem, ": no instructions") || contains(problem, ": pt and pf are both p");
  return problem.rfind("assembles to a different program: .THREADS ", 0) == 0;  // a .MASTER image with threads
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // The checksum would refuse almost every mutation before anything else is read: the input's
  // last four bytes are replaced by the checksum of the rest, unless its first byte is odd
  // ('P' of the magic is even), which keeps inputs that test the checksum itself.
  std::vector<std::uint8_t> bytes(data, data + size);
  if (size >= 4 && (data[0] & 1) == 0) {
    const std::uint32_t crc = isa::image_checksum(bytes.data(), size - 4);
    for (int i = 0; i < 4; ++i) bytes[size - 4 + static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(crc >> (8 * i));
  }
  std::string error;
  const std::optional<isa::Program> p = isa::read_image(bytes, &error);
  if (!p) {
    if (error.empty()) fuzz::violated("image refused without a message");
    return 0;
  }
  const std::optional<isa::Program> again = isa::read_image(isa::write_image(*p), &error);
  if (!again) fuzz::violated("a loaded image does not load again after writing: " + error);
  const std::vector<std::string> diff = isa::program_differences(*p, *again);
  if (!diff.empty()) fuzz::violated("image write/read changes the program: " + diff.front());

  std::vector<std::string> problems;
  const std::string listing = isa::disassemble_program(*p, &problems);
  for (const std::string& problem : problems)
    if (!documented(problem)) fuzz::violated("undocumented disassembly problem: " + problem + "\n" + listing);
  if (!problems.empty()) return 0;
  // No problem reported: the listing must assemble back (checked here independently of the
  // disassembler's own check), with at most the L<addr> labels it adds for unnamed targets.
  const isa::AssemblyResult r = isa::assemble(listing, "listing.par");
  if (!r.ok()) fuzz::violated("a listing without problems does not assemble:\n" + r.messages() + listing);
  for (const std::string& d : isa::program_differences(*p, *r.program))
    if (!(d.rfind("code label 'L", 0) == 0 && contains(d, ") is extra")))
      fuzz::violated("a listing without problems assembles to another program: " + d + "\n" + listing);
  return 0;
}
