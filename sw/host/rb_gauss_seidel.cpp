#include "rb_gauss_seidel.hpp"

#include <array>
#include <cstring>
#include <utility>
#include <vector>

#include "rb_gs_reference.hpp"

namespace par::host {

int RbGaussSeidel::run(runtime::HostRuntime& rt, std::ostream& log) {
  const fullsystem::RbGsParams p = fullsystem::rb_gs_params(rt.program());
  const runtime::Kernel red = rt.kernel("rb_red");
  const runtime::Kernel black = rt.kernel("rb_black");
  // The same inherited registers as the master program's r1..r15 (i2/i3 swapped for black).
  std::array<std::uint64_t, 16> regs{};
  {
    const std::vector<std::uint64_t> v = fullsystem::rb_gs_inherited(p, 0);
    std::copy(v.begin(), v.end(), regs.begin());
  }
  rt.compute(16);  // setting up the parameters

  std::int64_t sweeps = 0;
  bool converged = false;
  while (sweeps < p.max_sweeps) {
    rt.write(p.flag, 0);
    regs[15] = static_cast<std::uint64_t>(sweeps);
    rt.wait(rt.launch(red, p.threads(), regs));
    std::swap(regs[2], regs[3]);
    rt.wait(rt.launch(black, p.threads(), regs));
    std::swap(regs[2], regs[3]);
    ++sweeps;
    rt.compute(4);  // loop bookkeeping
    if (rt.read(p.flag) == 0) {
      converged = true;
      break;
    }
  }
  rt.write(p.sweeps_addr, static_cast<std::uint64_t>(sweeps));

  const std::size_t n = p.array_bytes() / 8;
  std::vector<double> red_grid(n), black_grid(n);
  rt.copy_from_device(red_grid.data(), p.red, p.array_bytes());
  rt.copy_from_device(black_grid.data(), p.black, p.array_bytes());

  // The check is the program's own result; it costs no simulated time.
  const fullsystem::RbGsResult ref = fullsystem::rb_gs_reference(rt.program());
  std::size_t mismatches = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (std::memcmp(&red_grid[i], &ref.red[i], 8) != 0) ++mismatches;
    if (std::memcmp(&black_grid[i], &ref.black[i], 8) != 0) ++mismatches;
  }
  const bool ok = mismatches == 0 && sweeps == ref.sweeps && converged == ref.converged;
  log << "rb-gauss-seidel: " << (converged ? "converged" : "not converged") << " after " << sweeps << " sweeps ("
      << 2 * sweeps << " packets of " << p.threads() << " threads, eps " << p.eps << "); reference: " << ref.sweeps
      << " sweeps; " << (mismatches == 0 ? "grids match the C++ reference" : std::to_string(mismatches) + " grid points differ")
      << '\n';
  return ok ? 0 : 1;
}

}  // namespace par::host
