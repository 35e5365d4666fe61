// The global path of a PAR core's load/store unit (docs/core-timing.md §4.7).
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
#include <limits>
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
  // The frontend has reached `cycle` (timing mode): the platform may synchronise the simulation.
  // Returns the cycle at which it wants to be called next (the engine calls it once the frontend
  // gets there, so a port that has nothing to do costs one comparison per instruction).
  virtual Cycle reached(Cycle cycle) {
    (void)cycle;
    return std::numeric_limits<Cycle>::max();
  }
};

// A failed global access: slot, address and the target's answer.
struct GlobalFault {
  int slot = -1;
  std::uint64_t address = 0;
  std::string cause;
};

// Completion cycles of the transactions in flight: a multiset with fast access to the earliest.
// Completions are mostly pushed in ascending order or nearly so (transactions leave in time order
// and take similar times): those go to a sorted ring (O(1)); the few far out of order go to a
// min-heap. Storage is reused.
class CompletionQueue {
 public:
  bool empty() const { return ring_size_ == 0 && heap_.empty(); }
  std::size_t size() const { return ring_size_ + heap_.size(); }
  // The earliest completion (not empty).
  Cycle front() const {
    if (heap_.empty()) return ring_[head_];
    return ring_size_ > 0 && ring_[head_] <= heap_.front() ? ring_[head_] : heap_.front();
  }
  void pop_front() {
    if (heap_.empty() || (ring_size_ > 0 && ring_[head_] <= heap_.front())) {
      head_ = (head_ + 1) & (ring_.size() - 1);
      --ring_size_;
    } else {
      pop_heap();
    }
  }
  void push(Cycle c) {
    // The usual case, at or after every completion in the ring, inline.
    if (ring_size_ < ring_.size() && (ring_size_ == 0 || ring_[(head_ + ring_size_ - 1) & (ring_.size() - 1)] <= c)) {
      ring_[(head_ + ring_size_) & (ring_.size() - 1)] = c;
      ++ring_size_;
      return;
    }
    push_out_of_order(c);
  }
  void clear() {
    head_ = ring_size_ = 0;
    heap_.clear();
  }

 private:
  void push_out_of_order(Cycle c);
  void pop_heap();
  std::vector<Cycle> ring_ = std::vector<Cycle>(64);  // ascending from head_; power-of-two size
  std::size_t head_ = 0, ring_size_ = 0;
  std::vector<Cycle> heap_;  // min-heap (std::greater)
};

class LoadStoreUnit : public ThreadTiming {
 public:
  LoadStoreUnit(const CoreConfig& cfg, GlobalMemoryPort& port, int slots, int threads_per_lane);

  // Starts a memory instruction whose qualified slots `global` (addresses in `addr`) are outside
  // the local window; `state` holds the registers of the thread context that executes it (store
  // data, load destinations). `addr` and `state` must stay valid until the instruction's finish()
  // or run_untimed().
  void begin(const isa::Instruction& in, const std::uint8_t* global, const std::uint64_t* addr, SlotState& state);
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
  // A line touched by the current instruction. Its data and byte mask live in line_data_ and
  // line_enable_ (flat, reused from instruction to instruction: the hot path does not allocate).
  struct Line {
    std::uint64_t address = 0;
    std::uint64_t threads = 0;  // bit k: thread slot k touches the line (listed in thread_lines_[k])
    Cycle done = 0;
    Cycle leave = 0;  // stores: when the last writer has supplied its data
    int first_slot = -1;  // named by a fault
    bool issued = false;
  };
  std::uint32_t line_for(std::uint64_t base);  // base: a line address
  std::uint32_t new_line(std::uint64_t base);
  void index_line(std::uint32_t i);
  std::uint8_t* data_of(std::size_t i) { return &line_data_[i * line_bytes_]; }
  std::uint64_t* enable_of(std::size_t i) { return &line_enable_[i * enable_words_]; }
  Cycle admit(Cycle at);  // outstanding limit
  bool issue(std::uint32_t i, Cycle at);
  bool send(std::uint32_t i, std::size_t begin, std::size_t end, Cycle at);
  void order_stores();
  void deliver_loads();

  const CoreConfig& cfg_;
  GlobalMemoryPort& port_;
  SlotState* st_ = nullptr;  // the executing context's registers (begin())
  const int S_, T_, L_;
  const std::uint64_t line_bytes_;
  const bool read_whole_line_;
  const std::size_t enable_words_;  // 64-bit mask words per line
  const std::size_t max_outstanding_;

  const isa::Instruction* in_ = nullptr;
  bool active_ = false, write_ = false;
  bool timed_ = true;  // false inside run_untimed()
  int size_ = 0;
  std::vector<int> global_slots_;  // the instruction's global slots, ascending (global_count_ of them)
  std::size_t global_count_ = 0;
  // Per thread slot k: its lines, first touch first: thread_lines_[k * L + i] for i <
  // thread_line_count_[k] (a thread has L slots, so at most L lines).
  std::vector<std::uint32_t> thread_lines_;
  std::vector<std::uint32_t> thread_line_count_;
  std::string error_;  // a failed transaction's answer
  const std::uint64_t* slot_addr_ = nullptr;  // the instruction's addresses (begin's `addr`)
  std::vector<std::uint32_t> slot_line_;  // per slot: index of its line in lines_
  // Line address -> index in lines_: open addressing, entries valid only with the current
  // instruction's stamp, so starting an instruction clears nothing. While the instruction's lines
  // appear in ascending address order (the usual case) a line is either the newest or new, and
  // the table is not needed: it is filled only once an address goes backwards.
  struct IndexEntry {
    std::uint64_t address = 0;
    std::uint32_t line = 0;
    std::uint32_t stamp = 0;
  };
  std::vector<IndexEntry> line_index_;
  std::uint32_t stamp_ = 0;
  bool ascending_ = true;
  // Lines of the current instruction are lines_[0 .. line_count_).
  std::vector<Line> lines_;
  std::vector<std::uint8_t> line_data_;
  std::vector<std::uint64_t> line_enable_;
  std::size_t line_count_ = 0;
  std::vector<std::uint32_t> store_order_;
  std::vector<Cycle> order_keys_;
  std::vector<std::uint32_t> order_count_;
  std::vector<std::uint32_t> order_rank_;   // per line: index of its leave time in order_keys_
  std::vector<std::uint32_t> order_first_;  // per key: next place in store_order_
  std::vector<Cycle> thread_done_;
  CompletionQueue in_flight_;  // completion cycles of outstanding transactions
  GlobalFault fault_;

  std::uint64_t transactions_ = 0, bytes_ = 0, accesses_ = 0;
  Cycle limit_stalls_ = 0, latency_sum_ = 0;
};

}  // namespace par::core
