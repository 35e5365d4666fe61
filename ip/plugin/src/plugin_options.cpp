#include "par/plugin/plugin_options.hpp"

#include <set>

#include "par/simkit/options.hpp"

namespace par::plugin {

namespace {

constexpr const char* kPluginPrefix = "plugin:";

std::string trim(const std::string& s) {
  const auto first = s.find_first_not_of(" \t");
  if (first == std::string::npos) return "";
  const auto last = s.find_last_not_of(" \t");
  return s.substr(first, last - first + 1);
}

bool valid_key(const std::string& key) {
  for (const char c : key) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '_' || c == '-' || c == '.';
    if (!ok) return false;
  }
  return !key.empty();
}

}  // namespace

bool parse_model_option(const std::string& text, ModelOption& out, std::string& error) {
  const std::string t = trim(text);
  if (t == "builtin") {
    out = ModelOption{};
    return true;
  }
  const std::string prefix = kPluginPrefix;
  if (t.compare(0, prefix.size(), prefix) == 0) {
    const std::string path = trim(t.substr(prefix.size()));
    if (path.empty()) {
      error = "'" + text + "' names no shared library (write plugin:/path/to/model.so)";
      return false;
    }
    out.builtin = false;
    out.path = path;
    return true;
  }
  error = "'" + text + "' is neither 'builtin' nor 'plugin:/path/to/model.so'";
  return false;
}

bool parse_plugin_args(const std::string& text, std::vector<PluginArg>& out, std::string& error) {
  out.clear();
  if (trim(text).empty()) return true;
  std::set<std::string> seen;
  std::size_t start = 0;
  for (int index = 1;; ++index) {
    const std::size_t comma = text.find(',', start);
    const std::string item = trim(text.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (item.empty()) {
      error = "argument " + std::to_string(index) + " is empty (two commas in a row, or a comma at an end)";
      return false;
    }
    const std::size_t eq = item.find('=');
    if (eq == std::string::npos) {
      error = "'" + item + "' is not key=value";
      return false;
    }
    PluginArg arg;
    arg.key = trim(item.substr(0, eq));
    arg.value = trim(item.substr(eq + 1));
    if (arg.key.empty()) {
      error = "'" + item + "' has no key before '='";
      return false;
    }
    if (!valid_key(arg.key)) {
      error = "key '" + arg.key + "' may only hold letters, digits, '_', '-' and '.'";
      return false;
    }
    if (arg.value.empty()) {
      error = "'" + item + "' has no value after '='";
      return false;
    }
    if (!seen.insert(arg.key).second) {
      error = "key '" + arg.key + "' is given twice";
      return false;
    }
    out.push_back(arg);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return true;
}

bool PluginConfig::is_plugin() const {
  ModelOption m;
  std::string error;
  return parse_model_option(model, m, error) && !m.builtin;
}

std::vector<std::string> PluginConfig::validate(const std::string& prefix) const {
  std::vector<std::string> e;
  ModelOption m;
  std::string error;
  const bool model_ok = parse_model_option(model, m, error);
  if (!model_ok) e.push_back(prefix + ".model: " + error);
  std::vector<PluginArg> args;
  if (!parse_plugin_args(plugin_args, args, error)) {
    e.push_back(prefix + ".plugin_args: " + error);
  } else if (!args.empty() && model_ok && m.builtin) {
    e.push_back(prefix + ".plugin_args: given, but " + prefix +
                ".model is 'builtin' (the arguments are for a plug-in: set " + prefix +
                ".model to plugin:/path/to/model.so)");
  }
  return e;
}

void register_options(simkit::OptionRegistry& reg, PluginConfig& cfg, const std::string& prefix) {
  reg.add(prefix + ".model", cfg.model,
          "Model of this block: 'builtin', or 'plugin:/path/lib.so' for a vendor model loaded "
          "from a shared library (docs/plugging-in-ip.md).");
  reg.add(prefix + ".plugin_args", cfg.plugin_args,
          "Arguments for the plug-in model, 'key=value,key2=value2' (see the plug-in's "
          "documentation).");
}

}  // namespace par::plugin
