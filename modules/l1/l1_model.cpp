#include "l1_model.hpp"

#include <algorithm>
#include <cassert>
#include <cstring>

namespace par::l1 {

L1Model::L1Model(const L1Config& cfg, ScTick period, cachekit::NextLevel& next, L1Stats& stats)
    : cfg_(cfg),
      hit_(std::max<ScTick>(period, 1) * cfg.hit_latency),
      miss_(std::max<ScTick>(period, 1) * cfg.miss_cycles),
      refill_(std::max<ScTick>(period, 1) * cfg.refill_cycles),
      line_shift_(static_cast<unsigned>(__builtin_ctz(cfg.line_bytes))),
      sets_(cfg.sets()),
      sets_pow2_((cfg.sets() & (cfg.sets() - 1)) == 0),
      next_(next),
      stats_(stats),
      core_(cfg.sets(), cfg.ways, cfg.line_bytes, cfg.mshrs, std::max<ScTick>(period, 1), stats),
      tags_(core_.tags),
      dirty_(static_cast<std::size_t>(cfg.size_bytes), 0),
      fill_buf_(cfg.line_bytes) {}

bool L1Model::forward_write(const Request& r, ScTick at, ScTick& done) {
  std::vector<std::uint8_t> be = cachekit::piece_enables(r);
  return next_.write(r.addr, r.data, r.len, be.empty() ? nullptr : be.data(), at, done);
}

void L1Model::write_into(const Request& r, std::uint64_t set, int w, ScTick start, Outcome& out) {
  if (cfg_.write_policy == WritePolicy::WriteThrough) {
    ++stats_.write_throughs;
    ScTick done = start;
    if (!forward_write(r, start, done)) out.ok = false;
    out.done = std::max(out.done, done);
    return;
  }
  std::uint8_t* dirty = dirty_of(way_index(set, w)) + offset_of(r.addr);
  if (r.be.ptr == nullptr) {
    std::memset(dirty, 0xff, r.len);
  } else {
    for (unsigned i = 0; i < r.len; ++i)
      if (r.be.on(i)) dirty[i] = 0xff;
  }
  tags_.at(set, w).dirty = true;
}

Outcome L1Model::access(const Request& r) {
  assert(r.len > 0 && offset_of(r.addr) + r.len <= cfg_.line_bytes);
  const ScTick start = core_.start(r.write, r.at);
  const std::uint64_t line = line_of(r.addr);
  const std::uint64_t set = set_of(line);
  Outcome out;
  const int w = tags_.find(set, line);
  if (w != cachekit::TagArray::kNone) {
    const cachekit::Way& x = tags_.at(set, w);
    if (x.ready > start) {  // its fill is still in flight
      ++stats_.mshr_merges;
      out.done = std::max(x.ready + refill_, start + hit_);
    } else {
      ++stats_.hits;
      out.done = start + hit_;
    }
    tags_.touch(set, w);
    apply(r, tags_.data(set, w));
    if (r.write) write_into(r, set, w, start, out);
  } else {
    ++stats_.misses;
    out = miss(r, set, line, start);
  }
  core_.finish(r.at, out.ok, out.done);
  return out;
}

Outcome L1Model::miss(const Request& r, std::uint64_t set, std::uint64_t line, ScTick start) {
  if (r.write && !cfg_.write_allocate) {
    ++stats_.write_arounds;
    Outcome out;
    out.ok = forward_write(r, start + miss_, out.done);
    return out;
  }
  const bool validate = r.write && cfg_.write_validate && r.len == cfg_.line_bytes && r.be.all(r.len);
  const int v = core_.place_miss(set, start, !validate);
  cachekit::Way& victim = tags_.at(set, v);
  const ScTick leave = start + miss_;
  ScTick ready = start;
  const std::uint64_t base = line << line_shift_;
  if (!validate) {
    // The fill goes first (it lands in a buffer, so an error leaves the victim in place); the
    // victim's writeback follows it.
    if (!next_.read(base, fill_buf_.data(), cfg_.line_bytes, leave, ready)) return Outcome{false, start};
    ++stats_.fills;
    core_.mshrs.allocate(line, start, ready);
  } else {
    ++stats_.write_validates;
  }
  const std::size_t vi = way_index(set, v);
  if (victim.valid) {
    ++stats_.evictions;
    if (victim.dirty) {
      write_back(vi, leave, true);  // posted: its completion does not matter to the miss
      ++stats_.writebacks;
    }
  }
  std::uint8_t* data = tags_.data(set, v);
  if (!validate) std::memcpy(data, fill_buf_.data(), cfg_.line_bytes);
  tags_.install(set, v, line, ready, false);
  Outcome out{true, validate ? start + hit_ : ready + refill_};
  apply(r, data);
  if (r.write) write_into(r, set, v, start, out);
  return out;
}

ScTick L1Model::write_back(std::size_t i, ScTick at, bool timed) {
  cachekit::Way& x = tags_.way_at(i);
  std::uint8_t* dirty = dirty_of(i);
  std::uint8_t* data = tags_.data_at(i);
  const std::uint64_t base = x.line << line_shift_;
  const unsigned n = cfg_.line_bytes;
  ScTick done = at;
  // One write per contiguous run of dirty bytes: the next level needs no byte-enable support.
  for (unsigned b = 0; b < n;) {
    if (dirty[b] == 0) {
      ++b;
      continue;
    }
    unsigned e = b;
    while (e < n && dirty[e] != 0) ++e;
    if (timed) {
      ScTick d = at;
      next_.write(base + b, data + b, e - b, nullptr, at, d);
      done = std::max(done, d);
    } else {
      next_.write_dbg(base + b, data + b, e - b, nullptr);
    }
    b = e;
  }
  std::memset(dirty, 0, n);
  x.dirty = false;
  return done;
}

bool L1Model::debug(const Request& r) {
  const std::uint64_t line = line_of(r.addr);
  const std::uint64_t set = set_of(line);
  const int w = tags_.find(set, line);
  if (w != cachekit::TagArray::kNone) {
    apply(r, tags_.data(set, w));
    if (!r.write) return true;
    if (cfg_.write_policy == WritePolicy::WriteBack) {
      Outcome ignored;
      write_into(r, set, w, 0, ignored);
      return true;
    }
    // Write-through: the next level stays as new as the L1.
  }
  return cachekit::debug_below(next_, r);
}

ScTick L1Model::flush(ScTick at, bool invalidate) {
  ++stats_.flushes;
  ScTick done = at;
  for (std::size_t i = 0; i < tags_.size(); ++i) {
    const cachekit::Way& x = tags_.way_at(i);
    if (x.valid && x.dirty) {
      const ScTick start = std::max(core_.port.reserve(at), x.ready);
      done = std::max(done, write_back(i, start, true));
      ++stats_.flush_writebacks;
    }
    if (invalidate) tags_.invalidate(i);
  }
  return done;
}

void L1Model::flush_dbg(bool invalidate) {
  for (std::size_t i = 0; i < tags_.size(); ++i) {
    const cachekit::Way& x = tags_.way_at(i);
    if (x.valid && x.dirty) {
      write_back(i, 0, false);
      ++stats_.flush_writebacks;
    }
    if (invalidate) tags_.invalidate(i);
  }
}

bool L1Model::contains(std::uint64_t addr) const {
  const std::uint64_t line = line_of(addr);
  return tags_.find(set_of(line), line) != cachekit::TagArray::kNone;
}

bool L1Model::is_dirty(std::uint64_t addr) const {
  const std::uint64_t line = line_of(addr);
  const std::uint64_t set = set_of(line);
  const int w = tags_.find(set, line);
  return w != cachekit::TagArray::kNone && tags_.at(set, w).dirty;
}

}  // namespace par::l1
