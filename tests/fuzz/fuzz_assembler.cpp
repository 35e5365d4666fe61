// Fuzz target: the assembler on arbitrary source text.
//
// Properties: assembly never crashes and always ends in a program or in at least one error with
// a line inside the source; a program the assembler accepts survives the image round trip
// unchanged and disassembles to a listing that assembles back to it (no problem reported).
#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_support.hpp"
#include "par/isa/assembler.hpp"
#include "par/isa/disassembler.hpp"
#include "par/isa/image.hpp"

using namespace par;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view source(reinterpret_cast<const char*>(data), size);
  const isa::AssemblyResult r = isa::assemble(source, "fuzz.par");
  const int lines = 1 + static_cast<int>(std::count(source.begin(), source.end(), '\n'));
  for (const isa::Diagnostic& d : r.diagnostics)
    if (d.line < 1 || d.line > lines || d.message.empty()) fuzz::violated("diagnostic outside the source: " + d.str());
  if (!r.ok()) {
    const bool has_error = std::any_of(r.diagnostics.begin(), r.diagnostics.end(), [](const isa::Diagnostic& d) {
      return d.severity == isa::Diagnostic::Severity::Error;
    });
    if (!has_error) fuzz::violated("assembly failed without an error");
    return 0;
  }
  const isa::Program& p = *r.program;
  std::string error;
  const std::optional<isa::Program> loaded = isa::read_image(isa::write_image(p), &error);
  if (!loaded) fuzz::violated("the image of an assembled program is refused: " + error);
  const std::vector<std::string> image_diff = isa::program_differences(p, *loaded);
  if (!image_diff.empty() || loaded->source_file != p.source_file || loaded->source_lines != p.source_lines)
    fuzz::violated("image round trip changes the program" + (image_diff.empty() ? "" : ": " + image_diff.front()));
  std::vector<std::string> problems;
  const std::string listing = isa::disassemble_program(p, &problems);
  if (!problems.empty()) fuzz::violated("the listing of an assembled program does not assemble back: " + problems.front());
  return 0;
}
