// SystemC elaborates one hierarchy per process, so every test that builds modules and calls
// sc_start runs its body in a forked child. The test binary then works both under ctest (one
// process per test) and when run directly with all tests in one process.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstdlib>
#include <functional>

namespace par::testing {

// Runs `body` in a child process; failures inside it (gtest assertions, crashes, exit codes)
// become a failure of the calling test.
inline void run_isolated(const std::function<void()>& body) {
  std::fflush(stdout);
  std::fflush(stderr);
  const pid_t pid = fork();
  ASSERT_GE(pid, 0) << "fork failed";
  if (pid == 0) {
    body();
    const bool failed = ::testing::Test::HasFailure();
    std::fflush(stdout);
    std::fflush(stderr);
    std::_Exit(failed ? 1 : 0);
  }
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  if (WIFSIGNALED(status)) FAIL() << "the isolated SystemC test was killed by signal " << WTERMSIG(status);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "assertions failed in the isolated SystemC test (see output above)";
}

}  // namespace par::testing
