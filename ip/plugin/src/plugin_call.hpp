// Bookkeeping for crash_report.hpp: which plug-in code parsys is executing, and where each loaded
// plug-in's code lies. Private to the plug-in library.
#pragma once

#include <atomic>
#include <string>
#include <utility>

namespace par::plugin::detail {

// The plug-in being called ("plug-in 'x.so' (name by vendor), model dram.model"); null outside
// plug-in code. A plain atomic pointer: the signal handler reads it.
extern std::atomic<const char*> current_plugin_call;

// Marks a call into plug-in code for its lifetime; nests. `what` must outlive the call.
class PluginCall {
 public:
  explicit PluginCall(const char* what) : previous_(current_plugin_call.exchange(what, std::memory_order_relaxed)) {}
  ~PluginCall() { current_plugin_call.store(previous_, std::memory_order_relaxed); }
  PluginCall(const PluginCall&) = delete;
  PluginCall& operator=(const PluginCall&) = delete;

 private:
  const char* previous_;
};

// `f()` as a call into plug-in code.
template <class F>
decltype(auto) call_plugin(const char* what, F&& f) {
  const PluginCall call(what);
  return std::forward<F>(f)();
}

// Records the executable segments of the loaded library `handle` under `label` (kept for the
// life of the process, like the library's code: plug-ins are loaded RTLD_NODELETE).
void remember_plugin_code(void* handle, const std::string& label);

}  // namespace par::plugin::detail
