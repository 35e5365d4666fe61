#include "stream_filter.hpp"

#include <algorithm>
#include <vector>

#include "stream_filter_ref.hpp"

namespace par::host {

int StreamFilter::run(runtime::HostRuntime& rt, std::ostream& log) {
  const isa::Program& program = rt.program();
  const std::uint64_t n = static_cast<std::uint64_t>(program.threads);
  const auto threshold = static_cast<std::int64_t>(program.inherited[1]);
  const std::vector<std::int64_t> x = kernels::stream_filter_input(n, 7);
  const std::uint64_t cores = std::max<std::uint64_t>(rt.config().stream_cores, 1);
  const std::uint64_t share = (n + cores - 1) / cores;

  // Core c: its input in SRF elements [0, m), the output channel behind it, [m, 2m).
  for (std::uint64_t c = 0; c < cores && c * share < n; ++c) {
    const std::uint64_t lo = c * share, m = std::min(n, lo + share) - lo;
    rt.stream_fill(static_cast<int>(c), 0, 0, std::vector<std::uint64_t>(x.begin() + static_cast<std::ptrdiff_t>(lo),
                                                                          x.begin() + static_cast<std::ptrdiff_t>(lo + m)));
    rt.stream_open(static_cast<int>(c), 1, m, m);
  }
  const runtime::Launch l = rt.launch(rt.kernel("filter"), static_cast<std::int64_t>(n),
                                      {static_cast<std::uint64_t>(threshold)});
  rt.wait(l);
  std::vector<std::int64_t> kept;
  for (std::uint64_t c = 0; c < cores && c * share < n; ++c) {
    const std::uint64_t m = std::min(n, c * share + share) - c * share;
    for (std::uint64_t v : rt.stream_drain(static_cast<int>(c), 1, m)) kept.push_back(static_cast<std::int64_t>(v));
  }
  const bool ok = kept == kernels::stream_filter(x, threshold);
  log << "stream-filter: " << n << " elements on " << cores << " cores, " << kept.size() << " kept, completed by "
      << rt.timing(l).completed << ": "
      << (ok ? "the drained streams match the C++ reference" : "the drained streams differ from the C++ reference")
      << '\n';
  return ok ? 0 : 1;
}

}  // namespace par::host
