// The options that choose a block's model: `<block>.model` ("builtin" or "plugin:/path.so") and
// `<block>.plugin_args` ("key=value,key2=value2"). Plain C++, no SystemC.
#pragma once

#include <string>
#include <vector>

namespace par::simkit {
class OptionRegistry;
}

namespace par::plugin {

// One argument handed to a plug-in's factory.
struct PluginArg {
  std::string key;
  std::string value;
  bool from_platform = false;  // supplied by parsys (size, base, clock_mhz), not by the user

  bool operator==(const PluginArg& o) const {
    return key == o.key && value == o.value && from_platform == o.from_platform;
  }
};

// A parsed `<block>.model` value.
struct ModelOption {
  bool builtin = true;
  std::string path;  // the shared library, when !builtin
};

// "builtin" or "plugin:PATH". Returns false with `error` set (without the option name) otherwise.
// PATH is used as given (relative to the working directory); dlopen's library search is not used.
bool parse_model_option(const std::string& text, ModelOption& out, std::string& error);

// "key=value,key2=value2" -> user arguments in the order given. Spaces around keys and values
// are ignored; an empty or blank text is no arguments. Keys are letters, digits, '_', '-', '.';
// values may hold anything but ','. Returns false with `error` set (without the option name) for
// an empty item, an item without '=', an empty key or value, a malformed or repeated key.
bool parse_plugin_args(const std::string& text, std::vector<PluginArg>& out, std::string& error);

// The two options of one block.
struct PluginConfig {
  std::string model = "builtin";
  std::string plugin_args;

  bool is_plugin() const;
  // Syntax of both options; messages name `<prefix>.model` / `<prefix>.plugin_args`.
  std::vector<std::string> validate(const std::string& prefix) const;
};

// Registers `<prefix>.model` and `<prefix>.plugin_args` bound to `cfg` (prefix "dram" gives
// --dram.model and --dram.plugin_args).
void register_options(simkit::OptionRegistry& reg, PluginConfig& cfg, const std::string& prefix);

}  // namespace par::plugin
