// The assembler driver (lines, directives, sections, labels, data layout, second pass), shared
// by assembler.cpp, asm_values.cpp and asm_data.cpp. Private to the ISA library.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "asm_context.hpp"
#include "asm_lexer.hpp"
#include "asm_numbers.hpp"

namespace par::isa::detail {

// Upper bound on the data bytes of one file, so that `.zero 1000000000000` is an error instead of
// an out-of-memory abort. Far above what a simulated kernel needs.
inline constexpr std::uint64_t kMaxDataBytes = std::uint64_t{256} << 20;
// Upper bound on a source file, far above the data limit written as text (a generated kernel
// with 24 MiB of data is 24 MB of source), so that a wrong input such as a pipe that never ends
// is refused instead of read until memory runs out.
inline constexpr std::uint64_t kMaxSourceBytes = std::uint64_t{1} << 30;
inline constexpr std::uint64_t kInt64Max = 0x7FFFFFFFFFFFFFFFull;
inline constexpr std::uint64_t kUint64Max = ~std::uint64_t{0};

struct Loc {
  int line = 0;
  int col = 0;
};

// A directive operand: an integer, a label, or an FP literal (its binary64 bits).
struct Value {
  enum Kind { Int, Label, Fp } kind = Int;
  IntValue iv;
  std::string label;
  std::uint64_t fp_bits = 0;
  Loc loc;
  std::string text;  // as written, for messages
};

struct HeaderValue {
  Loc directive;  // where the directive is, for "duplicate" and placement errors
  std::optional<Value> value;  // empty when the operand itself was bad (already reported)
};

struct CodeLine {
  int line = 0;
  std::vector<Token> toks;  // tokens after any label
};

// A data value that names a label: patched in the second pass, once every label is known.
struct Fixup {
  std::size_t section = 0;
  std::size_t offset = 0;
  unsigned width = 0;  // bytes
  std::string name;    // directive name for messages (.i32)
  Value value;
};

enum class Section { Header, Code, Data };

// Assembles one source file: pass 1 reads every line (labels, directives, layout), pass 2
// (finish) parses instructions and resolves labels once every address is known.
class Assembler {
 public:
  Assembler(std::string_view source, const std::string& file) : src_(source), diags_(file) {
    prog_.source_file = file;
  }
  AssemblyResult run();

 private:
  // What a directive operand may be: Inherited = integer, label or FP literal (.I1 .. .I15);
  // Float = FP literal or integer read as FP (.f32 / .f64).
  enum class ValueMode { Int, IntOrLabel, Inherited, Float };

  void error(Loc l, std::string msg) { diags_.error(l.line, l.col, std::move(msg)); }
  void error(const Token& t, std::string msg) { diags_.error(line_, t.col, std::move(msg)); }

  void do_line(std::string_view text);
  void define_label(const Token& t);
  void directive(const std::vector<Token>& toks, std::size_t pos);
  void header_start(const Token& d, ProgramKind kind);
  bool header_directive_allowed(const Token& d);
  void header_value(const Token& d, const std::vector<Token>& toks, std::size_t pos, HeaderValue& slot,
                    ValueMode mode);
  void data_start(const Token& d, const std::vector<Token>& toks, std::size_t pos);
  void data_directive(const Token& d, const std::string& name, const std::vector<Token>& toks, std::size_t pos);
  void data_values(const Token& d, const std::string& name, const std::vector<Token>& toks, std::size_t pos);
  bool parse_value(const std::vector<Token>& toks, std::size_t& pos, const Token& d, ValueMode mode, Value& out);
  bool no_more(const std::vector<Token>& toks, std::size_t pos, const Token& d);
  bool append(const Token& d, std::uint64_t n, const std::uint8_t* bytes);

  void finish();
  void finish_code();
  void finish_header();
  void finish_data();
  bool resolve(const Value& v, IntValue& out);

  std::string_view src_;
  DiagSink diags_;
  Program prog_;
  SymbolTable symbols_;
  int line_ = 0;
  Section section_ = Section::Header;

  std::optional<ProgramKind> kind_;
  Loc kind_loc_;
  std::string kind_text_;        // ".PAR" / ".MASTER" as written
  bool seen_other_ = false;      // anything before the header
  std::optional<HeaderValue> address_, threads_;
  std::array<std::optional<HeaderValue>, 16> inherited_;

  std::vector<CodeLine> code_lines_;
  std::vector<Fixup> fixups_;
  std::vector<Loc> data_locs_;   // .DATA directive of each section
  std::vector<bool> data_ok_;    // false when the section's address was bad
  std::size_t cur_data_ = 0;
  std::uint64_t total_data_ = 0;
  bool data_limit_reported_ = false;
};

}  // namespace par::isa::detail
