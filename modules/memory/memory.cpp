#include "memory.hpp"

#include <algorithm>
#include <cstring>

#include "par/sckit/target_check.hpp"

namespace par::memory {

using sc_core::sc_time;
using sc_core::SC_NS;

Memory::Memory(sc_core::sc_module_name name, const MemoryConfig& cfg)
    : sc_module(name),
      in("in"),
      cfg_(cfg),
      bytes_(static_cast<std::size_t>(cfg.size), 0),
      stats_(this->name()),
      transfers_(stats_) {
  in.register_b_transport(this, &Memory::b_transport);
  in.register_transport_dbg(this, &Memory::transport_dbg);
}

bool Memory::copy(tlm::tlm_generic_payload& tx) {
  const std::uint64_t addr = tx.get_address();
  const unsigned len = tx.get_data_length();
  if (addr > bytes_.size() || len > bytes_.size() - addr) {
    tx.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return false;
  }
  unsigned char* be = tx.get_byte_enable_ptr();
  const unsigned be_len = tx.get_byte_enable_length();
  for (unsigned i = 0; i < len; ++i) {
    if (be != nullptr && be[i % be_len] == 0) continue;
    if (tx.is_read()) tx.get_data_ptr()[i] = bytes_[addr + i];
    else if (tx.is_write()) bytes_[addr + i] = tx.get_data_ptr()[i];
  }
  tx.set_response_status(tlm::TLM_OK_RESPONSE);
  return true;
}

void Memory::b_transport(tlm::tlm_generic_payload& tx, sc_time& delay) {
  sckit::AccessRules rules;
  rules.size = bytes_.size();
  if (const tlm::tlm_response_status s = sckit::check_access(tx, rules); s != tlm::TLM_INCOMPLETE_RESPONSE) {
    tx.set_response_status(s);
    return;
  }
  copy(tx);
  const unsigned len = tx.get_data_length();
  if (tx.is_read() || tx.is_write()) transfers_.count(tx.is_write(), len);
  // Loosely-timed contention: the access starts when the memory is free for its transfer time
  // (a calendar: callers arrive out of time order); unlimited bandwidth never queues.
  const sc_time now = sc_core::sc_time_stamp();
  const sc_time transfer = cfg_.bytes_per_ns > 0 ? sc_time(len / cfg_.bytes_per_ns, SC_NS) : sc_core::SC_ZERO_TIME;
  busy_.retire(now.value());
  const sc_time start = sc_time::from_value(busy_.reserve((now + delay).value(), transfer.value()));
  delay = (start - now) + transfer + sc_time(cfg_.latency_ns, SC_NS);
}

unsigned int Memory::transport_dbg(tlm::tlm_generic_payload& tx) {
  return copy(tx) ? tx.get_data_length() : 0;
}

}  // namespace par::memory
