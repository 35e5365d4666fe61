// Option types and registration.
#include "par/simkit/options.hpp"

#include <cctype>
#include <limits>
#include <stdexcept>

#include "option_values.hpp"
#include "options_impl.hpp"
#include "par/simkit/format.hpp"

namespace par::simkit {

using detail::OptionAccess;

// ---------------------------------------------------------------------------------------------
// Origin, Option

std::string Origin::str() const {
  switch (kind) {
    case Kind::Default:
      return "default";
    case Kind::File:
      return line > 0 ? file + ":" + std::to_string(line) : file;  // JSON files: no line
    case Kind::CommandLine:
      return "command line";
  }
  return "?";
}

Option::Option(std::string name, std::string help)
    : name_(std::move(name)), help_(std::move(help)) {}

Option::~Option() = default;

std::string Option::section() const {
  const auto dot = name_.rfind('.');
  return dot == std::string::npos ? std::string() : name_.substr(0, dot);
}

Option& Option::command_line_only() noexcept {
  cli_only_ = true;
  return *this;
}

Option& Option::short_name(char c) {
  if (!std::isalpha(static_cast<unsigned char>(c))) {
    throw std::invalid_argument("option '" + name_ + "': short name must be a letter");
  }
  if (owner_ != nullptr) {
    const Option* other = owner_->impl_->find_short(c);
    if (other != nullptr && other != this) {
      throw std::invalid_argument(std::string("short option -") + c + " is used by both '" +
                                  other->name() + "' and '" + name_ + "'");
    }
  }
  short_ = c;
  return *this;
}

std::string Option::constraint_text() const { return ""; }

// ---------------------------------------------------------------------------------------------
// NumberOption<T>

namespace {

template <class T>
const char* number_type_name() {
  if constexpr (std::is_same_v<T, int>) return "int";
  if constexpr (std::is_same_v<T, unsigned>) return "uint";
  if constexpr (std::is_same_v<T, std::int64_t>) return "int64";
  if constexpr (std::is_same_v<T, std::uint64_t>) return "uint64";
  if constexpr (std::is_same_v<T, double>) return "real";
}

}  // namespace

template <class T>
NumberOption<T>::NumberOption(std::string name, T& field, std::string help)
    : Option(std::move(name), std::move(help)), field_(field), default_(field) {}

template <class T>
NumberOption<T>& NumberOption<T>::min(T lo) {
  min_ = lo;
  check_default();
  return *this;
}

template <class T>
NumberOption<T>& NumberOption<T>::max(T hi) {
  max_ = hi;
  check_default();
  return *this;
}

template <class T>
NumberOption<T>& NumberOption<T>::range(T lo, T hi) {
  if (hi < lo) throw std::invalid_argument("option '" + name() + "': empty range");
  min_ = lo;
  max_ = hi;
  check_default();
  return *this;
}

template <class T>
NumberOption<T>& NumberOption<T>::hex() {
  hex_ = !std::is_same_v<T, double>;
  return *this;
}

template <class T>
void NumberOption<T>::check_default() const {
  if ((min_ && default_ < *min_) || (max_ && default_ > *max_)) {
    throw std::invalid_argument("option '" + name() + "': default " + text_of(default_) +
                                " is outside its range " + constraint_text());
  }
}

template <class T>
std::string NumberOption<T>::text_of(T v) const {
  if constexpr (std::is_same_v<T, double>) {
    return format_shortest(v);
  } else if constexpr (std::is_signed_v<T>) {
    if (!hex_) return std::to_string(v);
    const auto magnitude =
        v < 0 ? std::uint64_t{0} - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v);
    return (v < 0 ? "-" : "") + detail::hex_text(magnitude);
  } else {
    return hex_ ? detail::hex_text(v) : std::to_string(v);
  }
}

template <class T>
std::string NumberOption<T>::type_name() const {
  return number_type_name<T>();
}

template <class T>
std::string NumberOption<T>::metavar() const {
  return std::string("<") + number_type_name<T>() + ">";
}

template <class T>
std::string NumberOption<T>::value_text() const {
  return text_of(field_);
}

template <class T>
std::string NumberOption<T>::default_text() const {
  return text_of(default_);
}

template <class T>
Json NumberOption<T>::value_json() const {
  return Json(field_);
}

template <class T>
Json NumberOption<T>::default_json() const {
  return Json(default_);
}

template <class T>
std::string NumberOption<T>::constraint_text() const {
  if (min_ && max_) return "[" + text_of(*min_) + ", " + text_of(*max_) + "]";
  if (min_) return ">= " + text_of(*min_);
  if (max_) return "<= " + text_of(*max_);
  return "";
}

template <class T>
std::string NumberOption<T>::assign(const std::string& text) {
  T value{};
  std::string error;
  if constexpr (std::is_same_v<T, double>) {
    error = detail::parse_real(text, value);
  } else if constexpr (std::is_signed_v<T>) {
    std::int64_t v = 0;
    error = detail::parse_signed(text, std::numeric_limits<T>::min(), std::numeric_limits<T>::max(),
                                 number_type_name<T>(), v);
    value = static_cast<T>(v);
  } else {
    std::uint64_t v = 0;
    error = detail::parse_unsigned(text, std::numeric_limits<T>::max(), number_type_name<T>(), v);
    value = static_cast<T>(v);
  }
  if (!error.empty()) return error;
  if ((min_ && value < *min_) || (max_ && value > *max_)) {
    const std::string allowed =
        min_ && max_ ? constraint_text() : "(must be " + constraint_text() + ")";
    return "'" + text + "' is out of range " + allowed;
  }
  field_ = value;
  return "";
}

template class NumberOption<int>;
template class NumberOption<unsigned>;
template class NumberOption<std::int64_t>;
template class NumberOption<std::uint64_t>;
template class NumberOption<double>;

// ---------------------------------------------------------------------------------------------
// bool, string, list and enum options

namespace {

class BoolOption final : public Option {
 public:
  BoolOption(std::string name, bool& field, std::string help)
      : Option(std::move(name), std::move(help)), field_(field), default_(field) {}
  std::string type_name() const override { return "bool"; }
  std::string metavar() const override { return "[=<bool>]"; }
  std::string value_text() const override { return field_ ? "true" : "false"; }
  std::string default_text() const override { return default_ ? "true" : "false"; }
  Json value_json() const override { return field_; }
  Json default_json() const override { return default_; }

 private:
  std::string assign(const std::string& text) override { return detail::parse_bool(text, field_); }
  bool is_flag() const noexcept override { return true; }

  bool& field_;
  bool default_;
};

class StringOption final : public Option {
 public:
  StringOption(std::string name, std::string& field, std::string help)
      : Option(std::move(name), std::move(help)), field_(field), default_(field) {}
  std::string type_name() const override { return "string"; }
  std::string metavar() const override { return "<string>"; }
  std::string value_text() const override { return field_; }
  std::string default_text() const override { return default_; }
  Json value_json() const override { return field_; }
  Json default_json() const override { return default_; }

 private:
  std::string assign(const std::string& text) override {
    field_ = text;
    return "";
  }

  std::string& field_;
  std::string default_;
};

std::string join(const std::vector<std::string>& items) {
  std::string s;
  for (const auto& item : items) s += (s.empty() ? "" : ", ") + detail::ini_quote(item);
  return s;
}

class ListOption final : public Option {
 public:
  ListOption(std::string name, std::vector<std::string>& field, std::string help)
      : Option(std::move(name), std::move(help)), field_(field), default_(field) {}
  std::string type_name() const override { return "list"; }
  std::string metavar() const override { return "<string>"; }
  std::string value_text() const override { return join(field_); }
  std::string default_text() const override { return join(default_); }
  Json value_json() const override { return field_; }
  Json default_json() const override { return default_; }

 private:
  std::string assign(const std::string& text) override {
    field_.push_back(text);
    return "";
  }
  bool is_list() const noexcept override { return true; }
  void clear_list() override { field_.clear(); }
  std::vector<std::string> list_items() const override { return field_; }

  std::vector<std::string>& field_;
  std::vector<std::string> default_;
};

class EnumOption final : public Option {
 public:
  EnumOption(std::string name, std::string help,
             std::vector<std::pair<std::string, std::int64_t>> choices,
             std::function<std::int64_t()> get, std::function<void(std::int64_t)> set)
      : Option(std::move(name), std::move(help)),
        choices_(std::move(choices)),
        get_(std::move(get)),
        set_(std::move(set)),
        default_(get_()) {}

  std::string type_name() const override { return "enum"; }
  std::string metavar() const override {
    std::string s = "<";
    for (const auto& choice : choices_) s += (s.size() > 1 ? "|" : "") + choice.first;
    return s + ">";
  }
  std::string value_text() const override { return text_of(get_()); }
  std::string default_text() const override { return text_of(default_); }
  Json value_json() const override { return value_text(); }
  Json default_json() const override { return default_text(); }

  // A default that names no choice could not be written to the effective configuration.
  bool default_is_a_choice() const {
    for (const auto& choice : choices_) {
      if (choice.second == default_) return true;
    }
    return false;
  }

 private:
  std::string text_of(std::int64_t v) const {
    for (const auto& choice : choices_) {
      if (choice.second == v) return choice.first;
    }
    return std::to_string(v);  // unreachable for values set through the option
  }
  std::string assign(const std::string& text) override {
    for (const auto& choice : choices_) {
      if (choice.first == text) {
        set_(choice.second);
        return "";
      }
    }
    std::string list;
    for (const auto& choice : choices_) list += (list.empty() ? "" : ", ") + choice.first;
    return "'" + text + "' is not one of: " + list;
  }

  std::vector<std::pair<std::string, std::int64_t>> choices_;
  std::function<std::int64_t()> get_;
  std::function<void(std::int64_t)> set_;
  std::int64_t default_;
};

bool is_word_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
}

// Dot-separated non-empty words.
bool valid_name(const std::string& name) {
  if (name.empty() || name.front() == '.' || name.back() == '.') return false;
  for (std::size_t i = 0; i < name.size(); ++i) {
    if (name[i] == '.') {
      if (name[i + 1] == '.') return false;
    } else if (!is_word_char(name[i])) {
      return false;
    }
  }
  return name.front() != '-';
}

bool is_prefix_group(const std::string& prefix, const std::string& name) {
  return name.size() > prefix.size() && name.compare(0, prefix.size(), prefix) == 0 &&
         name[prefix.size()] == '.';
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// OptionRegistry: registration and lookup

Option* OptionRegistry::Impl::find(std::string_view name) const {
  const auto it = by_name.find(name);
  return it == by_name.end() ? nullptr : it->second;
}

Option* OptionRegistry::Impl::find_short(char c) const {
  for (const auto& option : options) {
    if (option->short_alias() == c) return option.get();
  }
  return nullptr;
}

std::vector<std::string> OptionRegistry::Impl::sections(bool include_command_line_only) const {
  std::vector<std::string> result;
  for (const auto& option : options) {
    if (option->is_command_line_only() && !include_command_line_only) continue;
    const std::string s = option->section();
    bool seen = false;
    for (const auto& r : result) seen = seen || r == s;
    if (!seen) result.push_back(s);
  }
  // Options without a section come first: in an INI file they must precede every [section].
  for (std::size_t i = 0; i < result.size(); ++i) {
    if (result[i].empty()) {
      result.erase(result.begin() + static_cast<std::ptrdiff_t>(i));
      result.insert(result.begin(), std::string());
      break;
    }
  }
  return result;
}

std::string OptionRegistry::Impl::suggestion(std::string_view name, const std::string& dashes,
                                             bool command_line) const {
  std::vector<std::string> candidates;
  if (command_line) candidates.emplace_back("config");
  for (const auto& option : options) {
    if (command_line || !option->is_command_line_only()) candidates.push_back(option->name());
  }
  const std::size_t limit = std::max<std::size_t>(1, std::min<std::size_t>(3, name.size() / 4));
  std::size_t best = limit + 1;
  std::string best_name;
  for (const auto& candidate : candidates) {
    const std::size_t d = detail::edit_distance(name, candidate);
    if (d < best) {
      best = d;
      best_name = candidate;
    }
  }
  return best_name.empty() ? "" : " (did you mean '" + dashes + best_name + "'?)";
}

OptionRegistry::OptionRegistry() : impl_(std::make_unique<Impl>()) {}

OptionRegistry::~OptionRegistry() = default;

void OptionRegistry::check_name(const std::string& name) const {
  if (!valid_name(name)) {
    throw std::invalid_argument("invalid option name '" + name +
                                "' (dot-separated words of letters, digits, '_' and '-')");
  }
  if (name == "config") throw std::invalid_argument("option name 'config' is reserved");
  if (impl_->find(name) != nullptr) {
    throw std::invalid_argument("option '" + name + "' is registered twice");
  }
  for (const auto& option : impl_->options) {
    if (is_prefix_group(option->name(), name) || is_prefix_group(name, option->name())) {
      throw std::invalid_argument("option '" + name + "' conflicts with option '" + option->name() +
                                  "' (one is a section of the other)");
    }
  }
}

template <class O>
O& OptionRegistry::insert(std::unique_ptr<O> option) {
  O& ref = *option;
  OptionAccess::set_owner(ref, this);
  impl_->by_name.emplace(ref.name(), &ref);
  impl_->options.push_back(std::move(option));
  return ref;
}

Option& OptionRegistry::add(const std::string& name, bool& field, const std::string& help) {
  check_name(name);
  return insert(std::make_unique<BoolOption>(name, field, help));
}

NumberOption<int>& OptionRegistry::add(const std::string& name, int& field,
                                       const std::string& help) {
  check_name(name);
  return insert(std::make_unique<NumberOption<int>>(name, field, help));
}

NumberOption<unsigned>& OptionRegistry::add(const std::string& name, unsigned& field,
                                            const std::string& help) {
  check_name(name);
  return insert(std::make_unique<NumberOption<unsigned>>(name, field, help));
}

NumberOption<std::int64_t>& OptionRegistry::add(const std::string& name, std::int64_t& field,
                                                const std::string& help) {
  check_name(name);
  return insert(std::make_unique<NumberOption<std::int64_t>>(name, field, help));
}

NumberOption<std::uint64_t>& OptionRegistry::add(const std::string& name, std::uint64_t& field,
                                                 const std::string& help) {
  check_name(name);
  return insert(std::make_unique<NumberOption<std::uint64_t>>(name, field, help));
}

NumberOption<double>& OptionRegistry::add(const std::string& name, double& field,
                                          const std::string& help) {
  check_name(name);
  return insert(std::make_unique<NumberOption<double>>(name, field, help));
}

Option& OptionRegistry::add(const std::string& name, std::string& field, const std::string& help) {
  check_name(name);
  return insert(std::make_unique<StringOption>(name, field, help));
}

Option& OptionRegistry::add(const std::string& name, std::vector<std::string>& field,
                            const std::string& help) {
  check_name(name);
  return insert(std::make_unique<ListOption>(name, field, help));
}

Option& OptionRegistry::add_enum_impl(const std::string& name, const std::string& help,
                                      std::vector<std::pair<std::string, std::int64_t>> choices,
                                      std::function<std::int64_t()> get,
                                      std::function<void(std::int64_t)> set) {
  check_name(name);
  if (choices.empty()) throw std::invalid_argument("option '" + name + "' has no choices");
  auto option =
      std::make_unique<EnumOption>(name, help, std::move(choices), std::move(get), std::move(set));
  if (!option->default_is_a_choice()) {
    throw std::invalid_argument("option '" + name + "': the default is not one of the choices");
  }
  return insert(std::move(option));
}

const Option* OptionRegistry::find(const std::string& name) const { return impl_->find(name); }

std::vector<const Option*> OptionRegistry::options() const {
  std::vector<const Option*> result;
  for (const auto& option : impl_->options) result.push_back(option.get());
  return result;
}

}  // namespace par::simkit
