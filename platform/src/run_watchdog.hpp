// The last resort of run control: a host thread that ends the process when Ctrl-C or the
// host-time limit has come but the simulation does not get back to its run loop, because a model
// is stuck inside a call (a plug-in whose b_transport never returns, an endless loop in model
// code). Nothing running on SystemC's thread can poll anything then.
#pragma once

#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

#include "run_control.hpp"

namespace par::platform {

class RunWatchdog {
 public:
  // Watches from now on. When Ctrl-C arrives or `max_host_seconds` (0: none) have passed and the
  // watchdog is still armed `grace_seconds` later, it calls on_stuck(why) on its own thread and
  // ends the process with exit status 130 (Ctrl-C) or 1. The simulation's thread has not come back
  // but may still be running (a slow call, an endless loop), so on_stuck must read nothing that
  // thread writes: only atomics and what it published under a lock (Platform::stuck_run). Should
  // on_stuck itself not return within 10 s, the process ends anyway with a line on stderr.
  RunWatchdog(double max_host_seconds, double grace_seconds, std::function<void(RunStop)> on_stuck);
  // Disarms: the simulation came back.
  ~RunWatchdog();
  RunWatchdog(const RunWatchdog&) = delete;
  RunWatchdog& operator=(const RunWatchdog&) = delete;

 private:
  void watch(double max_host_seconds, double grace_seconds);

  std::function<void(RunStop)> on_stuck_;
  std::mutex mutex_;
  std::condition_variable disarm_;
  bool disarmed_ = false;
  std::thread thread_;
};

}  // namespace par::platform
