#include "runtime_config.hpp"

#include <sstream>

#include "par/simkit/options.hpp"

namespace par::runtime {

namespace {

std::string hex(std::uint64_t v) {
  std::ostringstream os;
  os << "0x" << std::hex << v;
  return os.str();
}

bool is_pow2(std::uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }

}  // namespace

const char* to_string(WaitMode m) {
  switch (m) {
    case WaitMode::Interrupt: return "interrupt";
    case WaitMode::Poll: return "poll";
    case WaitMode::Flag: return "flag";
  }
  return "?";
}

std::vector<std::string> RuntimeConfig::validate() const {
  std::vector<std::string> e;
  if (scheduler_base % 8 != 0) e.push_back("master.scheduler_base: " + hex(scheduler_base) + " is not 8-byte aligned");
  if (heap_base + heap_bytes < heap_base)
    e.push_back("master.heap_bytes: the heap [master.heap_base, +heap_bytes) wraps around the address space");
  if (!is_pow2(copy_chunk_bytes) || copy_chunk_bytes > (1u << 20))
    e.push_back("master.copy_chunk_bytes: " + std::to_string(copy_chunk_bytes) + " is not a power of two in 1..1048576");
  if (queue_depth == 0) e.push_back("scheduler.queue_depth: must be at least 1");
  if (!(poll_ns > 0 && poll_ns <= 1e12)) e.push_back("master.poll_ns: must be in (0, 1e12]");
  if (!(wait_limit_ns >= 0)) e.push_back("master.wait_limit_ns: must be >= 0");
  if (wait == WaitMode::Flag) {
    if (flag_addr == 0) e.push_back("master.flag_addr: must be set (a host-memory address) when master.wait = flag");
    else if (flag_addr % 8 != 0) e.push_back("master.flag_addr: " + hex(flag_addr) + " is not 8-byte aligned");
  }
  return e;
}

void register_options(simkit::OptionRegistry& reg, RuntimeConfig& c) {
  reg.add("master.scheduler_base", c.scheduler_base, "Device address of the thread scheduler's register window.").hex();
  reg.add("master.heap_base", c.heap_base, "First byte of the device memory the host runtime's alloc() hands out.").hex();
  reg.add("master.heap_bytes", c.heap_bytes, "Bytes of device memory alloc() may hand out.").hex();
  reg.add("master.copy_chunk_bytes", c.copy_chunk_bytes,
          "Bytes per transaction of a host copy (a power of two; chunks are split at multiples of it).")
      .range(1, 1u << 20);
  reg.add_enum("master.wait", c.wait,
               "How wait()/sync learn that packets completed: the scheduler's completion interrupt (the CPU sleeps "
               "until it arrives), polling COMPLETED every master.poll_ns, or polling the host-memory flag at "
               "master.flag_addr.",
               {{"interrupt", WaitMode::Interrupt}, {"poll", WaitMode::Poll}, {"flag", WaitMode::Flag}});
  reg.add("master.poll_ns", c.poll_ns, "Time between two polls (master.wait = poll or flag).").range(1e-3, 1e12);
  reg.add("master.flag_addr", c.flag_addr,
          "Host-memory address of the completion flag the scheduler writes (master.wait = flag).").hex();
  reg.add("master.wait_limit_ns", c.wait_limit_ns,
          "A wait that polls longer than this is an error (0 = no limit; master.wait = poll or flag).")
      .range(0, 1e18);
}

}  // namespace par::runtime
