#include "packet_launcher.hpp"

#include <algorithm>

namespace par::platform {

PacketLauncher::PacketLauncher(sc_core::sc_module_name name, const core::PacketDescriptor& packet, int repeat)
    : sc_module(name), out("out"), packet_(packet), repeat_(repeat) {
  SC_HAS_PROCESS(PacketLauncher);
  SC_THREAD(run);
}

bool PacketLauncher::launch_share(unsigned core, const core::PacketDescriptor& share) {
  core::PacketDescriptor d = share;
  tlm::tlm_generic_payload tx;
  tx.set_command(tlm::TLM_WRITE_COMMAND);
  tx.set_address(core::kCtrlLaunch);
  tx.set_data_ptr(reinterpret_cast<unsigned char*>(&d));
  tx.set_data_length(sizeof d);
  tx.set_streaming_width(sizeof d);
  tx.set_byte_enable_ptr(nullptr);
  tx.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  out[core]->b_transport(tx, delay);
  return tx.is_response_ok();
}

void PacketLauncher::run() {
  ok_ = true;
  const unsigned cores = static_cast<unsigned>(out.size());
  const std::int64_t n = std::max<std::int64_t>(packet_.threads, 0);
  const std::int64_t per_core = (n + cores - 1) / cores;
  for (int i = 0; i < repeat_ && ok_; ++i) {
    // One thread per core: the shares run concurrently; the launch ends when all are done.
    std::vector<sc_core::sc_process_handle> shares;
    for (unsigned c = 0; c < cores; ++c) {
      core::PacketDescriptor share = packet_;
      share.first_thread = packet_.first_thread + static_cast<std::uint64_t>(std::min<std::int64_t>(n, per_core * c));
      share.threads = std::min<std::int64_t>(n, per_core * (c + 1)) - std::min<std::int64_t>(n, per_core * c);
      if (share.threads <= 0) continue;
      shares.push_back(sc_core::sc_spawn([this, c, share] {
        if (!launch_share(c, share)) ok_ = false;
      }));
    }
    for (auto& h : shares)
      if (!h.terminated()) sc_core::wait(h.terminated_event());
  }
  finished_ = sc_core::sc_time_stamp();
  sc_core::sc_stop();
}

}  // namespace par::platform
