// Assembler driver: source lines, header and section directives, labels, data layout, and the
// second pass that resolves labels (docs/isa.md §8.4, errors §9.1). Instruction lines are parsed in
// asm_instruction.cpp.
#include "par/isa/assembler.hpp"

#include <algorithm>
#include <map>

#include "asm_assembler.hpp"
#include "names.hpp"
#include "par/isa/encoding.hpp"
#include "par/simkit/input_file.hpp"

namespace par::isa {

std::string Diagnostic::str() const {
  return file + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " +
         (severity == Severity::Error ? "error" : "warning") + ": " + message;
}

std::string AssemblyResult::messages() const {
  std::string out;
  for (const Diagnostic& d : diagnostics) out += d.str() + "\n";
  return out;
}

namespace detail {

void DiagSink::add(Diagnostic::Severity s, int line, int col, std::string message) {
  Diagnostic d;
  d.severity = s;
  d.file = file_;
  d.line = line;
  d.column = col;
  d.message = std::move(message);
  list_.push_back(std::move(d));
  if (s == Diagnostic::Severity::Error) ++errors_;
}

std::vector<Diagnostic> DiagSink::take_sorted() {
  std::stable_sort(list_.begin(), list_.end(), [](const Diagnostic& a, const Diagnostic& b) {
    return a.line != b.line ? a.line < b.line : a.column < b.column;
  });
  return std::move(list_);
}

// ---------------------------------------------------------------------------------------------
// Pass 1: lines, labels, directives, layout
// ---------------------------------------------------------------------------------------------

void Assembler::do_line(std::string_view text) {
  const std::vector<Token> toks = lex_line(text);
  if (toks.empty()) return;
  std::size_t pos = 0;
  if (toks.size() >= 2 && toks[1].is(':') && (toks[0].kind == Token::Ident || toks[0].kind == Token::Number)) {
    define_label(toks[0]);
    pos = 2;
  }
  if (pos >= toks.size()) return;
  const Token& t = toks[pos];
  if (t.kind == Token::Ident && t.text[0] == '.') {
    directive(toks, pos);
    return;
  }
  seen_other_ = true;
  if (section_ == Section::Code) {
    code_lines_.push_back(CodeLine{line_, std::vector<Token>(toks.begin() + static_cast<std::ptrdiff_t>(pos), toks.end())});
    prog_.source_lines.push_back(static_cast<std::uint32_t>(line_));
    return;
  }
  for (std::size_t i = pos; i < toks.size(); ++i)
    if (toks[i].kind == Token::Bad) return error(toks[i], "unexpected character " + quote(toks[i].text));
  if (t.kind == Token::Ident || t.is('('))
    return error(t, "instruction outside a .CODE section");
  error(t, "unexpected " + quote(t.text));
}

void Assembler::define_label(const Token& t) {
  const std::string name(t.text);
  if (is_register_like(name)) return error(t, quote(name) + " is a register name, not a label");
  if (!is_valid_label(name)) return error(t, "bad label name " + quote(name));
  if (section_ == Section::Header) {
    seen_other_ = true;
    return error(t, "label " + quote(name) + " outside a .CODE or .DATA section");
  }
  if (const auto it = symbols_.find(name); it != symbols_.end())
    return error(t, "label " + quote(name) + " already defined at line " + std::to_string(it->second.line));
  Symbol s;
  s.line = line_;
  if (section_ == Section::Code) {
    s.is_code = true;
    s.address = code_lines_.size();
    prog_.code_labels[name] = s.address;
  } else {
    const DataSection& d = prog_.data[cur_data_];
    s.address = d.address + d.bytes.size();
    prog_.data_labels[name] = s.address;
  }
  symbols_.emplace(name, s);
}

void Assembler::directive(const std::vector<Token>& toks, std::size_t pos) {
  const Token& d = toks[pos];
  const std::string name = to_lower(d.text);
  const std::size_t arg = pos + 1;
  if (name == ".par" || name == ".master") {
    header_start(d, name == ".par" ? ProgramKind::Packet : ProgramKind::Master);
    no_more(toks, arg, d);
    return;
  }
  // .i1 .. .i15 name inherited registers, .i8 .. .i64 data widths; `.i8` is both and is read by
  // where it stands (header: register, .DATA: data; in .CODE the spelling `.I8` means register).
  int ireg = -1;
  if (name.size() >= 3 && name[1] == 'i' && name.find_first_not_of("0123456789", 2) == std::string::npos &&
      name.size() <= 4) {
    ireg = std::stoi(name.substr(2));
    if (name.size() == 4 && name[2] == '0') ireg = -1;  // ".i01"
  }
  const bool data_i8 = ireg == 8 && (section_ == Section::Data || (section_ == Section::Code && d.text[1] == 'i'));
  if (ireg == 0) {
    seen_other_ = true;
    return error(d, "'.I0' is not allowed: i0 is the thread index");
  }
  if (ireg >= 1 && ireg <= 15 && !data_i8) {
    seen_other_ = true;
    if (!header_directive_allowed(d)) return;
    auto& slot = inherited_[static_cast<std::size_t>(ireg)];
    if (slot) return error(d, "duplicate " + quote(d.text) + " (first at line " + std::to_string(slot->directive.line) + ")");
    slot.emplace();
    header_value(d, toks, arg, *slot, ValueMode::Inherited);
    return;
  }
  if (name == ".address" || name == ".threads") {
    seen_other_ = true;
    if (!header_directive_allowed(d)) return;
    auto& slot = name == ".address" ? address_ : threads_;
    if (slot) return error(d, "duplicate " + quote(d.text) + " (first at line " + std::to_string(slot->directive.line) + ")");
    slot.emplace();
    header_value(d, toks, arg, *slot, name == ".address" ? ValueMode::IntOrLabel : ValueMode::Int);
    if (name == ".threads" && slot->value && !slot->value->iv.in_range(0, kInt64Max))
      error(slot->value->loc, "thread count " + slot->value->text + " out of range 0.." + std::to_string(kInt64Max));
    return;
  }
  seen_other_ = true;
  if (name == ".code") {
    section_ = Section::Code;
    no_more(toks, arg, d);
    return;
  }
  if (name == ".data") return data_start(d, toks, arg);
  if (name == ".i8" || name == ".i16" || name == ".i32" || name == ".i64" || name == ".f32" || name == ".f64" ||
      name == ".zero" || name == ".align")
    return data_directive(d, name, toks, arg);
  error(d, "unknown directive " + quote(d.text));
}

void Assembler::header_start(const Token& d, ProgramKind kind) {
  if (kind_) {
    error(d, quote(d.text) + " after " + quote(kind_text_) + " at line " + std::to_string(kind_loc_.line) +
                 ": only one .PAR or .MASTER per file");
    return;
  }
  if (seen_other_) error(d, quote(d.text) + " must come before any other directive");
  kind_ = kind;
  kind_loc_ = Loc{line_, d.col};
  kind_text_ = std::string(d.text);
  seen_other_ = true;
}

bool Assembler::header_directive_allowed(const Token& d) {
  if (section_ == Section::Header) return true;
  error(d, quote(d.text) + " must come before .CODE and .DATA");
  return false;
}

void Assembler::header_value(const Token& d, const std::vector<Token>& toks, std::size_t pos, HeaderValue& slot,
                             ValueMode mode) {
  slot.directive = Loc{line_, d.col};
  Value v;
  if (!parse_value(toks, pos, d, mode, v)) return;
  if (!no_more(toks, pos, d)) return;
  slot.value = std::move(v);
}

// ---------------------------------------------------------------------------------------------
// Pass 2: instructions, label values, header checks
// ---------------------------------------------------------------------------------------------

bool Assembler::resolve(const Value& v, IntValue& out) {
  if (v.kind == Value::Fp) {
    out = IntValue{false, v.fp_bits};
    return true;
  }
  if (v.kind == Value::Int) {
    out = v.iv;
    return true;
  }
  const auto it = symbols_.find(v.label);
  if (it == symbols_.end()) {
    error(v.loc, "undefined label " + quote(v.label));
    return false;
  }
  out = IntValue{false, it->second.address};
  return true;
}

void Assembler::finish_code() {
  InsnContext ctx;
  ctx.symbols = &symbols_;
  ctx.kind = kind_;
  ctx.code_size = code_lines_.size();
  ctx.diags = &diags_;
  for (const CodeLine& cl : code_lines_) {
    ctx.line = cl.line;
    const std::optional<Instruction> in = parse_instruction(cl.toks, ctx);
    prog_.code.push_back(in ? encode(*in) : 0);
  }
  if (code_lines_.empty()) {
    error(Loc{1, 1}, "no instructions");
    return;
  }
  const auto has_stop = [](const CodeLine& cl) {
    return std::any_of(cl.toks.begin(), cl.toks.end(), [](const Token& t) { return t.is('#'); });
  };
  const CodeLine& last = code_lines_.back();
  if (!has_stop(last)) error(Loc{last.line, last.toks.front().col}, "last instruction has no stop bit '#'");
  // A labelled instruction is where control flow enters; a block that runs on into it without a
  // stop bit is legal (one longer block) but almost always a forgotten '#'.
  std::map<std::uint64_t, const std::pair<const std::string, Symbol>*> label_at;
  for (const auto& entry : symbols_)
    if (entry.second.is_code) {
      const auto* known = label_at[entry.second.address];
      if (known == nullptr || entry.second.line < known->second.line) label_at[entry.second.address] = &entry;
    }
  for (std::size_t pc = 0; pc + 1 < code_lines_.size(); ++pc) {
    const auto next = label_at.find(pc + 1);
    if (next == label_at.end() || has_stop(code_lines_[pc])) continue;
    const CodeLine& cl = code_lines_[pc];
    diags_.warning(cl.line, cl.toks.front().col,
                   "instruction has no stop bit '#': its block runs on into label " + quote(next->second->first) +
                       " (line " + std::to_string(next->second->second.line) + ")");
  }
}

void Assembler::finish_header() {
  if (!kind_) {
    error(Loc{1, 1}, "missing .PAR or .MASTER header");
  } else {
    prog_.kind = *kind_;
    const std::string hdr = *kind_ == ProgramKind::Packet ? ".PAR" : ".MASTER";
    if (!address_) error(kind_loc_, hdr + " header has no .ADDRESS");
    if (*kind_ == ProgramKind::Packet && !threads_) error(kind_loc_, ".PAR header has no .THREADS");
    if (*kind_ == ProgramKind::Master && threads_)
      error(threads_->directive, "'.THREADS' is not allowed in a .MASTER file");
  }
  if (address_ && address_->value) {
    const Value& v = *address_->value;
    IntValue a;
    if (v.kind == Value::Label && symbols_.count(v.label) && !symbols_.find(v.label)->second.is_code) {
      error(v.loc, quote(v.label) + " is a data label; .ADDRESS needs a code label");
    } else if (resolve(v, a)) {
      if (a.neg && a.mag != 0)
        error(v.loc, "start address " + v.text + " is negative");
      else if (!code_lines_.empty() && a.mag >= code_lines_.size())
        error(v.loc, "start address " + v.text + " is past the end of the program (" +
                         std::to_string(code_lines_.size()) + " instructions)");
      else
        prog_.start = a.mag;
    }
  }
  if (threads_ && threads_->value) prog_.threads = threads_->value->iv.as_signed();
  for (std::size_t i = 1; i < inherited_.size(); ++i) {
    if (!inherited_[i] || !inherited_[i]->value) continue;
    const Value& v = *inherited_[i]->value;
    IntValue x;
    if (!resolve(v, x)) continue;
    if (!x.in_range(INT64_MIN, kUint64Max)) {
      error(v.loc, "value " + v.text + " does not fit in 64 bits");
      continue;
    }
    prog_.inherited[i] = x.bits();
  }
}

void Assembler::finish() {
  finish_header();
  finish_code();
  finish_data();
}

AssemblyResult Assembler::run() {
  // A UTF-8 byte-order mark is invisible in editors: skip it so that line 1 columns match.
  std::size_t pos = src_.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;
  while (pos <= src_.size()) {
    std::size_t nl = src_.find('\n', pos);
    if (nl == std::string_view::npos) nl = src_.size();
    ++line_;
    do_line(src_.substr(pos, nl - pos));
    pos = nl + 1;
  }
  finish();
  AssemblyResult r;
  const bool ok = diags_.errors() == 0;
  r.diagnostics = diags_.take_sorted();
  if (ok) r.program = std::move(prog_);
  return r;
}

}  // namespace detail

AssemblyResult assemble(std::string_view source, const std::string& file_name) {
  return detail::Assembler(source, file_name).run();
}

AssemblyResult assemble_file(const std::string& path) {
  std::string text;
  if (const std::string why = simkit::read_input_file(path, detail::kMaxSourceBytes, text); !why.empty()) {
    AssemblyResult r;
    Diagnostic d;
    d.file = path;
    d.message = "cannot read: " + why;
    r.diagnostics.push_back(d);
    return r;
  }
  return assemble(text, path);
}

}  // namespace par::isa