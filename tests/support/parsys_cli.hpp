// Helpers for end-to-end tests that run the parsys executable (PARSYS_BIN) as a user would:
// exit status, combined output, temporary directories and the files a run writes.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

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

// An empty directory of its own for one test (and for its variant with PARSYS_TEST_RUN_ARGS,
// which ctest may run at the same time).
inline std::string temp_dir(const std::string& name) {
  const char* extra = std::getenv("PARSYS_TEST_RUN_ARGS");
  const std::string variant = extra != nullptr && *extra != '\0' ? "_" + std::to_string(std::hash<std::string>{}(extra)) : "";
  const std::string d = std::string(::testing::TempDir()) + "parsys_cli_" + name + variant;
  std::system(("rm -rf '" + d + "' && mkdir -p '" + d + "'").c_str());
  return d;
}

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

}  // namespace par::testing
