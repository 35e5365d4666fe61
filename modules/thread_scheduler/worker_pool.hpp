// Runs jobs that may wait (b_transport with wait(), event waits) each in a process of its own,
// reusing finished processes. sc_spawn per job creates a coroutine with a fresh stack (mmap,
// mprotect guard page, a named sc_object) and destroys it afterwards: with short packets that
// was a quarter of the simulator's time. A job starts in the evaluation phase it is submitted in,
// as a spawned process would, so the simulated behaviour is the same.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

namespace par::sched {

class WorkerPool {
 public:
  // `name`: the prefix of the workers' process names ("scheduler_share" -> scheduler_share_0...).
  explicit WorkerPool(std::string name) : name_(std::move(name)) {}
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  // Called from a running process: runs `job` in an idle worker, spawning one when all are busy.
  void run(std::function<void()> job);
  std::size_t workers() const { return workers_.size(); }

 private:
  struct Worker {
    sc_core::sc_event wake;
    std::function<void()> job;
  };
  void serve(Worker& w);

  std::string name_;
  std::vector<std::unique_ptr<Worker>> workers_;
  std::vector<Worker*> idle_;
};

}  // namespace par::sched
