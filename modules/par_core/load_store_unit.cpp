#include "load_store_unit.hpp"

#include <algorithm>
#include <cstring>
#include <numeric>

#include "par/isa/semantics.hpp"

namespace par::core {

namespace {

// memcpy of an access (1, 2, 4 or 8 bytes) with a constant size the compiler inlines.
inline void copy_access(void* dst, const void* src, int size) {
  switch (size) {
    case 8: std::memcpy(dst, src, 8); break;
    case 4: std::memcpy(dst, src, 4); break;
    case 2: std::memcpy(dst, src, 2); break;
    case 1: std::memcpy(dst, src, 1); break;
    default: std::memcpy(dst, src, static_cast<std::size_t>(size)); break;
  }
}

}  // namespace

void CompletionQueue::push(Cycle c) {
  if (size_ == ring_.size()) {
    std::vector<Cycle> bigger(ring_.size() * 2);
    for (std::size_t i = 0; i < size_; ++i) bigger[i] = ring_[(head_ + i) & (ring_.size() - 1)];
    ring_.swap(bigger);
    head_ = 0;
  }
  const std::size_t mask = ring_.size() - 1;
  // Insertion from the back: move the later completions up by one.
  std::size_t i = size_;
  while (i > 0) {
    const Cycle prev = ring_[(head_ + i - 1) & mask];
    if (prev <= c) break;
    ring_[(head_ + i) & mask] = prev;
    --i;
  }
  ring_[(head_ + i) & mask] = c;
  ++size_;
}

LoadStoreUnit::LoadStoreUnit(const CoreConfig& cfg, GlobalMemoryPort& port, SlotState& state, int slots,
                             int threads_per_lane)
    : cfg_(cfg),
      port_(port),
      st_(state),
      S_(slots),
      T_(threads_per_lane),
      L_(slots / threads_per_lane),
      line_bytes_(cfg.line_bytes),
      enable_words_((cfg.line_bytes + 63) / 64),
      max_outstanding_(static_cast<std::size_t>(cfg.ls_max_outstanding) * static_cast<std::size_t>(L_)),
      thread_lines_(static_cast<std::size_t>(threads_per_lane)),
      slot_addr_(static_cast<std::size_t>(slots), 0),
      slot_line_(static_cast<std::size_t>(slots), 0),
      line_index_(std::size_t{4} << (64 - __builtin_clzll(static_cast<unsigned long long>(slots)))),
      thread_done_(static_cast<std::size_t>(threads_per_lane), 0) {
  global_slots_.reserve(static_cast<std::size_t>(slots));
}

void LoadStoreUnit::index_line(std::uint32_t i) {
  const std::uint64_t base = lines_[i].address;
  // The table has at least 4x as many entries as there are slots, so probing ends quickly.
  const std::size_t mask = line_index_.size() - 1;
  std::size_t h = static_cast<std::size_t>((base / line_bytes_) * 0x9E3779B97F4A7C15ull >> 32) & mask;
  while (line_index_[h].stamp == stamp_) h = (h + 1) & mask;
  line_index_[h] = IndexEntry{base, i, stamp_};
}

std::uint32_t LoadStoreUnit::new_line(std::uint64_t base) {
  const auto i = static_cast<std::uint32_t>(line_count_++);
  if (i == lines_.size()) {
    lines_.emplace_back();
    line_data_.resize(lines_.size() * line_bytes_);
    line_enable_.resize(lines_.size() * enable_words_);
  }
  Line& l = lines_[i];
  l.address = base;
  l.threads = 0;
  l.issued = false;
  l.done = l.leave = 0;
  l.first_slot = -1;
  // Only enabled bytes are ever sent or delivered, so the data needs no clearing.
  std::fill_n(enable_of(i), enable_words_, std::uint64_t{0});
  if (!ascending_) index_line(i);
  return i;
}

std::uint32_t LoadStoreUnit::line_for(std::uint64_t addr) {
  const std::uint64_t base = addr & ~(line_bytes_ - 1);
  if (line_count_ == 0) return new_line(base);
  // Neighbouring slots usually share a line: try the newest line before anything else.
  const auto newest = static_cast<std::uint32_t>(line_count_ - 1);
  if (lines_[newest].address == base) return newest;
  if (ascending_) {
    if (base > lines_[newest].address) return new_line(base);
    // The first step backwards: from now on every line is in the index.
    ascending_ = false;
    for (std::uint32_t i = 0; i < line_count_; ++i) index_line(i);
  }
  const std::size_t mask = line_index_.size() - 1;
  std::size_t h = static_cast<std::size_t>((base / line_bytes_) * 0x9E3779B97F4A7C15ull >> 32) & mask;
  while (line_index_[h].stamp == stamp_) {
    if (line_index_[h].address == base) return line_index_[h].line;
    h = (h + 1) & mask;
  }
  return new_line(base);
}

void LoadStoreUnit::begin(const isa::Instruction& in, const std::uint8_t* global, const std::uint64_t* addr) {
  in_ = &in;
  write_ = in.is_store();
  size_ = isa::access_size(in.op);
  for (auto& v : thread_lines_) v.clear();
  global_slots_.clear();
  if (++stamp_ == 0) {  // the stamp wrapped: forget every entry once
    for (IndexEntry& e : line_index_) e.stamp = 0;
    stamp_ = 1;
  }
  ascending_ = true;
  line_count_ = 0;
  std::fill(thread_done_.begin(), thread_done_.end(), Cycle{0});
  if (!fault_.cause.empty()) fault_ = GlobalFault{};
  const std::uint64_t* data = st_.reg(in.rd);
  const std::uint64_t mask = ~std::uint64_t{0} >> (64 - size_);
  int k = 0;  // s % T_
  for (int s = 0; s < S_; ++s, k = k + 1 == T_ ? 0 : k + 1) {
    if (!global[s]) continue;
    global_slots_.push_back(s);
    const std::uint64_t a = addr[s];
    const std::uint32_t li = line_for(a);
    slot_addr_[static_cast<std::size_t>(s)] = a;
    slot_line_[static_cast<std::size_t>(s)] = li;
    Line& l = lines_[li];
    if (l.first_slot < 0) l.first_slot = s;
    const std::uint64_t bit = std::uint64_t{1} << k;
    if ((l.threads & bit) == 0) {
      l.threads |= bit;
      thread_lines_[static_cast<std::size_t>(k)].push_back(li);
    }
    const std::size_t off = a - l.address;
    // Loads mark the bytes they need (the span read); stores also supply their data. Threads of
    // one instruction write disjoint or identical bytes; slot order decides, as in the ISA.
    // Accesses are naturally aligned, so the bytes of one never straddle two mask words.
    enable_of(li)[off / 64] |= mask << (off % 64);
    if (write_) copy_access(data_of(li) + off, &data[s], size_);
  }
  accesses_ += global_slots_.size();
  active_ = !global_slots_.empty();
}

Cycle LoadStoreUnit::admit(Cycle at) {
  while (!in_flight_.empty() && in_flight_.front() <= at) in_flight_.pop_front();
  if (in_flight_.size() < max_outstanding_) return at;
  // Full: the unit accepts nothing until the oldest transaction completes.
  const Cycle free_at = in_flight_.front();
  in_flight_.pop_front();
  limit_stalls_ += free_at - at;
  return free_at;
}

namespace {

// First set bit at or after `from` in the mask words, or `end`.
std::size_t next_set(const std::uint64_t* m, std::size_t from, std::size_t end) {
  while (from < end) {
    const std::uint64_t w = m[from / 64] >> (from % 64);
    if (w != 0) return std::min(end, from + static_cast<std::size_t>(__builtin_ctzll(w)));
    from = (from / 64 + 1) * 64;
  }
  return end;
}

// First clear bit at or after `from`, or `end`.
std::size_t next_clear(const std::uint64_t* m, std::size_t from, std::size_t end) {
  while (from < end) {
    const std::uint64_t w = ~m[from / 64] >> (from % 64);
    if (w != 0) return std::min(end, from + static_cast<std::size_t>(__builtin_ctzll(w)));
    from = (from / 64 + 1) * 64;
  }
  return end;
}

// One past the last set bit of `words` mask words (at least one bit is set).
std::size_t last_set_end(const std::uint64_t* m, std::size_t words) {
  std::size_t i = words;
  while (m[i - 1] == 0) --i;
  return (i - 1) * 64 + 64 - static_cast<std::size_t>(__builtin_clzll(m[i - 1]));
}

}  // namespace

// Sends the line's enabled bytes: a load reads the span from its first to its last needed byte
// (one transaction); a store writes each contiguous run of bytes (one transaction for the usual
// full or single-span line), so targets need no byte-enable support.
bool LoadStoreUnit::issue(std::uint32_t li, Cycle at) {
  Line& l = lines_[li];
  l.issued = true;
  l.done = at;
  const std::uint64_t* enable = enable_of(li);
  const std::size_t first = next_set(enable, 0, line_bytes_);
  if (!write_) return send(li, first, last_set_end(enable, enable_words_), at);
  for (std::size_t i = first; i < line_bytes_; i = next_set(enable, i, line_bytes_)) {
    const std::size_t j = next_clear(enable, i, line_bytes_);
    if (!send(li, i, j, at)) return false;
    i = j;
  }
  return true;
}

bool LoadStoreUnit::send(std::uint32_t li, std::size_t i, std::size_t j, Cycle at) {
  Line& l = lines_[li];
  Cycle done = at;
  ++transactions_;
  bytes_ += j - i;
  std::string error;
  if (!port_.transact(write_, l.address + i, data_of(li) + i, static_cast<unsigned>(j - i), nullptr, at, done,
                      error)) {
    if (fault_.cause.empty()) {
      fault_.slot = l.first_slot;
      fault_.address = slot_addr_[static_cast<std::size_t>(l.first_slot)];
      fault_.cause = error;
    }
    return false;
  }
  latency_sum_ += done - at;
  l.done = std::max(l.done, done);
  if (timed_) in_flight_.push(done);
  return true;
}

Cycle LoadStoreUnit::start_thread(int k, Cycle earliest, Cycle data_ready) {
  Cycle s = earliest;
  const std::vector<std::uint32_t>& lines = thread_lines_[static_cast<std::size_t>(k)];
  if (write_) {
    const Cycle leave = std::max(s, data_ready);
    for (std::uint32_t li : lines) lines_[li].leave = std::max(lines_[li].leave, leave);
    return s;
  }
  for (std::uint32_t li : lines) {
    if (!lines_[li].issued && fault_.cause.empty()) {
      s = admit(s);
      issue(li, s);
    }
  }
  return s;
}

Cycle LoadStoreUnit::thread_result(int k) { return thread_done_[static_cast<std::size_t>(k)]; }

// store_order_ = the lines by ascending leave time, lines with equal times in line order (a
// stable sort). Every leave time is one thread's max(start, data ready), so there are at most T
// distinct values: a counting sort over them.
void LoadStoreUnit::order_stores() {
  const std::size_t n = line_count_;
  store_order_.resize(n);
  order_keys_.clear();
  for (std::size_t i = 0; i < n; ++i) {
    const Cycle v = lines_[i].leave;
    if (!order_keys_.empty() && order_keys_.back() == v) continue;
    if (std::find(order_keys_.begin(), order_keys_.end(), v) == order_keys_.end()) order_keys_.push_back(v);
  }
  std::sort(order_keys_.begin(), order_keys_.end());
  order_count_.assign(order_keys_.size() + 1, 0);
  for (std::size_t i = 0; i < n; ++i) {
    const auto key = std::lower_bound(order_keys_.begin(), order_keys_.end(), lines_[i].leave) - order_keys_.begin();
    ++order_count_[static_cast<std::size_t>(key) + 1];
  }
  std::partial_sum(order_count_.begin(), order_count_.end(), order_count_.begin());
  for (std::size_t i = 0; i < n; ++i) {
    const auto key = std::lower_bound(order_keys_.begin(), order_keys_.end(), lines_[i].leave) - order_keys_.begin();
    store_order_[order_count_[static_cast<std::size_t>(key)]++] = static_cast<std::uint32_t>(i);
  }
}

void LoadStoreUnit::finish() {
  if (write_) {
    // Writes leave in the order their data becomes complete.
    order_stores();
    for (std::uint32_t i : store_order_)
      if (fault_.cause.empty()) issue(i, admit(lines_[i].leave));
  } else {
    deliver_loads();
  }
  for (int k = 0; k < T_; ++k) {
    Cycle done = 0;
    for (std::uint32_t li : thread_lines_[static_cast<std::size_t>(k)]) done = std::max(done, lines_[li].done);
    thread_done_[static_cast<std::size_t>(k)] = done;
  }
  active_ = false;
}

void LoadStoreUnit::deliver_loads() {
  std::uint64_t* d = st_.reg(in_->rd);
  for (int s : global_slots_) {
    const auto u = static_cast<std::size_t>(s);
    const std::uint32_t li = slot_line_[u];
    std::uint64_t raw = 0;
    copy_access(&raw, data_of(li) + (slot_addr_[u] - lines_[li].address), size_);
    d[s] = isa::sem::extend_load(in_->op, raw);
  }
}

bool LoadStoreUnit::run_untimed() {
  timed_ = false;  // nothing is limited: no completion is remembered
  for (std::uint32_t i = 0; i < line_count_; ++i)
    if (fault_.cause.empty()) issue(i, 0);
  timed_ = true;
  in_flight_.clear();
  if (!write_ && fault_.cause.empty()) deliver_loads();
  active_ = false;
  return fault_.cause.empty();
}

}  // namespace par::core
