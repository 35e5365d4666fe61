// Runs the packet of a .PAR program on one core without SystemC: loads the program's data
// sections into the core's local memory, runs the packet in timing or functional mode, and keeps
// the memory for inspection. Used by tests, the reproduction study and the benchmarks; the
// platform's SC_MODULE ParCore drives the same PacketEngine.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core_config.hpp"
#include "core_stats.hpp"
#include "local_memory.hpp"
#include "packet_engine.hpp"
#include "par/isa/program.hpp"

namespace par::core {

struct ProgramRun {
  bool ok = false;
  std::string error;                     // configuration, load or runtime error
  CoreStats stats;
  std::unique_ptr<LocalMemory> memory;   // final memory contents
  std::vector<ThreadRegisters> registers;  // captured final registers (if asked for)
  TimingModel::ReplayCounts replay;        // rounds the timing model replayed (RunOptions::timing_replay)

  // Reads `count` little-endian values of `size` bytes from the final memory; throws
  // std::out_of_range for bytes outside the local-memory window.
  std::vector<std::uint64_t> read(std::uint64_t addr, std::size_t count, int size = 8) const;
  std::vector<double> read_f64(std::uint64_t addr, std::size_t count) const;
  std::vector<float> read_f32(std::uint64_t addr, std::size_t count, int stride = 4) const;
};

struct RunOptions {
  RunMode mode = RunMode::Timing;
  int functional_width = 1024;       // threads side by side in functional mode
  std::uint64_t capture_first = 0;   // threads whose final registers are captured
  std::uint64_t capture_count = 0;
  StallListener* stall_listener = nullptr;  // told about every frontend stall (tracing, tests)
  ExecListener* exec_listener = nullptr;    // told about every executed instruction (tracing, tests)
  // Runs the context-selection loop even for the plain core (tests: it must schedule the same).
  bool always_select_contexts = false;
  // Round replay of the timing model (PacketEngine::set_timing_replay); tests compare without it.
  bool timing_replay = true;
  // With core.stream.enabled: called with the core's stream unit before the packet (fill the
  // channels; returning false with a message stops the run) and after it (drain them).
  std::function<bool(StreamUnit&, std::string*)> stream_fill;
  std::function<void(StreamUnit&)> stream_drain;
};

// Validates the configuration, loads the data sections and runs the program's packet.
ProgramRun run_program(const isa::Program& program, const CoreConfig& cfg,
                       const RunOptions& options = {});

// Assembles `path` and runs it; assembly errors are returned in ProgramRun::error.
ProgramRun run_file(const std::string& path, const CoreConfig& cfg, const RunOptions& options = {});

// Loads the data sections of `program` into `memory`; fails with a message naming the first
// section that lies outside the memory window.
bool load_data(const isa::Program& program, LocalMemory& memory, std::string* error);

}  // namespace par::core
