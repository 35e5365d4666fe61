// Architectural state of the thread slots of a core, structure-of-arrays: each register is a
// contiguous array over all slots, so one instruction runs as a tight loop over the slots.
// Slot s = lane * T + thread slot (lane-major, like the thread index mapping of docs/isa.md §2.1).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "par/isa/instruction.hpp"

namespace par::core {

using Mask = std::vector<std::uint8_t>;  // one byte (0 or 1) per slot

class SlotState {
 public:
  explicit SlotState(int slots) : slots_(slots) {
    regs_.assign(32 * static_cast<std::size_t>(slots), 0);  // r0..r15, i0..i15
    preds_.assign(8 * static_cast<std::size_t>(slots), 0);
    std::fill(preds_.begin(), preds_.begin() + slots, 1);   // p0 always reads 1
  }
  int slots() const { return slots_; }

  // A register of the unified numbering below 32 (r0..r15, i0..i15).
  std::uint64_t* reg(int r) { return &regs_[static_cast<std::size_t>(r) * slots_]; }
  const std::uint64_t* reg(int r) const { return &regs_[static_cast<std::size_t>(r) * slots_]; }
  std::uint8_t* pred(int p) { return &preds_[static_cast<std::size_t>(p) * slots_]; }
  const std::uint8_t* pred(int p) const { return &preds_[static_cast<std::size_t>(p) * slots_]; }

  // Copies r0..r15 and p0..p7 of every slot (i0..i15 are fixed within a round) into `regs` and
  // `preds`, reusing their memory; same_threads() compares with such a copy.
  void save_threads(std::vector<std::uint64_t>& regs, std::vector<std::uint8_t>& preds) const {
    regs.assign(regs_.begin(), regs_.begin() + 16 * static_cast<std::ptrdiff_t>(slots_));
    preds = preds_;
  }
  bool same_threads(const std::vector<std::uint64_t>& regs, const std::vector<std::uint8_t>& preds) const {
    return preds == preds_ && std::equal(regs.begin(), regs.end(), regs_.begin());
  }

  // Packet start: i1..i15 are the packet's values in the slots [0, width) its threads use.
  // Nothing else writes i1..i15 (docs/isa.md: a destination field holds r0..r15), so a packet with
  // the values of the previous one and no more slots finds them in place: repeated launches of one
  // packet, a core's small share of each, write 15 registers x width once.
  void set_inherited(const std::uint64_t (&values)[16], int width) {
    if (width <= inherited_width_ && std::equal(values + 1, values + 16, inherited_ + 1)) return;
    for (int i = 1; i < 16; ++i) std::fill_n(reg(16 + i), static_cast<std::size_t>(width), values[i]);
    std::copy(values, values + 16, inherited_);
    inherited_width_ = width;
  }
  // Thread start state of a round (docs/isa.md §2.2): r = 0, p1..p7 = 0, i0 = first index + slot,
  // in the slots [0, width) that hold its threads. The other slots are never qualified, so nothing
  // reads them: a short round (a core's small share of a packet) clears only what it uses.
  void start_round(std::uint64_t first_index, int width) {
    const auto n = static_cast<std::size_t>(width);
    if (width == slots_) {  // a full round: r0..r15 and p1..p7 are each one block (one fill, not 23)
      std::fill_n(reg(0), 16 * n, std::uint64_t{0});
      std::fill_n(pred(1), 7 * n, std::uint8_t{0});
    } else {
      for (int r = 0; r < 16; ++r) std::fill_n(reg(r), n, std::uint64_t{0});
      for (int p = 1; p < 8; ++p) std::fill_n(pred(p), n, std::uint8_t{0});
    }
    std::uint64_t* i0 = reg(16);
    for (int s = 0; s < width; ++s) i0[s] = first_index + static_cast<std::uint64_t>(s);
  }

 private:
  int slots_;
  std::uint64_t inherited_[16] = {};  // i1..i15 as set_inherited() left them in [0, inherited_width_)
  int inherited_width_ = 0;
  std::vector<std::uint64_t> regs_;
  std::vector<std::uint8_t> preds_;
};

}  // namespace par::core
