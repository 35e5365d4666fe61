// sva-copy: the classic accelerator round trip on sw/kernels/sva.par. The host holds x, y and the
// matrix Z (the .par file's data, read from the Program), allocates device buffers, copies the
// inputs to the device, launches SVA with the inherited registers pointing at the buffers,
// waits, copies Z back and checks it against the C++ reference (sva_reference).
#pragma once

#include "host_program.hpp"

namespace par::host {

class SvaCopy final : public runtime::HostProgram {
 public:
  std::string name() const override { return "sva-copy"; }
  std::string description() const override {
    return "copy x, y, Z of sw/kernels/sva.par to fresh device buffers, launch sva, copy Z back, check it";
  }
  int run(runtime::HostRuntime& rt, std::ostream& log) override;
};

}  // namespace par::host
