// Parameters of the host runtime: the `master.*` options of the software on the master core
// (register_options), completed by the platform with the device's address map.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace par::simkit {
class OptionRegistry;
}

namespace par::runtime {

// How wait()/sync learn that packets have completed (thread_scheduler README, "Programming
// sequence").
enum class WaitMode {
  Interrupt,  // each packet asks for the scheduler's completion interrupt; sleep until they arrive
  Poll,       // read COMPLETED every poll interval until it covers the packets, then STATUS
  Flag,       // packets write their sequence number to a host-memory flag; poll it, then STATUS
};
const char* to_string(WaitMode m);  // "interrupt", "poll", "flag"

struct RuntimeConfig {
  std::uint64_t scheduler_base = 0x0000001000000000ull;  // device address of the scheduler's registers
  std::uint64_t queue_depth = 32;    // the scheduler's queue entries (its scheduler.queue_depth)
  std::uint64_t heap_base = 0;       // device memory handed out by alloc()
  std::uint64_t heap_bytes = 0;
  std::uint64_t copy_chunk_bytes = 64;  // bytes per transaction of a copy (power of two)
  std::uint64_t issue_cycles = 1;    // host cycles between two transactions of a copy
  WaitMode wait = WaitMode::Interrupt;
  double poll_ns = 100;              // Poll / Flag: time between two polls
  std::uint64_t flag_addr = 0;       // Flag: the host-memory flag word
  double wait_limit_ns = 1e10;       // a polling wait that lasts longer is an error (0 = no limit)
  // Stream windows of the cores (par/core/stream_registers.hpp): core i's at stream_base + i *
  // kStreamWindowStride, for stream_cores cores (0: the cores have no stream unit).
  std::uint64_t stream_base = 0;
  std::uint64_t stream_cores = 0;

  // Every violated constraint as "master.<option>: <why>" (the options that fill this struct).
  std::vector<std::string> validate() const;
};

// Registers the user-settable fields as `master.<name>` (scheduler_base, heap_base, heap_bytes,
// copy_chunk_bytes, wait, poll_ns, flag_addr, wait_limit_ns); the field's current value is the
// default. queue_depth and issue_cycles come from scheduler.queue_depth and master.cpi.
void register_options(simkit::OptionRegistry& reg, RuntimeConfig& cfg);

}  // namespace par::runtime
