#include "par/plugin/plugin_library.hpp"

#include <dlfcn.h>
#include <sys/stat.h>

#include <array>

#include "plugin_call.hpp"

namespace par::plugin {

namespace {

std::string quoted(const std::string& path) { return "plug-in '" + path + "'"; }

std::string timing_names(unsigned mask) {
  std::string s;
  if ((mask & PARSYS_PLUGIN_LT) != 0) s = "loosely-timed";
  if ((mask & PARSYS_PLUGIN_AT) != 0) s += std::string(s.empty() ? "" : " and ") + "approximately-timed";
  return s;
}

// dlopen's message, with the usual cause spelt out: SystemC puts an sc_api_version_<release>_
// cxx<standard> symbol into every object that includes it, so a library built against another
// SystemC release or C++ standard fails to resolve it.
std::string explain_dlopen_error(const std::string& path, const char* dl) {
  const std::string message = dl != nullptr ? dl : "unknown dlopen error";
  std::string e = quoted(path) + " cannot be loaded: " + message;
  const auto at = message.find("sc_api_version_");
  if (at != std::string::npos) {
    std::string symbol = message.substr(at);
    const auto end = symbol.find_first_of(" ,<(");
    if (end != std::string::npos) symbol.resize(end);
    e += " (the plug-in was built against a different SystemC release or C++ standard, " + symbol +
         "; this parsys uses " + host_systemc_abi() + ": rebuild the plug-in against the same SystemC)";
  }
  return e;
}

}  // namespace

std::string PluginInfo::title() const { return name + " by " + vendor; }

const char* host_systemc_abi() { return PARSYS_PLUGIN_SYSTEMC_ABI; }

std::shared_ptr<PluginLibrary> PluginLibrary::open(const std::string& path, std::string& error) {
  struct stat st {};
  if (path.empty()) {
    error = "no plug-in library given";
    return nullptr;
  }
  if (::stat(path.c_str(), &st) != 0) {
    error = quoted(path) + ": no such file";
    return nullptr;
  }
  if (S_ISDIR(st.st_mode)) {
    error = quoted(path) + " is a directory, not a shared library";
    return nullptr;
  }
  // A path without '/' would make dlopen search the library path; the option names a file.
  const std::string file = path.find('/') == std::string::npos ? "./" + path : path;

  std::shared_ptr<PluginLibrary> lib(new PluginLibrary());
  lib->path_ = path;
  // RTLD_NODELETE: SystemC keeps objects whose code lives in the plug-in (process handles, the
  // reports' message types) until the simulation context is torn down at exit, after the
  // adapter has gone; unmapping the code at dlclose would leave them pointing nowhere.
  // Loading runs the library's static constructors: plug-in code.
  const std::string loading = quoted(path);
  detail::PluginCall call(loading.c_str());
  dlerror();
  lib->handle_ = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
  if (lib->handle_ == nullptr) {
    error = explain_dlopen_error(path, dlerror());
    return nullptr;
  }
  const auto info_fn = reinterpret_cast<par_plugin_info_fn>(dlsym(lib->handle_, PARSYS_PLUGIN_INFO_SYMBOL));
  if (info_fn == nullptr) {
    error = "'" + path + "' is not a parsys plug-in: it does not export " PARSYS_PLUGIN_INFO_SYMBOL
            "() (define it with PARSYS_DEFINE_PLUGIN from par/plugin/plugin_api.hpp)";
    return nullptr;
  }
  const par_plugin_info* info = info_fn();
  if (info == nullptr) {
    error = quoted(path) + ": " PARSYS_PLUGIN_INFO_SYMBOL "() returned null";
    return nullptr;
  }
  // Only the two frozen fields are read before the versions are known to match.
  if (info->api_version != PARSYS_PLUGIN_API_VERSION) {
    error = quoted(path) + " was built for parsys plug-in API version " + std::to_string(info->api_version) +
            ", but this parsys implements version " + std::to_string(PARSYS_PLUGIN_API_VERSION) +
            ": rebuild it against this parsys's installed headers";
    return nullptr;
  }
  const std::string abi = info->systemc_abi != nullptr ? info->systemc_abi : "(none)";
  if (abi != host_systemc_abi()) {
    error = quoted(path) + " was built against '" + abi + "', but this parsys uses '" + host_systemc_abi() +
            "': SystemC models can only be shared between binaries built against the same SystemC, "
            "TLM, C++ standard and C++ library; rebuild the plug-in against them";
    return nullptr;
  }
  lib->info_.api_version = info->api_version;
  lib->info_.systemc_abi = abi;
  lib->info_.name = info->name != nullptr ? info->name : "";
  lib->info_.vendor = info->vendor != nullptr ? info->vendor : "";
  lib->info_.timing = info->timing;
  if (lib->info_.name.empty()) {
    error = quoted(path) + " has an empty model name in " PARSYS_PLUGIN_INFO_SYMBOL "()";
    return nullptr;
  }
  const unsigned known = PARSYS_PLUGIN_LT | PARSYS_PLUGIN_AT;
  if (info->timing == 0 || (info->timing & ~known) != 0) {
    error = quoted(path) + " declares timing styles " + std::to_string(info->timing) +
            ": must be PARSYS_PLUGIN_LT, PARSYS_PLUGIN_AT or both";
    return nullptr;
  }
  lib->create_ = reinterpret_cast<par_plugin_create_fn>(dlsym(lib->handle_, PARSYS_PLUGIN_CREATE_SYMBOL));
  if (lib->create_ == nullptr) {
    error = "'" + path + "' is not a complete parsys plug-in: it exports " PARSYS_PLUGIN_INFO_SYMBOL
            "() but not " PARSYS_PLUGIN_CREATE_SYMBOL "()";
    return nullptr;
  }
  lib->call_label_ = quoted(path) + " (" + lib->info_.title() + ")";
  detail::remember_plugin_code(lib->handle_, lib->call_label_);
  return lib;
}

PluginLibrary::~PluginLibrary() {
  if (handle_ != nullptr) dlclose(handle_);
}

std::unique_ptr<TargetModel> PluginLibrary::create(const std::string& instance, const std::vector<PluginArg>& args,
                                                   std::string& error) const {
  std::vector<par_plugin_arg> raw;
  raw.reserve(args.size());
  for (const PluginArg& a : args)
    raw.push_back({a.key.c_str(), a.value.c_str(), a.from_platform ? PARSYS_PLUGIN_ARG_PLATFORM : PARSYS_PLUGIN_ARG_USER});
  const par_plugin_args list{raw.size(), raw.data()};
  std::array<char, 1024> reason{};
  std::unique_ptr<TargetModel> model;
  {
    detail::PluginCall call(call_label_.c_str());
    model.reset(create_(instance.c_str(), &list, reason.data(), reason.size()));
  }
  const std::string who = quoted(path_) + " (" + info_.title() + ")";
  if (model == nullptr) {
    reason.back() = '\0';
    error = who + " could not create '" + instance + "': " + (reason[0] != '\0' ? reason.data() : "no reason given");
    return nullptr;
  }
  const unsigned style = model->timing() == Timing::LooselyTimed ? PARSYS_PLUGIN_LT : PARSYS_PLUGIN_AT;
  if ((info_.timing & style) == 0) {
    error = who + " created " + (style == PARSYS_PLUGIN_LT ? "a " : "an ") + timing_names(style) +
            " model but declares only " + timing_names(info_.timing) +
            " models (the timing argument of PARSYS_DEFINE_PLUGIN)";
    return nullptr;
  }
  return model;
}

}  // namespace par::plugin
