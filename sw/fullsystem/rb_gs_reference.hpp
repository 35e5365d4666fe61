// The C++ reference of the full-system red-black Gauss-Seidel (rb_gs.par, README.md): the same
// operations in the same order as the kernels (binary64, std::fma where they use mac.d), the
// same convergence rule, so the converged grids match the device's bit for bit.
#pragma once

#include <cstdint>
#include <vector>

#include "par/isa/program.hpp"

namespace par::fullsystem {

// The problem as the .MASTER file's launch parameters (.I1 .. .I14) describe it.
struct RbGsParams {
  std::uint64_t w2 = 0;          // points per colour and row (2^m)
  std::uint64_t rows = 0;        // H, grid rows between the halo rows
  double one = 1.0, omega = 0, wx = 0, wy = 0, eps = 0;
  std::int64_t max_sweeps = 0;
  std::uint64_t red = 0;         // red array, row 0 (halo)
  std::uint64_t black = 0;       // black array, row 0 (halo)
  std::uint64_t flag = 0;        // the "not converged" word
  std::uint64_t sweeps_addr = 0; // where the number of sweeps is stored
  std::uint64_t array_bytes() const { return (rows + 2) * w2 * 8; }
  std::int64_t threads() const { return static_cast<std::int64_t>(rows * w2); }
  // Derived weights, computed once (by the master, the host program and the reference alike).
  double cu() const { return one - omega; }
  double cy() const { return omega * wy; }
  double cx() const { return omega * wx; }
};

// Reads and checks the parameters; throws std::runtime_error naming what is inconsistent.
RbGsParams rb_gs_params(const isa::Program& program);

struct RbGsResult {
  std::vector<double> red;    // (rows + 2) x w2, halo rows included
  std::vector<double> black;
  std::int64_t sweeps = 0;    // sweeps run (each: red phase, black phase)
  bool converged = false;     // the last sweep moved no point by more than eps
};

// Runs the sweeps on the program's initial data until convergence or max_sweeps.
RbGsResult rb_gs_reference(const isa::Program& program);

// The kernels' inherited registers i1..i15 for the red phase of sweep `sweeps_done` (the black
// phase swaps i2 and i3): exactly what the master program passes (its r1..r15).
std::vector<std::uint64_t> rb_gs_inherited(const RbGsParams& p, std::int64_t sweeps_done);

}  // namespace par::fullsystem
