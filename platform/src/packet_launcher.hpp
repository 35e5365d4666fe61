// Launches the packet of a .PAR program through the thread scheduler and stops the simulation
// when it has completed: the stand-alone setting of the 2011 simulator, where no host program
// runs. It programs the scheduler's registers as a host would (one staging burst, DOORBELL, then
// it sleeps until the packet's completion interrupt arrives on `irq`), but from the device side,
// so no link time is involved.
#pragma once

#include <cstdint>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "par/core/core_registers.hpp"
#include "par/sckit/interrupt.hpp"

namespace par::platform {

class PacketLauncher : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<PacketLauncher> out;
  sckit::InterruptIn irq;  // bind the scheduler's `irq` here

  // Launches `packet` `repeat` times, each after the previous one completed, through the
  // scheduler registers at `scheduler_base`.
  PacketLauncher(sc_core::sc_module_name name, const core::PacketDescriptor& packet, std::uint64_t scheduler_base,
                 int repeat = 1);
  bool ok() const { return ok_; }
  bool done() const { return done_; }
  sc_core::sc_time finished_at() const { return finished_; }

 private:
  void run();
  bool access(tlm::tlm_command cmd, std::uint64_t offset, void* data, unsigned len, sc_core::sc_time& delay);

  core::PacketDescriptor packet_;
  std::uint64_t base_;
  int repeat_;
  bool ok_ = false, done_ = false;
  sc_core::sc_time finished_;
  tlm::tlm_generic_payload tx_;  // every register access (one at a time; no allocation per launch)
};

}  // namespace par::platform
