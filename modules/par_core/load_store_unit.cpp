#include "load_store_unit.hpp"

#include <algorithm>
#include <cstring>
#include <functional>
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

void CompletionQueue::push_out_of_order(Cycle c) {
  const std::size_t mask = ring_.size() - 1;
  // Insertion into the ring from its back, moving at most a few later completions up by one.
  constexpr std::size_t kMaxMoves = 8;
  std::size_t i = ring_size_;
  while (i > 0 && ring_[(head_ + i - 1) & mask] > c) {
    if (ring_size_ - i == kMaxMoves) {  // far out of order: the heap takes it
      heap_.push_back(c);
      std::push_heap(heap_.begin(), heap_.end(), std::greater<Cycle>());
      return;
    }
    --i;
  }
  if (ring_size_ == ring_.size()) {
    std::vector<Cycle> bigger(ring_.size() * 2);
    for (std::size_t k = 0; k < ring_size_; ++k) bigger[k] = ring_[(head_ + k) & mask];
    ring_.swap(bigger);
    head_ = 0;
    push(c);
    return;
  }
  for (std::size_t k = ring_size_; k > i; --k) ring_[(head_ + k) & mask] = ring_[(head_ + k - 1) & mask];
  ring_[(head_ + i) & mask] = c;
  ++ring_size_;
}

void CompletionQueue::pop_heap() {
  std::pop_heap(heap_.begin(), heap_.end(), std::greater<Cycle>());
  heap_.pop_back();
}

LoadStoreUnit::LoadStoreUnit(const CoreConfig& cfg, GlobalMemoryPort& port, int slots, int threads_per_lane)
    : cfg_(cfg),
      port_(port),
      S_(slots),
      T_(threads_per_lane),
      L_(slots / threads_per_lane),
      line_bytes_(cfg.line_bytes),
      read_whole_line_(cfg.read_whole_line),
      enable_words_((cfg.line_bytes + 63) / 64),
      max_outstanding_(static_cast<std::size_t>(cfg.ls_max_outstanding) * static_cast<std::size_t>(L_)),
      global_slots_(static_cast<std::size_t>(slots)),
      thread_lines_(static_cast<std::size_t>(slots)),
      thread_line_count_(static_cast<std::size_t>(threads_per_lane), 0),
      slot_line_(static_cast<std::size_t>(slots), 0),
      line_index_(std::size_t{4} << (64 - __builtin_clzll(static_cast<unsigned long long>(slots)))),
      lines_(static_cast<std::size_t>(slots)),
      line_data_(static_cast<std::size_t>(slots) * cfg.line_bytes),
      line_enable_(static_cast<std::size_t>(slots) * enable_words_),
      thread_done_(static_cast<std::size_t>(threads_per_lane), 0) {}

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

// The line at `base` when it is not the newest one (begin() tries that first).
std::uint32_t LoadStoreUnit::line_for(std::uint64_t base) {
  if (ascending_) {
    if (line_count_ == 0 || base > lines_[line_count_ - 1].address) return new_line(base);
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

void LoadStoreUnit::begin(const isa::Instruction& in, const std::uint8_t* global, const std::uint64_t* addr,
                          SlotState& state) {
  in_ = &in;
  st_ = &state;
  write_ = in.is_store();
  size_ = isa::access_size(in.op);
  slot_addr_ = addr;
  std::fill(thread_line_count_.begin(), thread_line_count_.end(), 0u);
  if (++stamp_ == 0) {  // the stamp wrapped: forget every entry once
    for (IndexEntry& e : line_index_) e.stamp = 0;
    stamp_ = 1;
  }
  ascending_ = true;
  line_count_ = 0;
  std::fill(thread_done_.begin(), thread_done_.end(), Cycle{0});
  if (!fault_.cause.empty()) fault_ = GlobalFault{};
  // Room for a line per slot was made at construction, so the loop below works on stable
  // pointers without counting the global slots first.
  const std::uint64_t* data = state.reg(in.rd);
  const bool write = write_;
  const int size = size_;
  const std::uint64_t mask = ~std::uint64_t{0} >> (64 - size);
  const std::uint64_t line_mask = ~(line_bytes_ - 1);
  const std::size_t words = enable_words_, line_bytes = line_bytes_, L = static_cast<std::size_t>(L_);
  Line* lines = lines_.data();
  std::uint8_t* line_data = line_data_.data();
  std::uint64_t* enable = line_enable_.data();
  int* slots = global_slots_.data();
  std::uint32_t* thread_lines = thread_lines_.data();
  std::uint32_t* thread_line_count = thread_line_count_.data();
  std::size_t n = 0, count = 0;  // global slots, lines
  bool ascending = true;
  // The global slots, found eight flags at a time: often there are few (one thread of a wide
  // core chasing pointers), and eight slots without one cost one test.
  static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "flag bytes are read as little-endian words");
  const int T = T_;
  const bool t_pow2 = (T & (T - 1)) == 0;
  for (int w = 0; w < S_; w += 8) {
    std::uint64_t flags = 0;
    if (w + 8 <= S_) std::memcpy(&flags, global + w, 8);
    else for (int i = w; i < S_; ++i) flags |= std::uint64_t{global[i]} << (8 * (i - w));
    while (flags != 0) {
      const int byte = __builtin_ctzll(flags) / 8;
      flags &= ~(std::uint64_t{0xFF} << (8 * byte));
      const int s = w + byte;
      const int k = t_pow2 ? (s & (T - 1)) : s % T;  // the slot's thread
      slots[n++] = s;
      const std::uint64_t a = addr[s];
      const std::uint64_t base = a & line_mask;
      std::uint32_t li;
      if (count > 0 && lines[count - 1].address == base) {
        li = static_cast<std::uint32_t>(count - 1);  // neighbouring slots usually share a line
      } else if (ascending && (count == 0 || base > lines[count - 1].address)) {
        // Lines so far in ascending address order and this one beyond them: a new line.
        li = static_cast<std::uint32_t>(count++);
        Line& l = lines[li];
        l.address = base;
        l.threads = 0;
        l.issued = false;
        l.done = l.leave = 0;
        l.first_slot = s;
        // Only enabled bytes are ever sent or delivered, so the data needs no clearing.
        if (words == 1) enable[li] = 0;
        else std::fill_n(enable + li * words, words, std::uint64_t{0});
      } else {
        line_count_ = count;
        li = line_for(base);
        count = line_count_;
        ascending = ascending_;
        if (lines[li].first_slot < 0) lines[li].first_slot = s;
      }
      Line& l = lines[li];
      const std::uint64_t bit = std::uint64_t{1} << k;
      if ((l.threads & bit) == 0) {
        l.threads |= bit;
        const auto uk = static_cast<std::size_t>(k);
        thread_lines[uk * L + thread_line_count[uk]++] = li;
      }
      slot_line_[static_cast<std::size_t>(s)] = li;
      const std::size_t off = a - base;
      // Loads mark the bytes they need (the span read); stores also supply their data. Threads of
      // one instruction write disjoint or identical bytes; slot order decides, as in the ISA.
      // Accesses are naturally aligned, so the bytes of one never straddle two mask words.
      enable[li * words + off / 64] |= mask << (off % 64);
      if (write) copy_access(line_data + li * line_bytes + off, &data[s], size);
    }
  }
  line_count_ = count;
  global_count_ = n;
  accesses_ += n;
  active_ = n > 0;
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
  if (!write_ && read_whole_line_) return send(li, 0, line_bytes_, at);
  if (enable_words_ == 1) {  // lines of up to 64 bytes: one mask word (no bit beyond the line)
    std::uint64_t w = enable[0];
    const auto first = static_cast<std::size_t>(__builtin_ctzll(w));
    if (!write_) return send(li, first, 64 - static_cast<std::size_t>(__builtin_clzll(w)), at);
    while (w != 0) {
      const auto i = static_cast<std::size_t>(__builtin_ctzll(w));
      const std::uint64_t clear = ~(w >> i);  // bit 0 is clear; its first set bit ends the run
      const std::size_t j = clear == 0 ? 64 : i + static_cast<std::size_t>(__builtin_ctzll(clear));
      if (!send(li, i, std::min<std::size_t>(j, 64), at)) return false;
      w = j >= 64 ? 0 : w & (~std::uint64_t{0} << j);
    }
    return true;
  }
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
  error_.clear();
  if (!port_.transact(write_, l.address + i, data_of(li) + i, static_cast<unsigned>(j - i), nullptr, at, done,
                      error_)) {
    if (fault_.cause.empty()) {
      fault_.slot = l.first_slot;
      fault_.address = slot_addr_[l.first_slot];
      fault_.cause = error_;
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
  const auto uk = static_cast<std::size_t>(k);
  const std::uint32_t* lines = &thread_lines_[uk * static_cast<std::size_t>(L_)];
  const std::uint32_t n = thread_line_count_[uk];
  if (write_) {
    const Cycle leave = std::max(s, data_ready);
    for (std::uint32_t i = 0; i < n; ++i) lines_[lines[i]].leave = std::max(lines_[lines[i]].leave, leave);
    return s;
  }
  for (std::uint32_t i = 0; i < n; ++i) {
    if (!lines_[lines[i]].issued && fault_.cause.empty()) {
      s = admit(s);
      issue(lines[i], s);
    }
  }
  return s;
}

Cycle LoadStoreUnit::thread_result(int k) { return thread_done_[static_cast<std::size_t>(k)]; }

// store_order_ = the lines by ascending leave time, lines with equal times in line order (a
// stable sort). Every leave time is one thread's max(start, data ready), so there are at most T
// distinct values: a counting sort over them (quadratic in the number of distinct values).
void LoadStoreUnit::order_stores() {
  const std::size_t n = line_count_;
  store_order_.resize(n);
  order_rank_.resize(n);
  // The distinct leave times in order of appearance, and each line's index among them.
  order_keys_.clear();
  std::uint32_t key = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const Cycle v = lines_[i].leave;
    if (order_keys_.empty() || order_keys_[key] != v) {
      key = static_cast<std::uint32_t>(std::find(order_keys_.begin(), order_keys_.end(), v) - order_keys_.begin());
      if (key == order_keys_.size()) order_keys_.push_back(v);
    }
    order_rank_[i] = key;
  }
  const std::size_t keys = order_keys_.size();
  if (keys == 1) {  // one leave time: line order
    std::iota(store_order_.begin(), store_order_.end(), std::uint32_t{0});
    return;
  }
  // First place of each key's lines: the lines of all earlier (smaller) keys come before.
  order_count_.assign(keys, 0);
  for (std::size_t i = 0; i < n; ++i) ++order_count_[order_rank_[i]];
  order_first_.resize(keys);
  for (std::size_t a = 0; a < keys; ++a) {
    std::uint32_t before = 0;
    for (std::size_t b = 0; b < keys; ++b)
      if (order_keys_[b] < order_keys_[a]) before += order_count_[b];
    order_first_[a] = before;
  }
  for (std::size_t i = 0; i < n; ++i) store_order_[order_first_[order_rank_[i]]++] = static_cast<std::uint32_t>(i);
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
    const auto uk = static_cast<std::size_t>(k);
    const std::uint32_t* lines = &thread_lines_[uk * static_cast<std::size_t>(L_)];
    Cycle done = 0;
    for (std::uint32_t i = 0; i < thread_line_count_[uk]; ++i) done = std::max(done, lines_[lines[i]].done);
    thread_done_[uk] = done;
  }
  active_ = false;
}

void LoadStoreUnit::deliver_loads() {
  std::uint64_t* d = st_->reg(in_->rd);
  const isa::Opcode op = in_->op;
  const int size = size_;
  const std::uint64_t* addr = slot_addr_;
  for (std::size_t i = 0; i < global_count_; ++i) {
    const auto s = static_cast<std::size_t>(global_slots_[i]);
    const std::uint32_t li = slot_line_[s];
    std::uint64_t raw = 0;
    copy_access(&raw, &line_data_[li * line_bytes_ + (addr[s] - lines_[li].address)], size);
    d[s] = isa::sem::extend_load(op, raw);
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
