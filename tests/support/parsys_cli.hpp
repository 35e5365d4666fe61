// Helpers for end-to-end tests that run the parsys executable (PARSYS_BIN) as a user would:
// exit status, combined output, temporary directories (temp_dir.hpp) and the files a run writes.
#pragma once

#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "temp_dir.hpp"

namespace par::testing {

struct CliResult {
  int status = -1;
  std::string out;  // stdout and stderr, interleaved
};

// Options added to every `parsys run` of a test: ctest runs the end-to-end suites a second time
// with PARSYS_TEST_RUN_ARGS=--check-protocol, so every run is also checked against the TLM-2.0
// base protocol.
inline std::string with_test_run_args(const std::string& args) {
  const char* extra = std::getenv("PARSYS_TEST_RUN_ARGS");
  if (extra == nullptr || *extra == '\0' || args.rfind("run ", 0) != 0) return args;
  if (args.find(extra) != std::string::npos) return args;  // the test asks for it itself
  return args + " " + extra;
}

// Runs `parsys ARGS` through the shell. A run without --out gets --no-out: it would otherwise
// write parsys-out/ into the working directory, which tests running side by side share.
inline CliResult parsys(const std::string& args) {
  std::string a = with_test_run_args(args);
  if (a.rfind("run ", 0) == 0 && a.find("--out") == std::string::npos && a.find("--no-out") == std::string::npos)
    a += " --no-out";
  const std::string cmd = std::string(PARSYS_BIN) + " " + a + " 2>&1";
  CliResult r;
  FILE* p = popen(cmd.c_str(), "r");
  if (p == nullptr) return r;
  std::array<char, 4096> buf{};
  while (std::fgets(buf.data(), buf.size(), p)) r.out += buf.data();
  const int st = pclose(p);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

struct CliStreams {
  int status = -1;
  std::string out;  // stdout
  std::string err;  // stderr
};

// Runs `parsys ARGS` with stdout and stderr apart (where a message goes is part of the
// interface). `shell_prefix` runs first in the same shell, e.g. "ulimit -v 4000000 &&".
inline CliStreams parsys_streams(const std::string& args, const std::string& shell_prefix = "") {
  char err_path[] = "/tmp/parsys_stderr_XXXXXX";
  const int fd = mkstemp(err_path);
  CliStreams r;
  if (fd < 0) return r;
  close(fd);
  const std::string cmd = "sh -c '" + shell_prefix + " exec " + PARSYS_BIN + " " + with_test_run_args(args) +
                          "' 2>" + err_path;
  FILE* p = popen(cmd.c_str(), "r");
  if (p != nullptr) {
    std::array<char, 4096> buf{};
    std::size_t n = 0;
    while ((n = std::fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), n);
    const int st = pclose(p);
    // Killed by a signal: 128 + the signal, as a shell reports it.
    r.status = WIFEXITED(st) ? WEXITSTATUS(st) : WIFSIGNALED(st) ? 128 + WTERMSIG(st) : -1;
  }
  std::ifstream f(err_path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  r.err = ss.str();
  std::remove(err_path);
  return r;
}

inline std::string source_path(const std::string& relative) { return std::string(PARSYS_SOURCE_DIR) + "/" + relative; }
inline std::string kernel_file(const std::string& name) { return source_path("sw/kernels/" + name); }
inline std::string config_file(const std::string& name) { return source_path("platform/configs/" + name); }

inline std::string write_file(const std::string& path, const std::string& text) {
  std::ofstream(path) << text;
  return path;
}

inline std::string read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

inline nlohmann::json read_json(const std::string& path) {
  std::ifstream f(path);
  return nlohmann::json::parse(f);
}

inline bool contains(const std::string& s, const std::string& what) { return s.find(what) != std::string::npos; }

struct SignalledRun {
  bool ready = false;  // ready() held (and the handler was in place) before the upper bound
  int status = -1;     // exit status; 128 + the signal when killed by one
  std::string out;     // stdout and stderr
};

namespace detail {
// Whether process `pid` is parsys itself (not the shell that starts it) and catches SIGINT: it
// has installed its Ctrl-C handler (SigCgt in /proc/PID/status).
inline bool parsys_catches_sigint(pid_t pid) {
  std::ifstream comm("/proc/" + std::to_string(pid) + "/comm");
  std::string name;
  if (!std::getline(comm, name) || name != "parsys") return false;
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(status, line);)
    if (line.rfind("SigCgt:", 0) == 0) return (std::stoull(line.substr(7), nullptr, 16) >> (SIGINT - 1) & 1) != 0;
  return false;
}
}  // namespace detail

// Runs `parsys ARGS` in the background and sends it `sig` once it has installed its Ctrl-C
// handler and ready(output so far) holds (a marker it prints, a file it writes): a signal sent
// after a fixed delay may come before the handler on a loaded machine. Gives up after
// `max_wait_s` (the process is killed, `ready` stays false); then waits for the end.
inline SignalledRun parsys_signalled(const std::string& args, int sig,
                                     const std::function<bool(const std::string&)>& ready, double max_wait_s = 60) {
  SignalledRun r;
  char out_path[] = "/tmp/parsys_signalled_XXXXXX";
  const int fd = mkstemp(out_path);
  if (fd < 0) return r;
  const std::string cmd = "exec " + std::string(PARSYS_BIN) + " " + with_test_run_args(args);
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(fd, STDOUT_FILENO);
    dup2(fd, STDERR_FILENO);
    execl("/bin/sh", "sh", "-c", cmd.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  close(fd);
  int st = 0;
  bool ended = pid < 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(max_wait_s);
  while (!ended && std::chrono::steady_clock::now() < deadline) {
    if (detail::parsys_catches_sigint(pid) && ready(read_file(out_path))) {
      r.ready = true;
      break;
    }
    ended = waitpid(pid, &st, WNOHANG) == pid;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (!ended) {
    kill(pid, r.ready ? sig : SIGKILL);
    waitpid(pid, &st, 0);
  }
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : WIFSIGNALED(st) ? 128 + WTERMSIG(st) : -1;
  r.out = read_file(out_path);
  std::remove(out_path);
  return r;
}

}  // namespace par::testing
