// Per-instance options (core3.lanes over core.lanes): recognising their names, checking and
// keeping their values, applying them to an instance's configuration.
#include <cctype>
#include <stdexcept>

#include "options_impl.hpp"

namespace par::simkit {

using detail::OptionAccess;

void OptionRegistry::add_instances(const std::string& type) {
  if (type.empty() || type.back() == '.' || std::isdigit(static_cast<unsigned char>(type.back())))
    throw std::invalid_argument("invalid instance type '" + type + "'");
  impl_->instance_types.push_back(type);
}

const std::vector<InstanceValue>& OptionRegistry::instance_values() const { return impl_->instance_values; }

const Option* OptionRegistry::find_instance_option(const std::string& name) const {
  InstanceValue ignored;
  return impl_->find_instance(name, ignored);
}

Option* OptionRegistry::Impl::find_instance(std::string_view name, InstanceValue& value) const {
  for (const std::string& type : instance_types) {
    if (name.substr(0, type.size()) != type) continue;
    std::size_t end = type.size();
    while (end < name.size() && std::isdigit(static_cast<unsigned char>(name[end]))) ++end;
    // A number without leading zeros (core03 would be a second name of core3), then ".rest".
    const std::string_view number = name.substr(type.size(), end - type.size());
    if (number.empty() || number.size() > 9 || (number.size() > 1 && number[0] == '0')) continue;
    if (end >= name.size() || name[end] != '.') continue;
    Option* option = find(type + std::string(name.substr(end)));
    if (option == nullptr || option->is_command_line_only() || OptionAccess::is_list(*option)) continue;
    value.type = type;
    value.instance = std::string(name.substr(0, end));
    value.option = option->name();
    return option;
  }
  return nullptr;
}

std::string OptionRegistry::Impl::set_instance(Option& option, InstanceValue value, const std::string& text) {
  // The type's option converts and checks the value; its own value is put back.
  const std::string own = option.value_text();
  const std::string problem = OptionAccess::assign(option, text);
  if (problem.empty()) {
    value.text = option.value_text();
    value.json = option.value_json();
  }
  if (!OptionAccess::assign(option, own).empty())
    throw std::logic_error("option '" + option.name() + "' does not read back its own value '" + own + "'");
  if (!problem.empty()) return problem;
  for (InstanceValue& v : instance_values)
    if (v.instance == value.instance && v.option == value.option) {
      v = std::move(value);
      return "";
    }
  instance_values.push_back(std::move(value));
  return "";
}

std::vector<std::string> OptionRegistry::assign_instance(const std::vector<InstanceValue>& values,
                                                        const std::string& instance) {
  std::vector<std::string> errors;
  for (const InstanceValue& v : values) {
    if (v.instance != instance) continue;
    Option* option = impl_->find(v.option);
    const std::string problem =
        option == nullptr ? "'" + v.option + "' is not an option here" : OptionAccess::assign(*option, v.text);
    if (!problem.empty()) errors.push_back(v.name() + ": " + problem);
  }
  return errors;
}

}  // namespace par::simkit
