// Shared pieces of the plug-in tests: a TargetSpec for a test plug-in and a script for the AT
// initiator of tests/support/at_initiator.hpp (tests/support/lt_initiator.hpp issues accesses with
// an annotated delay, which the TlmHarness does not).
#pragma once

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "support/at_initiator.hpp"
#include "support/lt_initiator.hpp"
#include "par/plugin/plugin_target.hpp"

namespace par::plugin::testing {

// A time as a number of nanoseconds.
inline double ns(const sc_core::sc_time& t) { return t / sc_core::sc_time(1, sc_core::SC_NS); }

inline TargetSpec spec_for(const std::string& library, const std::string& args,
                           const std::string& instance = "dram") {
  TargetSpec s;
  s.instance = instance;
  s.config.model = "plugin:" + library;
  s.config.plugin_args = args;
  s.platform_args = {{"size", "4096"}, {"base", "0x80000000"}};
  return s;
}

// make_target or fail the test.
inline std::unique_ptr<PluginTarget> make_or_fail(const TargetSpec& spec) {
  std::string error;
  std::unique_ptr<PluginTarget> t = make_target(spec, error);
  EXPECT_NE(t, nullptr) << error;
  return t;
}

inline double stat(const PluginTarget& t, const std::string& path) {
  const simkit::Stat* s = t.stats().find(path);
  EXPECT_NE(s, nullptr) << path;
  return s != nullptr ? s->number() : -1;
}

inline std::vector<double> sorted(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v;
}

// `count` reads of 8 bytes at t = 0 (addresses 0, 8, ...) from an approximately-timed initiator,
// END_RESP 2 ns after each BEGIN_RESP.
inline void at_reads(par::testing::AtInitiator& at, int count) {
  at.end_resp_after = sc_core::sc_time(2, sc_core::SC_NS);
  for (int i = 0; i < count; ++i) at.read(static_cast<std::uint64_t>(8 * i), 8);
}

// The response statuses of `at`'s requests, in order.
inline std::vector<tlm::tlm_response_status> statuses(const par::testing::AtInitiator& at) {
  std::vector<tlm::tlm_response_status> v;
  for (const auto& r : at.requests) v.push_back(r.status);
  return v;
}

}  // namespace par::plugin::testing
