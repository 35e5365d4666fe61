#include "packet_launcher.hpp"

#include "par/sckit/payload.hpp"
#include "par/sched/scheduler_registers.hpp"

namespace par::platform {

PacketLauncher::PacketLauncher(sc_core::sc_module_name name, const core::PacketDescriptor& packet,
                               std::uint64_t scheduler_base, int repeat)
    : sc_module(name), out("out"), irq("irq"), packet_(packet), base_(scheduler_base), repeat_(repeat) {
  SC_HAS_PROCESS(PacketLauncher);
  SC_THREAD(run);
}

bool PacketLauncher::access(tlm::tlm_command cmd, std::uint64_t offset, void* data, unsigned len,
                            sc_core::sc_time& delay) {
  sckit::prepare_request(tx_, cmd, base_ + offset, static_cast<unsigned char*>(data), len);
  out->b_transport(tx_, delay);
  return tx_.is_response_ok();
}

void PacketLauncher::run() {
  ok_ = true;
  // The whole staging block in one burst: START, THREADS, no flag, the interrupt, I1..I15.
  std::uint64_t staging[sched::kStagingEnd / 8] = {};
  staging[sched::kRegStart / 8] = packet_.start;
  staging[sched::kRegThreads / 8] = static_cast<std::uint64_t>(packet_.threads);
  staging[sched::kRegControl / 8] = sched::kControlInterrupt;
  for (unsigned k = 1; k < sched::kInheritedCount; ++k) staging[sched::reg_inherited(k) / 8] = packet_.inherited[k];
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  for (int i = 0; i < repeat_ && ok_; ++i) {
    std::uint64_t word = 0;
    ok_ = access(tlm::TLM_WRITE_COMMAND, 0, staging, sizeof staging, delay) &&
          access(tlm::TLM_WRITE_COMMAND, sched::kRegDoorbell, &word, 8, delay);
    if (!ok_) break;
    // An empty packet (THREADS <= 0) completes too: every DOORBELL gets its interrupt.
    ok_ = (irq.wait().data & sched::kInterruptFailedBit) == 0;
    delay = sc_core::SC_ZERO_TIME;
  }
  sc_core::wait(delay);
  finished_ = sc_core::sc_time_stamp();
  done_ = true;
  sc_core::sc_stop();
}

}  // namespace par::platform
