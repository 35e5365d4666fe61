// Every file of the repository points only inside the repository: each document it names exists,
// it names none of the design material the project was written from, and no issue-tracker number.
// The samples below spell their bad names in pieces, so that this file passes its own check.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "reference_scan.hpp"

namespace {

using par::docs::BadReference;
using par::docs::describe;
using par::docs::repository_files;
using par::docs::scan_references;

namespace fs = std::filesystem;

const std::string kMd = std::string(".m") + "d";
const std::string kIssue = std::string("iss") + "ue";
const std::string kMissing = "', which is not a file of the repository";
const std::string kOutside = "', material outside the repository; point to docs/ instead";

const std::set<std::string> kFiles = {"README" + kMd, "docs/isa" + kMd, "docs/README" + kMd,
                                      "modules/l2/README" + kMd, "modules/l2/l2.hpp"};

std::vector<std::string> scan(const std::string& file, const std::string& text) {
  std::vector<std::string> found;
  for (const BadReference& r : scan_references(file, text, kFiles)) found.push_back(describe(r));
  return found;
}

// --- the scanner on planted references (so the check of the tree cannot pass vacuously) ---

TEST(DocsReferences, DocumentNamesResolveAgainstTheFolderTheRootAndDocs) {
  EXPECT_TRUE(scan("modules/l2/l2.hpp", "// see docs/isa" + kMd + " §7, README" + kMd + ", isa" + kMd +
                                            " and ../../README" + kMd + "\n")
                  .empty());
  EXPECT_TRUE(scan("x.cmake", "install(FILES ${PROJECT_SOURCE_DIR}/docs/isa" + kMd + ")\n").empty());
  EXPECT_TRUE(scan("scripts/run", "echo $out/report" + kMd + "; ls docs/*" + kMd + "; https://example.org/a/b" + kMd +
                                      " x" + kMd + "x\n")
                  .empty());
  EXPECT_EQ(scan("modules/l2/l2.hpp", "// intro\n// see docs/timing" + kMd + " §4 and `./missing" + kMd + "`\n"),
            (std::vector<std::string>{"modules/l2/l2.hpp:2:8: names 'docs/timing" + kMd + kMissing,
                                      "modules/l2/l2.hpp:2:32: names 'missing" + kMd + kMissing}));
  EXPECT_EQ(scan("a.txt", "see ${ROOT}/docs/gone" + kMd + "\n"),
            (std::vector<std::string>{"a.txt:1:12: names 'docs/gone" + kMd + kMissing}));
}

TEST(DocsReferences, IssueNumbersAreRejected) {
  const std::string i = kIssue, big_i = "I" + kIssue.substr(1), why = "'); say what is meant instead";
  EXPECT_EQ(scan("t.cpp", "// (" + i + " 12) and\n// " + big_i + " #3, " + i + "s #4, " + i + "#5\n"),
            (std::vector<std::string>{"t.cpp:1:5: refers to an issue number ('" + i + " 12" + why,
                                      "t.cpp:2:4: refers to an issue number ('" + big_i + " #3" + why,
                                      "t.cpp:2:14: refers to an issue number ('" + i + "s #4" + why,
                                      "t.cpp:2:25: refers to an issue number ('" + i + "#5" + why}));
  // The verb, tissue, and another project's tracker are not issue references of this project.
  EXPECT_TRUE(scan("t.cpp", "one thread " + i + "s 4096 reads; t" + i + " 3; google/sanitizers#189\n").empty());
}

TEST(DocsReferences, OutsideMaterialIsRejected) {
  const std::string up = std::string("..") + "/shared", spec = std::string("shared") + "/spec";
  const std::string timing = std::string("par-core") + "-timing";
  EXPECT_EQ(scan("a.txt", "from ../" + spec + "/x\nand " + timing + " §4\n"),
            (std::vector<std::string>{"a.txt:1:6: names '" + up + kOutside, "a.txt:1:9: names '" + spec + kOutside,
                                      "a.txt:2:5: names '" + timing + kOutside}));
}

TEST(DocsReferences, TheWalkWithoutGitSkipsBuildAndHiddenFolders) {
  const fs::path root = fs::temp_directory_path() / ("parsys_refs_" + std::to_string(::getpid()));
  fs::remove_all(root);
  for (const char* f : {"docs/a.txt", "build/x.txt", "build-asan/y.txt", ".git/z", "sub/build/w.txt"}) {
    fs::create_directories((root / f).parent_path());
    std::ofstream(root / f) << "x\n";
  }
  EXPECT_EQ(repository_files(root), (std::vector<std::string>{"docs/a.txt", "sub/build/w.txt"}));
  fs::remove_all(root);
}

// --- the repository ---

TEST(DocsReferences, EveryFilePointsInsideTheRepository) {
  const fs::path root = PARSYS_SOURCE_DIR;
  const std::vector<std::string> list = repository_files(root);
  const std::set<std::string> files(list.begin(), list.end());
  ASSERT_TRUE(files.count("docs/isa" + kMd) && files.count("tests/docs/CMakeLists.txt"))
      << "the file list misses known files (" << list.size() << " files)";
  std::size_t scanned = 0;
  std::vector<std::string> bad;
  for (const std::string& file : list) {
    std::ifstream in(root / file, std::ios::binary);
    if (!in) continue;  // deleted in the work tree
    std::ostringstream text;
    text << in.rdbuf();
    const std::string s = text.str();
    if (s.find('\0') != std::string::npos) continue;  // binary
    ++scanned;
    for (const BadReference& r : scan_references(file, s, files)) bad.push_back(describe(r));
  }
  EXPECT_GT(scanned, 100u);
  for (const std::string& b : bad) ADD_FAILURE() << b;
}

// A merge that was committed with its conflict text left in: the markers at the start of a line.
TEST(DocsReferences, NoFileKeepsMergeConflictMarkers) {
  const fs::path root = PARSYS_SOURCE_DIR;
  const std::string ours = std::string(7, '<') + ' ', theirs = std::string(7, '>') + ' ';
  std::size_t scanned = 0;
  for (const std::string& file : repository_files(root)) {
    std::ifstream in(root / file, std::ios::binary);
    if (!in) continue;
    ++scanned;
    int number = 0;
    for (std::string line; std::getline(in, line);) {
      ++number;
      if (line.rfind(ours, 0) == 0 || line.rfind(theirs, 0) == 0)
        ADD_FAILURE() << file << ":" << number << ": merge conflict marker: " << line;
    }
  }
  EXPECT_GT(scanned, 100u);
}

}  // namespace
