// Typed configuration options with dotted names, read from INI files and the command line.
//
// Each module registers its parameters bound to the fields of its own configuration struct; the
// field's value at registration is the default. parse() then writes the fields directly:
//
//   OptionRegistry reg;
//   reg.add("core.lanes", cfg.lanes, "Lanes per PAR core.").range(1, 64);
//   reg.add_enum("core.count", cfg.count, "When to count.", {{"issue", Count::Issue},
//                                                            {"commit", Count::Commit}});
//   reg.add("help", want_help, "Print this help and exit.").command_line_only().short_name('h');
//   ParseResult r = reg.parse(argc, argv);   // --config FILE (repeatable), --name VALUE, ...
//   for (const auto& e : r.errors) std::cerr << "parsys: " << e << '\n';
//
// User input never throws: every problem becomes a message in ParseResult::errors. Registration
// mistakes (duplicate or malformed names, a default outside its own range) are programming
// errors and throw std::invalid_argument.
#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "par/simkit/json.hpp"

namespace par::simkit {

class OptionRegistry;
namespace detail {
struct OptionAccess;
}

// Where the current value of an option came from.
struct Origin {
  enum class Kind { Default, File, CommandLine };
  Kind kind = Kind::Default;
  std::string file;  // Kind::File: the path as given to --config
  int line = 0;      // Kind::File: 1-based line (0 for a JSON file: "file")

  // "default", "run.ini:3" or "command line".
  std::string str() const;
};

// One registered option. Obtained from OptionRegistry::add*; lives as long as the registry.
class Option {
 public:
  Option(const Option&) = delete;
  Option& operator=(const Option&) = delete;
  virtual ~Option();

  const std::string& name() const noexcept { return name_; }
  const std::string& help() const noexcept { return help_; }
  const Origin& origin() const noexcept { return origin_; }
  // Everything before the last dot ("core" for "core.lanes", "" for "out"): the INI section.
  std::string section() const;

  // Command line only: rejected in INI files and not part of the effective configuration
  // (for --out, --help, ...).
  Option& command_line_only() noexcept;
  bool is_command_line_only() const noexcept { return cli_only_; }
  // One-letter alias on the command line ('h' -> -h).
  Option& short_name(char c);
  char short_alias() const noexcept { return short_; }

  virtual std::string type_name() const = 0;     // bool int uint int64 uint64 real string enum list
  virtual std::string metavar() const = 0;       // "<int>", "<issue|commit>", "[=<bool>]"
  virtual std::string value_text() const = 0;    // current value, INI spelling, not quoted
  virtual std::string default_text() const = 0;  // value at registration, same spelling
  virtual Json value_json() const = 0;
  virtual Json default_json() const = 0;
  // Allowed values for the help text: "1..64", ">= 1", "" when unconstrained.
  virtual std::string constraint_text() const;

 protected:
  Option(std::string name, std::string help);

 private:
  friend class OptionRegistry;
  friend struct detail::OptionAccess;
  // Converts `text` and stores it in the field. Returns "" or the error without the option name
  // ("'abc' is not an integer").
  virtual std::string assign(const std::string& text) = 0;
  // A flag may be given without a value (--help means --help=true).
  virtual bool is_flag() const noexcept { return false; }
  // Lists append on repetition; the first value from a new source replaces the old list.
  virtual bool is_list() const noexcept { return false; }
  virtual void clear_list() {}
  virtual std::vector<std::string> list_items() const { return {}; }

  std::string name_;
  std::string help_;
  Origin origin_;
  bool cli_only_ = false;
  char short_ = 0;
  const OptionRegistry* owner_ = nullptr;  // for the uniqueness check of short names
  int list_source_ = -1;  // parse source (file index or command line) that last wrote a list
};

// A numeric option (T: int, unsigned, int64_t, uint64_t, double) with an optional range.
template <class T>
class NumberOption final : public Option {
  static_assert(std::is_same_v<T, int> || std::is_same_v<T, unsigned> ||
                    std::is_same_v<T, std::int64_t> || std::is_same_v<T, std::uint64_t> ||
                    std::is_same_v<T, double>,
                "unsupported option type");

 public:
  NumberOption(std::string name, T& field, std::string help);

  // Inclusive bounds, checked on every value read from a file or the command line. Throws
  // std::invalid_argument if the default itself is outside.
  NumberOption& min(T lo);
  NumberOption& max(T hi);
  NumberOption& range(T lo, T hi);
  // Integers: written in hexadecimal in help and dumps (addresses, masks).
  NumberOption& hex();

  std::string type_name() const override;
  std::string metavar() const override;
  std::string value_text() const override;
  std::string default_text() const override;
  Json value_json() const override;
  Json default_json() const override;
  std::string constraint_text() const override;

 private:
  std::string assign(const std::string& text) override;
  std::string text_of(T v) const;
  void check_default() const;

  T& field_;
  T default_;
  std::optional<T> min_;
  std::optional<T> max_;
  bool hex_ = false;
};

// A value given to one instance of a module type: `core3.lanes` over the type's `core.lanes`.
struct InstanceValue {
  std::string type;      // "core", "l2.bank"
  std::string instance;  // "core3", "l2.bank2": the type followed by a number
  std::string option;    // the type's option it overrides: "core.lanes"
  std::string text;      // the value, INI spelling (as the option's value_text() writes it)
  Json json;             // the same value as effective_json() writes it
  Origin origin;

  std::string name() const { return instance + option.substr(type.size()); }  // "core3.lanes"
  int index() const { return std::stoi(instance.substr(type.size())); }     // 3
};

struct ParseResult {
  std::vector<std::string> positional;    // non-option arguments, in order
  std::vector<std::string> config_files;  // --config files, in the order they were applied
  std::vector<std::string> errors;        // one complete message each; empty on success
  bool ok() const noexcept { return errors.empty(); }
};

class OptionRegistry {
 public:
  OptionRegistry();
  ~OptionRegistry();
  OptionRegistry(const OptionRegistry&) = delete;
  OptionRegistry& operator=(const OptionRegistry&) = delete;

  // Names: dot-separated words of [A-Za-z0-9_-]; "config" is reserved; an option name may not
  // also be the prefix of another one ("core" and "core.lanes"), so the JSON dump can nest.
  Option& add(const std::string& name, bool& field, const std::string& help);
  NumberOption<int>& add(const std::string& name, int& field, const std::string& help);
  NumberOption<unsigned>& add(const std::string& name, unsigned& field, const std::string& help);
  NumberOption<std::int64_t>& add(const std::string& name, std::int64_t& field,
                                  const std::string& help);
  NumberOption<std::uint64_t>& add(const std::string& name, std::uint64_t& field,
                                   const std::string& help);
  NumberOption<double>& add(const std::string& name, double& field, const std::string& help);
  Option& add(const std::string& name, std::string& field, const std::string& help);
  // Repeatable: every occurrence appends (--dump-mem A --dump-mem B). An empty value clears.
  Option& add(const std::string& name, std::vector<std::string>& field, const std::string& help);
  // Enumerations: choice names are case-sensitive; the default must be one of the choices.
  template <class E>
  Option& add_enum(const std::string& name, E& field, const std::string& help,
                   std::initializer_list<std::pair<const char*, E>> choices);

  // Command line (program name first, as main() receives it) or arguments without the program
  // name. Applies the --config files in order, then the command line over them. A second call
  // applies on top of the first.
  ParseResult parse(int argc, const char* const* argv);
  ParseResult parse(const std::vector<std::string>& args);

  // Per-instance options: declares `type` ("core", "l2.bank") a module type with numbered
  // instances, so that `<type><N>.<rest>` (core3.lanes) gives instance N its own value of the
  // type's option `<type>.<rest>` (core.lanes), in files and on the command line, whatever the
  // order. parse() converts and checks the value as the type's option does and keeps it in
  // instance_values(); the type's field is not changed. Which instances exist is the caller's to
  // check. List options have no per-instance values.
  void add_instances(const std::string& type);
  // The per-instance values read so far, one per instance and option (the last given wins), in
  // the order first given.
  const std::vector<InstanceValue>& instance_values() const;
  // The type's option that an instance's option name overrides (core.lanes for core3.lanes), or
  // nullptr.
  const Option* find_instance_option(const std::string& name) const;
  // Assigns `instance`'s values among `values` to this registry's options of the same names: a
  // registry in which the instance's module registered its options bound to the instance's own
  // configuration (a copy of the type's). Returns the errors (none for values that parse()
  // accepted).
  std::vector<std::string> assign_instance(const std::vector<InstanceValue>& values, const std::string& instance);

  // nullptr when unknown.
  const Option* find(const std::string& name) const;
  // All options in registration order.
  std::vector<const Option*> options() const;

  // Every option grouped by section: name, type, help, default and allowed values; fits in
  // 100 columns.
  void help(std::ostream& os) const;
  // An INI file that reproduces the current values when given back with --config. Every option
  // except command-line-only ones, a comment after each value saying where it came from; then a
  // section per instance with its own values ([core3] lanes = 4).
  std::string effective_ini() const;
  // The same values as nested objects ({"core": {"lanes": 8}, "core3": {"lanes": 4}});
  // with_origin makes each leaf {"value", "default", "origin", "type", "help"} (an instance's
  // "default" is the type's value).
  Json effective_json(bool with_origin = false) const;

  struct Impl;  // opaque; public only so the library's own source files can name it

 private:
  friend class Option;  // short_name() checks uniqueness
  Option& add_enum_impl(const std::string& name, const std::string& help,
                        std::vector<std::pair<std::string, std::int64_t>> choices,
                        std::function<std::int64_t()> get, std::function<void(std::int64_t)> set);
  template <class O>
  O& insert(std::unique_ptr<O> option);
  void check_name(const std::string& name) const;

  std::unique_ptr<Impl> impl_;
};

template <class E>
Option& OptionRegistry::add_enum(const std::string& name, E& field, const std::string& help,
                                 std::initializer_list<std::pair<const char*, E>> choices) {
  static_assert(std::is_enum_v<E>, "add_enum needs an enumeration field");
  std::vector<std::pair<std::string, std::int64_t>> list;
  for (const auto& choice : choices) {
    list.emplace_back(choice.first, static_cast<std::int64_t>(choice.second));
  }
  return add_enum_impl(
      name, help, std::move(list), [&field] { return static_cast<std::int64_t>(field); },
      [&field](std::int64_t v) { field = static_cast<E>(v); });
}

}  // namespace par::simkit
