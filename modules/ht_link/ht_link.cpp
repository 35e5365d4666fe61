#include "ht_link.hpp"

#include <vector>

#include "par/sckit/payload.hpp"
#include "par/sckit/target_check.hpp"

namespace par::ht {

using sc_core::sc_time;

// Performs the packets of one access on the far side's initiator socket.
class HtLink::Far final : public FarSide {
 public:
  Far(HtLink& link, InitiatorSocket& socket, tlm::tlm_generic_payload& whole, bool split)
      : link_(link), socket_(socket), whole_(whole), split_(split) {}

  Done deliver(const Packet& packet, Ps at) override {
    const sc_time now = sc_core::sc_time_stamp();
    const sc_time arrive = to_time(at);
    sc_time delay = arrive > now ? arrive - now : sc_core::SC_ZERO_TIME;
    tlm::tlm_response_status status;
    if (split_) {
      status = deliver_piece(packet, delay);
    } else {
      socket_->b_transport(whole_, delay);
      status = whole_.get_response_status();
    }
    if (status != tlm::TLM_OK_RESPONSE && first_error_ == tlm::TLM_OK_RESPONSE)
      first_error_ = status;
    // A request waiting for a slot (only when a target blocks) may retry now.
    link_.slot_freed_.notify(sc_core::SC_ZERO_TIME);
    return {link_.to_ps_(sc_core::sc_time_stamp() + delay), status == tlm::TLM_OK_RESPONSE};
  }

  Ps wait_for_slot() override {
    sc_core::wait(link_.slot_freed_);
    return link_.to_ps_(sc_core::sc_time_stamp());
  }

  // The status for the initiator: the far side's own for a single packet, else the first error.
  tlm::tlm_response_status status() const {
    return split_ ? first_error_ : whole_.get_response_status();
  }

 private:
  // One 64-byte piece of a larger access as a transaction of its own: the data and byte enables
  // at its offset, the initiator's extensions lent for the call.
  tlm::tlm_response_status deliver_piece(const Packet& packet, sc_time& delay) {
    tlm::tlm_generic_payload piece;
    std::vector<unsigned char> enables;
    sckit::prepare_piece(whole_, packet.offset, packet.length, piece, enables);
    const unsigned extensions = tlm::max_num_extensions();
    for (unsigned i = 0; i < extensions; ++i) piece.set_extension(i, whole_.get_extension(i));
    socket_->b_transport(piece, delay);
    // Lent, not owned: the piece's destructor must not free them.
    for (unsigned i = 0; i < extensions; ++i) piece.set_extension(i, nullptr);
    return piece.get_response_status();
  }

  HtLink& link_;
  InitiatorSocket& socket_;
  tlm::tlm_generic_payload& whole_;
  bool split_;
  tlm::tlm_response_status first_error_ = tlm::TLM_OK_RESPONSE;
};

HtLink::HtLink(sc_core::sc_module_name name, const HtConfig& cfg)
    : sc_module(name),
      host_in("host_in"),
      dev_out("dev_out"),
      dev_in("dev_in"),
      host_out("host_out"),
      dev_irq("dev_irq"),
      host_irq("host_irq"),
      cfg_(checked(cfg)),
      stats_group_(this->name()),
      stats_(stats_group_, cfg_.core_clock_mhz),
      model_(cfg_, stats_) {
  host_in.register_b_transport(this, &HtLink::host_b_transport);
  host_in.register_transport_dbg(this, &HtLink::host_transport_dbg);
  dev_in.register_b_transport(this, &HtLink::dev_b_transport);
  dev_in.register_transport_dbg(this, &HtLink::dev_transport_dbg);
  dev_irq.bind(irq_forwarder_);
}

void HtLink::set_trace(trace::Timeline* timeline, trace::VcdWriter* vcd) {
  if (timeline == nullptr && vcd == nullptr) {
    trace_.reset();
  } else {
    trace_ = std::make_unique<LinkTrace>(timeline, vcd);
  }
  model_.set_trace(trace_.get());
}

sc_time HtLink::to_time(Ps ps) { return sc_time(static_cast<double>(ps), sc_core::SC_PS); }

void HtLink::host_b_transport(tlm::tlm_generic_payload& tx, sc_time& delay) {
  transport(Side::Host, tx, delay);
}

void HtLink::dev_b_transport(tlm::tlm_generic_payload& tx, sc_time& delay) {
  transport(Side::Device, tx, delay);
}

void HtLink::transport(Side origin, tlm::tlm_generic_payload& tx, sc_time& delay) {
  tx.set_dmi_allowed(false);
  InitiatorSocket& far = far_socket(origin);
  const unsigned length = tx.get_data_length();
  // Nothing bound on the far side; or a FIFO-style access, which HT packets (contiguous bytes)
  // cannot carry.
  const tlm::tlm_response_status refused =
      far.size() == 0 ? tlm::TLM_ADDRESS_ERROR_RESPONSE : sckit::check_access(tx, sckit::AccessRules());
  if (refused != tlm::TLM_INCOMPLETE_RESPONSE) {
    tx.set_response_status(refused);
    ++stats_.of(sent_by(origin)).errors;
    return;
  }
  const Ps now = to_ps_(sc_core::sc_time_stamp());
  model_.retire(now);

  Access access;
  access.origin = origin;
  access.kind = !tx.is_write()        ? AccessKind::Read
                : cfg_.posted_writes ? AccessKind::PostedWrite
                                     : AccessKind::NonPostedWrite;
  access.length = length;
  access.arrival = now + to_ps_(delay);
  Far far_side(*this, far, tx, length > HtConfig::kMaxPayloadBytes);
  const AccessResult result = model_.transfer(access, far_side);

  tx.set_response_status(far_side.status());
  tx.set_dmi_allowed(false);
  const sc_time end = to_time(result.completion);
  const sc_time current = sc_core::sc_time_stamp();
  delay = end > current ? end - current : sc_core::SC_ZERO_TIME;
}

void HtLink::forward_interrupt(std::uint32_t data, const sc_time& delay) {
  if (host_irq.size() == 0) {
    ++stats_.d2h.errors;
    return;
  }
  const sc_time stamp = sc_core::sc_time_stamp();
  const Ps now = to_ps_(stamp);
  model_.retire(now);
  const sc_time arrival = to_time(model_.interrupt(now + to_ps_(delay)));
  host_irq->interrupt(data, arrival > stamp ? arrival - stamp : sc_core::SC_ZERO_TIME);
}

unsigned int HtLink::host_transport_dbg(tlm::tlm_generic_payload& tx) {
  if (dev_out.size() == 0) {
    tx.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return 0;
  }
  return dev_out->transport_dbg(tx);
}

unsigned int HtLink::dev_transport_dbg(tlm::tlm_generic_payload& tx) {
  if (host_out.size() == 0) {
    tx.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return 0;
  }
  return host_out->transport_dbg(tx);
}

}  // namespace par::ht
