// The user's own module: a TLM-2.0 pass-through that counts the reads and writes crossing one
// binding, their bytes, and the time the memory system below added to them. Blocking transport
// and debug transport are forwarded unchanged; DMI is not offered (simple sockets refuse it).
#pragma once

#include <cstdint>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

class TrafficMonitor : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<TrafficMonitor> in;
  tlm_utils::simple_initiator_socket<TrafficMonitor> out;

  explicit TrafficMonitor(sc_core::sc_module_name name) : sc_module(name), in("in"), out("out") {
    in.register_b_transport(this, &TrafficMonitor::b_transport);
    in.register_transport_dbg(this, &TrafficMonitor::transport_dbg);
  }

  std::uint64_t reads() const { return reads_; }
  std::uint64_t writes() const { return writes_; }
  std::uint64_t bytes() const { return bytes_; }
  std::uint64_t errors() const { return errors_; }
  // Mean time the targets below added to an access (their annotated delay plus any wait).
  sc_core::sc_time mean_latency() const {
    const std::uint64_t n = reads_ + writes_;
    return n == 0 ? sc_core::SC_ZERO_TIME : latency_ / static_cast<double>(n);
  }

 private:
  void b_transport(tlm::tlm_generic_payload& tx, sc_core::sc_time& delay) {
    const sc_core::sc_time issued = sc_core::sc_time_stamp() + delay;
    out->b_transport(tx, delay);
    latency_ += sc_core::sc_time_stamp() + delay - issued;
    (tx.is_write() ? writes_ : reads_) += 1;
    bytes_ += tx.get_data_length();
    if (!tx.is_response_ok()) ++errors_;
  }
  unsigned int transport_dbg(tlm::tlm_generic_payload& tx) { return out->transport_dbg(tx); }

  std::uint64_t reads_ = 0, writes_ = 0, bytes_ = 0, errors_ = 0;
  sc_core::sc_time latency_ = sc_core::SC_ZERO_TIME;
};
