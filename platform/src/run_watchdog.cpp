#include "run_watchdog.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>

namespace par::platform {

namespace {

int exit_status(RunStop why) { return why == RunStop::Interrupted ? 130 : 1; }

// Ends the process if writing the statistics hangs too (it reads models, a plug-in among them).
void exit_later(RunStop why) {
  std::thread([why] {
    std::this_thread::sleep_for(std::chrono::seconds(10));
    const char* msg = "parsys: the statistics could not be written within 10 s; exiting without them\n";
    const ssize_t ignored = ::write(STDERR_FILENO, msg, std::strlen(msg));
    (void)ignored;
    std::_Exit(exit_status(why));
  }).detach();
}

}  // namespace

RunWatchdog::RunWatchdog(double max_host_seconds, double grace_seconds, std::function<void(RunStop)> on_stuck)
    : on_stuck_(std::move(on_stuck)), thread_([this, max_host_seconds, grace_seconds] { watch(max_host_seconds, grace_seconds); }) {}

RunWatchdog::~RunWatchdog() {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    disarmed_ = true;
  }
  disarm_.notify_all();
  thread_.join();
}

void RunWatchdog::watch(double max_host_seconds, double grace_seconds) {
  using clock = std::chrono::steady_clock;
  const auto start = clock::now();
  std::unique_lock<std::mutex> lock(mutex_);
  const auto disarmed = [this] { return disarmed_; };
  RunStop why = RunStop::Finished;
  // The Ctrl-C handler can only set a flag, so the flag is polled (as the run loop does).
  while (why == RunStop::Finished) {
    if (disarm_.wait_for(lock, std::chrono::milliseconds(50), disarmed)) return;
    if (interrupt_requested()) why = RunStop::Interrupted;
    else if (max_host_seconds > 0 && std::chrono::duration<double>(clock::now() - start).count() > max_host_seconds)
      why = RunStop::HostTimeLimit;
  }
  if (disarm_.wait_for(lock, std::chrono::duration<double>(grace_seconds), disarmed)) return;
  lock.unlock();
  exit_later(why);
  if (on_stuck_) on_stuck_(why);
  std::_Exit(exit_status(why));
}

}  // namespace par::platform
