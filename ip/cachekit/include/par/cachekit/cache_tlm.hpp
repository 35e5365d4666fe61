// TLM-2.0 glue of the plain (SystemC-free) cache models: the NextLevel interface (request.hpp)
// as base-protocol b_transport / transport_dbg calls on an initiator socket, the conversions
// between sc_time and the models' ticks, and the serving of a target socket's payload by one
// model access per line. Used by the L2 banks (towards DRAM) and by the private L1 caches
// (towards the device interconnect).
#pragma once

#include <algorithm>
#include <cstdint>

#include <systemc>
#include <tlm>

#include "par/cachekit/request.hpp"
#include "par/sckit/fast_time.hpp"
#include "par/sckit/target_check.hpp"

namespace par::cachekit {

using sckit::current_time;

// Time conversions between sc_time and the model's ticks (exact: both count resolution units).
inline ScTick to_tick(const sc_core::sc_time& t) { return t.value(); }
inline sc_core::sc_time to_time(ScTick t) { return sckit::time_from_value(t); }

// Calls fn(addr, offset, len) for each line-sized piece of [addr, addr + len).
template <class Fn>
void for_each_line_piece(std::uint64_t addr, unsigned len, unsigned line_bytes, Fn fn) {
  unsigned offset = 0;
  while (offset < len) {
    const std::uint64_t a = addr + offset;
    const unsigned room = line_bytes - static_cast<unsigned>(a & (line_bytes - 1));
    const unsigned n = std::min(room, len - offset);
    fn(a, offset, n);
    offset += n;
  }
}

class TlmNextLevel final : public NextLevel {
 public:
  using Port = sc_core::sc_port_b<tlm::tlm_fw_transport_if<>>;

  // `port` is the owner's initiator socket; it need not be bound yet.
  explicit TlmNextLevel(Port& port) : port_(port) {}

  bool read(std::uint64_t addr, std::uint8_t* data, unsigned len, ScTick start, ScTick& done) override;
  bool write(std::uint64_t addr, std::uint8_t* data, unsigned len, const std::uint8_t* be, ScTick start,
             ScTick& done) override;
  bool read_dbg(std::uint64_t addr, std::uint8_t* data, unsigned len) override;
  bool write_dbg(std::uint64_t addr, std::uint8_t* data, unsigned len, const std::uint8_t* be) override;

  // The status of the last failed access (TLM_GENERIC_ERROR_RESPONSE before any failure).
  tlm::tlm_response_status last_error() const { return last_error_; }

 private:
  bool timed(tlm::tlm_command cmd, std::uint64_t addr, std::uint8_t* data, unsigned len, const std::uint8_t* be,
             ScTick start, ScTick& done);
  bool untimed(tlm::tlm_command cmd, std::uint64_t addr, std::uint8_t* data, unsigned len, const std::uint8_t* be);

  Port& port_;
  tlm::tlm_response_status last_error_ = tlm::TLM_GENERIC_ERROR_RESPONSE;
  // One payload for every access (each is complete when its call returns): constructing one per
  // access allocates its extension array, a heap allocation per line fill and writeback.
  tlm::tlm_generic_payload payload_;
};

// The line piece [off, off + n) of `tx` at address `a` as a model request.
inline Request piece_request(tlm::tlm_generic_payload& tx, std::uint64_t a, unsigned off, unsigned n) {
  Request r;
  r.write = tx.is_write();
  r.addr = a;
  r.len = n;
  r.data = tx.get_data_ptr() + off;
  r.be = ByteEnables{tx.get_byte_enable_ptr(), tx.get_byte_enable_length(), off};
  return r;
}

// A payload a cache target cannot serve gets its error status and true: a streaming width below
// the length (TLM_BURST_ERROR_RESPONSE) or byte enables of length 0 (TLM_BYTE_ENABLE_ERROR_RESPONSE).
inline bool refuse_bad_payload(tlm::tlm_generic_payload& tx) {
  sckit::AccessRules rules;
  rules.byte_enables = sckit::AccessRules::ByteEnables::NonEmpty;
  const tlm::tlm_response_status status = sckit::check_access(tx, rules);
  if (status == tlm::TLM_INCOMPLETE_RESPONSE) return false;
  tx.set_response_status(status);
  return true;
}

// b_transport of a cache target: checks the payload, makes one model.access() per line piece
// (every piece arriving at now + delay), sets the response (`next`'s last error if a piece
// failed) and the delay to the last piece's completion. `Model` has access(const Request&) ->
// Outcome.
template <class Model>
void serve_access(Model& model, unsigned line_bytes, TlmNextLevel& next, tlm::tlm_generic_payload& tx,
                  sc_core::sc_time& delay) {
  if (refuse_bad_payload(tx)) return;
  const unsigned len = tx.get_data_length();
  if (!tx.is_read() && !tx.is_write()) {  // TLM_IGNORE_COMMAND
    tx.set_response_status(tlm::TLM_OK_RESPONSE);
    return;
  }
  const ScTick at = to_tick(current_time() + delay);
  const std::uint64_t addr = tx.get_address();
  ScTick done = at;
  bool ok = true;
  if (len != 0 && (addr & (line_bytes - 1)) + len <= line_bytes) {
    // One line (what a router that splits by line sends): the piece is the whole payload.
    Request r = piece_request(tx, addr, 0, len);
    r.at = at;
    const Outcome o = model.access(r);
    ok = o.ok;
    done = std::max(done, o.done);
  } else {
    for_each_line_piece(addr, len, line_bytes, [&](std::uint64_t a, unsigned off, unsigned n) {
      Request r = piece_request(tx, a, off, n);
      r.at = at;
      const Outcome o = model.access(r);
      ok = ok && o.ok;
      done = std::max(done, o.done);
    });
  }
  tx.set_response_status(ok ? tlm::TLM_OK_RESPONSE : next.last_error());
  // A next level may wait inside b_transport for its access (an approximately-timed model behind
  // a simple socket): the delay is relative to the time stamp after the call.
  const ScTick after = to_tick(current_time());
  delay = done > after ? to_time(done - after) : sc_core::SC_ZERO_TIME;
}

// transport_dbg of a cache target: one model.debug() per line piece. `Model` has
// debug(const Request&) -> bool.
template <class Model>
unsigned int serve_debug(Model& model, unsigned line_bytes, tlm::tlm_generic_payload& tx) {
  const unsigned len = tx.get_data_length();
  if (!tx.is_read() && !tx.is_write()) return 0;
  bool ok = true;
  for_each_line_piece(tx.get_address(), len, line_bytes, [&](std::uint64_t a, unsigned off, unsigned n) {
    ok = model.debug(piece_request(tx, a, off, n)) && ok;
  });
  tx.set_response_status(ok ? tlm::TLM_OK_RESPONSE : tlm::TLM_ADDRESS_ERROR_RESPONSE);
  return ok ? len : 0;
}

}  // namespace par::cachekit
