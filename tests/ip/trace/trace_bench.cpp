// Recording speed and memory of the trace library, run by hand (not a test):
//   trace_bench [events]
// Prints events recorded per second for the call patterns the modules use, the recorder's bytes
// per event, and the JSON / VCD writing speed and file bytes per event.
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "par/trace/timeline.hpp"
#include "par/trace/vcd_writer.hpp"

namespace {

using par::trace::Arg;
using par::trace::Ps;
// CPU time of this process, not wall time: the machine is shared, and a busy neighbour should not
// halve the figure.
struct Clock {
  using time_point = double;
  static double now() {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
  }
};

double seconds_since(double start) { return Clock::now() - start; }

template <class Record>
void bench_timeline(const char* what, std::uint64_t n, Record record) {
  par::trace::TimelineLimits lim;
  lim.max_events = n;
  par::trace::Timeline tl(lim);
  std::vector<par::trace::TrackId> tracks;
  for (int c = 0; c < 16; ++c) tracks.push_back(tl.track("core" + std::to_string(c), "busy"));
  const auto start = Clock::now();
  for (std::uint64_t i = 0; i < n; ++i) record(tl, tracks[i & 15], i);
  const double rec_s = seconds_since(start);
  std::ostringstream os;
  const auto wstart = Clock::now();
  tl.write_json(os);
  const double write_s = seconds_since(wstart);
  std::printf("%-34s %6.1f M events/s  %5.1f B/event in memory  write %5.2f s (%4.1f M/s)  %5.1f B/event JSON\n",
              what, n / rec_s / 1e6, static_cast<double>(tl.memory_bytes()) / n, write_s,
              n / write_s / 1e6, static_cast<double>(os.str().size()) / n);
}

}  // namespace

int main(int argc, char** argv) {
  const std::uint64_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 2'000'000;
  std::printf("%llu events per case\n", static_cast<unsigned long long>(n));

  bench_timeline("interval, string name+category", n, [](auto& tl, auto t, std::uint64_t i) {
    tl.interval(t, "busy", "core", i * 1000, i * 1000 + 700);
  });
  {
    bench_timeline("interval, interned ids", n, [](auto& tl, auto t, std::uint64_t i) {
      static const auto name = tl.name("busy");
      static const auto cat = tl.category("core");
      tl.interval(t, name, cat, i * 1000, i * 1000 + 700);
    });
  }
  bench_timeline("interval + 2 args (hex, int)", n, [](auto& tl, auto t, std::uint64_t i) {
    tl.interval(t, "read", "dram", i * 1000, i * 1000 + 700,
                {Arg::hex("addr", i * 64), {"bytes", 64}});
  });
  bench_timeline("overlapping (8 outstanding)", n, [](auto& tl, auto t, std::uint64_t i) {
    tl.interval(t, "read", "dram", i * 100, i * 100 + 8 * 16 * 100 + (i % 7) * 10);
  });
  bench_timeline("counter", n, [](auto& tl, auto t, std::uint64_t i) {
    tl.counter(t, "queue", i * 1000, static_cast<double>(i % 9));
  });

  {
    par::trace::Timeline tl;
    const par::trace::TrackRef off;  // tracing off: the module's cost
    const auto start = Clock::now();
    for (std::uint64_t i = 0; i < n; ++i) off.interval("busy", "core", i, i + 1);
    std::printf("%-34s %6.2f ns per call\n", "TrackRef, tracing off", seconds_since(start) / n * 1e9);
  }

  {
    par::trace::VcdWriter vcd(n);
    vcd.set_date("bench");
    std::vector<par::trace::SignalId> sig;
    for (int c = 0; c < 16; ++c) sig.push_back(vcd.signal("core" + std::to_string(c) + ".stall", 1));
    const auto start = Clock::now();
    for (std::uint64_t i = 0; i < n; ++i) vcd.change(sig[i & 15], (i >> 4) * 1000 + (i & 3), (i >> 4) & 1);
    const double rec_s = seconds_since(start);
    std::ostringstream os;
    const auto wstart = Clock::now();
    vcd.write(os);
    const double write_s = seconds_since(wstart);
    std::printf("%-34s %6.1f M changes/s %5.1f B/change in memory write %5.2f s  %5.1f B/change VCD\n",
                "VCD change (16 wires)", n / rec_s / 1e6, static_cast<double>(vcd.memory_bytes()) / n,
                write_s, static_cast<double>(os.str().size()) / n);
  }
  return 0;
}
