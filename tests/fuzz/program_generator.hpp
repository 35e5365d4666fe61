// Valid, terminating PAR packet programs built from fuzz bytes (fuzz_simulator).
//
// Every thread works on a 64-byte slice of memory of its own (r14 = i1 + 64 * i0; the slices are
// initialised from the input), so the threads cannot communicate and the results may not depend
// on how threads are placed on slots or on the mode. Control flow only goes forward: blocks
// call (xp) and loop over (loop iK, counts i2..i5 in 1..3) later blocks only, at most two control
// instructions per block, so every program ends after a bounded number of instructions.
#pragma once

#include <cstdint>

#include "core_config.hpp"
#include "fuzz_support.hpp"
#include "par/isa/program.hpp"

namespace par::fuzz {

struct GeneratedRun {
  isa::Program program;
  core::CoreConfig timing;   // a random valid core shape and timing parameters
  int functional_width = 1;  // run.functional_width of the functional run
  std::uint64_t data_base = 0, data_bytes = 0;  // the threads' slices
};

GeneratedRun generate_run(ByteReader& in);

}  // namespace par::fuzz
