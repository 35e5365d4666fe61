// Data sections: .DATA, .i8 .. .i64, .f32, .f64, .zero, .align, label fix-ups and the overlap
// check (docs/isa.md §8.4).
#include <algorithm>
#include <array>
#include <cstdint>
#include <string>

#include "asm_assembler.hpp"
#include "names.hpp"

namespace par::isa::detail {

void Assembler::data_start(const Token& d, const std::vector<Token>& toks, std::size_t pos) {
  section_ = Section::Data;
  DataSection s;
  bool ok = false;
  Value v;
  if (parse_value(toks, pos, d, ValueMode::Int, v) && no_more(toks, pos, d)) {
    if (v.iv.neg && v.iv.mag != 0) {
      error(v.loc, "data address " + v.text + " is negative");
    } else {
      s.address = v.iv.mag;
      ok = true;
    }
  }
  prog_.data.push_back(std::move(s));
  data_locs_.push_back(Loc{line_, d.col});
  data_ok_.push_back(ok);
  cur_data_ = prog_.data.size() - 1;
}

bool Assembler::append(const Token& d, std::uint64_t n, const std::uint8_t* bytes) {
  DataSection& s = prog_.data[cur_data_];
  if (n > kMaxDataBytes - total_data_) {
    if (!data_limit_reported_) error(d, "data larger than " + std::to_string(kMaxDataBytes) + " bytes");
    data_limit_reported_ = true;
    return false;
  }
  // The section must end at or below 2^64: its size may not exceed 2^64 - address.
  if (s.address != 0 && s.bytes.size() + n > (0 - s.address)) {
    error(d, "data section at " + hex(s.address) + " runs past the end of the address space");
    return false;
  }
  total_data_ += n;
  if (bytes) {
    s.bytes.insert(s.bytes.end(), bytes, bytes + n);
  } else {
    s.bytes.resize(s.bytes.size() + static_cast<std::size_t>(n), 0);
  }
  return true;
}

void Assembler::data_directive(const Token& d, const std::string& name, const std::vector<Token>& toks,
                               std::size_t pos) {
  if (section_ != Section::Data) return error(d, "data directive " + quote(d.text) + " outside a .DATA section");
  if (name == ".zero" || name == ".align") {
    Value v;
    if (!parse_value(toks, pos, d, ValueMode::Int, v) || !no_more(toks, pos, d)) return;
    if (v.iv.neg && v.iv.mag != 0) return error(v.loc, "bad " + name.substr(1) + " count " + v.text);
    std::uint64_t n = v.iv.mag;
    if (name == ".align") {
      if (n == 0 || (n & (n - 1)) != 0) return error(v.loc, "bad alignment " + v.text + " (must be a power of two)");
      const DataSection& s = prog_.data[cur_data_];
      n = (0 - (s.address + s.bytes.size())) & (n - 1);
    }
    append(d, n, nullptr);
    return;
  }
  data_values(d, name, toks, pos);
}

// .i8 .i16 .i32 .i64 .f32 .f64: one or more comma-separated values.
void Assembler::data_values(const Token& d, const std::string& name, const std::vector<Token>& toks,
                            std::size_t pos) {
  const bool fp = name[1] == 'f';
  const unsigned width = static_cast<unsigned>(std::stoi(name.substr(2))) / 8;
  while (true) {
    Value v;
    if (!parse_value(toks, pos, d, fp ? ValueMode::Float : ValueMode::IntOrLabel, v)) return;
    std::uint64_t bits = 0;
    if (fp && width == 4) {
      // Convert the literal directly to binary32: going through binary64 could round twice.
      const Token& t = toks[pos - 1];
      std::uint32_t b = 0;
      if (parse_f32(t.text, v.text[0] == '-', b) != FpStatus::Ok)
        return error(v.loc, "value " + v.text + " does not fit in " + name);
      bits = b;
    } else if (fp) {
      bits = v.fp_bits;
    } else if (v.kind == Value::Label) {
      fixups_.push_back(Fixup{cur_data_, prog_.data[cur_data_].bytes.size(), width, name, v});
    } else {
      const unsigned bitsz = width * 8;
      const std::int64_t lo = bitsz == 64 ? INT64_MIN : -(std::int64_t{1} << (bitsz - 1));
      const std::uint64_t hi = bitsz == 64 ? kUint64Max : (std::uint64_t{1} << bitsz) - 1;
      if (!v.iv.in_range(lo, hi)) return error(v.loc, "value " + v.text + " does not fit in " + name);
      bits = v.iv.bits();
    }
    std::array<std::uint8_t, 8> le{};
    for (unsigned i = 0; i < width; ++i) le[i] = static_cast<std::uint8_t>(bits >> (8 * i));
    if (!append(d, width, le.data())) return;
    if (pos >= toks.size()) return;
    if (!toks[pos].is(',')) return error(toks[pos], "expected ',' before " + quote(toks[pos].text));
    if (++pos >= toks.size()) return error(toks[pos - 1], "missing value after ','");
  }
}

void Assembler::finish_data() {
  for (const Fixup& f : fixups_) {
    IntValue x;
    if (!resolve(f.value, x)) continue;
    const unsigned bitsz = f.width * 8;
    if (bitsz < 64 && x.mag > (std::uint64_t{1} << bitsz) - 1) {
      error(f.value.loc, "value '" + f.value.label + "' (" + hex(x.mag) + ") does not fit in " + f.name);
      continue;
    }
    std::vector<std::uint8_t>& bytes = prog_.data[f.section].bytes;
    for (unsigned i = 0; i < f.width; ++i) bytes[f.offset + i] = static_cast<std::uint8_t>(x.mag >> (8 * i));
  }
  // Overlap: sweep the sections by address, remembering the one that reaches furthest.
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < prog_.data.size(); ++i)
    if (data_ok_[i] && !prog_.data[i].bytes.empty()) order.push_back(i);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return prog_.data[a].address < prog_.data[b].address; });
  auto last_byte = [&](std::size_t i) { return prog_.data[i].address + (prog_.data[i].bytes.size() - 1); };
  std::optional<std::size_t> reach;
  for (std::size_t i : order) {
    if (reach && last_byte(*reach) >= prog_.data[i].address) {
      const std::size_t later = std::max(i, *reach), earlier = std::min(i, *reach);
      error(data_locs_[later], ".DATA section at " + hex(prog_.data[later].address) + " overlaps the section at " +
                                   hex(prog_.data[earlier].address) + " (line " +
                                   std::to_string(data_locs_[earlier].line) + ")");
    }
    if (!reach || last_byte(i) > last_byte(*reach)) reach = i;
  }
}

}  // namespace par::isa::detail
