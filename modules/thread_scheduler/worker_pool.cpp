#include "worker_pool.hpp"

namespace par::sched {

void WorkerPool::run(std::function<void()> job) {
  if (idle_.empty()) {
    workers_.push_back(std::make_unique<Worker>());
    Worker& w = *workers_.back();
    w.job = std::move(job);
    const std::string name = name_ + "_" + std::to_string(workers_.size() - 1);
    sc_core::sc_spawn([this, &w] { serve(w); }, sc_core::sc_gen_unique_name(name.c_str()));
    return;
  }
  Worker& w = *idle_.back();
  idle_.pop_back();
  w.job = std::move(job);
  w.wake.notify();  // immediate: runnable in this evaluation phase, like a new process
}

void WorkerPool::serve(Worker& w) {
  for (;;) {
    std::function<void()> job = std::move(w.job);
    w.job = nullptr;
    job();
    idle_.push_back(&w);
    sc_core::wait(w.wake);
  }
}

}  // namespace par::sched
