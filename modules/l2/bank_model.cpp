#include "bank_model.hpp"

#include <algorithm>
#include <cassert>
#include <cstring>

namespace par::l2 {

BankModel::BankModel(const L2Config& cfg, ScTick period, NextLevel& next, simkit::StatGroup& group)
    : cfg_(cfg),
      geo_(cfg),
      hit_(std::max<ScTick>(period, 1) * cfg.hit_latency),
      next_(next),
      stats_(group),
      core_(cfg.sets(), cfg.ways, cfg.line_bytes, cfg.mshrs, std::max<ScTick>(period, 1), stats_),
      tags_(core_.tags),
      fill_buf_(cfg.line_bytes) {
  if (cfg.prefetch_stats) group.attach(prefetch_group_);
}

Outcome BankModel::access(const Request& r) {
  assert(r.len > 0 && geo_.offset_in_line(r.addr) + r.len <= geo_.line_bytes());
  const ScTick start = core_.start(r.write, r.at);
  const std::uint64_t line = geo_.line_of(r.addr);
  const std::uint64_t set = geo_.set_of(r.addr);
  Outcome out;
  const int w = tags_.find(set, line);
  if (w != TagArray::kNone) {
    Way& x = tags_.at(set, w);
    // A line whose fill completes after this access's start is in flight for it (this also
    // covers requests that arrive out of time order, before the miss that brought the line in).
    if (x.ready > start) {
      ++stats_.mshr_merges;
      out.done = x.ready + hit_;
    } else {
      ++stats_.hits;
      out.done = start + hit_;
    }
    count_use(x, start);
    tags_.touch(set, w);
    apply(r, tags_.data(set, w));
    if (r.write) x.dirty = true;
  } else {
    ++stats_.misses;
    out = miss(r, set, line, start);
  }
  core_.finish(r.at, out.ok, out.done);
  return out;
}

Outcome BankModel::miss(const Request& r, std::uint64_t set, std::uint64_t line, ScTick start) {
  if (r.write && !cfg_.write_allocate) {
    ++stats_.write_arounds;
    std::vector<std::uint8_t> be = piece_enables(r);
    Outcome out;
    out.ok = next_.write(r.addr, r.data, r.len, be.empty() ? nullptr : be.data(), start, out.done);
    return out;
  }
  const bool validate = r.write && cfg_.write_validate && r.len == geo_.line_bytes() &&
                        r.be.all(r.len);
  const int v = core_.place_miss(set, start, !validate);
  ScTick ready = start;
  if (!validate) {
    // The fill is requested before the victim's writeback so that it gets the next level first;
    // it lands in a buffer so an error leaves the victim in place.
    if (!next_.read(geo_.line_base(line), fill_buf_.data(), geo_.line_bytes(), start, ready)) {
      return Outcome{false, start};
    }
    ++stats_.fills;
    core_.mshrs.allocate(line, start, ready);
    if (mshr_signal_.enabled()) mshr_signal_.occupy(to_ps(start), to_ps(ready));
  } else {
    ++stats_.write_validates;
  }
  std::uint8_t* data = evict(set, v, start);
  if (!validate) copy_line(data, fill_buf_.data());
  tags_.install(set, v, line, ready, r.write);
  apply(r, data);
  return Outcome{true, ready + hit_};
}

std::uint8_t* BankModel::evict(std::uint64_t set, int v, ScTick start) {
  const Way& victim = tags_.at(set, v);
  std::uint8_t* data = tags_.data(set, v);
  if (victim.valid && victim.prefetched) ++prefetch_.evicted_unused;
  if (victim.valid && victim.dirty) {
    // Posted: its completion time does not matter to the miss.
    ScTick ignored = 0;
    next_.write(geo_.line_base(victim.line), data, geo_.line_bytes(), nullptr, start, ignored);
    ++stats_.writebacks;
  }
  return data;
}

Outcome BankModel::prefetch(std::uint64_t addr, ScTick at) {
  ++prefetch_.requests;
  const ScTick start = core_.port.reserve(at);
  const std::uint64_t line = geo_.line_of(addr);
  const std::uint64_t set = geo_.set_of(addr);
  if (tags_.find(set, line) != TagArray::kNone) {
    ++prefetch_.redundant;
    return Outcome{true, start};
  }
  // Never wait: a prefetch that would need to queue for an MSHR or a way is not worth its cost.
  const int v = tags_.victim(set, start);
  Way& victim = tags_.at(set, v);
  if (core_.mshrs.free_at(start) > start || (victim.valid && victim.ready > start)) {
    ++prefetch_.dropped;
    return Outcome{true, start};
  }
  ScTick ready = start;
  if (!next_.read(geo_.line_base(line), fill_buf_.data(), geo_.line_bytes(), start, ready)) {
    ++prefetch_.dropped;
    return Outcome{false, start};
  }
  ++prefetch_.fills;
  core_.mshrs.allocate(line, start, ready);
  std::uint8_t* data = evict(set, v, start);
  copy_line(data, fill_buf_.data());
  tags_.install(set, v, line, ready, false);
  victim.prefetched = true;  // `victim` is the way just filled
  return Outcome{true, ready};
}

bool BankModel::debug(const Request& r) {
  const std::uint64_t set = geo_.set_of(r.addr);
  const int w = tags_.find(set, geo_.line_of(r.addr));
  if (w != TagArray::kNone) {
    apply(r, tags_.data(set, w));
    if (r.write) tags_.at(set, w).dirty = true;
    return true;
  }
  return debug_below(next_, r);
}

ScTick BankModel::flush(ScTick at, bool invalidate) {
  ScTick done = at;
  for (std::size_t i = 0; i < tags_.size(); ++i) {
    Way& x = tags_.way_at(i);
    if (x.valid && x.dirty) {
      const ScTick start = std::max(core_.port.reserve(at), x.ready);
      ScTick wb_done = start;
      next_.write(geo_.line_base(x.line), tags_.data_at(i), geo_.line_bytes(), nullptr, start,
                  wb_done);
      done = std::max(done, wb_done);
      x.dirty = false;
      ++stats_.flush_writebacks;
    }
    if (invalidate) tags_.invalidate(i);
  }
  return done;
}

void BankModel::flush_dbg(bool invalidate) {
  for (std::size_t i = 0; i < tags_.size(); ++i) {
    Way& x = tags_.way_at(i);
    if (x.valid && x.dirty) {
      next_.write_dbg(geo_.line_base(x.line), tags_.data_at(i), geo_.line_bytes(), nullptr);
      x.dirty = false;
      ++stats_.flush_writebacks;
    }
    if (invalidate) tags_.invalidate(i);
  }
}

bool BankModel::contains(std::uint64_t addr) const {
  return tags_.find(geo_.set_of(addr), geo_.line_of(addr)) != TagArray::kNone;
}

bool BankModel::is_dirty(std::uint64_t addr) const {
  const std::uint64_t set = geo_.set_of(addr);
  const int w = tags_.find(set, geo_.line_of(addr));
  return w != TagArray::kNone && tags_.at(set, w).dirty;
}

}  // namespace par::l2
