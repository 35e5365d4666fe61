// rb-gauss-seidel: the full-system red-black Gauss-Seidel of sw/fullsystem/rb_gs.par written as a
// C++ host program. It does what the file's .MASTER program does, through the host runtime:
// clear the "not converged" word, launch the red phase, wait, launch the black phase, wait, read
// the word, repeat until it stays clear (or the sweep limit); then it stores the number of
// sweeps, copies both grids back and checks them and the sweep count against the C++ reference.
#pragma once

#include "host_program.hpp"

namespace par::host {

class RbGaussSeidel final : public runtime::HostProgram {
 public:
  std::string name() const override { return "rb-gauss-seidel"; }
  std::string description() const override {
    return "red-black Gauss-Seidel until convergence on sw/fullsystem/rb_gs.par, checked against the C++ reference";
  }
  int run(runtime::HostRuntime& rt, std::ostream& log) override;
};

}  // namespace par::host
