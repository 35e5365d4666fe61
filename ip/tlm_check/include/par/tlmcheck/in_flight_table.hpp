// What is in flight on one binding: the payloads inside b_transport calls (BlockingCalls: a
// short list, one entry per process blocked in the call) and the nb_transport phase sequences
// (InFlightTable, keyed by payload address). InFlightTable entries removed keep their hash node
// for the next transaction (std::unordered_map node handles), so in steady state neither
// structure allocates.
#pragma once

#include <algorithm>
#include <cstddef>
#include <systemc>
#include <tlm>
#include <unordered_map>
#include <utility>
#include <vector>

#include "par/tlmcheck/attribute_snapshot.hpp"

namespace par::tlmcheck {

class BlockingCalls {
 public:
  using Key = const tlm::tlm_generic_payload*;

  BlockingCalls() { calls_.reserve(64); }
  bool contains(Key key) const {
    return std::find(calls_.begin(), calls_.end(), key) != calls_.end();
  }
  void add(Key key) { calls_.push_back(key); }
  // Removes one occurrence (the latest: calls nest).
  void remove(Key key) {
    const auto it = std::find(calls_.rbegin(), calls_.rend(), key);
    if (it != calls_.rend()) calls_.erase(std::next(it).base());
  }
  bool empty() const { return calls_.empty(); }
  std::size_t size() const { return calls_.size(); }

 private:
  std::vector<Key> calls_;
};

struct InFlight {
  // Last base-protocol phase of the payload's nb_transport sequence; UNINITIALIZED_PHASE when
  // none is in progress.
  tlm::tlm_phase_enum phase = tlm::UNINITIALIZED_PHASE;
  sc_core::sc_time phase_time;  // sc_time_stamp() + delay of the last phase
  AttributeSnapshot request;    // the attributes at BEGIN_REQ
};

class InFlightTable {
 public:
  using Key = const tlm::tlm_generic_payload*;

  InFlightTable() {
    map_.reserve(kMaxSpare);
    spare_.reserve(kMaxSpare);
  }

  InFlight* find(Key key) {
    const auto it = map_.find(key);
    return it == map_.end() ? nullptr : &it->second;
  }
  // The entry of `key`, created (reset) when absent.
  InFlight& acquire(Key key) {
    if (InFlight* e = find(key)) return *e;
    if (spare_.empty()) return map_.emplace(key, InFlight{}).first->second;
    Map::node_type node = std::move(spare_.back());
    spare_.pop_back();
    node.key() = key;
    node.mapped() = InFlight{};
    return map_.insert(std::move(node)).position->second;
  }
  // Removes `key`'s entry when its sequence has ended (phase UNINITIALIZED_PHASE).
  void release_if_idle(Key key) {
    const auto it = map_.find(key);
    if (it == map_.end() || it->second.phase != tlm::UNINITIALIZED_PHASE) return;
    Map::node_type node = map_.extract(it);
    if (spare_.size() < kMaxSpare) spare_.push_back(std::move(node));
  }
  std::size_t size() const { return map_.size(); }
  bool empty() const { return map_.empty(); }

 private:
  using Map = std::unordered_map<Key, InFlight>;
  // Enough for every transaction a binding realistically has in flight at once.
  static constexpr std::size_t kMaxSpare = 256;

  Map map_;
  std::vector<Map::node_type> spare_;
};

}  // namespace par::tlmcheck
