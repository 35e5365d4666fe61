#include "platform_stats.hpp"

#include <algorithm>

namespace par::platform {

PlatformStats::PlatformStats(const PlatformConfig& cfg, std::vector<core::ParCore*> cores,
                             const std::vector<simkit::StatGroup*>& modules, std::vector<std::string> tracked)
    : cores_(std::move(cores)), launch_trees_(cfg.run.launch_stats) {
  const bool timing = cfg.run.mode == core::RunMode::Timing;
  for (std::size_t i = 0; i < cores_.size(); ++i) {
    const core::CoreConfig c = cfg.core_config(static_cast<int>(i));  // the core's own shape
    // The thread-context group only where the frontend selects among contexts (timing mode), the
    // packet prefetcher's where it runs.
    const int contexts = timing && c.selects_contexts() ? c.contexts : 0;
    core_groups_.push_back(std::make_unique<core::CoreStatistics>(cores_[i]->name(), c.lanes, c.threads_per_lane,
                                                                  c.rob_size, contexts, timing && c.prefetch.enabled));
  }
  // The run as a whole: wall time of the simulation (SystemC included) and the resulting speed.
  simkit::StatGroup& run = root_.group("run");
  host_seconds_ = &run.real("host_seconds", "s", "Host time of the simulation (sc_start), SystemC included");
  host_seconds_->measures_host();
  simulated_ns_ = &run.real("simulated_ns", "ns", "Simulated time");
  thread_instructions_ =
      &run.counter("thread_instructions", "thread-instructions", "Thread-instructions executed, all cores");
  launches_done_ = &run.counter("launches", "packets", "Packets completed");
  run.formula("thread_instructions_per_host_second", "thread-instructions/s", "Simulator speed",
              [](const simkit::StatView& v) { return v["thread_instructions"] / v["host_seconds"]; },
              simkit::Format::fixed(0))
      .measures_host();
  for (std::size_t c = 0; c < cores_.size(); ++c) {
    if (cores_[c]->stream_unit() == nullptr) continue;
    stream_groups_.resize(cores_.size());
    stream_groups_[c] = std::make_unique<core::StreamStatistics>();
    core_groups_[c]->group().attach(stream_groups_[c]->group());
  }
  for (auto& g : core_groups_) root_.attach(g->group());
  for (simkit::StatGroup* g : modules) root_.attach(*g);
  for (const std::string& path : tracked) tracked_.push_back(root_.find(path));
  start_ = root_.capture();
}

void PlatformStats::refresh(std::uint64_t launches_done, const sc_core::sc_time* boundary) {
  std::uint64_t thread_instructions = 0;
  for (std::size_t c = 0; c < cores_.size(); ++c) {
    const core::CoreStats s = boundary != nullptr ? cores_[c]->take_sample(*boundary) : cores_[c]->stats_so_far();
    core_groups_[c]->update(s);
    thread_instructions += static_cast<std::uint64_t>(s.total_thread_instructions());
    if (c < stream_groups_.size() && stream_groups_[c]) stream_groups_[c]->update(*cores_[c]->stream_unit());
  }
  thread_instructions_->set(thread_instructions);
  launches_done_->set(launches_done);
}

void PlatformStats::finish(double host_seconds, double simulated_ns, std::uint64_t launches_done) {
  refresh(launches_done);
  host_seconds_->set(host_seconds);
  simulated_ns_->set(simulated_ns);
}

void PlatformStats::sample_launch(std::uint64_t seq, double begin_ns, double end_ns, std::uint64_t launches_done) {
  StatsSample sample{"launch " + std::to_string(seq), seq, begin_ns, end_ns, {}, {}, {}};
  for (const simkit::Stat* st : tracked_) sample.tracked.push_back(st != nullptr ? st->number() : 0.0);
  if (launch_trees_ < 0 || static_cast<std::int64_t>(launches_.size()) < launch_trees_) {
    refresh(launches_done);
    simulated_ns_->set(end_ns);
    sample.values = root_.capture();
  }
  const std::lock_guard<std::mutex> lock(published_mutex_);  // published_json() may be reading
  launches_.push_back(std::move(sample));
}

void PlatformStats::sample_window(sc_core::sc_time end, std::uint64_t launches_done, bool last) {
  refresh(launches_done, last ? nullptr : &end);
  const double end_ns = end.to_default_time_units();
  simulated_ns_->set(end_ns);
  const std::uint64_t index = windows_.size();
  const double begin_ns = windows_.empty() ? 0.0 : windows_.back().end_ns;
  simkit::StatSnapshot values = root_.capture();
  const std::lock_guard<std::mutex> lock(published_mutex_);  // published_json() may be reading
  windows_.push_back({"window " + std::to_string(index), index, begin_ns, end_ns, std::move(values), {}, {}});
}

simkit::Json PlatformStats::tree(const std::vector<StatsSample>& samples, std::size_t i) const {
  // Trees are kept for a prefix of the samples, so the previous one has its values too.
  if (samples.at(i).values.empty()) return nullptr;
  return root_.diff(samples[i].values, i == 0 ? start_ : samples[i - 1].values);
}

std::size_t PlatformStats::launches_without_tree() const {
  return static_cast<std::size_t>(
      std::count_if(launches_.begin(), launches_.end(), [](const StatsSample& s) { return s.values.empty(); }));
}

simkit::Json PlatformStats::samples_json(const std::vector<StatsSample>& samples, std::size_t count,
                                         const char* index_name) const {
  simkit::Json a = simkit::Json::array();
  for (std::size_t i = 0; i < count; ++i) {
    const StatsSample& s = samples[i];
    simkit::Json e = {{index_name, s.seq}, {"begin_ns", s.begin_ns}, {"end_ns", s.end_ns}};
    if (!s.timing.is_null()) e["timing"] = s.timing;
    if (!s.values.empty()) e["stats"] = tree(samples, i);
    a.push_back(std::move(e));
  }
  return a;
}

simkit::Json PlatformStats::to_json() const {
  simkit::Json j = root_.to_json();
  j["launches"] = samples_json(launches_, launches_.size(), "seq");
  j["windows"] = samples_json(windows_, windows_.size(), "index");
  j["end"] = {{"status", end_status_}, {"reason", end_reason_}};
  return j;
}

void PlatformStats::write_table(std::ostream& os, const simkit::Json* doc) const {
  os << "# total\n";
  root_.write_table(os);
  write_sample_tables(os, doc, launches_, launches_.size(), windows_, windows_.size());
}

void PlatformStats::write_sample_tables(std::ostream& os, const simkit::Json* doc,
                                        const std::vector<StatsSample>& launches, std::size_t launch_count,
                                        const std::vector<StatsSample>& windows, std::size_t window_count) const {
  for (const auto* samples : {&launches, &windows}) {
    const bool is_launches = samples == &launches;
    const simkit::Json* built = doc != nullptr ? &(*doc)[is_launches ? "launches" : "windows"] : nullptr;
    const std::size_t count = is_launches ? launch_count : window_count;
    for (std::size_t i = 0; i < count; ++i) {
      const StatsSample& s = (*samples)[i];
      if (s.values.empty()) continue;
      os << "\n# " << s.label << ": " << s.begin_ns << " ns .. " << s.end_ns << " ns\n";
      if (built != nullptr) root_.write_table(os, (*built)[i]["stats"]);
      else root_.write_table(os, tree(*samples, i));
    }
  }
}

void PlatformStats::publish(double simulated_ns, std::uint64_t launches_done) {
  refresh(launches_done);
  simulated_ns_->set(simulated_ns);
  simkit::StatSnapshot values = root_.capture();
  const std::lock_guard<std::mutex> lock(published_mutex_);
  published_.values = std::move(values);
  // Samples are only ever appended (their timing is added after the run, when nothing reads the
  // published document any more): the counts say which of them it shows.
  published_.launches = launches_.size();
  published_.windows = windows_.size();
  published_.simulated_ns = simulated_ns;
}

double PlatformStats::published_ns() const {
  const std::lock_guard<std::mutex> lock(published_mutex_);
  return published_.simulated_ns;
}

// The tree's layout (groups, names, units, start_) does not change during the run: only the
// values do, and those come from the copies.
simkit::Json PlatformStats::published_json(const std::string& status, const std::string& reason) const {
  const std::lock_guard<std::mutex> lock(published_mutex_);
  simkit::Json j = published_.values.empty() ? simkit::Json::object() : root_.to_json(published_.values);
  j["launches"] = samples_json(launches_, published_.launches, "seq");
  j["windows"] = samples_json(windows_, published_.windows, "index");
  j["end"] = {{"status", status}, {"reason", reason}};
  return j;
}

void PlatformStats::write_published_table(std::ostream& os, const simkit::Json& doc) const {
  os << "# total\n";
  root_.write_table(os, doc);
  const std::lock_guard<std::mutex> lock(published_mutex_);
  write_sample_tables(os, &doc, launches_, published_.launches, windows_, published_.windows);
}

std::uint64_t launches_done(const sched::ThreadScheduler& scheduler) { return scheduler.packets_done(); }

LaunchSampler::LaunchSampler(sc_core::sc_module_name name, PlatformStats& stats, const sched::ThreadScheduler& scheduler)
    : sc_module(name), stats_(stats), scheduler_(scheduler) {
  SC_HAS_PROCESS(LaunchSampler);
  SC_METHOD(on_completion);
  sensitive << scheduler_.completion_event();
  dont_initialize();
}

void LaunchSampler::on_completion() {
  const auto& records = scheduler_.packet_records();
  sampled_.resize(records.size(), false);
  // In completion order: several packets may complete in one delta cycle. Records before
  // first_unsampled_ are all sampled, so a long run does not rescan them.
  std::vector<const sched::PacketRecord*> done;
  for (std::size_t i = first_unsampled_; i < records.size(); ++i)
    if (records[i].done && !sampled_[i]) done.push_back(&records[i]);
  std::sort(done.begin(), done.end(), [](auto* a, auto* b) { return a->finished < b->finished; });
  for (const sched::PacketRecord* r : done) {
    sampled_[r->seq - 1] = true;
    ++sampled_count_;
  }
  while (first_unsampled_ < sampled_.size() && sampled_[first_unsampled_]) ++first_unsampled_;
  for (const sched::PacketRecord* r : done)
    stats_.sample_launch(r->seq, r->submitted.to_default_time_units(), r->finished.to_default_time_units(), sampled_count_);
}

}  // namespace par::platform
