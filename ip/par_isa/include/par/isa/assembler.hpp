// Assembler for PAR source files (docs/isa.md §8, errors §9.1).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "par/isa/program.hpp"

namespace par::isa {

struct Diagnostic {
  enum class Severity { Error, Warning };
  Severity severity = Severity::Error;
  std::string file;
  int line = 0;    // 1-based
  int column = 0;  // 1-based, column of the offending token
  std::string message;
  // "<file>:<line>:<column>: error: <message>"
  std::string str() const;
};

struct AssemblyResult {
  std::optional<Program> program;  // present only when there are no errors
  std::vector<Diagnostic> diagnostics;  // every error and warning found, in source order
  bool ok() const { return program.has_value(); }
  std::string messages() const;  // all diagnostics, one per line
};

AssemblyResult assemble(std::string_view source, const std::string& file_name);
// Reads and assembles a file; a file that cannot be read (missing, a directory, a device, larger
// than 1 GiB) gives one diagnostic "<path>:0:0: error: cannot read: <reason>".
AssemblyResult assemble_file(const std::string& path);

}  // namespace par::isa
