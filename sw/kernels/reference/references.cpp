// Plain C++ reference computations of the seven kernels. Each reads the kernel's inputs from the
// assembled program (data labels, inherited registers) and evaluates the benchmark with the same
// arithmetic, in the same order, as the PAR kernel: binary64 with round-to-nearest, std::fma where
// the kernel uses mac.d, a separate multiply and add where it uses mul.d and add.d. This file is
// compiled with -ffp-contract=off so that the compiler never fuses them on its own.
#include <cmath>
#include <cstring>
#include <numeric>
#include <stdexcept>
#include <string>

#include "kernel_refs.hpp"

namespace par::kernels {

namespace {

void require(bool ok, const std::string& what) {
  if (!ok) throw std::runtime_error("kernel data: " + what);
}

std::uint64_t bits_of(double v) {
  std::uint64_t b;
  std::memcpy(&b, &v, sizeof b);
  return b;
}

std::size_t to_size(std::uint64_t v) { return static_cast<std::size_t>(v); }

// floor(v / 256): the arithmetic right shift by 8 of a two's-complement value.
std::int64_t shift_right_8(std::int64_t v) {
  std::int64_t q = v / 256;
  if (v % 256 != 0 && v < 0) --q;
  return q;
}

}  // namespace

// --- DMMM ------------------------------------------------------------------------------------
std::vector<double> dmmm_reference(const isa::Program& program) {
  const ProgramData d(program);
  const std::size_t k_dim = to_size(d.inherited(1));   // loop count K
  const std::size_t nc = to_size(d.inherited(4)) / 8;  // bytes per row of B
  const std::size_t nr = to_size(d.inherited(6)) / 8;  // bytes per column of A
  const std::size_t threads = to_size(static_cast<std::uint64_t>(program.threads));
  require(nr > 0 && nc > 0 && nr * nc == threads, "DMMM: C must have one element per thread");
  require(std::gcd(nr, nc) == 1, "DMMM: the CRT index map needs coprime dimensions");
  require(d.inherited(7) == 8 * (nc - 1) && (nc & (nc - 1)) == 0, "DMMM: column mask");
  const std::vector<double> a = d.f64("dmmm_a", nr * k_dim);  // column-major
  const std::vector<double> b = d.f64("dmmm_b", k_dim * nc);  // row-major
  std::vector<double> c(threads);
  for (std::size_t t = 0; t < threads; ++t) {
    const std::size_t i = t % nr;
    const std::size_t j = t % nc;
    double s = 0.0;
    for (std::size_t k = 0; k < k_dim; ++k) s = std::fma(a[k * nr + i], b[k * nc + j], s);
    c[t] = s;
  }
  return c;
}

// --- JIM -------------------------------------------------------------------------------------
std::vector<double> jim_reference(const isa::Program& program) {
  const ProgramData d(program);
  const std::size_t n = to_size(d.inherited(1));
  const std::size_t rec = to_size(d.inherited(5)) / 8;  // binary64 slots per record
  const std::uint64_t w = d.address("jim_w");
  require(to_size(static_cast<std::uint64_t>(program.threads)) == n, "JIM: one thread per unknown");
  require(rec == n + 2, "JIM: a record holds a column of G, X_j and c_j");
  require(d.address("jim_wx") == w + 8 * n && d.address("jim_wc") == w + 8 * (n + 1), "JIM: record layout");
  require(d.address("jim_xnew") == w + 8 * rec * n, "JIM: X' is record n");
  const std::vector<double> records = d.f64(w, rec * n);
  std::vector<double> x_new(n);
  for (std::size_t i = 0; i < n; ++i) {
    double s = 0.0;
    for (std::size_t j = 0; j < n; ++j) {
      if (j == i) continue;
      const double t = records[j * rec + i] * records[j * rec + n];  // G_ij * X_j
      s = s + t;
    }
    x_new[i] = records[i * rec + n + 1] - s;  // c_i - s
  }
  return x_new;
}

// --- GS --------------------------------------------------------------------------------------
GsGrids gs_reference(const isa::Program& program, GsPhase phase) {
  const ProgramData d(program);
  const int m = static_cast<int>(d.inherited(1)) + 1;
  require(m >= 1 && m < 20, "GS: W2 = 2^m");
  const std::size_t w2 = std::size_t{1} << m;
  const std::size_t threads = to_size(static_cast<std::uint64_t>(program.threads));
  require(threads % w2 == 0, "GS: whole rows");
  const std::size_t h = threads / w2;
  const std::size_t rows = h + 2;
  require(d.inherited(8) == 8 * (w2 - 1), "GS: column mask");
  const double one = d.inherited_f64(2);
  const double omega = d.inherited_f64(3);
  const double wx = d.inherited_f64(9);
  const double wy = d.inherited_f64(10);
  GsGrids g{d.f64("gs_r0", rows * w2), d.f64("gs_b0", rows * w2)};

  // One colour phase: every point (r, k) of `own` from its neighbours in `other`.
  const auto phase_update = [&](std::vector<double>& own, const std::vector<double>& other, bool red) {
    const double cu = one - omega;
    const double cy = omega * wy;
    const double cx = omega * wx;
    for (std::size_t r = 0; r < h; ++r) {
      const bool odd = (r & 1) != 0;
      const std::size_t step = (red == odd) ? 1 : w2 - 1;  // +1 or -1 modulo W2
      for (std::size_t k = 0; k < w2; ++k) {
        const double u = own[(r + 1) * w2 + k];
        const double s = other[(r + 2) * w2 + k];
        const double n = other[r * w2 + k];
        const double e = other[(r + 1) * w2 + k];
        const double w = other[(r + 1) * w2 + (k + step) % w2];
        const double f5 = u * cu;
        const double f1 = n + s;
        const double gg = std::fma(f1, cy, f5);
        const double hh = std::fma(e, cx, gg);
        own[(r + 1) * w2 + k] = std::fma(w, cx, hh);
      }
    }
  };
  if (phase == GsPhase::Red || phase == GsPhase::RedBlack) phase_update(g.red, g.black, true);
  if (phase == GsPhase::Black || phase == GsPhase::RedBlack) phase_update(g.black, g.red, false);
  return g;
}

// --- RGB-YIQ ---------------------------------------------------------------------------------
std::vector<double> rgb_yiq_reference(const isa::Program& program) {
  const ProgramData d(program);
  const std::size_t n = to_size(static_cast<std::uint64_t>(program.threads));
  require(d.address("yiq_i") == d.address("yiq_y") + 8 * n && d.address("yiq_q") == d.address("yiq_i") + 8 * n,
          "RGB-YIQ: consecutive planes");
  const std::vector<std::uint8_t> px = d.u8("yiq_in", 4 * n);
  const double y_r = d.inherited_f64(5), y_g = d.inherited_f64(6), y_b = d.inherited_f64(7);
  const double i_r = d.inherited_f64(8), i_g = d.inherited_f64(9), i_b = d.inherited_f64(10);
  const double q_r = d.inherited_f64(11), q_g = d.inherited_f64(12), q_b = d.inherited_f64(13);
  const double black = d.inherited_f64(14);
  std::vector<double> out(3 * n);
  for (std::size_t p = 0; p < n; ++p) {
    const double r = px[4 * p], g = px[4 * p + 1], b = px[4 * p + 2];
    out[p] = std::fma(b, y_b, std::fma(g, y_g, r * y_r)) + black;
    out[n + p] = std::fma(b, i_b, std::fma(g, i_g, r * i_r));
    out[2 * n + p] = std::fma(b, q_b, std::fma(g, q_g, r * q_r));
  }
  return out;
}

// --- RGB-CMYK --------------------------------------------------------------------------------
std::vector<std::uint8_t> rgb_cmyk_reference(const isa::Program& program) {
  const ProgramData d(program);
  const std::size_t n = to_size(static_cast<std::uint64_t>(program.threads));
  const std::vector<std::uint8_t> px = d.u8("cmyk_in", 4 * n);
  std::vector<std::uint8_t> out(4 * n);
  for (std::size_t p = 0; p < n; ++p) {
    const int c = 255 - px[4 * p], m = 255 - px[4 * p + 1], y = 255 - px[4 * p + 2];
    const int k = std::min(std::min(c, m), y);
    out[4 * p] = static_cast<std::uint8_t>(c - k);
    out[4 * p + 1] = static_cast<std::uint8_t>(m - k);
    out[4 * p + 2] = static_cast<std::uint8_t>(y - k);
    out[4 * p + 3] = static_cast<std::uint8_t>(k);
  }
  return out;
}

// --- HPF -------------------------------------------------------------------------------------
std::vector<std::int16_t> hpf_reference(const isa::Program& program) {
  const ProgramData d(program);
  const std::size_t n = to_size(static_cast<std::uint64_t>(program.threads));
  const std::uint64_t pitch = d.inherited(4);
  const std::uint64_t image = d.address("hpf_in0");
  require(pitch == 2 * (n + 2), "HPF: 16-bit rows with one border pixel on each side");
  // The packet's pointers select the filtered image row y: i1..i3 = &in[y][0..2].
  const std::uint64_t left = d.inherited(1);
  require(left >= image + pitch && (left - image) % pitch == 0, "HPF: row pointers");
  require(d.inherited(2) == left + 2 && d.inherited(3) == left + 4, "HPF: row pointers");
  const std::uint64_t y = (left - image) / pitch;
  std::vector<std::vector<std::uint16_t>> rows;
  for (std::uint64_t dy = 0; dy < 3; ++dy) rows.push_back(d.u16(image + (y - 1 + dy) * pitch, n + 2));
  std::int64_t coef[9];
  for (int c = 0; c < 9; ++c) coef[c] = static_cast<std::int64_t>(d.inherited(6 + c));
  std::vector<std::int16_t> out(n);
  for (std::size_t x = 0; x < n; ++x) {
    std::int64_t acc = 0;
    for (std::size_t dy = 0; dy < 3; ++dy) {
      for (std::size_t dx = 0; dx < 3; ++dx) acc += coef[3 * dy + dx] * static_cast<std::int64_t>(rows[dy][x + dx]);
    }
    // The kernel stores the low 16 bits of acc >> 8.
    out[x] = static_cast<std::int16_t>(static_cast<std::uint16_t>(static_cast<std::uint64_t>(shift_right_8(acc)) & 0xFFFFu));
  }
  return out;
}

// --- SVA -------------------------------------------------------------------------------------
std::vector<double> sva_reference(const isa::Program& program) {
  const ProgramData d(program);
  const std::size_t n = to_size(static_cast<std::uint64_t>(program.threads));
  const std::size_t cols = to_size(d.inherited(4)) / 8;
  const std::uint64_t z = d.address("sva_z");
  const std::uint64_t zcol = d.inherited(5);
  require(cols > 0 && zcol >= z && zcol < z + 8 * cols && (zcol - z) % 8 == 0, "SVA: column pointer");
  const std::size_t col = to_size((zcol - z) / 8);
  const std::vector<double> x = d.f64("sva_x", n);
  const std::vector<double> y = d.f64("sva_y", n);
  const double a = static_cast<double>(d.inherited_f32(3));  // cvt.d.f: exact
  std::vector<double> out = d.f64(z, n * cols);
  for (std::size_t i = 0; i < n; ++i) out[i * cols + col] = std::fma(x[i], a, y[i]);
  return out;
}

// --- Generic ---------------------------------------------------------------------------------
std::vector<std::uint64_t> reference_output_bits(const KernelInfo& k, const isa::Program& program) {
  std::vector<std::uint64_t> out;
  const auto append_f64 = [&out](const std::vector<double>& v) {
    for (double x : v) out.push_back(bits_of(x));
  };
  if (k.name == "dmmm") {
    append_f64(dmmm_reference(program));
  } else if (k.name == "jim") {
    append_f64(jim_reference(program));
  } else if (k.name == "gs") {
    append_f64(gs_reference(program, GsPhase::Red).red);
  } else if (k.name == "rgb_yiq") {
    append_f64(rgb_yiq_reference(program));
  } else if (k.name == "rgb_cmyk") {
    for (std::uint8_t v : rgb_cmyk_reference(program)) out.push_back(v);
  } else if (k.name == "hpf") {
    for (std::int16_t v : hpf_reference(program)) out.push_back(static_cast<std::uint16_t>(v));
  } else if (k.name == "sva") {
    append_f64(sva_reference(program));
  } else {
    throw std::out_of_range("no reference for kernel '" + std::string(k.name) + "'");
  }
  require(out.size() == k.output_count, std::string(k.name) + ": output size differs from the kernel table");
  return out;
}

}  // namespace par::kernels
