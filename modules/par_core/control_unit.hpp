// The frontend's control state of a PAR core (docs/isa.md §7): PC, active mask M, and the command stack
// with its counters. It executes xp / loop / brk and block-end processing (BEP). It knows nothing
// about time; the packet engine asks it which predicates a block end read so that the timing
// model can stall until they are committed.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "par/isa/instruction.hpp"
#include "slot_state.hpp"

namespace par::core {

class ControlUnit {
 public:
  // Reads predicates and registers from `state`. `master` allows counter loops on general
  // registers (the master core, docs/isa.md §7.6).
  ControlUnit(const SlotState& state, int stack_depth, bool master = false);

  // Starts a round: the stack holds only the PAR entry, M = valid slots, PC = start. `active`:
  // the number of valid slots (the caller knows it: no count over every slot per round).
  void start_round(const std::uint8_t* valid, std::uint64_t start_pc, int active);

  struct Outcome {
    bool error = false;
    std::string message;          // runtime error cause when error is set
    int error_slots[2] = {-1, -1};  // slots named by the error (indirect-xp disagreement)
    bool disqualified_direct_xp = false;
  };
  // Executes the control instruction at PC (docs/isa.md §7.4-7.7), then block-end processing when its
  // stop bit is set or M became empty. `program_size` bounds indirect targets.
  Outcome execute(const isa::Instruction& in, std::uint64_t program_size);
  // After a non-control instruction: PC + 1, and block-end processing on a stop bit. Inline:
  // the fetch loop calls it for every backend instruction.
  void advance(bool stop) {
    bep_preds_.clear();
    ++pc_;
    if (stop) block_end();
  }

  // The fetch loop runs straight-line stretches of non-control instructions (no stop bit before
  // the last) without calling advance() for each: it sets PC where it is read within one (a
  // watch point, an error) and to the last instruction's before its advance().
  void set_pc_within_block(std::uint64_t pc) { pc_ = pc; }

  std::uint64_t pc() const { return pc_; }
  const std::uint8_t* mask() const { return mask_.data(); }
  int active_count() const { return active_; }  // set slots of M
  bool round_ended() const { return round_ended_; }
  std::size_t depth() const { return stack_.size(); }
  // Loop predicates (other than p0) read by the block-end processing of the last step.
  const std::vector<std::uint8_t>& block_end_predicates() const { return bep_preds_; }

  // A saved copy of PC, mask and stack (entries and their masks); saving again reuses its memory.
  struct Saved;
  void save(Saved& out) const;
  bool same_state(const Saved& saved) const;
  // The open entries above the round's PAR entry, outermost first, e.g. "conditional loop on p1
  // (body at pc 6) with 7 threads". `where(pc)` names a PC ("pc 6 (k.par:12)").
  std::vector<std::string> describe_open_entries(const std::function<std::string(std::uint64_t)>& where) const;

 private:
  enum class Kind : std::uint8_t { Par, Ret, CLoop, PLoop };
  struct Entry {
    Kind kind;
    std::uint8_t qp;
    std::uint64_t addr;   // return address or loop body start
    std::int64_t count;   // remaining iterations (CLOOP)
    int active;           // set slots of the entry's mask
  };
  bool push(Kind kind, std::uint64_t addr, std::uint8_t qp, std::int64_t count,
            const std::uint8_t* mask, int active, Outcome& out);
  std::uint8_t* entry_mask(std::size_t level) { return &masks_[level * static_cast<std::size_t>(S_)]; }
  void block_end();
  void set_mask(const std::uint8_t* m);  // M = m, keeps active_ in step
  int count(const std::uint8_t* m) const;

  const SlotState& st_;
  const int S_;
 public:
  struct Saved {
    std::uint64_t pc = 0;
    bool round_ended = false;
    std::vector<std::uint8_t> mask;
    std::vector<Entry> stack;
    std::vector<std::uint8_t> masks;  // the used levels only
  };

 private:
  const std::size_t max_depth_;
  const bool master_;
  std::uint64_t pc_ = 0;
  bool round_ended_ = false;
  std::vector<std::uint8_t> mask_;   // M
  int active_ = 0;
  int m_level_ = -1;                 // stack level whose mask M equals, -1 if unknown
  std::vector<std::uint8_t> q_;      // scratch: qualified slots
  std::vector<Entry> stack_;
  std::vector<std::uint8_t> masks_;  // mask field of each stack level, S bytes per level
  std::vector<std::uint8_t> bep_preds_;
};

}  // namespace par::core
