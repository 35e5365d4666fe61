// Helpers for PAR core tests: assemble a source string and run its packet.
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>

#include "par/isa/assembler.hpp"
#include "program_runner.hpp"

namespace par::core::testing {

// The text of a program of the ISA tests (tests/ip/par_isa/programs).
inline std::string read_program(const std::string& name) {
  std::ifstream f(std::string(PARSYS_SOURCE_DIR) + "/tests/ip/par_isa/programs/" + name);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// A core shape and run mode a program is run in.
struct Shape {
  int lanes, threads_per_lane;
  RunMode mode;
};

// A stall counter of the core's statistics.
inline std::int64_t stall(const CoreStats& s, StallCause c) { return s.stalls[static_cast<std::size_t>(c)]; }
// A multiply and the add that depends on it (the FPU latency of a dependent chain).
inline const char* const kMulAdd = "main: mul.d r1 = i1, i1\n add.d r2 = r1, i1 #\n";
// The path of a reference kernel's source.
inline std::string kernel(const std::string& name) { return std::string(PARSYS_SOURCE_DIR) + "/sw/kernels/" + name + ".par"; }
// Kernels that run in well under a second at every T (DMMM and JIM are loops of 5 M cycles).
inline const char* const kKernels[] = {"gs", "sva", "hpf", "rgb_cmyk", "rgb_yiq"};

inline isa::Program assemble_or_fail(const std::string& source, const std::string& name = "test.par") {
  const isa::AssemblyResult r = isa::assemble(source, name);
  EXPECT_TRUE(r.ok()) << r.messages();
  return r.ok() ? *r.program : isa::Program{};
}

inline ProgramRun run_source(const std::string& source, CoreConfig cfg, RunOptions options = {}) {
  return run_program(assemble_or_fail(source), cfg, options);
}

// Every counter of two runs that must have scheduled alike (the per-context counters aside).
inline void expect_same_stats(const CoreStats& a, const CoreStats& b, const std::string& what) {
  EXPECT_EQ(a.cycles, b.cycles) << what;
  EXPECT_EQ(a.rounds, b.rounds) << what;
  EXPECT_EQ(a.threads, b.threads) << what;
  EXPECT_EQ(a.fetched, b.fetched) << what;
  EXPECT_EQ(a.instructions, b.instructions) << what;
  EXPECT_EQ(a.thread_instructions, b.thread_instructions) << what;
  EXPECT_EQ(a.qualified_thread_instructions, b.qualified_thread_instructions) << what;
  EXPECT_EQ(a.control, b.control) << what;
  EXPECT_EQ(a.stalls, b.stalls) << what;
  EXPECT_EQ(a.rob_occupancy_sum, b.rob_occupancy_sum) << what;
  EXPECT_EQ(a.rob_max_occupancy, b.rob_max_occupancy) << what;
  EXPECT_EQ(a.global_accesses, b.global_accesses) << what;
  EXPECT_EQ(a.global_transactions, b.global_transactions) << what;
  EXPECT_EQ(a.global_latency_sum, b.global_latency_sum) << what;
  EXPECT_EQ(a.ls_limit_stall_cycles, b.ls_limit_stall_cycles) << what;
}

inline CoreConfig config(int lanes, int threads_per_lane) {
  CoreConfig cfg;
  cfg.lanes = lanes;
  cfg.threads_per_lane = threads_per_lane;
  return cfg;
}

// A packet header for `threads` threads starting at label `main`.
inline std::string packet(int threads, const std::string& extra_header = "") {
  return ".PAR\n.ADDRESS main\n.THREADS " + std::to_string(threads) + "\n" + extra_header + ".CODE\n";
}

}  // namespace par::core::testing
