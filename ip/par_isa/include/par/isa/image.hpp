// Binary program images written by `parsys asm` and read by `parsys disasm` / `parsys run`.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "par/isa/program.hpp"

namespace par::isa {

std::vector<std::uint8_t> write_image(const Program& program);
// The image format's checksum (CRC-32, IEEE 802.3) of `n` bytes: the last field of an image is
// the checksum of every byte before it (tools that build or edit images).
std::uint32_t image_checksum(const std::uint8_t* bytes, std::size_t n);
// Returns nothing and sets `error` for a truncated, corrupt or foreign file.
std::optional<Program> read_image(const std::vector<std::uint8_t>& bytes, std::string* error);

bool save_image(const Program& program, const std::string& path, std::string* error);
// Refuses, with a message, a directory, a device, or a file larger than 1 GiB.
std::optional<Program> load_image(const std::string& path, std::string* error);

}  // namespace par::isa
