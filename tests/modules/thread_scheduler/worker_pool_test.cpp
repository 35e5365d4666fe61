// WorkerPool: jobs that wait run concurrently, each in a process of its own, starting in the
// evaluation phase they are submitted in; finished workers are reused instead of spawning anew.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <systemc>

#include "../../support/sc_isolation.hpp"
#include "worker_pool.hpp"

namespace par::sched {
namespace {

using sc_core::SC_NS;
using sc_core::sc_time;

struct Submitter : sc_core::sc_module {
  WorkerPool pool{"job"};
  std::vector<std::string> log;
  std::size_t workers_after_first_wave = 0;

  explicit Submitter(sc_core::sc_module_name name) : sc_module(name) {
    SC_HAS_PROCESS(Submitter);
    SC_THREAD(submit);
  }

  void job(const std::string& name, double wait_ns) {
    log.push_back(name + " start " + sc_core::sc_time_stamp().to_string());
    sc_core::wait(sc_time(wait_ns, SC_NS));
    log.push_back(name + " end " + sc_core::sc_time_stamp().to_string());
  }

  void submit() {
    // Three at once: three workers, all starting now.
    pool.run([this] { job("a", 30); });
    pool.run([this] { job("b", 10); });
    pool.run([this] { job("c", 20); });
    workers_after_first_wave = pool.workers();
    sc_core::wait(sc_time(50, SC_NS));
    // Everything finished: two more jobs reuse the idle workers.
    pool.run([this] { job("d", 5); });
    pool.run([this] { job("e", 5); });
  }
};

TEST(WorkerPool, JobsRunConcurrentlyAndFinishedWorkersAreReused) {
  par::testing::run_isolated([] {
    Submitter top("top");
    sc_core::sc_start(sc_time(100, SC_NS));
    EXPECT_EQ(top.workers_after_first_wave, 3u);
    EXPECT_EQ(top.pool.workers(), 3u);
    const std::vector<std::string> expected = {"a start 0 s",  "b start 0 s",   "c start 0 s",   "b end 10 ns",
                                               "c end 20 ns",  "a end 30 ns",   "d start 50 ns", "e start 50 ns",
                                               "d end 55 ns",  "e end 55 ns"};
    EXPECT_EQ(top.log, expected);
  });
}

}  // namespace
}  // namespace par::sched

