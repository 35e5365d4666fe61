// The seven reference kernels of the single-lane study (docs/published-results.md §2, §3): a table that
// describes them, typed access to the input data of an assembled kernel, and one plain C++
// reference computation per kernel. The references read their inputs from the program's data
// sections (through the data labels) and inherited registers, exactly what the kernel sees, and
// reproduce the kernel's result bit for bit: integer kernels exactly, FP kernels with the same
// operations in the same order (std::fma where the kernel uses mac.d).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "par/isa/program.hpp"

namespace par::kernels {

enum class ElementType : std::uint8_t { U8, I16, F64 };
int element_size(ElementType t);
const char* element_type_name(ElementType t);

// Instructions per thread by unit, and control instructions (docs/published-results.md §2).
struct KernelMix {
  std::int64_t alu = 0;
  std::int64_t fpu = 0;
  std::int64_t ls = 0;
  std::int64_t cmp = 0;
  std::int64_t ctl = 0;
  std::int64_t fetched() const { return alu + fpu + ls + cmp + ctl; }  // F
  std::int64_t backend() const { return alu + fpu + ls + cmp; }
  std::int64_t busiest() const;  // max(ALU, FPU, LS, CMP)
};

// One row of Tables 2-8 as printed (percentages as numbers, e.g. 39.98 for "39.98%").
struct PublishedRow {
  int threads_per_lane = 0;
  std::int64_t cycles = 0;
  double ipc = 0;
  double fpu_throughput = 0;
  double alu_percent = 0;
  double cmp_percent = 0;  // JIM only (0 elsewhere)
  double ls_percent = 0;
};

inline constexpr std::array<int, 4> kPublishedThreadsPerLane{1, 2, 4, 8};

struct KernelInfo {
  std::string_view name;          // "dmmm"
  std::string_view title;         // "DMMM", as in the thesis
  int table = 0;                  // thesis table number (2..8)
  std::string_view file;          // file name in sw/kernels
  std::string_view entry;         // code label of the packet start (.ADDRESS)
  std::string_view output_label;  // data label of the output region
  ElementType output_type = ElementType::F64;
  std::size_t output_count = 0;   // elements in the output region
  std::int64_t threads = 0;       // threads of the packet
  KernelMix mix;                  // per-thread mix of §2
  std::array<PublishedRow, 4> published;  // T = 1, 2, 4, 8
  std::size_t output_bytes() const { return output_count * static_cast<std::size_t>(element_size(output_type)); }
};

// The seven kernels in the order of the thesis tables: DMMM, JIM, GS, RGB-YIQ, RGB-CMYK, HPF, SVA.
const std::vector<KernelInfo>& kernel_table();
// Relative tolerance within which a simulated row must match the published one (the project's
// acceptance criteria for the single-lane reproduction).
double reproduction_tolerance(const KernelInfo& k, int threads_per_lane);

// The entry named `name`; throws std::out_of_range for an unknown name.
const KernelInfo& kernel(std::string_view name);
// Absolute path of the kernel's source file (sw/kernels/<file> of this source tree).
std::string kernel_path(const KernelInfo& k);
std::string kernel_dir();

// Little-endian access to the data sections and inherited registers of an assembled program.
// Every accessor throws std::runtime_error for unknown labels or bytes outside the data sections.
class ProgramData {
 public:
  explicit ProgramData(const isa::Program& program) : program_(program) {}

  const isa::Program& program() const { return program_; }
  std::uint64_t address(std::string_view label) const;
  std::uint64_t inherited(int k) const;      // i1 .. i15
  double inherited_f64(int k) const;         // i_k read as a binary64 bit pattern
  float inherited_f32(int k) const;          // low 32 bits of i_k read as binary32

  std::uint64_t read(std::uint64_t address, int size) const;  // unsigned, size 1, 2, 4 or 8
  std::vector<double> f64(std::uint64_t address, std::size_t count) const;
  std::vector<double> f64(std::string_view label, std::size_t count) const;
  std::vector<std::uint8_t> u8(std::string_view label, std::size_t count) const;
  std::vector<std::uint16_t> u16(std::uint64_t address, std::size_t count) const;

 private:
  const isa::Program& program_;
};

// --- Reference computations ------------------------------------------------------------------
// Each returns the final contents of the kernel's output region (KernelInfo::output_label,
// output_count elements), including elements the kernel leaves untouched.

// dmmm_c[t] = C[t mod 5][t mod 256], C = A B with s = fma(A[i][k], B[k][j], s), k = 0 .. K-1.
std::vector<double> dmmm_reference(const isa::Program& program);
// X_i' = c_i - s, s = sum over j != i (in order) of G_ij * X_j (separate multiply and add).
std::vector<double> jim_reference(const isa::Program& program);

enum class GsPhase { Red, Black, RedBlack };
struct GsGrids {
  std::vector<double> red;    // gs_r: (H + 2) x W2, halo rows included
  std::vector<double> black;  // gs_b
};
// Both colour arrays after the red phase, the black phase, or a full sweep (red, then black).
GsGrids gs_reference(const isa::Program& program, GsPhase phase);
// Y, I and Q planes (3 x 1280 binary64, consecutive from yiq_y).
std::vector<double> rgb_yiq_reference(const isa::Program& program);
// 1280 CMYK pixels (C', M', Y', K per pixel).
std::vector<std::uint8_t> rgb_cmyk_reference(const isa::Program& program);
// The filtered row (1280 signed 16-bit pixels) of the image row the packet's pointers select.
std::vector<std::int16_t> hpf_reference(const isa::Program& program);
// The whole matrix Z (1280 x 5 binary64) after Z[i][col] = fma(x[i], a, y[i]).
std::vector<double> sva_reference(const isa::Program& program);

// The reference result of kernel `k` as raw element bit patterns (zero-extended), in memory order
// of its output region; the same representation as read_output_bits() of a finished run.
std::vector<std::uint64_t> reference_output_bits(const KernelInfo& k, const isa::Program& program);

}  // namespace par::kernels
