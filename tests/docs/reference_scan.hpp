// The repository must stand on its own: no file may point to a document that is not in it, to the
// design material it was written from, or to an issue-tracker number. This scanner finds such
// references in one file's text; references_test.cpp applies it to every tracked file.
#pragma once

#include <filesystem>
#include <set>
#include <string>
#include <vector>

namespace par::docs {

struct BadReference {
  std::string file;  // repository-relative path
  int line = 0;      // 1-based
  int column = 0;    // 1-based, in bytes
  std::string what;  // one line: what is wrong and with which text
};

// The repository's files as repository-relative paths with '/' separators: `git ls-files` when
// `root` is a git checkout, otherwise a walk of the tree that skips build*/ and hidden folders.
std::vector<std::string> repository_files(const std::filesystem::path& root);

// The bad references in `text`, the contents of the file `file` (repository-relative). A `.md`
// name must be one of `files`, resolved against the file's folder, the repository root or docs/.
std::vector<BadReference> scan_references(const std::string& file, const std::string& text,
                                          const std::set<std::string>& files);

// "file:line:column: what" for a failure message.
std::string describe(const BadReference& r);

}  // namespace par::docs
