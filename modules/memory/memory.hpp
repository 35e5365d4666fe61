// A plain RAM behind a TLM target socket: byte storage with a fixed access latency and an
// optional bandwidth limit (a busy-until reservation, so loosely-timed accesses queue). Used as
// host memory and as the simple backing store of tests. Supports debug transport and DMI-less
// b_transport; an access beyond the size gets TLM_ADDRESS_ERROR_RESPONSE.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include "par/simkit/interval_calendar.hpp"
#include "par/simkit/stats.hpp"
#include "par/simkit/transfer_counters.hpp"

namespace par::memory {

struct MemoryConfig {
  std::uint64_t size = 1ull << 20;
  double latency_ns = 0;       // per access
  double bytes_per_ns = 0;     // 0 = unlimited bandwidth
};

class Memory : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<Memory> in;

  Memory(sc_core::sc_module_name name, const MemoryConfig& cfg);

  std::uint8_t* data() { return bytes_.data(); }
  std::uint64_t size() const { return bytes_.size(); }
  std::uint64_t reads() const { return transfers_.reads.value(); }
  std::uint64_t writes() const { return transfers_.writes.value(); }
  std::uint64_t bytes_read() const { return transfers_.read_bytes.value(); }
  std::uint64_t bytes_written() const { return transfers_.write_bytes.value(); }
  // reads, writes, read_bytes, write_bytes (group named after the module).
  const simkit::StatGroup& stats() const { return stats_; }

 private:
  void b_transport(tlm::tlm_generic_payload& tx, sc_core::sc_time& delay);
  unsigned int transport_dbg(tlm::tlm_generic_payload& tx);
  bool copy(tlm::tlm_generic_payload& tx);

  MemoryConfig cfg_;
  std::vector<std::uint8_t> bytes_;
  simkit::IntervalCalendar busy_;  // in sc_time ticks
  simkit::StatGroup stats_;
  simkit::TransferCounters transfers_;
};

}  // namespace par::memory
