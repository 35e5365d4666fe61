// Shared fixtures of the simkit tests: a sample configuration and temporary INI files.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "par/simkit/options.hpp"

namespace par::simkit::test {

enum class Count { Issue, Commit };

// A platform-like configuration with every option kind.
struct SampleConfig {
  int lanes = 8;                       // core.lanes [1, 64]
  unsigned threads = 4;                // core.threads_per_lane >= 1
  std::int64_t offset = -3;            // core.offset
  double clock_ghz = 1.5;              // core.clock_ghz (0, 10]
  bool trace = false;                  // core.trace
  Count count = Count::Issue;          // core.count
  std::uint64_t l2_size = 256 * 1024;  // l2.size
  unsigned l2_banks = 4;               // l2.banks
  std::uint64_t base = 0x1000;         // mem.base (hex)
  std::string preset = "DDR4-2400";    // dram.preset
  std::vector<std::string> dump_mem;   // run.dump-mem
  std::string name = "run";            // name (no section)
  std::string out = "out";             // out (command line only)
  bool help = false;                   // help (command line only, -h)
};

inline void register_sample(OptionRegistry& reg, SampleConfig& c) {
  reg.add("out", c.out, "Directory for results.").command_line_only();
  reg.add("help", c.help, "Print this help and exit.").command_line_only().short_name('h');
  reg.add("name", c.name, "Name of the run, written into the report.");
  reg.add("core.lanes", c.lanes, "Lock-step lanes per PAR core.").range(1, 64);
  reg.add("core.threads_per_lane", c.threads, "Hardware threads per lane.").min(1);
  reg.add("core.offset", c.offset, "Signed test offset.");
  reg.add("core.clock_ghz", c.clock_ghz, "Core clock frequency.").range(0.001, 10.0);
  reg.add("core.trace", c.trace, "Trace every instruction.");
  reg.add_enum("core.count", c.count, "When an instruction counts as executed.",
               {{"issue", Count::Issue}, {"commit", Count::Commit}});
  reg.add("l2.size", c.l2_size, "L2 capacity in bytes (K/M/G suffixes allowed).");
  reg.add("l2.banks", c.l2_banks, "Number of L2 banks.").range(1, 64);
  reg.add("mem.base", c.base, "Base address of device memory.").hex();
  reg.add("dram.preset", c.preset, "DRAM timing preset.");
  reg.add("run.dump-mem", c.dump_mem, "Dump ADDR:BYTES of device memory after the run.");
}

// A temporary directory, removed with its files at scope exit.
class TempDir {
 public:
  TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "simkit_test_XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  // Writes `text` to `name` in the directory and returns the full path.
  std::string write(const std::string& name, const std::string& text) const {
    const std::string file = path_ + "/" + name;
    std::ofstream(file, std::ios::binary) << text;
    return file;
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace par::simkit::test
