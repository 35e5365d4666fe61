// One loaded plug-in shared library (dlopen / dlsym / dlclose, RAII) and its checked identity.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "par/plugin/plugin_api.hpp"
#include "par/plugin/plugin_options.hpp"

namespace par::plugin {

// par_plugin_info, copied out of the library.
struct PluginInfo {
  int api_version = 0;
  std::string systemc_abi;
  std::string name;
  std::string vendor;
  unsigned timing = 0;  // PARSYS_PLUGIN_LT | PARSYS_PLUGIN_AT

  // "vendor_dram by Acme Memories".
  std::string title() const;
};

// The ABI string this parsys was built with (PARSYS_PLUGIN_SYSTEMC_ABI).
const char* host_systemc_abi();

class PluginLibrary {
 public:
  // Loads `path` and checks that it is a parsys plug-in of this API version built against the
  // same SystemC/TLM/C++ ABI. Returns null with `error` set: no such file, cannot be loaded
  // (dlerror, explained when it is a SystemC version mismatch), not a parsys plug-in (missing
  // entry point), API or SystemC version mismatch (both versions named), bad timing mask. No code
  // of the library except parsys_plugin_info() runs before the versions are checked.
  static std::shared_ptr<PluginLibrary> open(const std::string& path, std::string& error);

  ~PluginLibrary();
  PluginLibrary(const PluginLibrary&) = delete;
  PluginLibrary& operator=(const PluginLibrary&) = delete;

  const std::string& path() const { return path_; }
  const PluginInfo& info() const { return info_; }
  // "plug-in 'lib.so' (name by vendor)": how crash reports (crash_report.hpp) name its code.
  const std::string& call_label() const { return call_label_; }

  // Calls the factory: a model named `instance` (a child of the module under construction, so
  // call it during elaboration). Returns null with `error` set to the plug-in's own reason, or
  // when the model's timing() is not one the plug-in declared. The model must be destroyed
  // before this library.
  std::unique_ptr<TargetModel> create(const std::string& instance, const std::vector<PluginArg>& args,
                                      std::string& error) const;

 private:
  PluginLibrary() = default;

  std::string path_;
  std::string call_label_;
  void* handle_ = nullptr;
  PluginInfo info_;
  par_plugin_create_fn create_ = nullptr;
};

}  // namespace par::plugin
