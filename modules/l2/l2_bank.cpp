#include "l2_bank.hpp"

namespace par::l2 {

using sc_core::sc_time;

namespace {

// The bank clock period; at least one time-resolution unit.
Tick period_ticks(const L2Config& cfg) {
  const Tick t = to_tick(sc_time(1e3 / cfg.clock_mhz, sc_core::SC_NS));
  return t > 0 ? t : 1;
}

void prepare(tlm::tlm_generic_payload& p, tlm::tlm_command cmd, std::uint64_t addr,
             std::uint8_t* data, unsigned len, const std::uint8_t* be) {
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

// The line piece [off, off + n) of `tx` at address `a` as a model request.
Request piece_request(tlm::tlm_generic_payload& tx, std::uint64_t a, unsigned off, unsigned n) {
  Request r;
  r.write = tx.is_write();
  r.addr = a;
  r.len = n;
  r.data = tx.get_data_ptr() + off;
  r.be = ByteEnables{tx.get_byte_enable_ptr(), tx.get_byte_enable_length(), off};
  return r;
}

}  // namespace

L2Bank::L2Bank(sc_core::sc_module_name name, const L2Config& cfg, unsigned index,
               simkit::StatGroup* parent_stats)
    : sc_module(name),
      in("in"),
      mem("mem"),
      index_(index),
      stats_(parent_stats != nullptr ? basename() : this->name()) {
  if (parent_stats != nullptr) parent_stats->attach(stats_);
  model_ = std::make_unique<BankModel>(checked(cfg), period_ticks(cfg),
                                       static_cast<NextLevel&>(*this), stats_);
  in.register_b_transport(this, &L2Bank::b_transport);
  in.register_transport_dbg(this, &L2Bank::transport_dbg);
}

void L2Bank::b_transport(tlm::tlm_generic_payload& tx, sc_time& delay) {
  const unsigned len = tx.get_data_length();
  if (tx.get_streaming_width() < len) {
    tx.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    return;
  }
  if (tx.get_byte_enable_ptr() != nullptr && tx.get_byte_enable_length() == 0) {
    tx.set_response_status(tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
    return;
  }
  if (!tx.is_read() && !tx.is_write()) {  // TLM_IGNORE_COMMAND
    tx.set_response_status(tlm::TLM_OK_RESPONSE);
    return;
  }
  const sc_time now = current_time();
  const Tick at = to_tick(now + delay);
  Tick done = at;
  bool ok = true;
  // Normally one line (the L2 router splits); a directly bound initiator may send more, and then
  // every line takes its own port slot.
  for_each_line_piece(tx.get_address(), len, model_->geometry().line_bytes(),
                      [&](std::uint64_t a, unsigned off, unsigned n) {
                        Request r = piece_request(tx, a, off, n);
                        r.at = at;
                        const Outcome o = model_->access(r);
                        ok = ok && o.ok;
                        done = std::max(done, o.done);
                      });
  tx.set_response_status(ok ? tlm::TLM_OK_RESPONSE : next_error_);
  // A DRAM model may wait inside b_transport for its access (an approximately-timed one behind a
  // simple socket): the delay is relative to the time stamp after the call.
  const Tick after = to_tick(current_time());
  delay = done > after ? to_time(done - after) : sc_core::SC_ZERO_TIME;
}

unsigned int L2Bank::transport_dbg(tlm::tlm_generic_payload& tx) {
  const unsigned len = tx.get_data_length();
  if (!tx.is_read() && !tx.is_write()) return 0;
  bool ok = true;
  for_each_line_piece(tx.get_address(), len, model_->geometry().line_bytes(),
                      [&](std::uint64_t a, unsigned off, unsigned n) {
                        ok = model_->debug(piece_request(tx, a, off, n)) && ok;
                      });
  tx.set_response_status(ok ? tlm::TLM_OK_RESPONSE : tlm::TLM_ADDRESS_ERROR_RESPONSE);
  return ok ? len : 0;
}

sc_time L2Bank::flush_timed(const sc_time& at, bool invalidate) {
  return to_time(model_->flush(to_tick(at), invalidate));
}

bool L2Bank::timed(tlm::tlm_command cmd, std::uint64_t addr, std::uint8_t* data, unsigned len,
                   const std::uint8_t* be, Tick start, Tick& done) {
  tlm::tlm_generic_payload p;
  prepare(p, cmd, addr, data, len, be);
  const sc_time now = sc_core::sc_time_stamp();
  const sc_time begin = to_time(start);
  sc_time delay = begin > now ? begin - now : sc_core::SC_ZERO_TIME;
  mem->b_transport(p, delay);
  done = to_tick(sc_core::sc_time_stamp() + delay);
  if (p.is_response_ok()) return true;
  next_error_ = p.get_response_status();
  return false;
}

bool L2Bank::untimed(tlm::tlm_command cmd, std::uint64_t addr, std::uint8_t* data, unsigned len,
                     const std::uint8_t* be) {
  tlm::tlm_generic_payload p;
  prepare(p, cmd, addr, data, len, be);
  return mem->transport_dbg(p) == len;
}

bool L2Bank::read(std::uint64_t addr, std::uint8_t* data, unsigned len, Tick start, Tick& done) {
  return timed(tlm::TLM_READ_COMMAND, addr, data, len, nullptr, start, done);
}

bool L2Bank::write(std::uint64_t addr, std::uint8_t* data, unsigned len, const std::uint8_t* be,
                   Tick start, Tick& done) {
  return timed(tlm::TLM_WRITE_COMMAND, addr, data, len, be, start, done);
}

bool L2Bank::read_dbg(std::uint64_t addr, std::uint8_t* data, unsigned len) {
  return untimed(tlm::TLM_READ_COMMAND, addr, data, len, nullptr);
}

bool L2Bank::write_dbg(std::uint64_t addr, std::uint8_t* data, unsigned len,
                       const std::uint8_t* be) {
  return untimed(tlm::TLM_WRITE_COMMAND, addr, data, len, be);
}

}  // namespace par::l2
