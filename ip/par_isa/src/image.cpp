// Binary program images (format documented in ip/par_isa/README.md, "Program image format").
// All integers are little-endian. Every length read from a file is checked against the bytes that
// remain before anything is allocated, so a corrupt file gives an error, never a crash.
#include "par/isa/image.hpp"

#include <algorithm>
#include <array>
#include <fstream>

#include "names.hpp"
#include "par/isa/encoding.hpp"
#include "par/simkit/input_file.hpp"

namespace par::isa {

namespace {

constexpr std::array<std::uint8_t, 8> kMagic = {'P', 'A', 'R', 'I', 'M', 'G', 0x1A, '\n'};
constexpr std::uint16_t kVersion = 1;
constexpr std::uint16_t kFlagDebug = 1;  // debug section present
constexpr std::size_t kCrcSize = 4;
// Far above any image the assembler writes (256 MiB of data, an instruction cache of at most
// 2^26 words): the bound keeps a wrong file from filling the host's memory.
constexpr std::uint64_t kMaxImageBytes = std::uint64_t{1} << 30;

class Writer {
 public:
  void u8(std::uint8_t v) { b_.push_back(v); }
  void u16(std::uint16_t v) { le(v, 2); }
  void u32(std::uint32_t v) { le(v, 4); }
  void u64(std::uint64_t v) { le(v, 8); }
  void str(const std::string& s) {
    u32(static_cast<std::uint32_t>(s.size()));
    b_.insert(b_.end(), s.begin(), s.end());
  }
  void bytes(const std::vector<std::uint8_t>& v) { b_.insert(b_.end(), v.begin(), v.end()); }
  std::vector<std::uint8_t> take() { return std::move(b_); }
  const std::vector<std::uint8_t>& buf() const { return b_; }

 private:
  void le(std::uint64_t v, int n) {
    for (int i = 0; i < n; ++i) b_.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
  }
  std::vector<std::uint8_t> b_;
};

// Bounds-checked reader: every read fails cleanly (and keeps failing) past the end.
class Reader {
 public:
  Reader(const std::uint8_t* p, std::size_t n) : p_(p), n_(n) {}
  std::size_t left() const { return n_ - pos_; }
  bool ok() const { return ok_; }
  std::uint8_t u8() { return static_cast<std::uint8_t>(le(1)); }
  std::uint16_t u16() { return static_cast<std::uint16_t>(le(2)); }
  std::uint32_t u32() { return static_cast<std::uint32_t>(le(4)); }
  std::uint64_t u64() { return le(8); }
  bool bytes(std::uint64_t n, std::vector<std::uint8_t>& out) {
    if (!ok_ || n > left()) return ok_ = false;
    out.assign(p_ + pos_, p_ + pos_ + n);
    pos_ += static_cast<std::size_t>(n);
    return true;
  }
  bool str(std::string& out) {
    const std::uint32_t n = u32();
    if (!ok_ || n > left()) return ok_ = false;
    out.assign(reinterpret_cast<const char*>(p_ + pos_), n);
    pos_ += n;
    return true;
  }

 private:
  std::uint64_t le(int n) {
    if (!ok_ || static_cast<std::size_t>(n) > left()) {
      ok_ = false;
      return 0;
    }
    std::uint64_t v = 0;
    for (int i = n - 1; i >= 0; --i) v = (v << 8) | p_[pos_ + static_cast<std::size_t>(i)];
    pos_ += static_cast<std::size_t>(n);
    return v;
  }
  const std::uint8_t* p_;
  std::size_t n_;
  std::size_t pos_ = 0;
  bool ok_ = true;
};

bool fail(std::string* error, const std::string& msg) {
  if (error) *error = msg;
  return false;
}

bool has_debug(const Program& p) {
  return !p.source_file.empty() || !p.source_lines.empty() || !p.code_labels.empty() || !p.data_labels.empty();
}

void write_labels(Writer& w, const std::map<std::string, std::uint64_t>& labels) {
  w.u32(static_cast<std::uint32_t>(labels.size()));
  for (const auto& [name, addr] : labels) {
    w.str(name);
    w.u64(addr);
  }
}

bool read_labels(Reader& r, std::map<std::string, std::uint64_t>& out, const char* what, std::string* error) {
  const std::uint32_t n = r.u32();
  // A label takes at least 12 bytes (length, address), so the count is bounded by the file size.
  if (!r.ok() || n > r.left() / 12) return fail(error, std::string("truncated ") + what + " label table");
  for (std::uint32_t i = 0; i < n; ++i) {
    std::string name;
    if (!r.str(name)) return fail(error, std::string("truncated ") + what + " label table");
    const std::uint64_t addr = r.u64();
    if (!r.ok()) return fail(error, std::string("truncated ") + what + " label table");
    if (!detail::is_valid_label(name)) return fail(error, std::string("bad ") + what + " label name");
    if (!out.emplace(name, addr).second) return fail(error, "duplicate label '" + name + "'");
  }
  return true;
}

bool sections_disjoint(const std::vector<DataSection>& data) {
  std::vector<const DataSection*> v;
  for (const DataSection& d : data)
    if (!d.bytes.empty()) v.push_back(&d);
  std::sort(v.begin(), v.end(), [](const DataSection* a, const DataSection* b) { return a->address < b->address; });
  for (std::size_t i = 1; i < v.size(); ++i)
    if (v[i - 1]->address + (v[i - 1]->bytes.size() - 1) >= v[i]->address) return false;
  return true;
}

bool read_body(Reader& r, Program& p, std::string* error) {
  const std::uint16_t version = r.u16();
  const std::uint16_t flags = r.u16();
  const std::uint8_t kind = r.u8();
  const std::uint8_t r1 = r.u8(), r2 = r.u8(), r3 = r.u8();
  if (!r.ok()) return fail(error, "truncated header");
  if (version != kVersion) return fail(error, "unsupported image version " + std::to_string(version));
  if ((flags & ~kFlagDebug) != 0 || r1 != 0 || r2 != 0 || r3 != 0) return fail(error, "reserved header bits set");
  if (kind > 1) return fail(error, "bad program kind " + std::to_string(kind));
  p.kind = kind == 0 ? ProgramKind::Packet : ProgramKind::Master;
  p.start = r.u64();
  p.threads = static_cast<std::int64_t>(r.u64());
  for (std::size_t i = 1; i < p.inherited.size(); ++i) p.inherited[i] = r.u64();
  if (!r.ok()) return fail(error, "truncated header");
  if (p.threads < 0) return fail(error, "negative thread count");

  const std::uint32_t ncode = r.u32();
  if (!r.ok() || ncode > r.left() / 4) return fail(error, "truncated code section");
  p.code.resize(ncode);
  for (std::uint32_t& w : p.code) w = r.u32();
  for (std::size_t pc = 0; pc < p.code.size(); ++pc) {
    std::string why;
    if (!decode(p.code[pc], &why))
      return fail(error, "illegal instruction at address " + std::to_string(pc) + ": " + why);
  }
  if (!p.code.empty() && p.start >= p.code.size()) return fail(error, "start address past the end of the code");

  const std::uint32_t nsec = r.u32();
  if (!r.ok() || nsec > r.left() / 16) return fail(error, "truncated data sections");
  p.data.resize(nsec);
  for (DataSection& d : p.data) {
    d.address = r.u64();
    const std::uint64_t len = r.u64();
    if (!r.ok() || !r.bytes(len, d.bytes)) return fail(error, "truncated data section");
    if (len != 0 && len - 1 > ~std::uint64_t{0} - d.address)
      return fail(error, "data section runs past the end of the address space");
  }
  if (!sections_disjoint(p.data)) return fail(error, "overlapping data sections");
  if (flags & kFlagDebug) {
    if (!r.str(p.source_file)) return fail(error, "truncated debug info");
    const std::uint32_t nlines = r.u32();
    if (!r.ok() || nlines > r.left() / 4) return fail(error, "truncated debug info");
    if (nlines != 0 && nlines != p.code.size()) return fail(error, "line table does not match the code");
    p.source_lines.resize(nlines);
    for (std::uint32_t& l : p.source_lines) l = r.u32();
    if (!read_labels(r, p.code_labels, "code", error) || !read_labels(r, p.data_labels, "data", error))
      return false;
  }
  if (r.left() != 0) return fail(error, "unexpected bytes after the image");
  return true;
}

}  // namespace

// CRC-32 (IEEE 802.3, reflected, polynomial 0xEDB88320), bitwise: images are small.
std::uint32_t image_checksum(const std::uint8_t* p, std::size_t n) {
  std::uint32_t c = 0xFFFFFFFFu;
  for (std::size_t i = 0; i < n; ++i) {
    c ^= p[i];
    for (int k = 0; k < 8; ++k) c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
  }
  return ~c;
}

std::vector<std::uint8_t> write_image(const Program& p) {
  Writer w;
  for (std::uint8_t b : kMagic) w.u8(b);
  const bool debug = has_debug(p);
  w.u16(kVersion);
  w.u16(debug ? kFlagDebug : 0);
  w.u8(p.kind == ProgramKind::Packet ? 0 : 1);
  w.u8(0);
  w.u8(0);
  w.u8(0);
  w.u64(p.start);
  w.u64(static_cast<std::uint64_t>(p.threads));
  for (std::size_t i = 1; i < p.inherited.size(); ++i) w.u64(p.inherited[i]);
  w.u32(static_cast<std::uint32_t>(p.code.size()));
  for (std::uint32_t c : p.code) w.u32(c);
  w.u32(static_cast<std::uint32_t>(p.data.size()));
  for (const DataSection& d : p.data) {
    w.u64(d.address);
    w.u64(d.bytes.size());
    w.bytes(d.bytes);
  }
  if (debug) {
    w.str(p.source_file);
    w.u32(static_cast<std::uint32_t>(p.source_lines.size()));
    for (std::uint32_t l : p.source_lines) w.u32(l);
    write_labels(w, p.code_labels);
    write_labels(w, p.data_labels);
  }
  w.u32(image_checksum(w.buf().data(), w.buf().size()));
  return w.take();
}

std::optional<Program> read_image(const std::vector<std::uint8_t>& bytes, std::string* error) {
  if (bytes.size() < kMagic.size() || !std::equal(kMagic.begin(), kMagic.end(), bytes.begin())) {
    fail(error, "not a PAR program image (bad magic)");
    return std::nullopt;
  }
  if (bytes.size() < kMagic.size() + kCrcSize) {
    fail(error, "truncated image");
    return std::nullopt;
  }
  const std::size_t body = bytes.size() - kCrcSize;
  Reader tail(bytes.data() + body, kCrcSize);
  if (tail.u32() != image_checksum(bytes.data(), body)) {
    fail(error, "checksum mismatch (truncated or corrupt image)");
    return std::nullopt;
  }
  Reader r(bytes.data() + kMagic.size(), body - kMagic.size());
  Program p;
  if (!read_body(r, p, error)) return std::nullopt;
  return p;
}

bool save_image(const Program& program, const std::string& path, std::string* error) {
  const std::vector<std::uint8_t> bytes = write_image(program);
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  if (!f) return fail(error, "cannot open '" + path + "' for writing");
  f.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  f.close();
  if (!f) return fail(error, "cannot write '" + path + "'");
  return true;
}

std::optional<Program> load_image(const std::string& path, std::string* error) {
  std::string text;
  if (const std::string why = simkit::read_input_file(path, kMaxImageBytes, text); !why.empty()) {
    fail(error, "cannot read '" + path + "': " + why);
    return std::nullopt;
  }
  const std::vector<std::uint8_t> bytes(text.begin(), text.end());
  text = std::string();
  std::string why;
  std::optional<Program> p = read_image(bytes, &why);
  if (!p) fail(error, path + ": " + why);
  return p;
}

}  // namespace par::isa
