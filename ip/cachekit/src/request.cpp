#include "par/cachekit/request.hpp"

namespace par::cachekit {

bool ByteEnables::all(unsigned n) const {
  for (unsigned i = 0; i < n; ++i)
    if (!on(i)) return false;
  return true;
}

void apply_enabled(const Request& r, std::uint8_t* p) {
  for (unsigned i = 0; i < r.len; ++i) {
    if (!r.be.on(i)) continue;
    if (r.write) p[i] = r.data[i];
    else r.data[i] = p[i];
  }
}

std::vector<std::uint8_t> piece_enables(const Request& r) {
  std::vector<std::uint8_t> be;
  if (r.be.ptr == nullptr) return be;
  be.resize(r.len);
  for (unsigned i = 0; i < r.len; ++i) be[i] = r.be.on(i) ? 0xff : 0x00;
  return be;
}

bool debug_below(NextLevel& next, const Request& r) {
  if (r.write) {
    std::vector<std::uint8_t> be = piece_enables(r);
    return next.write_dbg(r.addr, r.data, r.len, be.empty() ? nullptr : be.data());
  }
  // Read through a buffer so disabled bytes of the initiator's array stay untouched.
  std::vector<std::uint8_t> buf(r.len);
  if (!next.read_dbg(r.addr, buf.data(), r.len)) return false;
  for (unsigned i = 0; i < r.len; ++i)
    if (r.be.on(i)) r.data[i] = buf[i];
  return true;
}

}  // namespace par::cachekit
