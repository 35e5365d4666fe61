#include "l1_cache.hpp"

#include <string>

namespace par::l1 {

using sc_core::sc_time;

L1Cache::L1Cache(sc_core::sc_module_name name, const L1Config& cfg, sc_time clock_period,
                 simkit::StatGroup* parent_stats)
    : sc_module(name),
      in("in"),
      out("out"),
      core_done("core_done"),
      done("done"),
      next_(out),
      stats_group_(parent_stats != nullptr ? basename() : this->name()),
      stats_(stats_group_) {
  if (parent_stats != nullptr) parent_stats->attach(stats_group_);
  model_ = std::make_unique<L1Model>(checked(cfg), cachekit::to_tick(clock_period), next_, stats_);
  in.register_b_transport(this, &L1Cache::b_transport);
  in.register_transport_dbg(this, &L1Cache::transport_dbg);
  SC_HAS_PROCESS(L1Cache);
  SC_THREAD(completion_thread);
}

void L1Cache::b_transport(tlm::tlm_generic_payload& tx, sc_time& delay) {
  cachekit::serve_access(*model_, model_->line_bytes(), next_, tx, delay);
}

unsigned int L1Cache::transport_dbg(tlm::tlm_generic_payload& tx) {
  return cachekit::serve_debug(*model_, model_->line_bytes(), tx);
}

sc_time L1Cache::flush_timed(const sc_time& at, bool invalidate) {
  return cachekit::to_time(model_->flush(cachekit::to_tick(at), invalidate));
}

void L1Cache::completion_thread() {
  for (;;) {
    sc_core::wait(core_done.value_changed_event());
    if (!core_done.read()) {  // a share started
      done.write(false);
      continue;
    }
    // The core's share has ended: its results go to memory and nothing stays for the next share.
    const sc_time now = sc_core::sc_time_stamp();
    const sc_time end = flush_timed(now, true);
    if (end > now) sc_core::wait(end - now);
    done.write(true);
  }
}

L1Caches::L1Caches(sc_core::sc_module_name name, const L1Config& cfg, unsigned cores, sc_time clock_period)
    : sc_module(name), stats_(this->name()) {
  for (const auto& stat : L1Stats::summed()) {
    std::vector<std::string> paths;
    for (unsigned c = 0; c < cores; ++c) paths.push_back("core" + std::to_string(c) + "." + stat.name);
    stats_.sum(stat.name, stat.unit, "Sum of " + stat.name + " over the cores' L1s", std::move(paths));
  }
  stats_.formula("hit_rate", "ratio", "hits / accesses over all L1s",
                 [](const simkit::StatView& s) { return s["hits"] / s["accesses"]; }, simkit::Format::percent(2));
  for (unsigned c = 0; c < cores; ++c)
    caches_.push_back(std::make_unique<L1Cache>(("core" + std::to_string(c)).c_str(), cfg, clock_period, &stats_));
}

void L1Caches::flush(bool invalidate) {
  for (auto& c : caches_) c->flush(invalidate);
}

}  // namespace par::l1
