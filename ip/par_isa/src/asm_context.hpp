// State shared by the assembler driver (directives, sections, labels) and the instruction parser.
// Private to the ISA library.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "asm_lexer.hpp"
#include "par/isa/assembler.hpp"
#include "par/isa/instruction.hpp"
#include "par/isa/program.hpp"

namespace par::isa::detail {

// Collects diagnostics; they are sorted into source order at the end because the second pass
// (labels, instructions) reports after the first pass (layout) has seen the whole file.
class DiagSink {
 public:
  explicit DiagSink(std::string file) : file_(std::move(file)) {}
  void error(int line, int col, std::string message) { add(Diagnostic::Severity::Error, line, col, std::move(message)); }
  void warning(int line, int col, std::string message) { add(Diagnostic::Severity::Warning, line, col, std::move(message)); }
  int errors() const { return errors_; }
  std::vector<Diagnostic> take_sorted();

 private:
  void add(Diagnostic::Severity s, int line, int col, std::string message);
  std::string file_;
  std::vector<Diagnostic> list_;
  int errors_ = 0;
};

struct Symbol {
  bool is_code = false;     // code label (instruction address) or data label (byte address)
  std::uint64_t address = 0;
  int line = 0;             // definition line, for "already defined at line N"
};
using SymbolTable = std::map<std::string, Symbol, std::less<>>;

// What the instruction parser needs to know about the rest of the file.
struct InsnContext {
  const SymbolTable* symbols = nullptr;
  std::optional<ProgramKind> kind;  // unknown when the header is missing
  std::uint64_t code_size = 0;      // for "target past the end of the program" warnings
  int line = 0;
  DiagSink* diags = nullptr;
};

// Parses one instruction line (the tokens after an optional `label:`), expands pseudo-
// instructions, checks every operand and range, and returns the machine instruction. Returns
// nothing after reporting at least one error.
std::optional<Instruction> parse_instruction(const std::vector<Token>& toks, const InsnContext& ctx);

}  // namespace par::isa::detail
