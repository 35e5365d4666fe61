// Typed, little-endian reads of the data sections and inherited registers of an assembled program.
#include <cstring>
#include <sstream>
#include <stdexcept>

#include "kernel_refs.hpp"

namespace par::kernels {

std::uint64_t ProgramData::address(std::string_view label) const {
  const auto it = program_.data_labels.find(std::string(label));
  if (it == program_.data_labels.end()) {
    throw std::runtime_error("data label '" + std::string(label) + "' is not defined");
  }
  return it->second;
}

std::uint64_t ProgramData::inherited(int k) const {
  if (k < 1 || k > 15) throw std::runtime_error("inherited register i" + std::to_string(k) + " does not exist");
  return program_.inherited[static_cast<std::size_t>(k)];
}

double ProgramData::inherited_f64(int k) const {
  const std::uint64_t bits = inherited(k);
  double v;
  std::memcpy(&v, &bits, sizeof v);
  return v;
}

float ProgramData::inherited_f32(int k) const {
  const auto bits = static_cast<std::uint32_t>(inherited(k));
  float v;
  std::memcpy(&v, &bits, sizeof v);
  return v;
}

std::uint64_t ProgramData::read(std::uint64_t address, int size) const {
  for (const isa::DataSection& s : program_.data) {
    // Written so that nothing wraps: address - s.address + size could pass 2^64.
    if (address >= s.address && static_cast<std::uint64_t>(size) <= s.bytes.size() &&
        address - s.address <= s.bytes.size() - static_cast<std::uint64_t>(size)) {
      std::uint64_t v = 0;
      for (int b = size - 1; b >= 0; --b) v = (v << 8) | s.bytes[address - s.address + static_cast<std::uint64_t>(b)];
      return v;
    }
  }
  std::ostringstream os;
  os << "no data section holds the " << size << " bytes at 0x" << std::hex << address;
  throw std::runtime_error(os.str());
}

std::vector<double> ProgramData::f64(std::uint64_t address, std::size_t count) const {
  std::vector<double> out(count);
  for (std::size_t i = 0; i < count; ++i) {
    const std::uint64_t bits = read(address + 8 * i, 8);
    std::memcpy(&out[i], &bits, sizeof bits);
  }
  return out;
}

std::vector<double> ProgramData::f64(std::string_view label, std::size_t count) const {
  return f64(address(label), count);
}

std::vector<std::uint8_t> ProgramData::u8(std::string_view label, std::size_t count) const {
  const std::uint64_t base = address(label);
  std::vector<std::uint8_t> out(count);
  for (std::size_t i = 0; i < count; ++i) out[i] = static_cast<std::uint8_t>(read(base + i, 1));
  return out;
}

std::vector<std::uint16_t> ProgramData::u16(std::uint64_t address, std::size_t count) const {
  std::vector<std::uint16_t> out(count);
  for (std::size_t i = 0; i < count; ++i) out[i] = static_cast<std::uint16_t>(read(address + 2 * i, 2));
  return out;
}

}  // namespace par::kernels
