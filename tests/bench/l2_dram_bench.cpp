// l2-dram-bench: the speed of the memory subsystem models alone. The platform's L2 (every bank,
// through the L2 wrapper) and its device DRAM controller, built from a platform configuration
// (platform/configs/device-dram.ini by default, read with the platform's own options), are driven
// by a minimal loosely-timed initiator that stands in for a core or a traffic generator: line
// reads (and full-line writes, `bench.write_every`) over a working set, in sequential or in a
// fixed-seed random line order. README.md says what is measured and how.
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <numeric>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "dram.hpp"
#include "l2.hpp"
#include "par/sckit/fast_time.hpp"
#include "par/simkit/options.hpp"
#include "platform_config.hpp"
#include "platform_options.hpp"

namespace {

enum class Pattern { Stream, Random };

struct BenchConfig {
  Pattern pattern = Pattern::Stream;
  std::uint64_t working_set = 0;  // bytes; 0 = 4 x the L2's capacity
  std::uint64_t accesses = 1 << 20;
  unsigned streams = 0;       // independent request streams (requests in flight); 0 = the L2's MSHRs
  unsigned write_every = 0;   // every n-th access is a full-line write; 0 = reads only
  std::uint64_t seed = 1;     // random line order
  double quantum_ns = 1000;   // how far the initiator runs ahead of SystemC time
};

void register_bench_options(par::simkit::OptionRegistry& reg, BenchConfig& b) {
  reg.add_enum("bench.pattern", b.pattern, "Line order: sequential (stream) or a fixed-seed random permutation.",
               {{"stream", Pattern::Stream}, {"random", Pattern::Random}});
  reg.add("bench.working_set", b.working_set, "Bytes of DRAM the accesses cover; 0 = 4 x the L2's capacity.")
      .range(0, std::uint64_t{1} << 40);
  reg.add("bench.accesses", b.accesses, "Line accesses issued (the working set is walked again as often as needed).")
      .range(1, std::uint64_t{1} << 40);
  reg.add("bench.streams", b.streams,
          "Independent request streams: each issues its next access when its last completes; 0 = as many as the L2 "
          "has MSHRs (l2.banks x l2.mshrs), so that the L2 bounds the requests in flight.")
      .range(0, 1024);
  reg.add("bench.write_every", b.write_every, "Every n-th access is a full-line write; 0 = reads only.")
      .range(0, 1u << 30);
  reg.add("bench.seed", b.seed, "Seed of the random line order.");
  reg.add("bench.quantum_ns", b.quantum_ns, "How far the initiator may run ahead of SystemC time.").range(1e-3, 1e9);
}

// The initiator: `streams` independent streams share the access sequence; the stream whose last
// access completed first issues the next one, at that completion time, so requests arrive in time
// order with up to `streams` in flight. SystemC time follows within a quantum.
class LineInitiator : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<LineInitiator> out;

  LineInitiator(sc_core::sc_module_name name, const BenchConfig& b, std::vector<std::uint64_t> order,
                unsigned line_bytes)
      : sc_module(name), out("out"), b_(b), order_(std::move(order)), line_(line_bytes), data_(line_bytes) {
    SC_THREAD(run);
  }

  sc_core::sc_time end() const { return par::sckit::time_from_value(end_); }
  std::uint64_t errors() const { return errors_; }

 private:
  SC_HAS_PROCESS(LineInitiator);

  void run() {
    const std::uint64_t quantum = sc_core::sc_time(b_.quantum_ns, sc_core::SC_NS).value();
    // The streams' ready times in a tournament: the root holds the earliest. Streams differ in
    // nothing but their ready time, so which of two equally ready streams issues does not change
    // any access. Each access gives the winning stream its next ready time and replays its path
    // (log2(streams) matches).
    Tournament ready(b_.streams);
    tlm::tlm_generic_payload p;
    p.set_data_ptr(data_.data());
    p.set_data_length(line_);
    p.set_streaming_width(line_);
    // Position in the walk and accesses until the next write, counted instead of divided.
    std::size_t line_index = 0;
    std::uint64_t until_write = b_.write_every;
    for (std::uint64_t i = 0; i < b_.accesses; ++i) {
      // Times as resolution units: integer arithmetic, no sc_time conversions.
      const std::uint64_t at = ready.earliest();
      std::uint64_t now = par::sckit::current_time().value();
      if (at > now + quantum) {
        wait(par::sckit::time_from_value(at - now));
        now = par::sckit::current_time().value();
      }
      const bool write = until_write != 0 && --until_write == 0;
      if (write) until_write = b_.write_every;
      p.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
      p.set_address(order_[line_index] * line_);
      if (++line_index == order_.size()) line_index = 0;
      p.set_byte_enable_ptr(nullptr);
      p.set_byte_enable_length(0);
      p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
      sc_core::sc_time delay = par::sckit::time_from_value(at > now ? at - now : 0);
      out->b_transport(p, delay);
      if (!p.is_response_ok()) ++errors_;
      const std::uint64_t done = now + delay.value();
      ready.replace_earliest(done);
      end_ = std::max(end_, done);
    }
  }

  // Times of n players, all 0 at first: earliest() is the smallest, replace_earliest() gives its
  // player a new time. Leaves from index `leaves_` (players, then padding that never wins); inner
  // node k holds the player that wins between nodes 2k and 2k + 1.
  class Tournament {
   public:
    explicit Tournament(unsigned players) : time_(players + 1, 0), win_() {
      while (leaves_ < players) leaves_ *= 2;
      time_[players] = ~std::uint64_t{0};
      win_.resize(2 * leaves_);
      for (std::size_t i = 0; i < leaves_; ++i) win_[leaves_ + i] = static_cast<unsigned>(std::min<std::size_t>(i, players));
      for (std::size_t k = leaves_ - 1; k >= 1; --k) replay(k);
    }
    std::uint64_t earliest() const { return time_[win_[1]]; }
    void replace_earliest(std::uint64_t t) {
      const unsigned p = win_[1];
      time_[p] = t;
      for (std::size_t k = (leaves_ + p) / 2; k >= 1; k /= 2) replay(k);
    }

   private:
    void replay(std::size_t k) {
      const unsigned l = win_[2 * k], r = win_[2 * k + 1];
      win_[k] = time_[r] < time_[l] ? r : l;
    }
    std::vector<std::uint64_t> time_;
    std::size_t leaves_ = 1;
    std::vector<unsigned> win_;
  };

  BenchConfig b_;
  std::vector<std::uint64_t> order_;  // line numbers of one walk of the working set
  unsigned line_;
  std::vector<unsigned char> data_;
  std::uint64_t end_ = 0;  // the latest completion, in resolution units
  std::uint64_t errors_ = 0;
};

double cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         1e-6 * static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

std::vector<std::uint64_t> line_order(const BenchConfig& b, std::uint64_t lines) {
  std::vector<std::uint64_t> order(lines);
  std::iota(order.begin(), order.end(), std::uint64_t{0});
  if (b.pattern == Pattern::Random) std::shuffle(order.begin(), order.end(), std::mt19937_64(b.seed));
  return order;
}

}  // namespace

int sc_main(int argc, char* argv[]) {
  par::platform::PlatformConfig cfg;
  BenchConfig b;
  par::simkit::OptionRegistry reg;
  par::platform::register_options(reg, cfg);
  register_bench_options(reg, b);
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "--help") {
    std::cout << "usage: l2-dram-bench --config FILE.ini [--bench.* and module options]\n\n";
    reg.help(std::cout);
    return args.empty() ? 2 : 0;
  }
  const par::simkit::ParseResult parsed = reg.parse(args);
  for (const std::string& e : parsed.errors) std::cerr << "l2-dram-bench: " << e << '\n';
  if (!parsed.ok()) return 2;
  if (!parsed.positional.empty()) {
    std::cerr << "l2-dram-bench: unexpected argument '" << parsed.positional[0] << "'\n";
    return 2;
  }
  const std::uint64_t l2_bytes = static_cast<std::uint64_t>(cfg.l2.banks) * cfg.l2.bank_bytes;
  const std::uint64_t working_set = b.working_set != 0 ? b.working_set : 4 * l2_bytes;
  const std::uint64_t lines = working_set / cfg.l2.line_bytes;
  if (lines == 0 || working_set % cfg.l2.line_bytes != 0) {
    std::cerr << "l2-dram-bench: bench.working_set: " << working_set << " is not a positive multiple of l2.line_bytes = "
              << cfg.l2.line_bytes << '\n';
    return 2;
  }

  std::unique_ptr<par::l2::L2> l2;
  std::unique_ptr<par::dram::Dram> dram;
  try {
    l2 = std::make_unique<par::l2::L2>("l2", cfg.l2);
    dram = std::make_unique<par::dram::Dram>("dram", cfg.dram);
  } catch (const std::exception& e) {
    std::cerr << "l2-dram-bench: " << e.what() << '\n';
    return 2;
  }
  if (working_set > dram->capacity()) {
    std::cerr << "l2-dram-bench: bench.working_set: " << working_set << " is larger than the DRAM ("
              << dram->capacity() << " bytes)\n";
    return 2;
  }
  if (b.streams == 0) b.streams = cfg.l2.banks * cfg.l2.mshrs;
  LineInitiator initiator("initiator", b, line_order(b, lines), cfg.l2.line_bytes);
  initiator.out.bind(l2->in);
  for (unsigned i = 0; i < l2->banks(); ++i) l2->bank(i).mem.bind(dram->in);

  const double cpu_start = cpu_seconds();
  const auto wall_start = std::chrono::steady_clock::now();
  sc_core::sc_start();
  const double cpu = cpu_seconds() - cpu_start;
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();

  std::uint64_t reads = 0, writes = 0, hits = 0, misses = 0, merges = 0, fills = 0, writebacks = 0;
  for (unsigned i = 0; i < l2->banks(); ++i) {
    const par::l2::BankStats& s = l2->bank(i).model().stats();
    reads += s.reads.value();
    writes += s.writes.value();
    hits += s.hits.value();
    misses += s.misses.value();
    merges += s.mshr_merges.value();
    fills += s.fills.value();
    writebacks += s.writebacks.value();
  }
  // Lines the L2 fetched from or wrote back to DRAM while timed; then the dirty lines still held
  // (an untimed flush, not measured), so that every write is accounted for.
  const std::uint64_t dram_lines = fills + writebacks;
  l2->flush();
  std::uint64_t flushed = 0;
  for (unsigned i = 0; i < l2->banks(); ++i) flushed += l2->bank(i).model().stats().flush_writebacks.value();

  std::printf("pattern=%s working_set=%llu streams=%u accesses=%llu reads=%llu writes=%llu hits=%llu misses=%llu "
              "merges=%llu fills=%llu writebacks=%llu dirty_at_end=%llu errors=%llu dram_lines=%llu "
              "simulated_us=%.3f cpu_s=%.3f wall_s=%.3f mlines_per_cpu_s=%.3f mlines_per_wall_s=%.3f\n",
              b.pattern == Pattern::Stream ? "stream" : "random", static_cast<unsigned long long>(working_set),
              b.streams, static_cast<unsigned long long>(b.accesses), static_cast<unsigned long long>(reads),
              static_cast<unsigned long long>(writes), static_cast<unsigned long long>(hits),
              static_cast<unsigned long long>(misses), static_cast<unsigned long long>(merges),
              static_cast<unsigned long long>(fills), static_cast<unsigned long long>(writebacks),
              static_cast<unsigned long long>(flushed), static_cast<unsigned long long>(initiator.errors()),
              static_cast<unsigned long long>(dram_lines), initiator.end().to_seconds() * 1e6, cpu, wall,
              static_cast<double>(dram_lines) / cpu / 1e6, static_cast<double>(dram_lines) / wall / 1e6);
  return initiator.errors() == 0 ? 0 : 1;
}

// The bench's output is its one line: no SystemC banner.
int main(int argc, char* argv[]) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  return sc_core::sc_elab_and_sim(argc, argv);
}
