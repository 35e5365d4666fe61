// Reference computations of the XD1000 study's kernels (xd1000_refs.hpp). Compiled with
// -ffp-contract=off: every multiply and add is evaluated as written, std::fma where the kernel
// fuses (mac.d, mac.f).
#include "xd1000_refs.hpp"

#include <cmath>
#include <cstring>
#include <stdexcept>

#include "kernel_refs.hpp"

namespace par::kernels {

namespace {

constexpr std::uint64_t kTexel = 16;  // bytes per texel; the value is in its first bytes

std::uint64_t bits_of(double v) {
  std::uint64_t b;
  std::memcpy(&b, &v, sizeof b);
  return b;
}

double f64_of(std::uint64_t b) {
  double v;
  std::memcpy(&v, &b, sizeof v);
  return v;
}

float f32_of(std::uint64_t b) {
  const auto low = static_cast<std::uint32_t>(b);
  float v;
  std::memcpy(&v, &low, sizeof v);
  return v;
}

std::uint32_t bits_of(float v) {
  std::uint32_t b;
  std::memcpy(&b, &v, sizeof b);
  return b;
}

double texel(const ProgramData& d, std::uint64_t base, std::uint64_t index) {
  return f64_of(d.read(base + kTexel * index, 8));
}

// The 2 x 2 block products of threads (bi, bj) over `steps` steps of `k_per_step` values of k,
// accumulated as the kernels do: acc += a b (separate multiply and add), k ascending.
struct Block {
  double c[2][2] = {{0, 0}, {0, 0}};
};

Block block_product(const ProgramData& d, std::uint64_t a, std::uint64_t b, std::uint64_t k_dim,
                    std::uint64_t n, std::uint64_t bi, std::uint64_t bj, std::uint64_t k_count) {
  Block out;
  for (std::uint64_t k = 0; k < k_count; ++k)
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 2; ++j) {
        const double p = texel(d, a, (2 * bi + static_cast<std::uint64_t>(i)) * k_dim + k) *
                         texel(d, b, k * n + 2 * bj + static_cast<std::uint64_t>(j));
        out.c[i][j] = out.c[i][j] + p;
      }
  return out;
}

constexpr std::uint64_t kN = 64, kK = 32, kBlocksPerRow = kN / 2;

// The kernels' diagonal block assignment: bi = t & 31, bj = (bi + (t >> 5)) & 31.
std::uint64_t block_row(std::uint64_t t) { return t % kBlocksPerRow; }
std::uint64_t block_col(std::uint64_t t) { return (t % kBlocksPerRow + t / kBlocksPerRow) % kBlocksPerRow; }

}  // namespace

const std::vector<Xd1000Kernel>& xd1000_kernels() {
  static const std::vector<Xd1000Kernel> table = {
      {"matmatmult", "MATMATMULT", "xd1000/matmatmult.par", "mm", "mm_c", 4 * 1024, 1024, 16 * 18, 16 * 8 + 4, 16,
       18, 8},
      {"sgemm", "SGEMM", "xd1000/sgemm.par", "sg", "sg_c", 64 * 64, 1024, 32 * 10 + 8, 32 * 4 + 8, 32, 10, 4},
      {"photon", "PHOTON", "xd1000/photon.par", "photon", "ph_out", 2048, 2048, 16, 5, 0, 16, 4},
  };
  return table;
}

const Xd1000Kernel& xd1000_kernel(std::string_view name) {
  for (const Xd1000Kernel& k : xd1000_kernels())
    if (k.name == name) return k;
  throw std::out_of_range("no XD1000 kernel named '" + std::string(name) + "'");
}

std::string xd1000_kernel_path(const Xd1000Kernel& k) { return kernel_dir() + "/" + std::string(k.file); }

// In matmatmult.par the products of two steps of k are added per iteration in the order
// (k, k+1) for each output, which is the k-ascending order of block_product.
std::vector<std::uint64_t> matmatmult_reference(const isa::Program& program) {
  const ProgramData d(program);
  const std::uint64_t a = d.address("mm_a"), b = d.address("mm_b");
  std::vector<std::uint64_t> out;
  for (std::uint64_t t = 0; t < static_cast<std::uint64_t>(program.threads); ++t) {
    const Block blk = block_product(d, a, b, kK, kN, block_row(t), block_col(t), 2 * d.inherited(1));
    for (const auto& row : blk.c)
      for (double v : row) out.push_back(bits_of(v));
  }
  return out;
}

std::vector<std::uint64_t> sgemm_reference(const isa::Program& program) {
  const ProgramData d(program);
  const std::uint64_t a = d.address("sg_a"), b = d.address("sg_b"), c = d.address("sg_c");
  const double alpha = d.inherited_f64(9), beta = d.inherited_f64(10);
  std::vector<std::uint64_t> out;
  for (std::uint64_t e = 0; e < kN * kN; ++e) out.push_back(d.read(c + 8 * e, 8));
  for (std::uint64_t t = 0; t < static_cast<std::uint64_t>(program.threads); ++t) {
    const std::uint64_t bi = block_row(t), bj = block_col(t);
    const Block blk = block_product(d, a, b, kK, kN, bi, bj, d.inherited(1));
    for (std::uint64_t i = 0; i < 2; ++i)
      for (std::uint64_t j = 0; j < 2; ++j) {
        std::uint64_t& word = out[(2 * bi + i) * kN + 2 * bj + j];
        word = bits_of(std::fma(f64_of(word), beta, alpha * blk.c[i][j]));
      }
  }
  return out;
}

std::vector<std::uint64_t> photon_reference(const isa::Program& program) {
  const ProgramData d(program);
  const std::uint64_t ls = d.address("ph_ls"), sqle = d.address("ph_sqle"), delrhs = d.address("ph_delrhs"),
                      pos = d.address("ph_pos");
  const float rl = f32_of(d.inherited(6)), re = f32_of(d.inherited(7)), sq = f32_of(d.inherited(8)),
              eps = f32_of(d.inherited(9)), one = f32_of(d.inherited(10));
  auto pair = [&](std::uint64_t base, std::uint64_t t, int half) {
    return f32_of(d.read(base + kTexel * t + 4 * static_cast<std::uint64_t>(half), 4));
  };
  std::vector<std::uint64_t> out;
  for (std::uint64_t t = 0; t < static_cast<std::uint64_t>(program.threads); ++t) {
    const float l = pair(ls, t, 0), le = pair(ls, t, 1), ex = pair(sqle, t, 0), ey = pair(sqle, t, 1);
    const float dx = pair(delrhs, t, 0), dy = pair(delrhs, t, 1), px = pair(pos, t, 0), py = pair(pos, t, 1);
    float det = std::fma(ex, dy, ey * dx);
    if (!(eps < std::fabs(det))) det = eps;  // le.f: true also for NaN
    const float dtinv = one / det;
    const float xi = dtinv * (dx * rl - ey * re);
    const float yi = dtinv * (dy * rl - ex * re);
    const float u = xi - px, v = yi - py;
    const float ssq = std::fma(v, v, u * u);
    const bool tested = !(l == le);
    const bool inside = !(sq < ssq);
    const std::uint64_t x = (tested && inside) ? bits_of(l) : 0;
    const std::uint64_t y = tested ? bits_of(ssq) : 0;
    out.push_back(x | (y << 32));
  }
  return out;
}

std::vector<std::uint64_t> xd1000_reference(const Xd1000Kernel& k, const isa::Program& program) {
  if (k.name == "matmatmult") return matmatmult_reference(program);
  if (k.name == "sgemm") return sgemm_reference(program);
  if (k.name == "photon") return photon_reference(program);
  throw std::out_of_range("no reference for '" + std::string(k.name) + "'");
}

}  // namespace par::kernels
