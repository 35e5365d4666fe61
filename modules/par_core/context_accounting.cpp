#include "context_accounting.hpp"

#include <algorithm>

namespace par::core {

void BusyCycles::add(const Cycle* starts, int n) {
  for (int k = 0; k < n; ++k) {
    const Cycle s = starts[k];
    if (runs_.size() > first_ && runs_.back().end == s) {
      ++runs_.back().end;
    } else {
      runs_.push_back(Run{s, s + 1, total_});
    }
    ++total_;
  }
}

std::int64_t BusyCycles::before(Cycle c) const {
  // The last run that begins before c.
  const auto begin = runs_.begin() + static_cast<std::ptrdiff_t>(first_);
  auto it = std::upper_bound(begin, runs_.end(), c, [](Cycle x, const Run& r) { return x <= r.begin; });
  if (it == begin) return begin == runs_.end() ? total_ : begin->before;
  --it;
  return it->before + std::min(c, it->end) - it->begin;
}

void BusyCycles::forget_before(Cycle c) {
  while (first_ < runs_.size() && runs_[first_].end <= c) ++first_;
  // Compact now and then; queries only look at runs_[first_ ..].
  if (first_ > 1024 && first_ * 2 > runs_.size()) {
    runs_.erase(runs_.begin(), runs_.begin() + static_cast<std::ptrdiff_t>(first_));
    first_ = 0;
  }
}

void BusyCycles::clear() {
  runs_.clear();
  first_ = 0;
  total_ = 0;
}

void ContextAccounting::start_packet() {
  for (BusyCycles& b : fu_) b.clear();
  std::fill(finished_at_.begin(), finished_at_.end(), Finish{});
}

void ContextAccounting::next_instruction(ContextCounters& c, int unit, Cycle from, Cycle to, Cycle frontend,
                                         Cycle memory, Cycle fu) {
  for (int u = 0; u < isa::kBackendUnits; ++u) {
    const auto uu = static_cast<std::size_t>(u);
    std::array<std::int64_t, kIdleCauses>& idle_by = c.idle[uu];
    if (u != unit) {
      idle_by[static_cast<int>(IdleCause::OtherUnit)] += idle(uu, from, to);
      continue;
    }
    // Each cycle goes to the first wait that still holds in it (the order of DispatchWaits).
    Cycle p = from;
    auto part = [&](Cycle until, IdleCause cause) {
      const Cycle e = std::clamp(until, p, to);
      idle_by[static_cast<int>(cause)] += idle(uu, p, e);
      p = e;
    };
    part(frontend, IdleCause::Other);
    part(memory, IdleCause::MemoryWait);
    part(fu, IdleCause::FuWait);
    part(to, IdleCause::Other);
  }
}

void ContextAccounting::finished(int context, Cycle at) {
  Finish& f = finished_at_[static_cast<std::size_t>(context)];
  f.at = at;
  // Every busy cycle before `at` is known: later dispatches issue at `at` or later.
  for (std::size_t u = 0; u < fu_.size(); ++u) f.busy_before[u] = fu_[u].before(at);
}

void ContextAccounting::end_packet(Cycle end, std::vector<ContextCounters>& counters) {
  for (std::size_t c = 0; c < finished_at_.size() && c < counters.size(); ++c) {
    const Finish& f = finished_at_[c];
    if (f.at < 0 || f.at >= end) continue;
    for (std::size_t u = 0; u < fu_.size(); ++u)
      counters[c].idle[u][static_cast<int>(IdleCause::Finished)] +=
          (end - f.at) - (fu_[u].total() - f.busy_before[u]);
  }
}

void ContextAccounting::forget_before(Cycle c) {
  for (BusyCycles& b : fu_) b.forget_before(c);
}

}  // namespace par::core
