// Disassembler: machine instructions in assembly syntax, and whole programs as source files that
// assemble back to the same program (docs/isa.md §8).
#include "par/isa/disassembler.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

#include "names.hpp"
#include "par/isa/assembler.hpp"
#include "par/isa/encoding.hpp"

namespace par::isa {

namespace {

using detail::hex;
using detail::register_name;

using TargetNames = std::map<std::uint64_t, std::string>;  // instruction address -> label

std::string pred_pair(unsigned t, unsigned f) { return "p" + std::to_string(t) + std::to_string(f); }
std::string pred(unsigned p) { return "p" + std::to_string(p); }

std::string target(std::int64_t addr, const TargetNames* names) {
  if (names) {
    const auto it = names->find(static_cast<std::uint64_t>(addr));
    if (it != names->end()) return it->second;
  }
  return std::to_string(addr);
}

std::string format(const Instruction& in, const TargetNames* names) {
  const OpInfo& m = in.meta();
  std::string s;
  if (in.qp != 0) s += "(" + pred(in.qp) + ") ";
  s += m.mnemonic;
  const std::string rd = register_name(in.rd), ra = register_name(in.ra), rb = register_name(in.rb);
  const std::string imm = std::to_string(in.imm);
  const std::string b = in.imm_form ? imm : rb;
  switch (m.shape) {
    case Shape::Binary: s += " " + rd + " = " + ra + ", " + b; break;
    case Shape::Unary: s += " " + rd + " = " + ra; break;
    case Shape::Sla: s += " " + rd + " = " + ra + ", " + rb + ", " + imm; break;
    case Shape::Ext: s += " " + rd + " = " + ra + ", " + imm; break;
    case Shape::Const:
      s += " " + rd + " = " + (in.op == Opcode::Sli ? hex(static_cast<std::uint64_t>(in.imm) & 0xFFFF) : imm);
      break;
    case Shape::Load: s += " " + rd + " = " + ra + "[" + b + "]"; break;
    case Shape::Store: s += " " + ra + "[" + b + "] = " + rd; break;
    case Shape::Compare: s += " " + pred_pair(in.pt, in.pf) + " = " + ra + ", " + b; break;
    case Shape::PredLogic: s += " " + pred_pair(in.pt, in.pf) + " = " + pred(in.pa) + ", " + pred(in.pb); break;
    case Shape::XpLabel: case Shape::LoopCond: s += " " + target(in.imm, names); break;
    case Shape::XpReg: s += " " + rd; break;
    case Shape::LoopCount: case Shape::Par: s += " " + rd + ", " + target(in.imm, names); break;
    case Shape::Brk:
      if (in.imm != 0) s += " " + imm;
      break;
    case Shape::None: break;
    case Shape::StreamGet: s += " " + rd + " = s" + imm; break;
    case Shape::StreamPut: s += " s" + imm + " = " + rd; break;
  }
  if (in.stop) s += " #";
  return s;
}

// First label (in name order) of every address; labels that cannot be written back are skipped.
TargetNames first_names(const std::map<std::string, std::uint64_t>& labels) {
  TargetNames out;
  for (const auto& [name, addr] : labels)
    if (detail::is_valid_label(name)) out.emplace(addr, name);
  return out;
}

bool is_control_target(const Instruction& in) {
  return in.op == Opcode::Xp || in.op == Opcode::LoopR || in.op == Opcode::Loop || in.op == Opcode::Par;
}

// Writes a source file for `p`. Labels: the program's own, plus L<addr> for every control target
// that has none, so that the listing reads like the original. A label that has no place in
// source form is left out and said so in skipped().
class ProgramWriter {
 public:
  explicit ProgramWriter(const Program& p) : p_(p) {}
  std::string run();
  // Why each left-out label is missing, and the program without them (what the listing holds).
  const std::vector<std::string>& skipped() const { return skipped_; }
  const Program& written() const { return written_; }

 private:
  void label_names();
  void header();
  void code();
  void data();
  void data_chunk(std::uint64_t addr, const std::uint8_t* bytes, std::size_t n, std::vector<std::string>& labels);
  void line(std::vector<std::string>& labels, const std::string& text, const std::string& comment = {});

  void skip(std::map<std::string, std::uint64_t>& labels, const std::string& name, const std::string& why);

  const Program& p_;
  Program written_;  // p_ without the labels left out
  std::vector<std::string> skipped_;
  std::ostringstream out_;
  std::set<std::string> used_;  // every label name written (code and data share one namespace)
  std::map<std::uint64_t, std::vector<std::string>> code_at_;  // address -> labels to define
  TargetNames code_first_;                                     // address -> label used in operands
};

void ProgramWriter::line(std::vector<std::string>& labels, const std::string& text, const std::string& comment) {
  constexpr std::size_t kIndent = 8, kCommentCol = 48;
  // A short label shares the line with the first item; longer or extra labels get their own line.
  std::string lead;
  for (std::size_t i = 0; i < labels.size(); ++i) {
    const std::string def = labels[i] + ":";
    if (i + 1 == labels.size() && def.size() < kIndent) {
      lead = def;
    } else {
      out_ << def << "\n";
    }
  }
  labels.clear();
  std::string s = lead + std::string(kIndent - lead.size(), ' ') + text;
  if (!comment.empty()) {
    if (s.size() < kCommentCol) s += std::string(kCommentCol - s.size(), ' ');
    s += " // " + comment;
  }
  out_ << s << "\n";
}

void ProgramWriter::skip(std::map<std::string, std::uint64_t>& labels, const std::string& name,
                         const std::string& why) {
  skipped_.push_back((&labels == &written_.code_labels ? "code label " : "data label ") + detail::quote(name) + " (" +
                     hex(labels.at(name)) + ") is left out: " + why);
  labels.erase(name);
}

void ProgramWriter::label_names() {
  written_ = p_;
  for (const auto& [name, addr] : p_.code_labels) {
    if (!detail::is_valid_label(name)) skip(written_.code_labels, name, "not a valid label name");
    else if (addr > p_.code.size()) skip(written_.code_labels, name, "past the end of the code");
  }
  for (const auto& [name, addr] : p_.data_labels) {
    const bool in_section = std::any_of(p_.data.begin(), p_.data.end(), [addr = addr](const DataSection& d) {
      return addr >= d.address && addr - d.address <= d.bytes.size();
    });
    if (!detail::is_valid_label(name)) skip(written_.data_labels, name, "not a valid label name");
    else if (written_.code_labels.count(name)) skip(written_.data_labels, name, "a code label has the same name");
    else if (!in_section) skip(written_.data_labels, name, "outside every data section");
  }
  for (const auto& [name, addr] : written_.code_labels) {
    code_at_[addr].push_back(name);
    used_.insert(name);
  }
  for (const auto& [name, addr] : written_.data_labels) used_.insert(name);
  for (const auto& [addr, names] : code_at_) code_first_.emplace(addr, names.front());
  for (std::uint32_t w : p_.code) {
    const std::optional<Instruction> in = decode(w);
    if (!in || !is_control_target(*in)) continue;
    const auto addr = static_cast<std::uint64_t>(in->imm);
    if (addr >= p_.code.size() || code_first_.count(addr)) continue;
    std::string name = "L" + std::to_string(addr);
    while (used_.count(name)) name += "_";
    used_.insert(name);
    code_at_[addr].push_back(name);
    code_first_.emplace(addr, name);
    written_.code_labels.emplace(name, addr);
  }
}

void ProgramWriter::header() {
  out_ << "// PAR " << (p_.kind == ProgramKind::Packet ? "packet" : "master") << " program";
  if (!p_.source_file.empty()) out_ << " disassembled from " << detail::escape_unprintable(p_.source_file);
  out_ << "\n" << (p_.kind == ProgramKind::Packet ? ".PAR" : ".MASTER") << "\n";
  const auto start = code_first_.find(p_.start);
  out_ << ".ADDRESS " << (start != code_first_.end() ? start->second : std::to_string(p_.start)) << "\n";
  if (p_.kind == ProgramKind::Packet) out_ << ".THREADS " << p_.threads << "\n";
  const TargetNames data_first = first_names(written_.data_labels);
  for (std::size_t i = 1; i < p_.inherited.size(); ++i) {
    const std::uint64_t v = p_.inherited[i];
    if (v == 0) continue;
    const auto lbl = data_first.find(v);
    out_ << ".I" << i << " " << (lbl != data_first.end() ? lbl->second : hex(v));
    if (lbl != data_first.end()) out_ << "    // " << hex(v);
    out_ << "\n";
  }
}

void ProgramWriter::code() {
  out_ << "\n.CODE\n";
  std::vector<std::string> labels;
  for (std::size_t pc = 0; pc < p_.code.size(); ++pc) {
    if (const auto it = code_at_.find(pc); it != code_at_.end()) labels = it->second;
    std::string why;
    const std::optional<Instruction> in = decode(p_.code[pc], &why);
    if (!in) {
      line(labels, "// illegal instruction " + hex(p_.code[pc]) + ": " + why);
      continue;
    }
    line(labels, format(*in, &code_first_), std::to_string(pc));
  }
  if (const auto it = code_at_.find(p_.code.size()); it != code_at_.end())
    for (const std::string& name : it->second) out_ << name << ":\n";
}

void ProgramWriter::data_chunk(std::uint64_t addr, const std::uint8_t* b, std::size_t n,
                               std::vector<std::string>& labels) {
  constexpr std::size_t kZeroRun = 16, kWordsPerLine = 4, kBytesPerLine = 8;
  auto zeros_at = [&](std::size_t i) {
    std::size_t z = 0;
    while (i + z < n && b[i + z] == 0) ++z;
    return z;
  };
  std::size_t i = 0;
  while (i < n) {
    if (const std::size_t z = zeros_at(i); z >= kZeroRun) {
      line(labels, ".zero " + std::to_string(z));
      i += z;
      continue;
    }
    std::string text;
    if ((addr + i) % 8 == 0 && n - i >= 8) {
      text = ".i64 ";
      for (std::size_t k = 0; k < kWordsPerLine && n - i >= 8; ++k) {
        if (k > 0 && zeros_at(i) >= kZeroRun) break;
        std::uint64_t v = 0;
        for (int j = 7; j >= 0; --j) v = (v << 8) | b[i + static_cast<std::size_t>(j)];
        text += (k ? ", " : "") + hex(v);
        i += 8;
      }
    } else {
      text = ".i8 ";
      for (std::size_t k = 0; k < kBytesPerLine && i < n; ++k) {
        if (k > 0 && zeros_at(i) >= kZeroRun) break;
        text += (k ? ", " : "") + std::to_string(b[i]);
        ++i;
        if ((addr + i) % 8 == 0) break;
      }
    }
    line(labels, text);
  }
}

void ProgramWriter::data() {
  // Each data label goes to the first section that contains its address, else to the first
  // section that ends there (a label after the last byte of a section).
  std::vector<std::map<std::uint64_t, std::vector<std::string>>> at(p_.data.size());
  for (const auto& [name, addr] : written_.data_labels) {
    std::optional<std::size_t> home;
    for (std::size_t s = 0; s < p_.data.size() && !home; ++s) {
      const DataSection& d = p_.data[s];
      if (addr >= d.address && addr - d.address < d.bytes.size()) home = s;
    }
    for (std::size_t s = 0; s < p_.data.size() && !home; ++s) {
      const DataSection& d = p_.data[s];
      if (addr >= d.address && addr - d.address == d.bytes.size()) home = s;
    }
    if (home) at[*home][addr].push_back(name);
  }
  for (std::size_t s = 0; s < p_.data.size(); ++s) {
    const DataSection& d = p_.data[s];
    out_ << "\n.DATA " << hex(d.address) << "\n";
    std::vector<std::string> labels;
    std::size_t off = 0;
    for (auto& [addr, names] : at[s]) {
      const std::size_t cut = static_cast<std::size_t>(addr - d.address);
      data_chunk(d.address + off, d.bytes.data() + off, cut - off, labels);
      for (const std::string& nm : labels) out_ << nm << ":\n";  // labels of an empty chunk
      labels = names;
      off = cut;
    }
    data_chunk(d.address + off, d.bytes.data() + off, d.bytes.size() - off, labels);
    for (const std::string& nm : labels) out_ << nm << ":\n";
  }
}

std::string ProgramWriter::run() {
  label_names();
  header();
  code();
  data();
  return out_.str();
}

}  // namespace

std::string disassemble(const Instruction& in, const Program* program) {
  if (!program) return format(in, nullptr);
  const TargetNames names = first_names(program->code_labels);
  return format(in, &names);
}

std::string disassemble_program(const Program& program, std::vector<std::string>* problems) {
  ProgramWriter writer(program);
  const std::string listing = writer.run();
  // The listing is checked by assembling it: whatever the assembler refuses or reads differently
  // is said at the top of the listing (after its first line).
  std::vector<std::string> notes = writer.skipped();
  const AssemblyResult again = assemble(listing, "listing");
  if (again.ok()) {
    for (const std::string& d : program_differences(writer.written(), *again.program))
      notes.push_back("assembles to a different program: " + d);
  } else {
    std::vector<const Diagnostic*> errors;
    for (const Diagnostic& d : again.diagnostics)
      if (d.severity == Diagnostic::Severity::Error) errors.push_back(&d);
    // Line numbers of the listing as printed, below this block of notes.
    const std::size_t shift = 1 + notes.size() + errors.size();
    for (const Diagnostic* d : errors)
      notes.push_back("line " + std::to_string(static_cast<std::size_t>(d->line) + shift) + ": " + d->message);
  }
  if (problems != nullptr) *problems = notes;
  if (notes.empty()) return listing;
  std::string head = "// This listing does not assemble back to the same program:\n";
  for (const std::string& n : notes) head += "//   " + detail::escape_unprintable(n) + "\n";
  const std::size_t first_line = listing.find('\n') + 1;
  return listing.substr(0, first_line) + head + listing.substr(first_line);
}

}  // namespace par::isa
