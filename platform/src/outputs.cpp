#include "outputs.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iomanip>
#include <sstream>
#include <utility>

#include "report.hpp"
#include "version.hpp"

namespace par::platform {

namespace {

bool parse_number(const std::string& t, std::uint64_t& v) {
  if (t.empty() || t[0] == '-' || t[0] == '+') return false;
  errno = 0;
  char* end = nullptr;
  v = std::strtoull(t.c_str(), &end, 0);
  return errno == 0 && end != nullptr && *end == '\0';
}

// A data label: its address and the bytes up to the next data label or the end of its section.
bool find_label(const isa::Program& program, const std::string& name, std::uint64_t& addr, std::uint64_t& extent) {
  const auto it = program.data_labels.find(name);
  if (it == program.data_labels.end()) return false;
  addr = it->second;
  extent = 0;
  for (const isa::DataSection& d : program.data)
    if (addr >= d.address && addr < d.address + d.bytes.size()) extent = d.address + d.bytes.size() - addr;
  for (const auto& [other, a] : program.data_labels)
    if (a > addr && a - addr < extent) extent = a - addr;
  return true;
}

std::string errno_text(int e) { return e != 0 ? std::strerror(e) : "unknown error"; }

}  // namespace

std::string parse_dump_request(const std::string& text, const isa::Program& program, std::uint64_t& addr,
                               std::uint64_t& len) {
  constexpr std::uint64_t kMaxDump = 64ull << 20;
  const auto colon = text.find(':');
  std::string where = text.substr(0, colon);
  std::uint64_t offset = 0, extent = 0;
  if (const auto plus = where.find('+'); plus != std::string::npos && plus > 0) {
    if (!parse_number(where.substr(plus + 1), offset)) return "--dump-mem '" + text + "': bad offset after '+'";
    where.erase(plus);
  }
  const bool label = find_label(program, where, addr, extent);
  if (!label && !parse_number(where, addr)) {
    const bool numeric = !where.empty() && std::isdigit(static_cast<unsigned char>(where[0]));
    return "--dump-mem '" + text + "': " +
           (numeric ? "bad address" : "'" + where + "' is neither an address nor a data label of the program") +
           " (expected ADDR:LEN or LABEL[:LEN])";
  }
  addr += offset;
  if (colon == std::string::npos) {
    if (!label) return "--dump-mem '" + text + "': expected ADDR:LEN (a length is needed after an address)";
    if (extent <= offset) return "--dump-mem '" + text + "': the label has no data after it; give a length";
    len = std::min(extent - offset, kMaxDump);
    return "";
  }
  if (!parse_number(text.substr(colon + 1), len) || len == 0 || len > kMaxDump)
    return "--dump-mem '" + text + "': length must be 1..67108864 bytes";
  return "";
}

std::string prepare_output_dir(const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return "cannot create output directory '" + dir + "': " + ec.message();
  if (!std::filesystem::is_directory(dir, ec)) return "cannot use output directory '" + dir + "': not a directory";
  if (access(dir.c_str(), W_OK | X_OK) != 0)
    return "cannot write into output directory '" + dir + "': " + errno_text(errno);
  return "";
}

std::string prepare_output_file(const std::string& path, const std::string& what) {
  const std::filesystem::path p(path);
  std::error_code ec;
  if (p.has_parent_path()) {
    std::filesystem::create_directories(p.parent_path(), ec);
    if (ec) return what + ": cannot create directory '" + p.parent_path().string() + "': " + ec.message();
  }
  if (std::filesystem::is_directory(p, ec)) return what + ": '" + path + "' is a directory";
  // Opened without truncating: the file is written at the end of the run.
  const int fd = open(path.c_str(), O_WRONLY | O_CREAT, 0666);
  if (fd < 0) return what + ": cannot write '" + path + "': " + errno_text(errno);
  close(fd);
  return "";
}

std::string write_text_file(const std::string& path, const std::string& text) {
  const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0666);
  if (fd < 0) return "cannot write '" + path + "': " + errno_text(errno);
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int e = errno;
      close(fd);
      return "cannot write '" + path + "': " + errno_text(e);
    }
    done += static_cast<std::size_t>(n);
  }
  if (close(fd) != 0) return "cannot write '" + path + "': " + errno_text(errno);
  return "";
}

std::string write_output_dir(const std::string& dir, const PlatformStats& stats, const std::string& config_ini,
                             const simkit::Json& config_json, const std::vector<MemoryDump>& dumps,
                             const std::vector<core::ThreadRegisters>& registers) {
  // One document for both statistics files: the per-launch difference trees are the costly part.
  simkit::Json stats_json = stats.to_json();
  std::ostringstream table;
  stats.write_table(table, &stats_json);
  return write_output_dir(dir, std::move(stats_json), table.str(), config_ini, config_json, dumps, registers);
}

std::string write_output_dir(const std::string& dir, simkit::Json stats_json, const std::string& stats_table,
                             const std::string& config_ini, const simkit::Json& config_json,
                             const std::vector<MemoryDump>& dumps, const std::vector<core::ThreadRegisters>& registers) {
  // replace: a string that is not UTF-8 (a file name) must not lose the whole document.
  const auto json_text = [](const simkit::Json& j) {
    return j.dump(2, ' ', false, simkit::Json::error_handler_t::replace) + '\n';
  };
  stats_json["parsys_version"] = kVersion;
  // '$' members are metadata that --config skips, so config.json can be given back as it is.
  simkit::Json config = {{"$parsys_version", kVersion}};
  config.update(config_json);
  std::vector<std::pair<std::string, std::string>> files{{"stats.json", json_text(stats_json)},
                                                         {"stats.txt", stats_table},
                                                         {"config.ini", "# parsys " + std::string(kVersion) + "\n" + config_ini},
                                                         {"config.json", json_text(config)}};
  for (const MemoryDump& d : dumps) {
    std::ostringstream name;
    name << "mem_0x" << std::hex << d.address << '_' << std::dec << d.length << ".bin";
    files.emplace_back(name.str(), std::string(d.bytes.begin(), d.bytes.end()));
  }
  if (!registers.empty()) {
    std::ostringstream f;
    write_registers(f, registers);
    files.emplace_back("registers.txt", f.str());
  }
  for (const auto& [name, text] : files)
    if (std::string e = write_text_file(dir + "/" + name, text); !e.empty()) return e;
  return "";
}

}  // namespace par::platform
