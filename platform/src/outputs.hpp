// The files a run leaves behind: the output directory (--out, or parsys-out/ by default), the
// trace files and the memory/register dumps. Everything is checked before simulating, so a bad
// path or range costs no simulation, and every write is checked afterwards.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core_statistics.hpp"
#include "par/isa/program.hpp"
#include "par/simkit/json.hpp"
#include "platform_stats.hpp"

namespace par::platform {

// Where a run without --out keeps its results (as gem5's m5out); --no-out keeps none.
inline constexpr const char* kDefaultOutputDir = "parsys-out";

struct MemoryDump {
  std::uint64_t address = 0;
  std::uint64_t length = 0;
  std::vector<std::uint8_t> bytes;
};

// Parses "WHERE:LEN" or "LABEL" for --dump-mem. WHERE is an address (decimal or 0x hex) or a data
// label of `program`, optionally "+OFFSET"; a label alone dumps up to the next data label (or the
// end of its data section). Returns an error message or "".
std::string parse_dump_request(const std::string& text, const isa::Program& program, std::uint64_t& addr,
                               std::uint64_t& len);

// Creates `dir` with its parents and checks that files can be created in it. An error or "".
std::string prepare_output_dir(const std::string& dir);
// Creates the parent directories of `path` and checks that it can be written (`what` names the
// option in the message). An error or "".
std::string prepare_output_file(const std::string& path, const std::string& what);

// Writes stats.json, stats.txt, config.ini, config.json, memory dumps and registers.txt into
// `dir`. Every write is checked: an error message (naming the file and the reason) or "".
std::string write_output_dir(const std::string& dir, const PlatformStats& stats, const std::string& config_ini,
                             const simkit::Json& config_json, const std::vector<MemoryDump>& dumps,
                             const std::vector<core::ThreadRegisters>& registers);
// The same with the statistics given as stats.json's document and stats.txt's text (a stuck
// run's, PlatformStats::published_json).
std::string write_output_dir(const std::string& dir, simkit::Json stats_json, const std::string& stats_table,
                             const std::string& config_ini, const simkit::Json& config_json,
                             const std::vector<MemoryDump>& dumps, const std::vector<core::ThreadRegisters>& registers);

// Writes `text` to `path`; an error message naming the file and the reason, or "".
std::string write_text_file(const std::string& path, const std::string& text);

}  // namespace par::platform
