// The value kernels whose b operand is a register (see simt_value_kernels.hpp).
#include "simt_value_kernels.hpp"

namespace par::core {

template bool SimtExecutor::value_kernels<false>(const isa::Instruction& in, Kernel& k);

}  // namespace par::core
