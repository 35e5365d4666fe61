// A message naming the plug-in when the process dies of a signal inside plug-in code.
//
// A vendor model runs in parsys's process: when it dereferences a bad pointer or aborts, the
// process dies with nothing but "Segmentation fault". With the reporter installed, such a death
// first writes one line to stderr, for example
//
//   parsys: SIGSEGV in plug-in 'libvendor_dram.so' (vendor_dram by Acme Memories), model dram.model
//
// and then dies of the same signal as before (same exit status, core dump if enabled). The
// plug-in is found two ways: the faulting instruction lies in the code of a loaded plug-in, or
// parsys was executing a call into a plug-in model ("while running ..."; a model's process that
// waits inside such a call may leave it named while other code runs: best effort).
#pragma once

namespace par::plugin {

// Installs handlers for SIGSEGV, SIGBUS, SIGILL, SIGFPE and SIGABRT (once; later calls do
// nothing). Handlers installed before (a sanitizer's) still run afterwards.
void install_crash_reporter();

// The plug-in call parsys is executing now ("plug-in 'x.so' (name by vendor), model dram.model"),
// or null; safe from any thread (the run watchdog names a plug-in that does not return with it).
const char* plugin_call_in_progress();

}  // namespace par::plugin
