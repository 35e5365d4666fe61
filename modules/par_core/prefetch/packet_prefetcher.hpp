// The packet prefetcher of a PAR core (README.md): decodes the packet's affine loads once
// (affine_loads.hpp) and, as the rounds advance, sends the lines of the rounds ahead to the L2 as
// prefetch requests, with the runahead parameters of the reference design (PrefetchConfig).
//
// Driven by the packet engine in timing mode: round_started() when a round's first instruction is
// fetched, round_ended() when its last one has been. Between those events nothing happens, so a
// request whose outstanding slot frees in between is sent at the next event, with the exact cycle
// it would have left as its time (the core runs ahead of the SystemC time, so the time may lie
// before the event). Plain C++: the core's TLM side implements PrefetchPort.
#pragma once

#include <cstdint>
#include <deque>
#include <utility>
#include <vector>

#include "load_store_unit.hpp"
#include "prefetch/affine_loads.hpp"
#include "prefetch/prefetch_config.hpp"
#include "prefetch/prefetch_counts.hpp"
#include "timing_model.hpp"

namespace par::core {

class PrefetchPort {
 public:
  virtual ~PrefetchPort() = default;
  // One prefetch request for the bytes [addr, addr + len) that leaves the core in `cycle` (since
  // the packet started); `done` receives the cycle its answer is back. False for an error answer.
  virtual bool prefetch(std::uint64_t addr, unsigned len, Cycle cycle, Cycle& done) = 0;
};

class PacketPrefetcher {
 public:
  // `slots`: threads per round (L x T). Addresses in [local_base, local_base + local_size) are the
  // core's own and never prefetched.
  PacketPrefetcher(const PrefetchConfig& cfg, std::uint64_t line_bytes, std::uint64_t local_base,
                   std::uint64_t local_size, int slots, PrefetchPort& port);

  void begin_packet(std::vector<AffineLoad> loads, std::uint64_t first_thread, std::uint64_t threads);
  void round_started(std::uint64_t round, Cycle at);
  void round_ended(std::uint64_t round, Cycle at);
  // Drops what is still queued and returns the packet's counters.
  PrefetchCounts end_packet();

 private:
  struct Line {
    std::uint64_t round = 0;
    std::uint64_t address = 0;
    Cycle ready = 0;  // decoded in this cycle
  };
  struct Pending {  // the byte-count queue: a decoded round not yet ended
    std::uint64_t round = 0;
    std::uint64_t bytes = 0;
  };
  void refill(Cycle at);
  void decode(std::uint64_t round, Cycle at);
  void send_due(Cycle at);

  const PrefetchConfig cfg_;
  const std::uint64_t line_bytes_, local_base_, local_size_;
  const std::uint64_t slots_;
  PrefetchPort& port_;

  std::vector<AffineLoad> loads_;
  std::vector<std::uint64_t> last_line_;  // per load: the last line decoded (+1; 0 = none)
  std::uint64_t first_thread_ = 0, threads_ = 0, rounds_ = 0;
  std::uint64_t next_round_ = 0;  // the next round to decode
  std::deque<Pending> pending_;
  std::uint64_t pending_bytes_ = 0;
  std::deque<Line> queue_;  // decoded lines not yet sent, in decode order
  Cycle free_at_ = 0;       // one request leaves per cycle
  CompletionQueue in_flight_;
  std::vector<std::pair<std::uint64_t, std::uint32_t>> round_lines_;  // decode scratch: line, order
  std::vector<std::uint64_t> order_lines_;     // decode scratch: the round's lines, ascending
  std::vector<std::uint64_t> previous_lines_;  // the lines of the round decoded last, ascending
  PrefetchCounts counts_;
};

}  // namespace par::core
