#include "dependency_scan.hpp"

#include <algorithm>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

namespace par::layout {

namespace fs = std::filesystem;

namespace {

// In dependency order: a layer may use the layers before it.
const char* const kLayerNames[] = {"ip", "modules", "sw", "platform"};

bool is_source(const fs::path& p) {
  const std::string e = p.extension().string();
  return e == ".hpp" || e == ".h" || e == ".cpp" || e == ".cc";
}

bool is_header(const fs::path& p) {
  const std::string e = p.extension().string();
  return e == ".hpp" || e == ".h";
}

std::string read(const fs::path& p) {
  std::ifstream in(p);
  std::ostringstream os;
  os << in.rdbuf();
  return os.str();
}

// Every file of the layered folders, relative to the root, with '/' separators.
std::vector<std::string> tree_files(const fs::path& root) {
  std::vector<std::string> files;
  for (const char* top : kLayerNames) {
    if (!fs::is_directory(root / top)) continue;
    for (const auto& e : fs::recursive_directory_iterator(root / top)) {
      if (e.is_regular_file()) files.push_back(fs::relative(e.path(), root).generic_string());
    }
  }
  return files;
}

// "modules/<name>" of a path in modules/, "" otherwise.
std::string module_of(const std::string& path) {
  if (path.compare(0, 8, "modules/") != 0) return "";
  const std::size_t slash = path.find('/', 8);
  return slash == std::string::npos ? "" : path.substr(0, slash);
}

// A header another module may include: under its folder's include/.
bool published(const std::string& header) {
  const std::string m = module_of(header);
  return m.empty() || header.compare(0, m.size() + 9, m + "/include/") == 0;
}

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// The headers an include of `name` from `from` may mean: the one next to the including file if
// it exists, else every header of the tree whose path ends with "/name".
std::vector<std::string> resolve(const fs::path& root, const std::string& from, const std::string& name,
                                 const std::vector<std::string>& headers) {
  const fs::path beside = fs::path(from).parent_path() / name;
  if (fs::exists(root / beside)) return {beside.lexically_normal().generic_string()};
  std::vector<std::string> found;
  for (const std::string& h : headers)
    if (h == name || ends_with(h, "/" + name)) found.push_back(h);
  return found;
}

// The arguments of every `command(...)` call in a CMake file, with the line of the call.
std::vector<std::pair<int, std::vector<std::string>>> cmake_calls(const std::string& text, const std::string& command) {
  std::vector<std::pair<int, std::vector<std::string>>> calls;
  std::string clean;  // comments removed
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    const std::size_t hash = line.find('#');
    clean += (hash == std::string::npos ? line : line.substr(0, hash)) + "\n";
  }
  const std::regex call("\\b" + command + "\\s*\\(([^)]*)\\)");
  for (auto it = std::sregex_iterator(clean.begin(), clean.end(), call); it != std::sregex_iterator(); ++it) {
    const int line = 1 + static_cast<int>(std::count(clean.begin(), clean.begin() + it->position(0), '\n'));
    std::istringstream words((*it)[1].str());
    std::vector<std::string> args;
    for (std::string w; words >> w;) args.push_back(w);
    calls.emplace_back(line, args);
  }
  return calls;
}

}  // namespace

int layer_of(const std::string& relative_path) {
  for (int i = 0; i < 4; ++i) {
    const std::string top = std::string(kLayerNames[i]) + "/";
    if (relative_path.compare(0, top.size(), top) == 0) return i;
  }
  return -1;
}

std::vector<std::string> dependency_violations(const fs::path& root) {
  std::vector<std::string> out;
  const std::vector<std::string> files = tree_files(root);
  std::vector<std::string> headers;
  for (const std::string& f : files)
    if (is_header(f)) headers.push_back(f);

  // #include lines.
  const std::regex include_line("^\\s*#\\s*include\\s*[\"<]([^\">]+)[\">]");
  for (const std::string& f : files) {
    const int layer = layer_of(f);
    if (!is_source(f) || layer > 1) continue;  // sw may include anything of the tree
    std::istringstream text(read(root / f));
    int n = 0;
    for (std::string line; std::getline(text, line);) {
      ++n;
      std::smatch m;
      if (!std::regex_search(line, m, include_line)) continue;
      const std::vector<std::string> targets = resolve(root, f, m[1].str(), headers);
      if (targets.empty()) continue;  // not a header of the tree
      bool allowed = false;
      for (const std::string& t : targets)
        allowed = allowed || (layer_of(t) <= layer && (module_of(t) == module_of(f) || published(t)));
      if (!allowed)
        out.push_back(f + ":" + std::to_string(n) + ": includes \"" + m[1].str() + "\" (" + targets.front() + ")");
    }
  }

  // CMake: where each target is defined, then what the targets of ip/ and modules/ link.
  std::map<std::string, std::string> defined_in;  // target -> CMakeLists.txt path
  std::set<std::string> interfaces;               // INTERFACE libraries: published contracts
  std::vector<std::string> cmake_files;
  for (const std::string& f : files)
    if (fs::path(f).filename() == "CMakeLists.txt") cmake_files.push_back(f);
  for (const std::string& f : cmake_files) {
    const std::string text = read(root / f);
    for (const char* command : {"add_library", "add_executable"})
      for (const auto& [line, args] : cmake_calls(text, command)) {
        if (args.empty()) continue;
        defined_in[args[0]] = f;
        if (args.size() > 1 && args[1] == "INTERFACE") interfaces.insert(args[0]);
      }
  }
  for (const std::string& f : cmake_files) {
    const std::string text = read(root / f);
    const int layer = layer_of(f);
    if (layer <= 1) {
      for (const auto& [line, args] : cmake_calls(text, "target_link_libraries")) {
        for (std::size_t i = 1; i < args.size(); ++i) {
          const auto it = defined_in.find(args[i]);
          if (it == defined_in.end()) continue;
          const std::string other = module_of(it->second);
          const bool other_module = !other.empty() && other != module_of(f);
          if (layer_of(it->second) <= layer && !(other_module && interfaces.count(args[i]) == 0)) continue;
          out.push_back(f + ":" + std::to_string(line) + ": " + args[0] + " links " + args[i] + " (defined in " +
                        it->second + (layer_of(it->second) <= layer ? ", not its published interface" : "") + ")");
        }
      }
    }
    for (const auto& [line, args] : cmake_calls(text, "target_include_directories")) {
      for (std::size_t i = 1; i < args.size(); ++i) {
        const std::string& a = args[i];
        const bool outside = a.find("PROJECT_SOURCE_DIR") != std::string::npos ||
                             a.find("CMAKE_SOURCE_DIR") != std::string::npos || a.find("..") != std::string::npos;
        if (outside)
          out.push_back(f + ":" + std::to_string(line) + ": " + args[0] + " exports " + a +
                        ", outside its own folder");
      }
    }
  }
  return out;
}

}  // namespace par::layout
