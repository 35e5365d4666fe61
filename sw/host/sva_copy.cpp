#include "sva_copy.hpp"

#include <cstring>
#include <vector>

#include "kernel_refs.hpp"

namespace par::host {

int SvaCopy::run(runtime::HostRuntime& rt, std::ostream& log) {
  const isa::Program& program = rt.program();
  const kernels::ProgramData data(program);
  const std::size_t n = static_cast<std::size_t>(program.threads);
  const std::uint64_t row_bytes = data.inherited(4);  // bytes per row of Z
  const std::uint64_t z_addr = data.address("sva_z");
  const std::uint64_t col_offset = data.inherited(5) - z_addr;  // &Z[0][col] - &Z[0][0]
  const std::uint64_t z_bytes = n * row_bytes;

  // Host-side arrays: the program's data, as a host application would hold its inputs.
  const std::vector<double> x = data.f64("sva_x", n);
  const std::vector<double> y = data.f64("sva_y", n);
  std::vector<double> z = data.f64("sva_z", z_bytes / 8);

  const runtime::DeviceBuffer dx = rt.alloc(n * 8);
  const runtime::DeviceBuffer dy = rt.alloc(n * 8);
  const runtime::DeviceBuffer dz = rt.alloc(z_bytes);
  rt.copy_to_device(dx, x.data(), n * 8);
  rt.copy_to_device(dy, y.data(), n * 8);
  rt.copy_to_device(dz, z.data(), z_bytes);  // the other columns of Z must come back unchanged

  const runtime::Launch l = rt.launch(rt.kernel("sva"), static_cast<std::int64_t>(n),
                                      {dx.address, dy.address, data.inherited(3), row_bytes, dz.address + col_offset});
  rt.wait(l);
  rt.copy_from_device(z.data(), dz, z_bytes);

  // The check is the host program's own result; it costs no simulated time.
  const std::vector<double> expected = kernels::sva_reference(program);
  std::size_t mismatches = 0;
  for (std::size_t i = 0; i < z.size(); ++i)
    if (std::memcmp(&z[i], &expected[i], 8) != 0) ++mismatches;
  const runtime::LaunchTiming t = rt.timing(l);
  log << "sva-copy: " << n << " elements, " << (2 * n * 8 + 2 * z_bytes) << " bytes copied, packet "
      << l.seq << " submitted at " << t.submitted << ", completed by " << t.completed << ": "
      << (mismatches == 0 ? "Z matches the C++ reference" : std::to_string(mismatches) + " elements of Z differ from the C++ reference")
      << '\n';
  return mismatches == 0 ? 0 : 1;
}

}  // namespace par::host
