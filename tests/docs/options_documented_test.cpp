// The module pages document every option of `parsys run --help` with the default --help prints,
// and no option that does not exist. The table format is defined in option_tables.hpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "support/parsys_cli.hpp"
#include "option_tables.hpp"

namespace {

using par::docs::DocumentedInstance;
using par::docs::DocumentedOption;
using par::docs::HelpOption;
using par::docs::kNoDefault;
using par::docs::parse_help;
using par::docs::parse_option_tables;
using par::docs::TableParse;

namespace fs = std::filesystem;

// Option prefixes of modules that have a page with an option table but are not on the platform
// yet: their documented options are not required to be in --help. The test fails as soon as
// --help lists an option with such a prefix, so this list cannot go stale.
const std::set<std::string> kNotOnPlatformYet = {};

std::string prefix_of(const std::string& name) { return name.substr(0, name.find('.')); }

// --- the parsers on small samples (so the end-to-end checks cannot pass vacuously) ---

TEST(DocsTableParser, ReadsOptionTablesOnly) {
  const std::string page =
      "# x\n"
      "| socket | kind |\n|---|---|\n| `in` | target |\n"
      "\n"
      "| option | default | meaning |\n"
      "|---|---|---|\n"
      "| `x.size` | `0x100000` | bytes |\n"
      "| `x.mode` | fast | a|b in `c|d` |\n"
      "| `--out` | \xE2\x80\x94 | dir |\n"
      "| `x.name` | `\"\"` | empty |\n"
      "after the table\n"
      "```\n| option | default |\n|---|---|\n| `in.code` | 1 |\n```\n"
      "| option | default |\n| :-- | --: |\n| `y.n` | 1e+09 |\n";
  const TableParse p = parse_option_tables(page, "p-page");
  EXPECT_TRUE(p.errors.empty()) << p.errors.front();
  ASSERT_EQ(p.options.size(), 5u);
  EXPECT_EQ(p.options[0].name, "x.size");
  EXPECT_EQ(p.options[0].default_text, "0x100000");
  EXPECT_EQ(p.options[0].line, 8);
  EXPECT_EQ(p.options[1].name, "x.mode");
  EXPECT_EQ(p.options[1].default_text, "fast");
  EXPECT_EQ(p.options[2].name, "out");
  EXPECT_EQ(p.options[2].default_text, kNoDefault);
  EXPECT_EQ(p.options[3].default_text, "\"\"");
  EXPECT_EQ(p.options[4].name, "y.n");
  EXPECT_EQ(p.options[4].default_text, "1e+09");
  EXPECT_EQ(p.options[4].page, "p-page");
}

TEST(DocsTableParser, RejectsOtherFormats) {
  const TableParse p = parse_option_tables(
      "| Option | Default |\n|---|---|\n| `a.b` | 1 |\n\n"
      "| option | default |\n|---|---|\n| `a.c`, `a.d` | 1 |\n| a.e | 1 |\n| `a.f` |\n",
      "bad-page");
  ASSERT_EQ(p.errors.size(), 4u);
  EXPECT_EQ(p.errors[0],
            "bad-page:1: a table whose first column is 'option' must start with the header '| option | default |' "
            "(found '| Option | Default |')");
  EXPECT_EQ(p.errors[1], "bad-page:7: an option row must start with '| `name` | default |' (found '| `a.c`, `a.d` | 1 |')");
  EXPECT_EQ(p.errors[2], "bad-page:8: an option row must start with '| `name` | default |' (found '| a.e | 1 |')");
  EXPECT_EQ(p.errors[3], "bad-page:9: an option row must start with '| `name` | default |' (found '| `a.f` |')");
  EXPECT_TRUE(p.options.empty());
}

TEST(DocsTableParser, ReadsInstanceTables) {
  const TableParse p = parse_option_tables(
      "| instance | options of | meaning |\n|---|---|---|\n| `host_mem.*` | `dram.*` | host memory |\n"
      "| `a.*` | dram |\n\n| instance | of |\n|---|---|\n",
      "i-page");
  ASSERT_EQ(p.instances.size(), 1u);
  EXPECT_EQ(p.instances[0].instance, "host_mem");
  EXPECT_EQ(p.instances[0].base, "dram");
  EXPECT_EQ(p.instances[0].line, 3);
  ASSERT_EQ(p.errors.size(), 2u);
  EXPECT_EQ(p.errors[0], "i-page:4: an instance row must start with '| `prefix.*` | `base.*` |' (found '| `a.*` | dram |')");
  EXPECT_EQ(p.errors[1],
            "i-page:6: a table whose first column is 'instance' must start with the header '| instance | options of |' "
            "(found '| instance | of |')");
  EXPECT_TRUE(p.options.empty());
}

TEST(DocsHelpParser, ReadsNamesAndDefaults) {
  const std::string help =
      "usage: parsys run FILE [options]\n\n"
      "run options:\n"
      "  -h [ --help ]          print every option\n"
      "  --config arg           INI file with option values (sections give the \n"
      "                         prefix); may repeat\n"
      "  -q [ --quiet ]         no report\n\n"
      "module options (INI section = prefix):\n"
      "Options are given on the command line (--name VALUE or --name=VALUE) or in INI files\n\n"
      "General:\n"
      "  --config <file>                     Read options from an INI file.\n\n"
      "[dram]\n"
      "  --dram.tCL <real>                   Read latency. Clock cycles (multiples of 0.5); -1 = preset. (default:\n"
      "                                      -1; allowed: [-1, 1000])\n"
      "  --dram.mapping <string>             Address bit order (default: \"\")\n"
      "  --dram.refresh[=<bool>]             Model refresh. (default:\n"
      "                                      true)\n"
      "  --platform.scheduler_base <uint64>  Window (0x148 bytes). (default: 0x1000000000)\n"
      "  --core.queue_release <issue|commit>\n"
      "                                      When a waiting-queue entry is freed. (default: issue)\n"
      "  --trace.categories <name>           Only these (repeatable; default: none)\n";
  const std::vector<HelpOption> options = parse_help(help);
  std::vector<std::string> rows;
  for (const HelpOption& o : options) rows.push_back(o.name + "=" + o.default_text);
  const std::string none = kNoDefault;
  EXPECT_EQ(rows, (std::vector<std::string>{"help=" + none, "config=" + none, "quiet=" + none, "dram.tCL=-1",
                                            "dram.mapping=\"\"", "dram.refresh=true",
                                            "platform.scheduler_base=0x1000000000", "core.queue_release=issue",
                                            "trace.categories=none"}));
}

// --- the real help and the real pages ---

const std::vector<HelpOption>& help_options() {
  static const std::vector<HelpOption> options = [] {
    const par::testing::CliResult r = par::testing::parsys("run --help");
    EXPECT_EQ(r.status, 0) << r.out;
    return parse_help(r.out);
  }();
  return options;
}

// Every README.md under modules/, ip/ and platform/, as paths relative to the source tree.
std::vector<std::string> pages() {
  std::vector<std::string> found;
  const fs::path root(PARSYS_SOURCE_DIR);
  for (const char* dir : {"modules", "ip", "platform"}) {
    if (!fs::exists(root / dir)) continue;
    for (const auto& entry : fs::recursive_directory_iterator(root / dir)) {
      if (entry.is_regular_file() && entry.path().filename() == "README.md") {
        found.push_back(fs::relative(entry.path(), root).generic_string());
      }
    }
  }
  std::sort(found.begin(), found.end());
  return found;
}

const TableParse& documented() {
  static const TableParse all = [] {
    TableParse acc;
    for (const std::string& page : pages()) {
      const TableParse p = parse_option_tables(par::testing::read_file(par::testing::source_path(page)), page);
      acc.options.insert(acc.options.end(), p.options.begin(), p.options.end());
      acc.instances.insert(acc.instances.end(), p.instances.begin(), p.instances.end());
      acc.errors.insert(acc.errors.end(), p.errors.begin(), p.errors.end());
    }
    return acc;
  }();
  return all;
}

std::string where(const DocumentedOption& d) { return d.page + ":" + std::to_string(d.line); }

TEST(DocsOptions, PagesUseTheTableFormat) {
  EXPECT_GE(pages().size(), 10u);
  for (const std::string& e : documented().errors) ADD_FAILURE() << e;
}

TEST(DocsOptions, HelpAndPagesAreNotEmpty) {
  // Guards against a parser that silently finds nothing on either side.
  EXPECT_GT(help_options().size(), 100u);
  EXPECT_GT(documented().options.size(), 100u);
}

TEST(DocsOptions, HelpPrintsEachOptionOnce) {
  std::map<std::string, std::string> seen;
  for (const HelpOption& o : help_options()) {
    const auto [it, inserted] = seen.emplace(o.name, o.default_text);
    EXPECT_TRUE(inserted) << "--" << o.name << " appears twice in `parsys run --help`, with defaults '"
                          << it->second << "' and '" << o.default_text << "'";
  }
}

std::string where(const DocumentedInstance& i) { return i.page + ":" + std::to_string(i.line); }

std::vector<const DocumentedOption*> rows_named(const std::string& name) {
  std::vector<const DocumentedOption*> rows;
  for (const DocumentedOption& d : documented().options) {
    if (d.name == name) rows.push_back(&d);
  }
  return rows;
}

// The instance table that covers `name` ("host_mem.tCL" -> the `host_mem.*` row), or null.
const DocumentedInstance* instance_of(const std::string& name) {
  for (const DocumentedInstance& i : documented().instances) {
    if (name.rfind(i.instance + ".", 0) == 0) return &i;
  }
  return nullptr;
}

std::string base_name(const DocumentedInstance& i, const std::string& name) {
  return i.base + name.substr(i.instance.size());
}

TEST(DocsOptions, EveryOptionIsDocumentedOnceWithItsDefault) {
  std::size_t matched = 0;
  for (const HelpOption& o : help_options()) {
    const std::vector<const DocumentedOption*> docs = rows_named(o.name);
    if (docs.empty()) {
      // Not documented by name: through an instance table, with the base option's row.
      const DocumentedInstance* inst = instance_of(o.name);
      const std::vector<const DocumentedOption*> base =
          inst != nullptr ? rows_named(base_name(*inst, o.name)) : std::vector<const DocumentedOption*>{};
      if (base.empty()) {
        ADD_FAILURE() << "option '" << o.name << "' (--help default '" << o.default_text
                      << "') is documented on no page: add the row '| `" << o.name << "` | `" << o.default_text
                      << "` | ... |' to the option table of its module's README.md (or, for a module registered "
                         "under a second prefix, an instance row: see tests/docs/option_tables.hpp)";
        continue;
      }
      EXPECT_EQ(base.front()->default_text, o.default_text)
          << "option '" << o.name << "': --help prints the default '" << o.default_text << "', but it inherits '"
          << base.front()->default_text << "' from " << base.front()->name << " (" << where(*base.front())
          << ") through the instance table at " << where(*inst) << ": add the row '| `" << o.name << "` | `"
          << o.default_text << "` | ... |' to an option table of " << inst->page;
      ++matched;
      continue;
    }
    for (const DocumentedOption* d : docs) {
      EXPECT_EQ(d->default_text, o.default_text)
          << "option '" << o.name << "': " << where(*d) << " documents the default '" << d->default_text
          << "' but --help prints '" << o.default_text << "'";
      if (d != docs.front()) {
        EXPECT_EQ(d->default_text, docs.front()->default_text)
            << "option '" << o.name << "' is documented twice with different defaults: " << where(*docs.front())
            << " says '" << docs.front()->default_text << "', " << where(*d) << " says '" << d->default_text << "'";
      }
    }
    ++matched;
  }
  EXPECT_EQ(matched, help_options().size());
}

TEST(DocsOptions, EveryDocumentedOptionExists) {
  std::set<std::string> in_help;
  std::set<std::string> help_prefixes;
  for (const HelpOption& o : help_options()) {
    in_help.insert(o.name);
    if (o.name.find('.') != std::string::npos) help_prefixes.insert(prefix_of(o.name));
  }
  for (const std::string& prefix : kNotOnPlatformYet) {
    EXPECT_EQ(help_prefixes.count(prefix), 0u)
        << "--help now lists " << prefix << ".* options: remove '" << prefix
        << "' from kNotOnPlatformYet in tests/docs/options_documented_test.cpp";
  }
  for (const DocumentedOption& d : documented().options) {
    if (in_help.count(d.name) != 0) continue;
    if (d.name.find('.') != std::string::npos && kNotOnPlatformYet.count(prefix_of(d.name)) != 0) continue;
    ADD_FAILURE() << where(d) << " documents option '" << d.name << "' (default '" << d.default_text
                  << "'), which `parsys run --help` does not list: remove or rename the row";
  }
  // An instance table promises every option of its base under the instance's prefix.
  for (const DocumentedInstance& i : documented().instances) {
    EXPECT_EQ(instance_of(i.instance + ".x"), &i)
        << where(i) << ": " << i.instance << ".* is declared twice (first at " << where(*instance_of(i.instance + ".x"))
        << ")";
    std::size_t base_rows = 0;
    for (const DocumentedOption& d : documented().options) {
      if (d.name.rfind(i.base + ".", 0) != 0) continue;
      ++base_rows;
      const std::string name = i.instance + d.name.substr(i.base.size());
      EXPECT_EQ(in_help.count(name), 1u) << where(i) << " documents " << i.instance << ".* as the options of "
                                         << i.base << ".*, but `parsys run --help` has no '" << name
                                         << "' (the counterpart of " << d.name << ", " << where(d) << ")";
    }
    EXPECT_GT(base_rows, 0u) << where(i) << ": no option of " << i.base << ".* is documented";
  }
}

}  // namespace
