#include "par/cachekit/cache_tlm.hpp"

namespace par::cachekit {

namespace {

void prepare(tlm::tlm_generic_payload& p, tlm::tlm_command cmd, std::uint64_t addr, std::uint8_t* data, unsigned len,
             const std::uint8_t* be) {
  p.set_command(cmd);
  p.set_address(addr);
  p.set_data_ptr(data);
  p.set_data_length(len);
  p.set_streaming_width(len);
  // TLM takes a non-const pointer but a target never writes byte enables.
  p.set_byte_enable_ptr(const_cast<std::uint8_t*>(be));
  p.set_byte_enable_length(be != nullptr ? len : 0);
  p.set_dmi_allowed(false);
  p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
}

}  // namespace

bool TlmNextLevel::timed(tlm::tlm_command cmd, std::uint64_t addr, std::uint8_t* data, unsigned len,
                         const std::uint8_t* be, ScTick start, ScTick& done) {
  tlm::tlm_generic_payload& p = payload_;
  prepare(p, cmd, addr, data, len, be);
  const ScTick now = to_tick(current_time());
  sc_core::sc_time delay = start > now ? to_time(start - now) : sc_core::SC_ZERO_TIME;
  port_->b_transport(p, delay);
  done = to_tick(current_time()) + to_tick(delay);
  if (p.is_response_ok()) return true;
  last_error_ = p.get_response_status();
  return false;
}

bool TlmNextLevel::untimed(tlm::tlm_command cmd, std::uint64_t addr, std::uint8_t* data, unsigned len,
                           const std::uint8_t* be) {
  tlm::tlm_generic_payload p;
  prepare(p, cmd, addr, data, len, be);
  return port_->transport_dbg(p) == len;
}

bool TlmNextLevel::read(std::uint64_t addr, std::uint8_t* data, unsigned len, ScTick start, ScTick& done) {
  return timed(tlm::TLM_READ_COMMAND, addr, data, len, nullptr, start, done);
}

bool TlmNextLevel::write(std::uint64_t addr, std::uint8_t* data, unsigned len, const std::uint8_t* be, ScTick start,
                         ScTick& done) {
  return timed(tlm::TLM_WRITE_COMMAND, addr, data, len, be, start, done);
}

bool TlmNextLevel::read_dbg(std::uint64_t addr, std::uint8_t* data, unsigned len) {
  return untimed(tlm::TLM_READ_COMMAND, addr, data, len, nullptr);
}

bool TlmNextLevel::write_dbg(std::uint64_t addr, std::uint8_t* data, unsigned len, const std::uint8_t* be) {
  return untimed(tlm::TLM_WRITE_COMMAND, addr, data, len, be);
}

}  // namespace par::cachekit
