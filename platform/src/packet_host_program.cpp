#include "packet_host_program.hpp"

namespace par::platform {

int PacketHostProgram::run(runtime::HostRuntime& rt, std::ostream&) {
  std::array<std::uint64_t, 16> inherited{};
  for (std::size_t i = 1; i < 16; ++i) inherited[i] = program_.inherited[i];
  for (int i = 0; i < repeat_; ++i) rt.wait(rt.launch(program_.start, program_.threads, inherited));
  return 0;
}

}  // namespace par::platform
