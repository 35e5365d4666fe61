// Runs PAR packets on one core: the fetch loop of the frontend (docs/core-timing.md §3, §5) over
// the control unit, the SIMT executor and, in timing mode, the timing model.
//
// Plain C++ (no SystemC): the SC_MODULE ParCore wraps it, and unit tests and the reproduction
// scripts drive it directly.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "control_unit.hpp"
#include "load_store_unit.hpp"
#include "core_config.hpp"
#include "core_stats.hpp"
#include "local_memory.hpp"
#include "par/isa/program.hpp"
#include "simt_executor.hpp"
#include "slot_state.hpp"
#include "timing_model.hpp"

namespace par::core {

// A program decoded once at load time (the core never decodes on fetch).
class LoadedProgram {
 public:
  // Fails (returns nullptr, sets error) when the program does not fit the instruction cache.
  static std::unique_ptr<LoadedProgram> load(const isa::Program& program, const CoreConfig& cfg,
                                             std::string* error);
  // A program built directly from decoded instructions (tests, research tools). `source` may be
  // empty; its code words are not needed.
  static std::unique_ptr<LoadedProgram> from_instructions(std::vector<isa::Instruction> code,
                                                          const CoreConfig& cfg,
                                                          isa::Program source = {});
  std::size_t size() const { return code_.size(); }
  const isa::Instruction& at(std::uint64_t pc) const { return code_[pc]; }
  const TimingOp& timing(std::uint64_t pc) const { return timing_[pc]; }
  bool legal(std::uint64_t pc) const { return legal_[pc] != 0; }
  const std::string& illegal_reason(std::uint64_t pc) const { return reasons_[pc]; }
  const isa::Program& source() const { return program_; }

 private:
  isa::Program program_;
  std::vector<isa::Instruction> code_;
  std::vector<TimingOp> timing_;
  std::vector<std::uint8_t> legal_;
  std::vector<std::string> reasons_;
};

// One packet (or the share of a packet that the thread scheduler gave this core).
struct Packet {
  std::uint64_t start = 0;
  std::int64_t threads = 0;
  std::uint64_t first_thread = 0;           // base of i0 (docs/isa.md §2.1)
  std::uint64_t inherited[16] = {};         // i1..i15 at 1..15
};

enum class RunMode { Timing, Functional };

// Register contents of chosen threads at the end of their round (ISA threads are independent,
// so a thread's final registers do not depend on L, T or the mode).
struct ThreadRegisters {
  std::uint64_t thread = 0;
  std::array<std::uint64_t, 16> r{};
  std::array<std::uint8_t, 8> p{};
};

class PacketEngine {
 public:
  // `functional_width` is the number of threads run side by side in functional mode (timing
  // mode uses L x T slots).
  // `global`, when given, carries the accesses outside the local-memory window (otherwise they
  // are runtime errors).
  PacketEngine(std::string name, const CoreConfig& cfg, const LoadedProgram& program,
               LocalMemory& local, GlobalMemoryPort* global, RunMode mode,
               int functional_width = 1024);

  // Reports the frontend stalls of every later packet to `listener` (null: none; not owned).
  void set_stall_listener(StallListener* listener) { stall_listener_ = listener; }

  // Asks for the final registers of threads [first, first + count).
  void capture_registers(std::uint64_t first, std::uint64_t count);
  const std::vector<ThreadRegisters>& captured_registers() const { return captured_; }

  // Runs one packet to completion. Returns false with a runtime error message (docs/isa.md §9.2) that
  // names the core, PC with source line, thread and cause.
  bool run(const Packet& packet, CoreStats& stats, std::string* error);

 private:
  struct PendingStore {  // a store whose data may still be arriving (store-to-load order, §4.7)
    std::vector<std::uint64_t> addr;  // per slot; size 0 where not qualified
    std::vector<std::uint8_t> size;
    std::vector<Cycle> data_ready;    // per thread slot
    Cycle latest = 0;
  };
  bool fail(std::string* error, std::uint64_t pc, const std::string& cause, std::int64_t slot = -1,
            std::int64_t slot2 = -1) const;
  const Cycle* store_to_load_limits(Cycle fetch);
  void remember_store(Cycle fetch);
  void capture_round();

  std::string name_;
  const CoreConfig& cfg_;
  const LoadedProgram& prog_;
  RunMode mode_;
  int S_;
  int T_;
  SlotState state_;
  SimtExecutor exec_;
  ControlUnit control_;
  GlobalMemoryPort* port_;
  std::unique_ptr<LoadStoreUnit> lsu_;
  std::unique_ptr<TimingModel> timing_;
  std::vector<std::uint8_t> valid_;
  std::uint64_t round_first_ = 0;
  std::deque<PendingStore> stores_;
  std::vector<Cycle> min_result_;
  std::uint64_t capture_first_ = 0, capture_count_ = 0;
  std::vector<ThreadRegisters> captured_;
  StallListener* stall_listener_ = nullptr;
};

}  // namespace par::core
