#include "rb_gs_reference.hpp"

#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>

#include "kernel_refs.hpp"

namespace par::fullsystem {

namespace {

void require(bool ok, const std::string& what) {
  if (!ok) throw std::runtime_error("rb_gs: " + what);
}

std::uint64_t bits(double v) {
  std::uint64_t b;
  std::memcpy(&b, &v, 8);
  return b;
}

// One colour phase: every point of `own` from its neighbours in `other`; returns whether some
// point moved by more than eps (the kernel's `lt.d p1 = eps, |delta|`, false for NaN).
bool phase(const RbGsParams& p, std::vector<double>& own, const std::vector<double>& other, bool red) {
  const double cu = p.cu(), cy = p.cy(), cx = p.cx();
  const std::size_t w2 = p.w2;
  bool raised = false;
  for (std::size_t r = 0; r < p.rows; ++r) {
    const bool odd = (r & 1) != 0;
    const std::size_t step = (red == odd) ? 1 : w2 - 1;  // d = +1 or -1 modulo W2
    for (std::size_t k = 0; k < w2; ++k) {
      const double u = own[(r + 1) * w2 + k];
      const double s = other[(r + 2) * w2 + k];
      const double n = other[r * w2 + k];
      const double e = other[(r + 1) * w2 + k];
      const double w = other[(r + 1) * w2 + (k + step) % w2];
      const double f5 = u * cu;
      const double f1 = n + s;
      const double g = std::fma(f1, cy, f5);
      const double h = std::fma(e, cx, g);
      const double v = std::fma(w, cx, h);
      own[(r + 1) * w2 + k] = v;
      if (p.eps < std::fabs(v - u)) raised = true;
    }
  }
  return raised;
}

}  // namespace

RbGsParams rb_gs_params(const isa::Program& program) {
  const kernels::ProgramData d(program);
  require(program.kind == isa::ProgramKind::Master, "not a .MASTER program");
  RbGsParams p;
  const std::uint64_t m1 = d.inherited(1);
  require(m1 < 20, "i1 = m - 1 out of range");
  p.w2 = std::uint64_t{1} << (m1 + 1);
  const std::uint64_t threads = d.inherited(10);
  require(threads > 0 && threads % p.w2 == 0, "threads (i10) is not a whole number of rows");
  p.rows = threads / p.w2;
  require(d.inherited(11) == 8 * p.w2, "row bytes (i11) is not 8 * W2");
  require(d.inherited(14) == 8 * (p.w2 - 1), "column mask (i14) is not 8 * (W2 - 1)");
  p.one = d.inherited_f64(4);
  p.omega = d.inherited_f64(5);
  p.wx = d.inherited_f64(6);
  p.wy = d.inherited_f64(7);
  p.eps = d.inherited_f64(8);
  p.flag = d.inherited(9);
  p.max_sweeps = static_cast<std::int64_t>(d.inherited(12));
  p.sweeps_addr = d.inherited(13);
  p.red = d.inherited(2) - 8 * p.w2;
  p.black = d.inherited(3) - 8 * p.w2;
  require(p.red == d.address("rb_r0") && p.black == d.address("rb_b0"), "i2/i3 are not rb_r1/rb_b1");
  return p;
}

RbGsResult rb_gs_reference(const isa::Program& program) {
  const RbGsParams p = rb_gs_params(program);
  const kernels::ProgramData d(program);
  const std::size_t n = (p.rows + 2) * p.w2;
  RbGsResult res{d.f64(p.red, n), d.f64(p.black, n), 0, false};
  while (res.sweeps < p.max_sweeps) {
    bool raised = phase(p, res.red, res.black, true);
    raised = phase(p, res.black, res.red, false) || raised;
    ++res.sweeps;
    if (!raised) {
      res.converged = true;
      break;
    }
  }
  return res;
}

std::vector<std::uint64_t> rb_gs_inherited(const RbGsParams& p, std::int64_t sweeps_done) {
  std::vector<std::uint64_t> i(16, 0);
  std::uint64_t m1 = 0;
  while ((std::uint64_t{2} << m1) < p.w2) ++m1;
  i[1] = m1;
  i[2] = p.red + 8 * p.w2;
  i[3] = p.black + 8 * p.w2;
  i[4] = bits(p.cu());
  i[5] = bits(p.cy());
  i[6] = bits(p.cx());
  i[7] = 8 * (p.w2 - 1);
  i[8] = bits(p.eps);
  i[9] = p.flag;
  i[10] = 0;
  i[11] = 8 * p.w2;
  i[12] = static_cast<std::uint64_t>(-static_cast<std::int64_t>(8 * p.w2));
  i[13] = 1;
  i[14] = static_cast<std::uint64_t>(p.threads());
  i[15] = static_cast<std::uint64_t>(sweeps_done);
  return i;
}

}  // namespace par::fullsystem
