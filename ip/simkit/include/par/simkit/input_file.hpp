// Reading a whole input file (program source, program image, INI file) with a bound on its size.
//
// A user may name anything as an input: a directory, a file they cannot read, /dev/zero or a pipe
// that never ends. Each of these becomes a one-line reason instead of an exception from the
// standard streams or an allocation that grows until the host runs out of memory.
#pragma once

#include <cstdint>
#include <string>

namespace par::simkit {

// Reads `path` into `contents`. Returns "" on success or the reason it failed, without the path:
// "it is a directory", "it is a device, not a file" (/dev/zero, a terminal), "No such file or
// directory" (strerror), "read error: Input/output error", "it is larger than 1 MiB, the limit
// for this kind of input". A regular file's size is checked before anything is read; a pipe is
// read until it ends or passes `max_bytes`.
std::string read_input_file(const std::string& path, std::uint64_t max_bytes, std::string& contents);

}  // namespace par::simkit
