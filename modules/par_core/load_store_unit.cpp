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
      slot_line_(static_cast<std::size_t>(slots), 0),
      line_index_(std::size_t{4} << (64 - __builtin_clzll(static_cast<unsigned long long>(slots)))),
      thread_done_(static_cast<std::size_t>(threads_per_lane), 0) {}

std::uint32_t LoadStoreUnit::line_for(std::uint64_t addr) {
  const std::uint64_t base = addr & ~(line_bytes_ - 1);
  // Neighbouring slots usually share a line: try the newest line before the index.
  if (line_count_ > 0 && lines_[line_count_ - 1].address == base) return static_cast<std::uint32_t>(line_count_ - 1);
  // The table has at least 4x as many entries as there are slots, so probing ends quickly.
  const std::size_t mask = line_index_.size() - 1;
  std::size_t h = static_cast<std::size_t>((base / line_bytes_) * 0x9E3779B97F4A7C15ull >> 32) & mask;
  while (line_index_[h].stamp == stamp_) {
    if (line_index_[h].address == base) return line_index_[h].line;
    h = (h + 1) & mask;
  }
  line_index_[h] = IndexEntry{base, static_cast<std::uint32_t>(line_count_), stamp_};
  if (line_count_ == lines_.size()) lines_.emplace_back();
  Line& l = lines_[line_count_];
  l.address = base;
  // Only enabled bytes are ever sent or delivered, so the data needs no clearing.
  l.data.resize(line_bytes_);
  l.enable.assign((line_bytes_ + 63) / 64, 0);
  l.issued = false;
  l.done = l.leave = 0;
  l.first_slot = -1;
  return static_cast<std::uint32_t>(line_count_++);
}

void LoadStoreUnit::begin(const isa::Instruction& in, const std::uint8_t* global, const std::uint64_t* addr) {
  in_ = &in;
  write_ = in.is_store();
  size_ = isa::access_size(in.op);
  for (auto& v : thread_slots_) v.clear();
  if (++stamp_ == 0) {  // the stamp wrapped: forget every entry once
    for (IndexEntry& e : line_index_) e.stamp = 0;
    stamp_ = 1;
  }
  line_count_ = 0;
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
    slot_line_[static_cast<std::size_t>(s)] = line_for(addr[s]);
    Line& l = line_of_slot(s);
    if (l.first_slot < 0) l.first_slot = s;
    const std::size_t off = addr[s] - l.address;
    // Loads mark the bytes they need (the span read); stores also supply their data. Threads of
    // one instruction write disjoint or identical bytes; slot order decides, as in the ISA.
    // Accesses are naturally aligned, so the bytes of one never straddle two mask words.
    l.enable[off / 64] |= (~std::uint64_t{0} >> (64 - size_)) << (off % 64);
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

namespace {

// First set bit at or after `from` in the mask words, or `end`.
std::size_t next_set(const std::vector<std::uint64_t>& m, std::size_t from, std::size_t end) {
  while (from < end) {
    const std::uint64_t w = m[from / 64] >> (from % 64);
    if (w != 0) return std::min(end, from + static_cast<std::size_t>(__builtin_ctzll(w)));
    from = (from / 64 + 1) * 64;
  }
  return end;
}

// First clear bit at or after `from`, or `end`.
std::size_t next_clear(const std::vector<std::uint64_t>& m, std::size_t from, std::size_t end) {
  while (from < end) {
    const std::uint64_t w = ~m[from / 64] >> (from % 64);
    if (w != 0) return std::min(end, from + static_cast<std::size_t>(__builtin_ctzll(w)));
    from = (from / 64 + 1) * 64;
  }
  return end;
}

// One past the last set bit (the mask has at least one).
std::size_t last_set_end(const std::vector<std::uint64_t>& m) {
  std::size_t i = m.size();
  while (m[i - 1] == 0) --i;
  return (i - 1) * 64 + 64 - static_cast<std::size_t>(__builtin_clzll(m[i - 1]));
}

}  // namespace

// Sends the line's enabled bytes: a load reads the span from its first to its last needed byte
// (one transaction); a store writes each contiguous run of bytes (one transaction for the usual
// full or single-span line), so targets need no byte-enable support.
bool LoadStoreUnit::issue(Line& l, Cycle at) {
  l.issued = true;
  l.done = at;
  const std::size_t first = next_set(l.enable, 0, line_bytes_);
  if (!write_) return send(l, first, last_set_end(l.enable), at);
  for (std::size_t i = first; i < line_bytes_; i = next_set(l.enable, i, line_bytes_)) {
    const std::size_t j = next_clear(l.enable, i, line_bytes_);
    if (!send(l, i, j, at)) return false;
    i = j;
  }
  return true;
}

bool LoadStoreUnit::send(Line& l, std::size_t i, std::size_t j, Cycle at) {
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
  return true;
}

Cycle LoadStoreUnit::start_thread(int k, Cycle earliest, Cycle data_ready) {
  Cycle s = earliest;
  for (int slot : thread_slots_[static_cast<std::size_t>(k)]) {
    Line& l = line_of_slot(slot);
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
    store_order_.resize(line_count_);
    std::iota(store_order_.begin(), store_order_.end(), std::size_t{0});
    std::stable_sort(store_order_.begin(), store_order_.end(),
                     [&](std::size_t a, std::size_t b) { return lines_[a].leave < lines_[b].leave; });
    for (std::size_t i : store_order_)
      if (fault_.cause.empty()) issue(lines_[i], admit(lines_[i].leave));
  } else {
    deliver_loads();
  }
  for (int k = 0; k < T_; ++k) {
    Cycle done = 0;
    for (int slot : thread_slots_[static_cast<std::size_t>(k)])
      done = std::max(done, line_of_slot(slot).done);
    thread_done_[static_cast<std::size_t>(k)] = done;
  }
  active_ = false;
}

void LoadStoreUnit::deliver_loads() {
  std::uint64_t* d = st_.reg(in_->rd);
  for (const auto& ks : thread_slots_)
    for (int s : ks) {
      const std::uint64_t a = slot_addr_[static_cast<std::size_t>(s)];
      const Line& l = line_of_slot(s);
      std::uint64_t raw = 0;
      std::memcpy(&raw, &l.data[a - l.address], static_cast<std::size_t>(size_));
      d[s] = isa::sem::extend_load(in_->op, raw);
    }
}

bool LoadStoreUnit::run_untimed() {
  for (std::size_t i = 0; i < line_count_; ++i)
    if (fault_.cause.empty()) issue(lines_[i], 0);
  in_flight_.clear();
  if (!write_ && fault_.cause.empty()) deliver_loads();
  active_ = false;
  return fault_.cause.empty();
}

}  // namespace par::core
