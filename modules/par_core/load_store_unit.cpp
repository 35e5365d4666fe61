#include "load_store_unit.hpp"

#include <algorithm>
#include <cstring>
#include <functional>
#include <numeric>
#include <sstream>

#include "par/isa/semantics.hpp"

namespace par::core {

LoadStoreUnit::LoadStoreUnit(const CoreConfig& cfg, GlobalMemoryPort& port, SlotState& state, int slots,
                             int threads_per_lane)
    : cfg_(cfg),
      port_(port),
      st_(state),
      S_(slots),
      T_(threads_per_lane),
      L_(slots / threads_per_lane),
      line_bytes_(cfg.line_bytes),
      max_outstanding_(static_cast<std::size_t>(cfg.ls_max_outstanding) * static_cast<std::size_t>(L_)),
      thread_slots_(static_cast<std::size_t>(threads_per_lane)),
      slot_addr_(static_cast<std::size_t>(slots), 0),
      thread_done_(static_cast<std::size_t>(threads_per_lane), 0) {}

LoadStoreUnit::Line& LoadStoreUnit::line_for(std::uint64_t addr) {
  const std::uint64_t base = addr & ~(line_bytes_ - 1);
  auto [it, inserted] = line_index_.emplace(base, lines_.size());
  if (inserted) {
    Line l;
    l.address = base;
    l.data.assign(line_bytes_, 0);
    l.enable.assign(line_bytes_, 0);
    lines_.push_back(std::move(l));
  }
  return lines_[it->second];
}

void LoadStoreUnit::begin(const isa::Instruction& in, const std::uint8_t* global, const std::uint64_t* addr) {
  in_ = &in;
  write_ = in.is_store();
  size_ = isa::access_size(in.op);
  for (auto& v : thread_slots_) v.clear();
  line_index_.clear();
  lines_.clear();
  std::fill(thread_done_.begin(), thread_done_.end(), Cycle{0});
  fault_ = GlobalFault{};
  const std::uint64_t* data = st_.reg(in.rd);
  active_ = false;
  for (int s = 0; s < S_; ++s) {
    if (!global[s]) continue;
    active_ = true;
    ++accesses_;
    thread_slots_[static_cast<std::size_t>(s % T_)].push_back(s);
    slot_addr_[static_cast<std::size_t>(s)] = addr[s];
    Line& l = line_for(addr[s]);
    if (l.first_slot < 0) l.first_slot = s;
    const std::size_t off = addr[s] - l.address;
    // Loads mark the bytes they need (the span read); stores also supply their data. Threads of
    // one instruction write disjoint or identical bytes; slot order decides, as in the ISA.
    std::memset(&l.enable[off], 0xFF, static_cast<std::size_t>(size_));
    if (write_) std::memcpy(&l.data[off], &data[s], static_cast<std::size_t>(size_));
  }
}

Cycle LoadStoreUnit::admit(Cycle at) {
  auto later = std::greater<Cycle>();
  while (!in_flight_.empty() && in_flight_.front() <= at) {
    std::pop_heap(in_flight_.begin(), in_flight_.end(), later);
    in_flight_.pop_back();
  }
  if (in_flight_.size() < max_outstanding_) return at;
  // Full: the unit accepts nothing until the oldest transaction completes.
  const Cycle free_at = in_flight_.front();
  std::pop_heap(in_flight_.begin(), in_flight_.end(), later);
  in_flight_.pop_back();
  limit_stalls_ += free_at - at;
  return free_at;
}

// Sends the line's enabled bytes as contiguous runs (one transaction for the usual full or
// single-span line), so targets need no byte-enable support.
bool LoadStoreUnit::issue(Line& l, Cycle at) {
  l.issued = true;
  l.done = at;
  std::size_t i = 0;
  while (i < line_bytes_) {
    if (!l.enable[i]) {
      ++i;
      continue;
    }
    std::size_t j = i;
    if (write_) {
      while (j < line_bytes_ && l.enable[j]) ++j;
    } else {
      // A load reads the span from the first to the last byte it needs.
      j = line_bytes_;
      while (!l.enable[j - 1]) --j;
    }
    Cycle done = at;
    std::string error;
    ++transactions_;
    bytes_ += j - i;
    if (!port_.transact(write_, l.address + i, &l.data[i], static_cast<unsigned>(j - i), nullptr, at, done, error)) {
      if (fault_.cause.empty()) {
        fault_.slot = l.first_slot;
        fault_.address = slot_addr_[static_cast<std::size_t>(l.first_slot)];
        fault_.cause = error;
      }
      return false;
    }
    latency_sum_ += done - at;
    l.done = std::max(l.done, done);
    in_flight_.push_back(done);
    std::push_heap(in_flight_.begin(), in_flight_.end(), std::greater<Cycle>());
    i = j;
  }
  return true;
}

Cycle LoadStoreUnit::start_thread(int k, Cycle earliest, Cycle data_ready) {
  Cycle s = earliest;
  for (int slot : thread_slots_[static_cast<std::size_t>(k)]) {
    Line& l = lines_[line_index_.at(slot_addr_[static_cast<std::size_t>(slot)] & ~(line_bytes_ - 1))];
    if (write_) {
      l.leave = std::max(l.leave, std::max(s, data_ready));
    } else if (!l.issued && fault_.cause.empty()) {
      s = admit(s);
      issue(l, s);
    }
  }
  return s;
}

Cycle LoadStoreUnit::thread_result(int k) { return thread_done_[static_cast<std::size_t>(k)]; }

void LoadStoreUnit::finish() {
  if (write_) {
    // Writes leave in the order their data becomes complete.
    std::vector<std::size_t> order(lines_.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return lines_[a].leave < lines_[b].leave; });
    for (std::size_t i : order)
      if (fault_.cause.empty()) issue(lines_[i], admit(lines_[i].leave));
  } else {
    deliver_loads();
  }
  for (int k = 0; k < T_; ++k) {
    Cycle done = 0;
    for (int slot : thread_slots_[static_cast<std::size_t>(k)])
      done = std::max(done, lines_[line_index_.at(slot_addr_[static_cast<std::size_t>(slot)] & ~(line_bytes_ - 1))].done);
    thread_done_[static_cast<std::size_t>(k)] = done;
  }
  active_ = false;
}

void LoadStoreUnit::deliver_loads() {
  std::uint64_t* d = st_.reg(in_->rd);
  for (const auto& ks : thread_slots_)
    for (int s : ks) {
      const std::uint64_t a = slot_addr_[static_cast<std::size_t>(s)];
      const Line& l = lines_[line_index_.at(a & ~(line_bytes_ - 1))];
      std::uint64_t raw = 0;
      std::memcpy(&raw, &l.data[a - l.address], static_cast<std::size_t>(size_));
      d[s] = isa::sem::extend_load(in_->op, raw);
    }
}

bool LoadStoreUnit::run_untimed() {
  for (Line& l : lines_)
    if (fault_.cause.empty()) issue(l, 0);
  in_flight_.clear();
  if (!write_ && fault_.cause.empty()) deliver_loads();
  active_ = false;
  return fault_.cause.empty();
}

}  // namespace par::core
