// A pass-through TLM-2.0 module that records the transactions crossing one socket binding on a
// timeline track (README.md "TransactionTap"; what is recorded: tap_recorder.hpp).
//
//   // was: l2.mem_out.bind(dram.in);       only when tracing is on:
//   TransactionTap<> tap("tap_dram", timeline, "dram", "ch0", "dram");
//   l2.mem_out.bind(tap.in);
//   tap.out.bind(dram.in);
//
// Every call is forwarded unchanged in both directions (b_transport, nb_transport_fw/bw,
// transport_dbg, get_direct_mem_ptr, invalidate_direct_mem_ptr): no delay is added, no wait(),
// no process, so timing and data are exactly those of the direct binding. Debug transport and
// DMI are not recorded (they take no simulated time). With a null timeline the tap still
// forwards and records nothing; the platform need not insert it at all then.
#pragma once

#include <string_view>

#include <systemc>
#include <tlm>

#include "par/trace/sc_ps.hpp"
#include "par/trace/tap_recorder.hpp"

namespace par::trace {

template <unsigned int BUSWIDTH = 32>
class TransactionTap : public sc_core::sc_module,
                       // Public so that SystemC's port binding can cast to them.
                       public tlm::tlm_fw_transport_if<>,
                       public tlm::tlm_bw_transport_if<> {
 public:
  tlm::tlm_target_socket<BUSWIDTH> in;      // the initiator side binds here
  tlm::tlm_initiator_socket<BUSWIDTH> out;  // binds to the target side

  // Records on track (process, thread) with category `category` ("dram", "l2", "host").
  TransactionTap(sc_core::sc_module_name name, Timeline* timeline, std::string_view process,
                 std::string_view thread, std::string_view category)
      : sc_module(name), in("in"), out("out"), recorder_(timeline, process, thread, category) {
    in.bind(static_cast<tlm::tlm_fw_transport_if<>&>(*this));
    out.bind(static_cast<tlm::tlm_bw_transport_if<>&>(*this));
  }

  // initiator.bind(in); out.bind(target).
  template <class InitiatorSocket, class TargetSocket>
  void connect(InitiatorSocket& initiator, TargetSocket& target) {
    initiator.bind(in);
    out.bind(target);
  }

  const TapRecorder& recorder() const { return recorder_; }

 private:
  Ps now_plus(const sc_core::sc_time& delay) const {
    return to_ps_(sc_core::sc_time_stamp() + delay);
  }

  void b_transport(tlm::tlm_generic_payload& tx, sc_core::sc_time& delay) override {
    if (!recorder_.enabled()) return out->b_transport(tx, delay);
    const Ps begin = now_plus(delay);
    out->b_transport(tx, delay);
    recorder_.blocking(tx, begin, now_plus(delay));
  }
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& tx, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay) override {
    if (!recorder_.enabled()) return out->nb_transport_fw(tx, phase, delay);
    const tlm::tlm_phase phase_in = phase;
    const Ps t_in = now_plus(delay);
    const tlm::tlm_sync_enum status = out->nb_transport_fw(tx, phase, delay);
    recorder_.forward(tx, phase_in, t_in, status, phase, now_plus(delay));
    return status;
  }
  bool get_direct_mem_ptr(tlm::tlm_generic_payload& tx, tlm::tlm_dmi& dmi) override {
    return out->get_direct_mem_ptr(tx, dmi);
  }
  unsigned int transport_dbg(tlm::tlm_generic_payload& tx) override {
    return out->transport_dbg(tx);
  }

  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& tx, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay) override {
    if (!recorder_.enabled()) return in->nb_transport_bw(tx, phase, delay);
    const tlm::tlm_phase phase_in = phase;
    const Ps t_in = now_plus(delay);
    const tlm::tlm_sync_enum status = in->nb_transport_bw(tx, phase, delay);
    recorder_.backward(tx, phase_in, t_in, status, phase, now_plus(delay));
    return status;
  }
  void invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end) override {
    in->invalidate_direct_mem_ptr(start, end);
  }

  ScToPs to_ps_;
  TapRecorder recorder_;
};

}  // namespace par::trace
