// Fuzz target: the options registry's command-line and INI parsing.
//
// Input: the text of an INI file, then (after the first NUL byte) command-line arguments
// separated by NUL bytes. Properties: parsing never throws or crashes and reports problems as
// messages; a configuration that parses writes an effective INI file that, given back with
// --config, parses without error to the same values (config.ini reproduces a run).
#include <sys/mman.h>
#include <unistd.h>

#include <sstream>
#include <string>
#include <vector>

#include "../ip/simkit/simkit_test_support.hpp"
#include "fuzz_support.hpp"
#include "par/simkit/options.hpp"
#include "par/trace/trace_config.hpp"

using namespace par;

namespace {

// An in-memory file named by a path, for --config.
class MemoryFile {
 public:
  explicit MemoryFile(const std::string& text) : fd_(memfd_create("fuzz.ini", 0)) {
    if (fd_ < 0 || ::write(fd_, text.data(), text.size()) != static_cast<ssize_t>(text.size()))
      fuzz::violated("memfd_create/write failed");
  }
  ~MemoryFile() { ::close(fd_); }
  MemoryFile(const MemoryFile&) = delete;
  MemoryFile& operator=(const MemoryFile&) = delete;
  std::string path() const { return "/proc/self/fd/" + std::to_string(fd_); }

 private:
  int fd_;
};

struct Configuration {
  simkit::test::SampleConfig sample;
  trace::TraceConfig trace;
  simkit::OptionRegistry reg;
  Configuration() {
    simkit::test::register_sample(reg, sample);
    trace::register_options(reg, trace);
  }
};

// parse() turns an exception into "internal error while reading options: ..." (user text may say
// "internal error" anywhere else in a message).
void check_messages(const simkit::ParseResult& r, const std::string& what) {
  for (const std::string& e : r.errors)
    if (e.empty() || e.rfind("internal error while reading options", 0) == 0) fuzz::violated(what + ": " + e);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string input(reinterpret_cast<const char*>(data), size);
  const std::size_t split = input.find('\0');
  const std::string ini = input.substr(0, split);
  std::vector<std::string> args;
  if (split != std::string::npos) {
    std::istringstream rest(input.substr(split + 1));
    for (std::string a; std::getline(rest, a, '\0');) args.push_back(a);
  }
  // Other files must not be read (a fuzzer could name /dev/stdin).
  for (const std::string& a : args)
    if (a.find("config") != std::string::npos) return 0;

  const MemoryFile file(ini);
  args.push_back("--config");
  args.push_back(file.path());
  Configuration first;
  const simkit::ParseResult r = first.reg.parse(args);
  check_messages(r, "parse");
  std::ostringstream help;
  first.reg.help(help);
  if (!r.ok()) return 0;

  const MemoryFile dumped(first.reg.effective_ini());
  Configuration second;
  const simkit::ParseResult again = second.reg.parse({"--config", dumped.path()});
  check_messages(again, "parse of the effective INI");
  if (!again.ok()) fuzz::violated("the effective INI does not parse: " + again.errors.front() + "\n" + first.reg.effective_ini());
  if (first.reg.effective_json() != second.reg.effective_json())
    fuzz::violated("the effective INI gives other values:\n" + first.reg.effective_json().dump() + "\n" +
                   second.reg.effective_json().dump() + "\n" + first.reg.effective_ini());
  return 0;
}
