#include "run_control.hpp"

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <iostream>
#include <ostream>

#include <systemc>

namespace par::platform {

namespace {

std::atomic<bool> interrupt_flag{false};

void on_interrupt(int) {
  if (interrupt_flag.exchange(true)) std::_Exit(130);  // the second Ctrl-C: give up at once
}

}  // namespace

StopOnEvent::StopOnEvent(sc_core::sc_module_name name, const sc_core::sc_event& done) : sc_module(name) {
  SC_HAS_PROCESS(StopOnEvent);
  SC_METHOD(stop);
  sensitive << done;
  dont_initialize();
}

namespace {
struct ReportState {
  std::string first_error;
  bool record_errors = false;  // install_model_error_recorder()
  bool quiet = false;          // no warnings or infos
};
ReportState& report_state() {
  static ReportState state;
  return state;
}
const char* severity_name(sc_core::sc_severity s) {
  switch (s) {
    case sc_core::SC_INFO: return "info";
    case sc_core::SC_WARNING: return "warning";
    case sc_core::SC_ERROR: return "error";
    default: return "fatal error";
  }
}
void handle_report(const sc_core::sc_report& report, const sc_core::sc_actions& actions) {
  ReportState& state = report_state();
  if (state.record_errors && report.get_severity() == sc_core::SC_ERROR) {
    if (state.first_error.empty()) state.first_error = report.get_msg();
    sc_core::sc_stop();
    return;
  }
  // SystemC's own handler prints to standard output, which carries the report: print here, on
  // stderr, one line. A report that is thrown is printed by whoever catches it.
  if ((actions & sc_core::SC_DISPLAY) != 0 && (actions & sc_core::SC_THROW) == 0 &&
      (!state.quiet || report.get_severity() >= sc_core::SC_ERROR))
    std::cerr << "parsys: SystemC " << severity_name(report.get_severity()) << ": " << report.get_msg_type() << ": "
              << report.get_msg() << '\n';
  sc_core::sc_report_handler::default_handler(report, actions & ~sc_core::SC_DISPLAY);
}
}  // namespace

void install_report_handler(bool quiet) {
  report_state().quiet = quiet;
  sc_core::sc_report_handler::set_handler(handle_report);
}
void install_model_error_recorder() {
  report_state().record_errors = true;
  sc_core::sc_report_handler::set_handler(handle_report);
}
const std::string& first_model_error() { return report_state().first_error; }

void install_interrupt_handler() { std::signal(SIGINT, on_interrupt); }

bool interrupt_requested() { return interrupt_flag.load(); }

RunStop run_simulation(const RunLimits& limits, const std::function<std::string()>& status, std::ostream& progress) {
  using clock = std::chrono::steady_clock;
  const auto start = clock::now();
  auto last_line = start - std::chrono::seconds(1);  // the first line right after the first slice
  bool drawn = false;
  // The slice adapts so that each takes a few tens of milliseconds of host time.
  sc_core::sc_time slice(1, sc_core::SC_US);
  RunStop stop = RunStop::Finished;
  const bool windows = limits.window > sc_core::SC_ZERO_TIME && limits.on_window;
  sc_core::sc_time next_window = sc_core::sc_time_stamp() + limits.window;
  for (;;) {
    const auto before = clock::now();
    // Slices end on window boundaries, where the samples are taken.
    sc_core::sc_time run_for = slice;
    if (windows && next_window - sc_core::sc_time_stamp() < run_for) run_for = next_window - sc_core::sc_time_stamp();
    sc_core::sc_start(run_for, sc_core::SC_EXIT_ON_STARVATION);
    if (sc_core::sc_get_status() == sc_core::SC_STOPPED || sc_core::sc_end_of_simulation_invoked()) break;
    if (!sc_core::sc_pending_activity()) {
      stop = RunStop::Starved;
      break;
    }
    // With SC_EXIT_ON_STARVATION time stops at the last event, so a boundary is reached when the
    // next activity lies at or beyond it: the state there is the current one.
    while (windows && sc_core::sc_time_stamp() + sc_core::sc_time_to_pending_activity() >= next_window) {
      limits.on_window(next_window);
      next_window += limits.window;
    }
    const auto now = clock::now();
    const double slice_s = std::chrono::duration<double>(now - before).count();
    if (slice_s < 0.02) slice *= 2;
    else if (slice_s > 0.2 && slice > sc_core::sc_time(1, sc_core::SC_NS)) slice /= 2;
    if (limits.at_safe_point) limits.at_safe_point();
    if (interrupt_requested()) {
      stop = RunStop::Interrupted;
      break;
    }
    const double host = std::chrono::duration<double>(now - start).count();
    if (limits.max_host_seconds > 0 && host > limits.max_host_seconds) {
      stop = RunStop::HostTimeLimit;
      break;
    }
    if (limits.progress && std::chrono::duration<double>(now - last_line).count() > 0.25) {
      progress << "\r\033[K" << "parsys: " << status() << ", host " << static_cast<int>(host * 10) / 10.0 << " s" << std::flush;
      last_line = now;
      drawn = true;
    }
  }
  if (drawn) progress << "\r\033[K" << std::flush;
  return stop;
}

}  // namespace par::platform
