#include "par/simkit/input_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "par/simkit/format.hpp"

namespace par::simkit {

namespace {

// Closes the descriptor on every path out of read_input_file.
class Descriptor {
 public:
  explicit Descriptor(int fd) : fd_(fd) {}
  ~Descriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

std::string too_large(std::uint64_t max_bytes) {
  return "it is larger than " + format_bytes(max_bytes) + ", the limit for this kind of input";
}

}  // namespace

std::string read_input_file(const std::string& path, std::uint64_t max_bytes, std::string& contents) {
  contents.clear();
  const Descriptor fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0) return std::strerror(errno);
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) return std::strerror(errno);
  if (S_ISDIR(st.st_mode)) return "it is a directory";
  // A device (/dev/zero, a terminal) is not an input file; a pipe is (a generator's output).
  if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)) return "it is a device, not a file";
  if (S_ISREG(st.st_mode)) {
    if (static_cast<std::uint64_t>(st.st_size) > max_bytes) return too_large(max_bytes);
    contents.reserve(static_cast<std::size_t>(st.st_size));
  }
  char buffer[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd.get(), buffer, sizeof buffer);
    if (n == 0) return "";
    if (n < 0) {
      if (errno == EINTR) continue;
      const std::string reason = std::string("read error: ") + std::strerror(errno);
      contents.clear();
      return reason;
    }
    if (contents.size() + static_cast<std::size_t>(n) > max_bytes) {
      contents.clear();
      return too_large(max_bytes);
    }
    contents.append(buffer, static_cast<std::size_t>(n));
  }
}

}  // namespace par::simkit
