// Architectural state of the thread slots of a core, structure-of-arrays: each register is a
// contiguous array over all slots, so one instruction runs as a tight loop over the slots.
// Slot s = lane * T + thread slot (lane-major, like the thread index mapping of docs/isa.md §2.1).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "par/isa/instruction.hpp"

namespace par::core {

using Mask = std::vector<std::uint8_t>;  // one byte (0 or 1) per slot

// The registers and predicates of every slot, and which inherited values they hold. A SlotState
// has one of its own; cores of one shape may lend each other theirs (SlotStoragePool).
struct SlotStorage {
  explicit SlotStorage(int slots)
      : regs(32 * static_cast<std::size_t>(slots), 0),  // r0..r15, i0..i15
        preds(8 * static_cast<std::size_t>(slots), 0) {
    std::fill(preds.begin(), preds.begin() + slots, 1);  // p0 always reads 1
  }
  std::vector<std::uint64_t> regs;
  std::vector<std::uint8_t> preds;
  std::uint64_t inherited[16] = {};  // i1..i15 as set_inherited() left them in [0, inherited_width)
  int inherited_width = 0;
  // Bit r: r<r> may be non-zero in some slot; a clear bit means the register is zero in every
  // slot, so that a round start need not clear it (SlotState::start_round).
  std::uint16_t nonzero = 0;
};

class SlotState {
 public:
  explicit SlotState(int slots) : slots_(slots), own_(std::make_unique<SlotStorage>(slots)) { use(own_.get()); }
  // A copy is a snapshot: its own storage holding the registers the original has now.
  SlotState(const SlotState& other)
      : slots_(other.slots_), own_(std::make_unique<SlotStorage>(*other.s_)) { use(own_.get()); }
  SlotState& operator=(const SlotState&) = delete;
  int slots() const { return slots_; }
  // The storage the registers live in from now on (made for this many slots): the state's own
  // (use(own())) or one lent for the length of a packet. Its contents are the registers then.
  void use(SlotStorage* storage) {
    s_ = storage;
    regs_ = storage->regs.data();
    preds_ = storage->preds.data();
  }
  SlotStorage* own() { return own_.get(); }
  SlotStorage* storage() { return s_; }

  // A register of the unified numbering below 32 (r0..r15, i0..i15).
  std::uint64_t* reg(int r) { return &regs_[static_cast<std::size_t>(r) * slots_]; }
  const std::uint64_t* reg(int r) const { return &regs_[static_cast<std::size_t>(r) * slots_]; }
  std::uint8_t* pred(int p) { return &preds_[static_cast<std::size_t>(p) * slots_]; }
  const std::uint8_t* pred(int p) const { return &preds_[static_cast<std::size_t>(p) * slots_]; }

  // Copies r0..r15 and p0..p7 of every slot (i0..i15 are fixed within a round) into `regs` and
  // `preds`, reusing their memory; same_threads() compares with such a copy.
  void save_threads(std::vector<std::uint64_t>& regs, std::vector<std::uint8_t>& preds) const {
    regs.assign(regs_, regs_ + 16 * static_cast<std::ptrdiff_t>(slots_));
    preds = s_->preds;
  }
  bool same_threads(const std::vector<std::uint64_t>& regs, const std::vector<std::uint8_t>& preds) const {
    return preds == s_->preds && std::equal(regs.begin(), regs.end(), regs_);
  }

  // Packet start: i1..i15 are the packet's values in the slots [0, width) its threads use.
  // Nothing else writes i1..i15 (docs/isa.md: a destination field holds r0..r15), so a packet with
  // the values of the previous one and no more slots finds them in place: repeated launches of one
  // packet, a core's small share of each, write 15 registers x width once.
  void set_inherited(const std::uint64_t (&values)[16], int width) {
    if (width <= s_->inherited_width && std::equal(values + 1, values + 16, s_->inherited + 1)) return;
    for (int i = 1; i < 16; ++i) std::fill_n(reg(16 + i), static_cast<std::size_t>(width), values[i]);
    std::copy(values, values + 16, s_->inherited);
    s_->inherited_width = width;
  }
  // Thread start state of a round (docs/isa.md §2.2): r = 0, p1..p7 = 0, i0 = first index + slot,
  // in the slots [0, width) that hold its threads. The other slots are never qualified, so nothing
  // reads them: a short round (a core's small share of a packet) clears only what it uses.
  // `writes`: bit r set when the round may write r<r> (its program's destinations, LoadedProgram::
  // writes(); all by default). A register that no round since its last clearing could write is
  // still zero and is not cleared again: a kernel writing 8 of the 16 registers clears 8 per round.
  void start_round(std::uint64_t first_index, int width, std::uint16_t writes = 0xffff) {
    const auto n = static_cast<std::size_t>(width);
    std::uint16_t nonzero = s_->nonzero;
    if (nonzero == 0xffff && width == slots_) {  // r0..r15 are one block (one fill, not 16)
      std::fill_n(reg(0), 16 * n, std::uint64_t{0});
    } else {
      for (int r = 0; r < 16; ++r)
        if (nonzero >> r & 1) std::fill_n(reg(r), n, std::uint64_t{0});
    }
    // Slots from `width` on keep what they held: cleared only by a full round.
    if (width == slots_) nonzero = 0;
    s_->nonzero = static_cast<std::uint16_t>(nonzero | writes);
    if (width == slots_) {
      std::fill_n(pred(1), 7 * n, std::uint8_t{0});
    } else {
      for (int p = 1; p < 8; ++p) std::fill_n(pred(p), n, std::uint8_t{0});
    }
    std::uint64_t* i0 = reg(16);
    for (int s = 0; s < width; ++s) i0[s] = first_index + static_cast<std::uint64_t>(s);
  }

 private:
  int slots_;
  std::unique_ptr<SlotStorage> own_;
  SlotStorage* s_ = nullptr;
  std::uint64_t* regs_ = nullptr;  // s_'s, read at every register access
  std::uint8_t* preds_ = nullptr;
};

}  // namespace par::core
