// The HyperTransport host link as one SC_MODULE (README.md): two unidirectional channels between a
// host side and a device side, with the timing of LinkModel.
//
//   host interconnect --> host_in  ==h2d==>  dev_out --> device interconnect   (MMIO, copies)
//   host memory      <-- host_out <==d2h==  dev_in  <-- device interconnect   (device DMA)
//   host interrupts  <-- host_irq <==d2h==  dev_irq <-- device interrupt source (the scheduler)
//
// Loosely timed: b_transport computes every time by reservation (channel calendars, outstanding
// slots) and annotates the delay; it calls wait() only if every outstanding slot of a side is held
// by a far-side target that is itself waiting inside b_transport (an approximately-timed model
// behind a simple socket). Addresses pass unchanged; accesses over 64 bytes reach the far side as
// one access per 64-byte packet. Error responses of the far side come back unchanged. Debug
// transport passes straight through without timing; DMI is not offered. An interrupt raised on
// dev_irq crosses as a posted 4-byte write packet and is raised on host_irq when it arrives.
#pragma once

#include <memory>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "ht_config.hpp"
#include "ht_time.hpp"
#include "link_model.hpp"
#include "link_stats.hpp"
#include "link_trace.hpp"
#include "par/sckit/interrupt.hpp"
#include "par/trace/sc_ps.hpp"
#include "par/simkit/stats.hpp"

namespace par::ht {

class HtLink : public sc_core::sc_module {
 public:
  // One initiator each (the host / device interconnect); optional, so a platform without device
  // DMA can leave dev_in/host_out unbound. An access towards an unbound side gets
  // TLM_ADDRESS_ERROR_RESPONSE. The simple target sockets also accept nb_transport_fw.
  tlm_utils::simple_target_socket_optional<HtLink> host_in;      // host requests to the device
  tlm_utils::simple_initiator_socket_optional<HtLink> dev_out;   // ... delivered on the device side
  tlm_utils::simple_target_socket_optional<HtLink> dev_in;       // device requests to host memory
  tlm_utils::simple_initiator_socket_optional<HtLink> host_out;  // ... delivered to host memory
  // Interrupts of the device side (optional) and where they are delivered on the host side; an
  // interrupt with host_irq unbound is dropped and counted in d2h.errors.
  sc_core::sc_export<sckit::InterruptIf> dev_irq;
  sckit::InterruptOut host_irq;

  // Throws std::invalid_argument with every message of cfg.validate() when it is not valid.
  explicit HtLink(sc_core::sc_module_name name, const HtConfig& cfg = HtConfig());

  const HtConfig& config() const { return cfg_; }
  simkit::StatGroup& stats() { return stats_group_; }
  const simkit::StatGroup& stats() const { return stats_group_; }
  const LinkModel& model() const { return model_; }
  // Tracing (README.md "Tracing"): one interval per packet on link/h2d or link/d2h, the counter
  // `queue`, VCD link.<dir>.busy / link.<dir>.queue. Call before sc_start; null pointers (the
  // default) record nothing.
  void set_trace(trace::Timeline* timeline, trace::VcdWriter* vcd);

 private:
  class Far;
  // Forwards dev_irq across the link.
  class IrqForwarder final : public sckit::InterruptIf {
   public:
    explicit IrqForwarder(HtLink& link) : link_(link) {}
    void interrupt(std::uint32_t data, const sc_core::sc_time& delay) override { link_.forward_interrupt(data, delay); }

   private:
    HtLink& link_;
  };
  using InitiatorSocket = tlm_utils::simple_initiator_socket_optional<HtLink>;

  void host_b_transport(tlm::tlm_generic_payload& tx, sc_core::sc_time& delay);
  void dev_b_transport(tlm::tlm_generic_payload& tx, sc_core::sc_time& delay);
  unsigned int host_transport_dbg(tlm::tlm_generic_payload& tx);
  unsigned int dev_transport_dbg(tlm::tlm_generic_payload& tx);

  void transport(Side origin, tlm::tlm_generic_payload& tx, sc_core::sc_time& delay);
  void forward_interrupt(std::uint32_t data, const sc_core::sc_time& delay);
  InitiatorSocket& far_socket(Side origin) { return origin == Side::Host ? dev_out : host_out; }

  static sc_core::sc_time to_time(Ps ps);

  HtConfig cfg_;
  simkit::StatGroup stats_group_;
  LinkStats stats_;
  LinkModel model_;
  IrqForwarder irq_forwarder_{*this};
  sc_core::sc_event slot_freed_;  // a far-side access returned (see FarSide::wait_for_slot)
  trace::ScToPs to_ps_;
  std::unique_ptr<LinkTrace> trace_;  // null when tracing is off
};

}  // namespace par::ht
