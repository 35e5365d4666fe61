// Register storage that the cores of one shape lend each other (README.md "Host cost").
//
// A core's registers hold nothing of value between its packets (a round starts by clearing them;
// the inherited values are rewritten unless the storage already holds them). Each core keeping
// its own 64 KiB block (256 slots) means that a launch spread over 8 cores walks 8 blocks through
// the host's caches, where one core walks its one block again and again. A core in a packet
// holds a block from the pool and gives it back at the packet's end; the next core takes the
// block given back last, still in the host's caches. Cores whose packets overlap on the host (a
// core that synchronises with the SystemC time in the middle of its packet) take different blocks:
// at most one per core, so never more memory than before.
#pragma once

#include <memory>
#include <vector>

#include "slot_state.hpp"

namespace par::core {

class SlotStoragePool {
 public:
  explicit SlotStoragePool(int slots) : slots_(slots) {}
  SlotStoragePool(const SlotStoragePool&) = delete;
  SlotStoragePool& operator=(const SlotStoragePool&) = delete;

  int slots() const { return slots_; }
  // The block given back last, or a new one when every block is taken.
  SlotStorage* take() {
    if (free_.empty()) {
      blocks_.push_back(std::make_unique<SlotStorage>(slots_));
      return blocks_.back().get();
    }
    SlotStorage* s = free_.back();
    free_.pop_back();
    return s;
  }
  void give_back(SlotStorage* s) { free_.push_back(s); }
  // Blocks made so far: the most packets that ran at the same time on the host.
  std::size_t blocks() const { return blocks_.size(); }

 private:
  int slots_;
  std::vector<std::unique_ptr<SlotStorage>> blocks_;
  std::vector<SlotStorage*> free_;
};

// One pool per slot count, for the cores of a platform (cores of different shapes share a pool
// only with cores of their slot count).
class SlotStoragePools {
 public:
  SlotStoragePool& for_slots(int slots) {
    for (auto& p : pools_)
      if (p->slots() == slots) return *p;
    pools_.push_back(std::make_unique<SlotStoragePool>(slots));
    return *pools_.back();
  }

 private:
  std::vector<std::unique_ptr<SlotStoragePool>> pools_;
};

}  // namespace par::core
