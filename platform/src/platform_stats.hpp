// The statistics tree of a run (gem5/DRAMSys style): every module's group under its SystemC
// name, the cores' groups filled from their CoreStats, a `run` group with the run as a whole; plus
// a sample of the whole tree per kernel launch (difference between two packet completions) and,
// with --stats-window, per time window. stats.json = the total tree + "launches" + "windows";
// stats.txt = the same as tables. The JSON schema is in platform/README.md.
#pragma once

#include <memory>
#include <mutex>
#include <ostream>
#include <string>
#include <vector>

#include <systemc>

#include "core_statistics.hpp"
#include "par/simkit/stats.hpp"
#include "par_core.hpp"
#include "stream_statistics.hpp"
#include "platform_config.hpp"
#include "thread_scheduler.hpp"

namespace par::platform {

// One sample: the difference of the tree over [begin_ns, end_ns).
struct StatsSample {
  std::string label;  // "launch 3", "window 12"
  std::uint64_t seq = 0;  // packet (launches) or window index
  double begin_ns = 0, end_ns = 0;
  // The tree's values at end_ns (flat and cheap: the difference document is built only for the
  // output); empty beyond run.launch_stats launches.
  simkit::StatSnapshot values;
  std::vector<double> tracked;  // the tracked statistics' totals at end_ns (cheap, every launch)
  simkit::Json timing;  // launches in the full system: host/link/device time (Platform::annotate_launches)
};

class PlatformStats {
 public:
  // `tracked`: statistics whose totals every launch sample records even without its tree.
  PlatformStats(const PlatformConfig& cfg, std::vector<core::ParCore*> cores,
                const std::vector<simkit::StatGroup*>& modules, std::vector<std::string> tracked = {});

  simkit::StatGroup& root() { return root_; }
  const simkit::StatGroup& root() const { return root_; }

  // Brings the cores' groups and the run counters up to date: the cores' work so far, running
  // packets included; at a window boundary the cores' statistics as of that boundary.
  void refresh(std::uint64_t launches_done, const sc_core::sc_time* boundary = nullptr);
  // At the end of the run: host time and simulated time.
  void finish(double host_seconds, double simulated_ns, std::uint64_t launches_done);
  // How the run ended, written into stats.json as "end": {"status": ..., "reason": ...}:
  // completed, failed, interrupted (Ctrl-C), host_time_limit, deadlock.
  void set_end(std::string status, std::string reason) {
    end_status_ = std::move(status);
    end_reason_ = std::move(reason);
  }
  const std::string& end_status() const { return end_status_; }

  // A launch sample: the tree since the previous launch's completion (or the start); only the
  // tracked totals after run.launch_stats launches (bounds the size of stats.json).
  void sample_launch(std::uint64_t seq, double begin_ns, double end_ns, std::uint64_t launches_done);
  // A window sample: the tree since the previous window, up to `end`, a window boundary (the
  // cores' counters as of it) unless `last` (the end of the run: everything so far).
  void sample_window(sc_core::sc_time end, std::uint64_t launches_done, bool last = false);
  const std::vector<StatsSample>& launches() const { return launches_; }
  std::vector<StatsSample>& launches() { return launches_; }
  const std::vector<StatsSample>& windows() const { return windows_; }
  // The difference tree of launches()[i] / windows()[i]; null when the launch kept no tree.
  simkit::Json launch_tree(std::size_t i) const { return tree(launches_, i); }
  simkit::Json window_tree(std::size_t i) const { return tree(windows_, i); }
  // Launches whose tree was not kept (beyond run.launch_stats).
  std::size_t launches_without_tree() const;

  // {"<the total tree>", "launches": [...], "windows": [...]}: see platform/README.md.
  simkit::Json to_json() const;
  // `doc`, when given, is to_json()'s document: its sample trees are reused, not computed again.
  void write_table(std::ostream& os, const simkit::Json* doc = nullptr) const;

  // For a thread that must not read the models (the run's watchdog, while SystemC's thread may
  // still be running inside a call): at each safe point SystemC's thread brings the tree up to
  // date and publishes a copy of its values and of the samples so far, under a lock; the other
  // thread builds the document from that copy only.
  void publish(double simulated_ns, std::uint64_t launches_done);
  // The time of the last publish() (0 before the first).
  double published_ns() const;
  // to_json()'s document as of the last publish(), with "end" = {status, reason}; live formulas
  // (a plug-in's own statistics) are null. Safe on any thread.
  simkit::Json published_json(const std::string& status, const std::string& reason) const;
  // write_table() of published_json()'s document.
  void write_published_table(std::ostream& os, const simkit::Json& doc) const;

 private:
  simkit::StatGroup root_;
  std::vector<core::ParCore*> cores_;
  std::vector<std::unique_ptr<core::CoreStatistics>> core_groups_;
  std::vector<std::unique_ptr<core::StreamStatistics>> stream_groups_;  // per core; null without a stream unit
  simkit::Real *host_seconds_, *simulated_ns_;
  simkit::Counter *thread_instructions_, *launches_done_;
  simkit::Json tree(const std::vector<StatsSample>& samples, std::size_t i) const;
  // The first `count` of `samples`.
  simkit::Json samples_json(const std::vector<StatsSample>& samples, std::size_t count, const char* index_name) const;
  void write_sample_tables(std::ostream& os, const simkit::Json* doc, const std::vector<StatsSample>& launches,
                           std::size_t launch_count, const std::vector<StatsSample>& windows,
                           std::size_t window_count) const;

  // What publish() left: read by other threads under published_mutex_ only. Samples are only
  // ever appended during the run (under the same lock, since appending may move them), so the
  // published document reads the first `launches` / `windows` of the live lists instead of keeping
  // copies: with --stats-window and the watchdog, the samples are held once, not twice.
  struct Published {
    simkit::StatSnapshot values;  // empty before the first publish()
    std::size_t launches = 0, windows = 0;  // samples so far
    double simulated_ns = 0;
  };
  mutable std::mutex published_mutex_;
  Published published_;

  simkit::StatSnapshot start_;  // the values before the first sample
  std::vector<const simkit::Stat*> tracked_;  // null: not in this platform
  std::int64_t launch_trees_ = 0;           // run.launch_stats (< 0: every launch)
  std::string end_status_ = "completed", end_reason_;
  std::vector<StatsSample> launches_, windows_;
};

// Takes a launch sample whenever the scheduler completes a packet (window samples are taken
// between simulation slices: run_control.hpp). It never keeps the simulation alive by itself.
class LaunchSampler : public sc_core::sc_module {
 public:
  LaunchSampler(sc_core::sc_module_name name, PlatformStats& stats, const sched::ThreadScheduler& scheduler);

 private:
  void on_completion();

  PlatformStats& stats_;
  const sched::ThreadScheduler& scheduler_;
  std::vector<bool> sampled_;  // by packet sequence number - 1
  std::size_t first_unsampled_ = 0;
  std::uint64_t sampled_count_ = 0;
};

// Packets the scheduler has completed.
std::uint64_t launches_done(const sched::ThreadScheduler& scheduler);

}  // namespace par::platform
