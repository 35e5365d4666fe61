// Drives a simulation to its end in slices of simulated time, so a long run stays responsive:
// between slices it draws a progress line (when stderr is a terminal), honours the host-time
// limit and Ctrl-C, and notices starvation (no process can run: a deadlock).
#pragma once

#include <functional>
#include <iosfwd>
#include <string>

#include <systemc>

#include "par/simkit/json.hpp"

namespace par::platform {

enum class RunStop;
struct StuckRun;

struct RunLimits {
  double max_host_seconds = 0;  // 0 = none
  bool progress = false;        // draw a progress line
  // Every `window` of simulated time (zero: never), the simulation pauses and on_window(end of
  // the window) runs (time-windowed statistics samples).
  sc_core::sc_time window = sc_core::SC_ZERO_TIME;
  std::function<void(sc_core::sc_time)> on_window;
  // When Ctrl-C or the host-time limit has come and the simulation has not come back to the run
  // loop `stuck_grace_seconds` later (a model stuck inside a call), on_stuck runs on a watchdog
  // thread (run_watchdog.hpp; Platform::run sets one up) to write what it can, and the process
  // ends (exit status 130 for Ctrl-C, 1 for the limit). Without on_stuck there is no watchdog.
  // SystemC's thread may still be running then, so on_stuck gets only what that thread published
  // at its last safe point (StuckRun) and must not read the models.
  double stuck_grace_seconds = 3;
  std::function<void(const StuckRun&)> on_stuck;
  // Called on SystemC's thread after each slice, at a safe point: no model is in a call.
  std::function<void()> at_safe_point;
};

enum class RunStop {
  Finished,       // sc_stop() was called: the platform's work is done
  Starved,        // nothing left to run before the work was done: a deadlock
  Interrupted,    // Ctrl-C
  HostTimeLimit,  // RunLimits::max_host_seconds
};

// A run whose simulation did not come back (RunLimits::on_stuck): built on the watchdog's thread
// from what SystemC's thread published at its last safe point and from atomics only.
struct StuckRun {
  RunStop why = RunStop::Interrupted;
  std::string message;  // the one line for stderr, without "parsys: "
  simkit::Json stats;   // stats.json's document as of the last safe point, "end" saying why
  std::string table;    // stats.txt of the same
};

// Ctrl-C (SIGINT) sets a flag that run_simulation() polls between slices; a second Ctrl-C
// terminates at once. The flag is the one process-wide state here: signal handlers need it.
void install_interrupt_handler();
bool interrupt_requested();

// SystemC's reports (warnings such as W571, infos, errors) go to stderr as one line each, not to
// standard output where SystemC's own handler would print them among the run's report; `quiet`
// (parsys -q) leaves out warnings and infos. The settings are process-wide, like the Ctrl-C flag:
// SystemC's report handler is a plain function.
void install_report_handler(bool quiet);

// Model errors (SC_REPORT_ERROR: a protocol violation, a SystemC error) stop the run and the first
// one's message is kept, instead of an exception thrown across SystemC's coroutine stacks.
void install_model_error_recorder();
const std::string& first_model_error();

// Ends the simulation (sc_stop) when `done` is notified: the platform's work is over (the host
// software ended). Without it the run would end by starvation, which means a deadlock.
class StopOnEvent : public sc_core::sc_module {
 public:
  StopOnEvent(sc_core::sc_module_name name, const sc_core::sc_event& done);

 private:
  void stop() { sc_core::sc_stop(); }
};

// Runs sc_start() slices until one of RunStop happens; `status` gives the progress text (e.g.
// "12.3 us simulated, 4/10 launches").
RunStop run_simulation(const RunLimits& limits, const std::function<std::string()>& status, std::ostream& progress);

}  // namespace par::platform
