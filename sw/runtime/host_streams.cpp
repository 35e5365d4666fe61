// HostRuntime's stream calls: the cores' stream windows (par/core/stream_registers.hpp) through
// ordinary transactions, like every other runtime call.
#include <cstring>

#include "host_runtime.hpp"
#include "par/core/stream_registers.hpp"

namespace par::runtime {

std::uint64_t HostRuntime::stream_window(const char* call, int core) const {
  if (core < 0 || static_cast<std::uint64_t>(core) >= cfg_.stream_cores)
    throw RuntimeError(std::string(call) + ": core " + std::to_string(core) + " has no stream unit (" +
                       (cfg_.stream_cores == 0 ? std::string("core.stream.enabled is off")
                                               : std::to_string(cfg_.stream_cores) + " cores have one") +
                       ")");
  return cfg_.stream_base + static_cast<std::uint64_t>(core) * core::kStreamWindowStride;
}

void HostRuntime::set_channel(int core, int channel, std::uint64_t cur, std::uint64_t fin) {
  std::uint8_t bytes[16];
  std::memcpy(bytes, &cur, 8);
  std::memcpy(bytes + 8, &fin, 8);
  access(true, stream_window("stream channel", core) + core::stream_channel_reg(channel, core::kStreamCur), bytes, 16);
}

void HostRuntime::stream_fill(int core, int channel, std::uint64_t first, const std::vector<std::uint64_t>& elements) {
  const std::uint64_t base = stream_window("stream_fill", core);
  copy_to_device(base + core::stream_element_reg(first), elements.data(), elements.size() * 8);
  set_channel(core, channel, first, first + elements.size());
}

void HostRuntime::stream_open(int core, int channel, std::uint64_t first, std::uint64_t capacity) {
  stream_window("stream_open", core);
  set_channel(core, channel, first, first + capacity);
}

StreamChannel HostRuntime::stream_channel(int core, int channel) {
  const std::uint64_t base = stream_window("stream_channel", core);
  std::uint8_t bytes[16] = {};
  access(false, base + core::stream_channel_reg(channel, core::kStreamCur), bytes, 16);
  StreamChannel c;
  std::memcpy(&c.cur, bytes, 8);
  std::memcpy(&c.fin, bytes + 8, 8);
  return c;
}

std::vector<std::uint64_t> HostRuntime::stream_drain(int core, int channel, std::uint64_t first) {
  const StreamChannel c = stream_channel(core, channel);
  if (c.cur < first)
    throw RuntimeError("stream_drain: channel s" + std::to_string(channel) + " of core " + std::to_string(core) +
                       " has its head at " + std::to_string(c.cur) + ", before the first element " +
                       std::to_string(first));
  std::vector<std::uint64_t> out(c.cur - first);
  copy_from_device(out.data(), stream_window("stream_drain", core) + core::stream_element_reg(first), out.size() * 8);
  return out;
}

}  // namespace par::runtime
