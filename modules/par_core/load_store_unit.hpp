// The global path of a PAR core's load/store unit (issue 3; par-core-timing.md §4.7).
//
// Accesses inside the local-memory window are done by the SIMT executor. The others leave the
// core: the accesses of one instruction (all lanes, all threads) are coalesced into one
// transaction per cache line touched. A load line is requested when the first thread that needs it
// enters the LS unit, and each thread's result is available when the last line it needs has
// arrived (results are forwarded as they arrive, so T threads per lane hide memory latency); a line
// read serves every thread that reads from it (same-address loads are fetched once). A store line
// leaves when the last thread writing to it has entered the unit and supplied its data; each thread
// completes when its line's write has been accepted. At most `ls_max_outstanding` transactions per
// lane are in flight; when the limit is reached the unit stops accepting threads until the oldest
// completes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core_config.hpp"
#include "par/isa/instruction.hpp"
#include "slot_state.hpp"
#include "timing_model.hpp"

namespace par::core {

// How a core reaches memory outside its local window (the platform implements it over TLM).
class GlobalMemoryPort {
 public:
  virtual ~GlobalMemoryPort() = default;
  // One transaction that leaves the core in `cycle` (cycles since the packet started). For a
  // write, `byte_enable` (len bytes, 0 or 0xFF) marks the bytes to write. Returns false with an
  // error text for an error response; `done` receives the cycle the data (or the acceptance of a
  // write) is back in the core.
  virtual bool transact(bool write, std::uint64_t addr, std::uint8_t* data, unsigned len,
                        const std::uint8_t* byte_enable, Cycle cycle, Cycle& done, std::string& error) = 0;
  // The frontend has reached `cycle`: the platform may synchronise the simulation.
  virtual void reached(Cycle cycle) { (void)cycle; }
};

// A failed global access: slot, address and the target's answer.
struct GlobalFault {
  int slot = -1;
  std::uint64_t address = 0;
  std::string cause;
};

class LoadStoreUnit : public ThreadTiming {
 public:
  LoadStoreUnit(const CoreConfig& cfg, GlobalMemoryPort& port, SlotState& state, int slots, int threads_per_lane);

  // Starts a memory instruction whose qualified slots `global` (addresses in `addr`) are outside
  // the local window.
  void begin(const isa::Instruction& in, const std::uint8_t* global, const std::uint64_t* addr);
  bool active() const { return active_; }

  // Functional mode: performs all transactions at cycle 0 (no timing).
  bool run_untimed();

  // ThreadTiming (called by TimingModel::dispatch in thread order).
  Cycle start_thread(int k, Cycle earliest, Cycle data_ready) override;
  Cycle thread_result(int k) override;
  void finish() override;

  bool failed() const { return !fault_.cause.empty(); }
  const GlobalFault& fault() const { return fault_; }

  // Statistics since the last reset (a packet).
  void reset_counters() { transactions_ = bytes_ = accesses_ = 0; limit_stalls_ = latency_sum_ = 0; in_flight_.clear(); }
  std::uint64_t transactions() const { return transactions_; }
  std::uint64_t bytes() const { return bytes_; }
  std::uint64_t accesses() const { return accesses_; }
  Cycle limit_stall_cycles() const { return limit_stalls_; }
  Cycle latency_sum() const { return latency_sum_; }

 private:
  struct Line {
    std::uint64_t address = 0;
    std::vector<std::uint8_t> data;
    std::vector<std::uint64_t> enable;  // bit per byte: the bytes the instruction touches
    bool issued = false;
    Cycle done = 0;
    Cycle leave = 0;  // stores: when the last writer has supplied its data
    int first_slot = -1;  // named by a fault
  };
  std::uint32_t line_for(std::uint64_t addr);
  Line& line_of_slot(int slot) { return lines_[slot_line_[static_cast<std::size_t>(slot)]]; }
  Cycle admit(Cycle at);  // outstanding limit
  bool issue(Line& line, Cycle at);
  bool send(Line& line, std::size_t begin, std::size_t end, Cycle at);
  void deliver_loads();

  const CoreConfig& cfg_;
  GlobalMemoryPort& port_;
  SlotState& st_;
  const int S_, T_, L_;
  const std::uint64_t line_bytes_;
  const std::size_t max_outstanding_;

  const isa::Instruction* in_ = nullptr;
  bool active_ = false, write_ = false;
  int size_ = 0;
  std::vector<std::vector<int>> thread_slots_;  // per thread slot k: global slots (all lanes)
  std::vector<std::uint64_t> slot_addr_;
  std::vector<std::uint32_t> slot_line_;  // per slot: index of its line in lines_
  // Line address -> index in lines_: open addressing, entries valid only with the current
  // instruction's stamp, so starting an instruction clears nothing.
  struct IndexEntry {
    std::uint64_t address = 0;
    std::uint32_t line = 0;
    std::uint32_t stamp = 0;
  };
  std::vector<IndexEntry> line_index_;
  std::uint32_t stamp_ = 0;
  // Lines of the current instruction are lines_[0 .. line_count_); the storage of earlier
  // instructions' lines is reused, so the hot path does not allocate.
  std::vector<Line> lines_;
  std::size_t line_count_ = 0;
  std::vector<std::size_t> store_order_;
  std::vector<Cycle> thread_done_;
  std::vector<Cycle> in_flight_;  // completion cycles of outstanding transactions (min-heap)
  GlobalFault fault_;

  std::uint64_t transactions_ = 0, bytes_ = 0, accesses_ = 0;
  Cycle limit_stalls_ = 0, latency_sum_ = 0;
};

}  // namespace par::core
