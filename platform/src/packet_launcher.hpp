// Launches the packet of a .PAR program on the PAR cores over TLM and stops the simulation when
// every share has completed: the stand-alone setting of the 2011 simulator. With C cores the
// packet is split statically into C contiguous shares of the thread range (i0 stays the global
// thread index). The thread scheduler of the full platform replaces this module.
#pragma once

#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_initiator_socket.h>

#include "packet_descriptor.hpp"

namespace par::platform {

class PacketLauncher : public sc_core::sc_module {
 public:
  // One binding per core, in core order.
  tlm_utils::multi_passthrough_initiator_socket<PacketLauncher> out;

  // Launches `packet` `repeat` times, each after the previous one completed on every core.
  PacketLauncher(sc_core::sc_module_name name, const core::PacketDescriptor& packet, int repeat = 1);
  bool ok() const { return ok_; }
  sc_core::sc_time finished_at() const { return finished_; }

 private:
  void run();
  bool launch_share(unsigned core, const core::PacketDescriptor& share);

  core::PacketDescriptor packet_;
  int repeat_;
  bool ok_ = false;
  sc_core::sc_time finished_;
};

}  // namespace par::platform
