// The value kernels whose b operand is the immediate (see simt_value_kernels.hpp).
#include "simt_value_kernels.hpp"

namespace par::core {

template bool SimtExecutor::value_kernels<true>(const isa::Instruction& in, Kernel& k);

}  // namespace par::core
