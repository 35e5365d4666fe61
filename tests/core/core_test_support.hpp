// Helpers for PAR core tests: assemble a source string and run its packet.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "par/isa/assembler.hpp"
#include "program_runner.hpp"

namespace par::core::testing {

inline isa::Program assemble_or_fail(const std::string& source, const std::string& name = "test.par") {
  const isa::AssemblyResult r = isa::assemble(source, name);
  EXPECT_TRUE(r.ok()) << r.messages();
  return r.ok() ? *r.program : isa::Program{};
}

inline ProgramRun run_source(const std::string& source, CoreConfig cfg, RunOptions options = {}) {
  return run_program(assemble_or_fail(source), cfg, options);
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
