#include "reference_scan.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>
#include <utility>

namespace par::docs {
namespace fs = std::filesystem;

namespace {

bool path_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.' || c == '/';
}
bool word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

BadReference reference_at(const std::string& file, const std::string& text, std::size_t pos, std::string what) {
  const std::size_t line_start = pos == 0 ? 0 : text.rfind('\n', pos - 1) + 1;  // npos + 1 == 0
  const auto line = 1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(pos), '\n');
  return {file, static_cast<int>(line), static_cast<int>(pos - line_start) + 1, std::move(what)};
}

std::string normal(const fs::path& p) { return p.lexically_normal().generic_string(); }

// The design material the project was written from, outside the repository. Spelled in pieces so
// that this file does not name them itself.
const std::array<std::string, 7> kOutsideMaterial = {
    std::string("shared") + "/spec",   std::string("..") + "/shared",     std::string("par-") + "isa",
    std::string("par-core") + "-timing", std::string("parsim") + "-reference",
    std::string("platform") + "-reference", std::string("seed") + "-validation"};

// `.md` names: each must be a file of the repository.
void check_documents(const std::string& file, const std::string& text, const std::set<std::string>& files,
                     std::vector<BadReference>& out) {
  const fs::path folder = fs::path(file).parent_path();
  for (std::size_t at = text.find(".md"); at != std::string::npos; at = text.find(".md", at + 3)) {
    const std::size_t end = at + 3;
    if (end < text.size() && word_char(text[end])) continue;  // .mdx, .md5
    std::size_t begin = at;
    while (begin > 0 && path_char(text[begin - 1])) --begin;
    std::string name = text.substr(begin, end - begin);
    const char before = begin > 0 ? text[begin - 1] : ' ';
    if (before == '$' || before == ':' || before == '*') continue;  // shell variables, URLs, globs
    if (name.compare(0, 2, "//") == 0) continue;                     // URLs
    while (name.compare(0, 2, "./") == 0) name.erase(0, 2);
    if (name == ".md" || (name.size() >= 4 && name.compare(name.size() - 4, 4, "/.md") == 0)) continue;  // globs
    const bool rooted = name[0] == '/';  // after `${SOURCE_DIR}`: relative to the root
    if (rooted) name.erase(0, name.find_first_not_of('/'));
    const std::vector<std::string> candidates =
        rooted ? std::vector<std::string>{normal(name)}
               : std::vector<std::string>{normal(folder / name), normal(name), normal(fs::path("docs") / name)};
    if (std::none_of(candidates.begin(), candidates.end(), [&](const std::string& c) { return files.count(c) > 0; }))
      out.push_back(reference_at(file, text, begin, "names '" + name + "', which is not a file of the repository"));
  }
}

// The word issue followed by a number, with or without '#' (or the plural followed by '#' and a
// number): tracker numbers mean nothing to a reader of the repository. The verb ("one thread
// issues 4096 reads") is allowed.
void check_issue_numbers(const std::string& file, const std::string& text, std::vector<BadReference>& out) {
  for (std::size_t at = text.find("ssue"); at != std::string::npos; at = text.find("ssue", at + 4)) {
    if (at == 0 || (text[at - 1] != 'i' && text[at - 1] != 'I')) continue;
    if (at >= 2 && word_char(text[at - 2])) continue;
    std::size_t p = at + 4;
    const bool plural = p < text.size() && text[p] == 's';
    if (plural) ++p;
    while (p < text.size() && text[p] == ' ') ++p;
    const bool hash = p < text.size() && text[p] == '#';
    if (hash) ++p;
    while (hash && p < text.size() && text[p] == ' ') ++p;
    if (p >= text.size() || !std::isdigit(static_cast<unsigned char>(text[p])) || (plural && !hash)) continue;
    std::size_t q = p;
    while (q < text.size() && std::isdigit(static_cast<unsigned char>(text[q]))) ++q;
    const std::string quoted = text.substr(at - 1, q - (at - 1));
    out.push_back(reference_at(file, text, at - 1,
                               "refers to an issue number ('" + quoted + "'); say what is meant instead"));
  }
}

void check_outside_material(const std::string& file, const std::string& text, std::vector<BadReference>& out) {
  for (const std::string& name : kOutsideMaterial)
    for (std::size_t pos = text.find(name); pos != std::string::npos; pos = text.find(name, pos + 1))
      out.push_back(reference_at(file, text, pos,
                                 "names '" + name + "', material outside the repository; point to docs/ instead"));
}

}  // namespace

std::vector<std::string> repository_files(const fs::path& root) {
  std::vector<std::string> files;
  const std::string command = "git -C '" + root.string() + "' ls-files -z 2>/dev/null";
  if (FILE* pipe = popen(command.c_str(), "r")) {
    std::string all;
    std::array<char, 65536> buffer;
    for (std::size_t n; (n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0;) all.append(buffer.data(), n);
    const int status = pclose(pipe);
    if (status == 0)
      for (std::size_t b = 0, e; b < all.size(); b = e + 1) {
        e = all.find('\0', b);
        if (e == std::string::npos) e = all.size();
        if (e > b) files.push_back(all.substr(b, e - b));
      }
  }
  if (!files.empty()) return files;
  for (auto it = fs::recursive_directory_iterator(root); it != fs::recursive_directory_iterator(); ++it) {
    const std::string name = it->path().filename().string();
    if (it->is_directory() && (name[0] == '.' || (it.depth() == 0 && name.compare(0, 5, "build") == 0))) {
      it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file()) files.push_back(it->path().lexically_relative(root).generic_string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::vector<BadReference> scan_references(const std::string& file, const std::string& text,
                                          const std::set<std::string>& files) {
  std::vector<BadReference> out;
  check_documents(file, text, files, out);
  check_issue_numbers(file, text, out);
  check_outside_material(file, text, out);
  std::sort(out.begin(), out.end(), [](const BadReference& a, const BadReference& b) {
    return a.line != b.line ? a.line < b.line : a.column < b.column;
  });
  return out;
}

std::string describe(const BadReference& r) {
  return r.file + ":" + std::to_string(r.line) + ":" + std::to_string(r.column) + ": " + r.what;
}

}  // namespace par::docs
