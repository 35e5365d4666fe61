// Registry internals shared by options.cpp (registration), options_parse.cpp and options_dump.cpp.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "par/simkit/options.hpp"

namespace par::simkit {

struct OptionRegistry::Impl {
  std::vector<std::unique_ptr<Option>> options;  // registration order
  std::map<std::string, Option*, std::less<>> by_name;
  int next_source = 0;  // ids of parse sources (files, command lines), unique across parse() calls
  std::vector<std::string> instance_types;   // add_instances()
  std::vector<InstanceValue> instance_values;

  Option* find(std::string_view name) const;
  Option* find_short(char c) const;
  // Sections in order of first appearance; "" (options without a dot) first when present.
  std::vector<std::string> sections(bool include_command_line_only) const;
  // The type's option that `name` (core3.lanes) overrides, with the instance's type and name in
  // `value`; nullptr when `name` names no instance's option.
  Option* find_instance(std::string_view name, InstanceValue& value) const;
  // Checks `text` as `option`'s value and keeps it as `value`'s (replacing an earlier one of the
  // same instance and option). Returns "" or the error without the option name.
  std::string set_instance(Option& option, InstanceValue value, const std::string& text);
  // "(did you mean 'x'?)" with the closest name, or "" when nothing is close.
  std::string suggestion(std::string_view name, const std::string& dashes, bool command_line) const;
};

namespace detail {

// The registry's side door into an Option's private parse hooks.
struct OptionAccess {
  static std::string assign(Option& o, const std::string& text) { return o.assign(text); }
  static bool is_flag(const Option& o) { return o.is_flag(); }
  static bool is_list(const Option& o) { return o.is_list(); }
  static void clear_list(Option& o) { o.clear_list(); }
  static std::vector<std::string> list_items(const Option& o) { return o.list_items(); }
  static int& list_source(Option& o) { return o.list_source_; }
  static void set_origin(Option& o, Origin origin) { o.origin_ = std::move(origin); }
  static void set_owner(Option& o, const OptionRegistry* owner) { o.owner_ = owner; }
};

}  // namespace detail
}  // namespace par::simkit
