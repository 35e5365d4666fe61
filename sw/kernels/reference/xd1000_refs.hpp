// The kernels of the XD1000 study (sw/kernels/xd1000; docs/published-results.md §9): their table and
// plain C++ reference computations. As for the single-lane kernels (kernel_refs.hpp), the references
// read the inputs from the assembled program (data labels and inherited registers, what the kernel
// sees) and evaluate the same operations in the same order, so the results match bit for bit.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "par/isa/program.hpp"

namespace par::kernels {

struct Xd1000Kernel {
  std::string_view name;          // "matmatmult"
  std::string_view title;         // "MATMATMULT", as published
  std::string_view file;          // path under sw/kernels
  std::string_view entry;         // code label of the packet start
  std::string_view output_label;  // data label of the output region
  std::size_t output_words = 0;   // 8-byte words in the output region
  std::int64_t threads = 0;
  // Per thread: FPU (the XD1000's ALU) and LS (TEX) instructions, in total and per loop iteration
  // (a kernel without a loop: iterations = 0 and the per-iteration counts are the totals).
  std::int64_t fpu = 0, ls = 0, iterations = 0, fpu_per_iteration = 0, ls_per_iteration = 0;
};

// MATMATMULT, SGEMM, PHOTON.
const std::vector<Xd1000Kernel>& xd1000_kernels();
// The entry named `name`; throws std::out_of_range for an unknown name.
const Xd1000Kernel& xd1000_kernel(std::string_view name);
std::string xd1000_kernel_path(const Xd1000Kernel& k);

// The final output region as 8-byte words (binary64 bits; for PHOTON two binary32, x low).
// MATMATMULT: per thread the 2 x 2 block of C = A B (c00, c01, c10, c11), each product a separate
// multiply and add, k ascending. SGEMM: the whole of C after c = fma(c_old, beta, alpha acc), acc
// summed as in MATMATMULT with one k per step. PHOTON: (out.x, out.y) per particle.
std::vector<std::uint64_t> matmatmult_reference(const isa::Program& program);
std::vector<std::uint64_t> sgemm_reference(const isa::Program& program);
std::vector<std::uint64_t> photon_reference(const isa::Program& program);
std::vector<std::uint64_t> xd1000_reference(const Xd1000Kernel& k, const isa::Program& program);

}  // namespace par::kernels
