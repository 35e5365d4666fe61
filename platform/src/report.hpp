// The run report: a readable summary on standard output (the files of the output directory:
// outputs.hpp).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "packet_engine.hpp"
#include "par/simkit/json.hpp"
#include "par/simkit/stats.hpp"
#include "outputs.hpp"
#include "platform_config.hpp"
#include "platform.hpp"
#include "platform_stats.hpp"

namespace par::platform {

struct RunSummary {
  std::string program;            // file name
  std::string entry;              // start label (or address)
  std::int64_t threads = 0;
  const PlatformConfig* cfg = nullptr;
  core::CoreStats core;           // core 0, accumulated over launches
  std::vector<core::CoreStats> cores;  // every core
  const simkit::StatGroup* stats = nullptr;  // the whole statistics tree (memory system lines)
  double simulated_ns = 0;
  double host_seconds = 0;        // whole simulation
  std::string host_software;      // full system: what ran on the master core
  std::string host_log;           // full system: the host program's log (sw/host)
  const std::vector<LaunchTimes>* launches = nullptr;  // full system: per launch
};

// The readable report of docs/core-timing.md §8 (the nine 2011 metrics, instruction classes,
// IPC with and without compares, the simulator's speed).
void write_report(std::ostream& os, const RunSummary& run);

// A hex dump (16 bytes a line) for the terminal.
void write_hex(std::ostream& os, const MemoryDump& dump);

// Final registers, one block per thread (registers.txt, or the terminal without --out).
void write_registers(std::ostream& os, const std::vector<core::ThreadRegisters>& registers);

}  // namespace par::platform
