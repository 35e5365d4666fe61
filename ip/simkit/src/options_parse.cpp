// Command-line and INI parsing.
//
// Own tokenizer and INI reader rather than Boost.Program_options: Boost stops at the first error
// (by exception), reports no line numbers for INI files and guesses abbreviated option names,
// while simkit must collect every error with file:line and convert values with its own messages.
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <exception>
#include <string_view>

#include "par/simkit/format.hpp"

#include "option_values.hpp"
#include "options_impl.hpp"
#include "par/simkit/input_file.hpp"

namespace par::simkit {

using detail::OptionAccess;

namespace {

// Configuration files are a few kilobytes; the bound turns a wrong file (a program image,
// /dev/zero) into a message instead of a read that never ends.
constexpr std::uint64_t kMaxConfigBytes = std::uint64_t{1} << 20;

// One value for one option, not yet converted.
struct Assignment {
  Option* option = nullptr;
  std::string text;
  InstanceValue instance;  // for an instance's option (core3.lanes): its type, name and option
};

bool is_bool_literal(const std::string& t) {
  bool ignored = false;
  return detail::parse_bool(t, ignored).empty();
}

// A token that cannot be the value of the preceding option: --name, or -x with a letter.
bool looks_like_option(const std::string& t) {
  return (t.size() > 2 && t.compare(0, 2, "--") == 0) ||
         (t.size() == 2 && t[0] == '-' && std::isalpha(static_cast<unsigned char>(t[1])));
}

bool is_section_name(std::string_view s) {
  if (s.empty() || s.front() == '.' || s.back() == '.') return false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '.' ? s[i + 1] == '.'
                 : !(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-')) {
      return false;
    }
  }
  return true;
}

// The value part of an INI line (after '='), already trimmed. Unquoted values end at a '#' or
// ';' that starts the value or follows a blank; quoted values take \" \\ \n \t \r escapes.
// Returns "" or an error.
std::string ini_value(std::string_view raw, std::string& value, bool& quoted) {
  value.clear();
  quoted = !raw.empty() && raw.front() == '"';
  if (!quoted) {
    std::size_t end = raw.size();
    for (std::size_t i = 0; i < raw.size(); ++i) {
      if ((raw[i] == '#' || raw[i] == ';') && (i == 0 || raw[i - 1] == ' ' || raw[i - 1] == '\t')) {
        end = i;
        break;
      }
    }
    value = std::string(detail::trim(raw.substr(0, end)));
    return "";
  }
  std::size_t i = 1;
  for (; i < raw.size() && raw[i] != '"'; ++i) {
    if (raw[i] != '\\') {
      value += raw[i];
      continue;
    }
    if (++i == raw.size()) break;
    switch (raw[i]) {
      case '"':
        value += '"';
        break;
      case '\\':
        value += '\\';
        break;
      case 'n':
        value += '\n';
        break;
      case 't':
        value += '\t';
        break;
      case 'r':
        value += '\r';
        break;
      default:
        return std::string("unknown escape '\\") + raw[i] + "' in quoted value";
    }
  }
  if (i >= raw.size()) return "unterminated quoted value";
  const std::string_view rest = detail::trim(raw.substr(i + 1));
  if (!rest.empty() && rest.front() != '#' && rest.front() != ';') {
    return "unexpected text after the closing quote";
  }
  return "";
}

class Parser {
 public:
  Parser(OptionRegistry::Impl& impl, ParseResult& result) : impl_(impl), result_(result) {}

  void run(const std::vector<std::string>& args) {
    std::vector<Assignment> command_line;
    tokenize(args, command_line);
    for (const auto& file : result_.config_files) read_config(file, impl_.next_source++);
    // The command line is applied last so that it wins over every file.
    const int source = impl_.next_source++;
    for (auto& a : command_line) {
      const bool instance = !a.instance.instance.empty();
      apply(*a.option, a.text, false, source, Origin{Origin::Kind::CommandLine, "", 0},
            "--" + (instance ? a.instance.name() : a.option->name()), instance ? &a.instance : nullptr);
    }
  }

 private:
  void error(std::string message) { result_.errors.push_back(std::move(message)); }

  void tokenize(const std::vector<std::string>& args, std::vector<Assignment>& out) {
    bool options_ended = false;
    for (std::size_t i = 0; i < args.size(); ++i) {
      const std::string& arg = args[i];
      if (options_ended) {
        result_.positional.push_back(arg);
      } else if (arg == "--") {
        options_ended = true;
      } else if (arg.size() > 2 && arg.compare(0, 2, "--") == 0) {
        const std::size_t eq = arg.find('=');
        const std::string name = arg.substr(2, eq == std::string::npos ? eq : eq - 2);
        const bool has_value = eq != std::string::npos;
        std::string value = has_value ? arg.substr(eq + 1) : std::string();
        if (name == "config") {
          if (!has_value && i + 1 < args.size() && !looks_like_option(args[i + 1])) {
            value = args[++i];
          }
          if (value.empty()) {
            error("--config: missing value");
          } else {
            result_.config_files.push_back(value);
          }
          continue;
        }
        Option* option = impl_.find(name);
        InstanceValue instance;
        if (option == nullptr) option = impl_.find_instance(name, instance);
        if (option == nullptr) {
          error("unknown option '--" + name + "'" + impl_.suggestion(name, "--", true));
          continue;
        }
        take_value(*option, has_value, std::move(value), args, i, out, std::move(instance));
      } else if (arg.size() >= 2 && arg[0] == '-' &&
                 std::isalpha(static_cast<unsigned char>(arg[1]))) {
        Option* option = arg.size() == 2 ? impl_.find_short(arg[1]) : nullptr;
        if (option == nullptr) {
          // "-help" is most likely a mistyped long option.
          const std::string hint =
              arg.size() > 2 ? impl_.suggestion(arg.substr(1), "--", true) : "";
          error("unknown option '" + arg + "'" + hint);
          continue;
        }
        take_value(*option, false, std::string(), args, i, out);
      } else {
        // Includes "-" (stdin by convention) and negative numbers.
        result_.positional.push_back(arg);
      }
    }
  }

  // The option's value: after '=', or the next argument. A flag takes the next argument only
  // when it is a boolean literal (--trace false), so "--trace kernel.par" keeps the positional.
  void take_value(Option& option, bool has_value, std::string value,
                  const std::vector<std::string>& args, std::size_t& i,
                  std::vector<Assignment>& out, InstanceValue instance = {}) {
    if (!has_value) {
      const bool next_exists = i + 1 < args.size();
      if (OptionAccess::is_flag(option)) {
        value = next_exists && is_bool_literal(args[i + 1]) ? args[++i] : "true";
      } else if (next_exists && !looks_like_option(args[i + 1])) {
        value = args[++i];
      } else {
        error("--" + option.name() + ": missing value");
        return;
      }
    }
    out.push_back(Assignment{&option, std::move(value), std::move(instance)});
  }

  // A config file: JSON (the effective_json() document) when it ends in ".json", INI otherwise.
  void read_config(const std::string& path, int source) {
    if (path.size() >= 5 && path.compare(path.size() - 5, 5, ".json") == 0) {
      read_json(path, source);
    } else {
      read_ini(path, source);
    }
  }

  // Nested objects give the dotted names; top-level members whose name starts with '$' are
  // metadata (a generator's version) and skipped. Values are applied as INI values would be.
  void read_json(const std::string& path, int source) {
    std::string text;
    if (!read_whole(path, text)) return;
    Json doc;
    try {
      doc = Json::parse(text);
    } catch (const Json::parse_error& e) {
      const std::size_t byte = std::min<std::size_t>(e.byte, text.size());
      const int line = 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(byte > 0 ? byte - 1 : 0), '\n'));
      std::string what = e.what();
      const std::size_t colon = what.rfind(": ");
      error(path + ":" + std::to_string(line) + ": not valid JSON (" + (colon == std::string::npos ? what : what.substr(colon + 2)) + ")");
      return;
    }
    if (!doc.is_object()) {
      error(path + ": expected a JSON object of options ({\"core\": {\"lanes\": 8}})");
      return;
    }
    read_json_object(path, doc, "", source);
  }

  void read_json_object(const std::string& path, const Json& object, const std::string& prefix, int source) {
    for (const auto& [key, value] : object.items()) {
      if (prefix.empty() && !key.empty() && key.front() == '$') continue;
      const std::string name = prefix.empty() ? key : prefix + "." + key;
      if (value.is_object()) {
        read_json_object(path, value, name, source);
        continue;
      }
      const std::string where = path + ": ";
      InstanceValue instance;
      Option* option = file_option(where, name, instance);
      if (option == nullptr) continue;
      const InstanceValue* inst = instance.instance.empty() ? nullptr : &instance;
      const Origin origin{Origin::Kind::File, path, 0};
      if (value.is_array()) {
        if (!OptionAccess::is_list(*option)) {
          error(where + name + ": a list is given but the option takes one value");
          continue;
        }
        if (value.empty()) apply(*option, "", false, source, origin, where + name);
        for (const Json& item : value) {
          std::string text;
          if (json_text(item, text, where + name)) apply(*option, text, true, source, origin, where + name);
        }
        continue;
      }
      std::string text;
      if (json_text(value, text, where + name)) apply(*option, text, true, source, origin, where + name, inst);
    }
  }

  // The INI spelling of a JSON scalar; false (with an error) for null, arrays and objects.
  bool json_text(const Json& v, std::string& text, const std::string& prefix) {
    if (v.is_string()) {
      text = v.get<std::string>();
    } else if (v.is_boolean()) {
      text = v.get<bool>() ? "true" : "false";
    } else if (v.is_number_float()) {
      text = format_shortest(v.get<double>());
    } else if (v.is_number()) {
      text = v.dump();
    } else {
      error(prefix + ": expected a string, number or boolean, not " + std::string(v.type_name()));
      return false;
    }
    return true;
  }

  bool read_whole(const std::string& path, std::string& text) {
    if (const std::string why = read_input_file(path, kMaxConfigBytes, text); !why.empty()) {
      error("cannot read config file '" + path + "': " + why);
      return false;
    }
    return true;
  }

  void read_ini(const std::string& path, int source) {
    std::string text;
    if (!read_whole(path, text)) return;
    std::string section;
    std::string_view rest = text;
    for (int line_no = 1; !rest.empty(); ++line_no) {
      const std::size_t nl = rest.find('\n');
      std::string_view line = rest.substr(0, nl);
      rest = nl == std::string_view::npos ? std::string_view() : rest.substr(nl + 1);
      if (line_no == 1 && line.substr(0, 3) == "\xEF\xBB\xBF") line.remove_prefix(3);  // BOM
      read_ini_line(path, line_no, detail::trim(line), section, source);
    }
  }

  void read_ini_line(const std::string& path, int line_no, std::string_view t, std::string& section,
                     int source) {
    const std::string where = path + ":" + std::to_string(line_no) + ": ";
    if (t.empty() || t.front() == '#' || t.front() == ';') return;
    if (t.front() == '[') {
      const std::size_t close = t.find(']');
      const std::string_view rest =
          close == std::string_view::npos ? std::string_view() : detail::trim(t.substr(close + 1));
      if (close == std::string_view::npos ||
          (!rest.empty() && rest.front() != '#' && rest.front() != ';')) {
        error(where + "malformed section header '" + std::string(t) + "'");
        return;
      }
      const std::string_view name = detail::trim(t.substr(1, close - 1));
      if (!name.empty() && !is_section_name(name)) {
        error(where + "malformed section name '" + std::string(name) + "'");
        return;
      }
      section = std::string(name);  // "[]" returns to the top level
      return;
    }
    const std::size_t eq = t.find('=');
    const std::string_view key = detail::trim(t.substr(0, eq));
    if (eq == std::string_view::npos || key.empty()) {
      error(where + "expected 'name = value' or '[section]'");
      return;
    }
    std::string value;
    bool quoted = false;
    const std::string problem = ini_value(detail::trim(t.substr(eq + 1)), value, quoted);
    const std::string name = section.empty() ? std::string(key) : section + "." + std::string(key);
    if (!problem.empty()) {
      error(where + name + ": " + problem);
      return;
    }
    InstanceValue instance;
    Option* option = file_option(where, name, instance);
    if (option == nullptr) return;
    apply(*option, value, quoted, source, Origin{Origin::Kind::File, path, line_no}, where + name,
          instance.instance.empty() ? nullptr : &instance);
  }

  // The option a config file names, or nullptr after an error (unknown, command line only). For an
  // instance's option (core3.lanes), the type's option, with `instance` filled in.
  Option* file_option(const std::string& where, const std::string& name, InstanceValue& instance) {
    Option* option = impl_.find(name);
    if (option == nullptr) option = impl_.find_instance(name, instance);
    if (option == nullptr) {
      error(where + "unknown option '" + name + "'" + impl_.suggestion(name, "", false));
    } else if (option->is_command_line_only()) {
      error(where + "option '" + name + "' can only be given on the command line");
      return nullptr;
    }
    return option;
  }

  // `instance`: the value is that instance's (core3.lanes), checked by `option` (core.lanes).
  void apply(Option& option, const std::string& text, bool quoted, int source, Origin origin,
             const std::string& prefix, const InstanceValue* instance = nullptr) {
    if (instance != nullptr) {
      InstanceValue v = *instance;
      v.origin = std::move(origin);
      const std::string problem = detail::valid_utf8(text) ? impl_.set_instance(option, std::move(v), text)
                                                           : "the value is not valid UTF-8";
      if (!problem.empty()) error(prefix + ": " + problem);
      return;
    }
    if (OptionAccess::is_list(option)) {
      // A new source replaces the list; repetitions within one source append.
      if (OptionAccess::list_source(option) != source) {
        OptionAccess::clear_list(option);
        OptionAccess::list_source(option) = source;
      }
      if (text.empty() && !quoted) {
        OptionAccess::clear_list(option);
        OptionAccess::set_origin(option, std::move(origin));
        return;
      }
    }
    // Every value must survive the round trip through config.json, which is UTF-8.
    if (!detail::valid_utf8(text)) {
      error(prefix + ": the value is not valid UTF-8");
      return;
    }
    const std::string problem = OptionAccess::assign(option, text);
    if (!problem.empty()) {
      error(prefix + ": " + problem);
      return;
    }
    OptionAccess::set_origin(option, std::move(origin));
  }

  OptionRegistry::Impl& impl_;
  ParseResult& result_;
};

}  // namespace

ParseResult OptionRegistry::parse(int argc, const char* const* argv) {
  std::vector<std::string> args;
  for (int i = 1; i < argc; ++i) args.emplace_back(argv[i] != nullptr ? argv[i] : "");
  return parse(args);
}

ParseResult OptionRegistry::parse(const std::vector<std::string>& args) {
  ParseResult result;
  // Nothing in the parser is expected to throw; this keeps the no-exception promise even for
  // std::bad_alloc or a throwing enum setter.
  try {
    Parser(*impl_, result).run(args);
  } catch (const std::exception& e) {
    result.errors.push_back(std::string("internal error while reading options: ") + e.what());
  }
  return result;
}

}  // namespace par::simkit
