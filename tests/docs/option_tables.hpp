// Parsers for the two sides of the documentation check: the option list `parsys run --help`
// prints, and the option tables of the module pages (README.md).
//
// The documented table format (one format on every page):
//
//   | option | default | meaning |
//   |---|---|---|
//   | `l2.banks` | `4` | banks per L2 |
//
// - a table is an option table when its header row's first two cells are exactly `option` and
//   `default` (more columns may follow); any other table whose first header cell is "option" is a
//   format error, so a table in another format is never skipped silently;
// - each row's first cell is one option name in backticks, without or with the leading `--`;
// - the second cell is the default exactly as --help prints it ("(default: X" / "(repeatable;
//   default: X"), optionally in backticks; an option for which --help prints no default (the
//   command-line-only run options) is documented with the default `—`;
// - tables inside fenced code blocks are not read.
//
// A module whose options are registered a second time under another prefix (the host memory is a
// second DRAM: `host_mem.*` has every `dram.*` option) is documented by an instance table:
//
//   | instance | options of | meaning |
//   |---|---|---|
//   | `host_mem.*` | `dram.*` | host memory |
//
// Each `host_mem.X` then takes the documented row of `dram.X`, default included; an instance
// option whose default differs gets a row of its own in an option table, which wins.
//
// Normalisation (the only one): cells are trimmed and one pair of enclosing backticks is removed.
// On the --help side, wrapped description lines are joined with single spaces before the default
// is read, so a default containing runs of spaces would compare with single spaces.
#pragma once

#include <string>
#include <vector>

namespace par::docs {

// The default text that stands for "--help prints no default".
inline const char* const kNoDefault = "\xE2\x80\x94";  // an em dash

struct HelpOption {
  std::string name;          // without the leading --
  std::string default_text;  // as printed, kNoDefault when none is printed
};

struct DocumentedOption {
  std::string name;          // without the leading --
  std::string default_text;  // the cell, trimmed, backticks removed
  std::string page;          // as passed to parse_option_tables
  int line = 0;              // 1-based
};

// `instance.*` has the options of `base.*` (prefixes without ".*").
struct DocumentedInstance {
  std::string instance;
  std::string base;
  std::string page;
  int line = 0;
};

struct TableParse {
  std::vector<DocumentedOption> options;
  std::vector<DocumentedInstance> instances;
  std::vector<std::string> errors;  // "page:line: what is wrong"
};

// Every option of `parsys run --help` (both the run options and the module options); an option
// listed twice (--config) is returned once unless the two defaults differ.
std::vector<HelpOption> parse_help(const std::string& help_text);

// The option and instance tables of one markdown page.
TableParse parse_option_tables(const std::string& markdown, const std::string& page);

}  // namespace par::docs
