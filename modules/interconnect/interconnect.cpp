#include "interconnect.hpp"

#include <sstream>

namespace par::interconnect {

Interconnect::Interconnect(sc_core::sc_module_name name, const InterconnectConfig& cfg)
    : sc_module(name), in("in"), out("out"), cfg_(cfg) {
  in.register_b_transport(this, &Interconnect::b_transport);
  in.register_transport_dbg(this, &Interconnect::transport_dbg);
}

std::string Interconnect::add_region(const Region& r) {
  for (const Region& o : regions_) {
    if (r.base < o.base + o.size && o.base < r.base + r.size) {
      std::ostringstream os;
      os << "address region '" << r.name << "' [0x" << std::hex << r.base << ", 0x" << r.base + r.size
         << ") overlaps '" << o.name << "'";
      return os.str();
    }
  }
  regions_.push_back(r);
  return {};
}

const Region* Interconnect::route(std::uint64_t addr, std::uint64_t len) const {
  for (const Region& r : regions_)
    if (addr >= r.base && addr - r.base < r.size) return len <= r.size - (addr - r.base) ? &r : nullptr;
  return nullptr;
}

void Interconnect::b_transport(int, tlm::tlm_generic_payload& tx, sc_core::sc_time& delay) {
  const std::uint64_t addr = tx.get_address();
  const Region* r = route(addr, tx.get_data_length());
  if (r == nullptr || r->port >= static_cast<int>(out.size())) {
    ++unmapped_;
    tx.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  ++routed_;
  delay += sc_core::sc_time(cfg_.latency_ns, sc_core::SC_NS);
  if (r->translate) tx.set_address(addr - r->base);
  out[static_cast<unsigned>(r->port)]->b_transport(tx, delay);
  tx.set_address(addr);  // initiators see their own address again
}

unsigned int Interconnect::transport_dbg(int, tlm::tlm_generic_payload& tx) {
  const std::uint64_t addr = tx.get_address();
  const Region* r = route(addr, tx.get_data_length());
  if (r == nullptr || r->port >= static_cast<int>(out.size())) return 0;
  if (r->translate) tx.set_address(addr - r->base);
  const unsigned int n = out[static_cast<unsigned>(r->port)]->transport_dbg(tx);
  tx.set_address(addr);
  return n;
}

}  // namespace par::interconnect
