#include "packet_launcher.hpp"

namespace par::platform {

PacketLauncher::PacketLauncher(sc_core::sc_module_name name, const core::PacketDescriptor& packet, int repeat)
    : sc_module(name), out("out"), packet_(packet), repeat_(repeat) {
  SC_HAS_PROCESS(PacketLauncher);
  SC_THREAD(run);
}

void PacketLauncher::run() {
  ok_ = true;
  for (int i = 0; i < repeat_ && ok_; ++i) launch();
  finished_ = sc_core::sc_time_stamp();
  sc_core::sc_stop();
}

void PacketLauncher::launch() {
  tlm::tlm_generic_payload tx;
  tx.set_command(tlm::TLM_WRITE_COMMAND);
  tx.set_address(core::kCtrlLaunch);
  tx.set_data_ptr(reinterpret_cast<unsigned char*>(&packet_));
  tx.set_data_length(sizeof packet_);
  tx.set_streaming_width(sizeof packet_);
  tx.set_byte_enable_ptr(nullptr);
  tx.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  out->b_transport(tx, delay);
  ok_ = tx.is_response_ok();
}

}  // namespace par::platform
