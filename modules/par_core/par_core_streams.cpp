// The stream window of a ParCore (par/core/stream_registers.hpp): the host fills and drains the
// stream unit's channels with bus transactions between launches.
#include <cstring>
#include <vector>

#include "par/core/stream_registers.hpp"
#include "par_core.hpp"

namespace par::core {

void ParCore::stream_transport(tlm::tlm_generic_payload& tx, sc_core::sc_time& delay) {
  tx.set_response_status(stream_access(tx));
  delay += period_;  // the SRF port takes one transaction per core cycle
}

tlm::tlm_response_status ParCore::stream_access(tlm::tlm_generic_payload& tx) {
  StreamUnit& su = *engine_.stream();
  const std::uint64_t addr = tx.get_address();
  const unsigned len = tx.get_data_length();
  if (const tlm::tlm_response_status s = sckit::check_access(tx, kRegisterRules); s != tlm::TLM_INCOMPLETE_RESPONSE)
    return s;
  if (busy_) return tlm::TLM_COMMAND_ERROR_RESPONSE;  // channels change only between launches
  unsigned char* data = tx.get_data_ptr();
  const std::uint64_t words = len / 8;
  if (addr >= kStreamSrfBase) {
    const std::uint64_t first = (addr - kStreamSrfBase) / 8;
    std::vector<std::uint64_t> v;
    if (tx.is_write()) {
      v.resize(words);
      std::memcpy(v.data(), data, len);
      return su.write(first, v, nullptr) ? tlm::TLM_OK_RESPONSE : tlm::TLM_ADDRESS_ERROR_RESPONSE;
    }
    if (!su.read(first, words, v, nullptr)) return tlm::TLM_ADDRESS_ERROR_RESPONSE;
    std::memcpy(data, v.data(), len);
    return tlm::TLM_OK_RESPONSE;
  }
  const std::uint64_t first_word = addr / 8;
  if (first_word + words > static_cast<std::uint64_t>(su.channels()) * (kStreamChannelBytes / 8))
    return tlm::TLM_ADDRESS_ERROR_RESPONSE;
  // Descriptor words: channel w / 2, CUR (even) or FIN (odd). A write is checked as a whole.
  std::vector<isa::stream::Descriptor> desc(static_cast<std::size_t>(su.channels()));
  for (int c = 0; c < su.channels(); ++c) desc[static_cast<std::size_t>(c)] = su.channel(c);
  for (std::uint64_t i = 0; i < words; ++i) {
    isa::stream::Descriptor& d = desc[static_cast<std::size_t>((first_word + i) / 2)];
    std::uint64_t& field = (first_word + i) % 2 == 0 ? d.cur : d.fin;
    if (tx.is_write()) std::memcpy(&field, data + 8 * i, 8);
    else std::memcpy(data + 8 * i, &field, 8);
  }
  if (tx.is_read()) return tlm::TLM_OK_RESPONSE;
  for (std::uint64_t c = first_word / 2; c <= (first_word + words - 1) / 2; ++c)
    if (desc[c].cur > su.capacity() || desc[c].fin > su.capacity()) return tlm::TLM_ADDRESS_ERROR_RESPONSE;
  for (std::uint64_t c = first_word / 2; c <= (first_word + words - 1) / 2; ++c)
    su.set_channel(static_cast<int>(c), desc[c].cur, desc[c].fin, nullptr);
  return tlm::TLM_OK_RESPONSE;
}

}  // namespace par::core
