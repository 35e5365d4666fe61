// Command-line pieces shared by the cli tests (one unity translation unit may hold several of
// their files, so each piece is defined once, here).
#pragma once

#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "support/parsys_cli.hpp"
#include "kernel_refs.hpp"

namespace par::testing {

// The device with DRAM behind L2 (global memory), the platform most runs use.
inline const std::string kGlobal = "--config " + config_file("device-dram.ini");
// The test plug-in RAM (tests/ip/plugin), loaded at run time.
inline const std::string kTestRam = std::string("plugin:") + PARSYS_TEST_PLUGIN_DIR + "/test_ram.so";
// The full-system red-black Gauss-Seidel (.MASTER host program and its PAR kernels).
inline const std::string kRbGs = std::string(PARSYS_FULLSYSTEM_DIR) + "/rb_gs.par";

// A --dump-mem region (0x<addr>:<len>) and the file parsys writes it to.
inline std::string region(std::uint64_t addr, std::uint64_t len) {
  std::ostringstream os;
  os << "0x" << std::hex << addr << ':' << std::dec << len;
  return os.str();
}
inline std::string dump_file(std::uint64_t addr, std::uint64_t len) {
  std::ostringstream os;
  os << "mem_0x" << std::hex << addr << '_' << std::dec << len << ".bin";
  return os.str();
}

// The names of the seven reference kernels, the parameter of the every-kernel suites.
inline std::vector<std::string> kernel_names() {
  std::vector<std::string> n;
  for (const par::kernels::KernelInfo& k : par::kernels::kernel_table()) n.emplace_back(k.name);
  return n;
}

}  // namespace par::testing
