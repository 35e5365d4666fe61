// Launches the packet of a .PAR program on a PAR core over TLM and stops the simulation when it
// has completed (the stand-alone setting of the 2011 simulator; the full platform launches
// packets through the thread scheduler).
#pragma once

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "packet_descriptor.hpp"

namespace par::platform {

class PacketLauncher : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<PacketLauncher> out;

  // Launches `packet` `repeat` times, each after the previous one completed.
  PacketLauncher(sc_core::sc_module_name name, const core::PacketDescriptor& packet, int repeat = 1);
  bool ok() const { return ok_; }
  sc_core::sc_time finished_at() const { return finished_; }

 private:
  void run();
  void launch();
  core::PacketDescriptor packet_;
  int repeat_;
  bool ok_ = false;
  sc_core::sc_time finished_;
};

}  // namespace par::platform
