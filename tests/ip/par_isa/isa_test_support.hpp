// Helpers shared by the ISA toolchain tests (encoding, assembler, disassembler, image).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "par/isa/assembler.hpp"
#include "par/isa/encoding.hpp"
#include "par/isa/instruction.hpp"

namespace par::isa::test {

// A master program around `lines`, so that every instruction (par, sync, any loop count) is
// legal; a trailing `sync #` supplies the final stop bit.
inline std::string master_program(const std::string& lines) {
  return ".MASTER\n.ADDRESS 0\n.CODE\n" + lines + "\n        sync #\n";
}

// Assembles one instruction line and returns its word; fails the test on any error.
inline std::uint32_t assemble_one(const std::string& line) {
  const AssemblyResult r = assemble(master_program(line), "one.par");
  EXPECT_TRUE(r.ok()) << line << "\n" << r.messages();
  if (!r.ok() || r.program->code.empty()) return 0xFFFFFFFFu;
  return r.program->code[0];
}

inline std::vector<std::filesystem::path> par_files(const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> out;
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) return out;
  for (auto it = std::filesystem::recursive_directory_iterator(dir, ec);
       !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
    if (it->is_regular_file(ec) && it->path().extension() == ".par") out.push_back(it->path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

inline std::filesystem::path source_dir() { return std::filesystem::path(PARSYS_SOURCE_DIR); }

// Example programs of the specs (tests/ip/par_isa/programs) and every kernel under sw/.
inline std::vector<std::filesystem::path> all_programs() {
  std::vector<std::filesystem::path> v = par_files(source_dir() / "tests" / "ip" / "par_isa" / "programs");
  const std::vector<std::filesystem::path> sw = par_files(source_dir() / "sw");
  v.insert(v.end(), sw.begin(), sw.end());
  return v;
}

// A random valid instruction of opcode `op` in the decoded conventions of instruction.hpp
// (unused fields 0). `imm_form` is used only where the opcode has both forms.
inline Instruction random_instruction(std::mt19937& rng, Opcode op, bool imm_form) {
  auto pick = [&](std::int64_t lo, std::int64_t hi) {
    return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
  };
  auto u8 = [&](int lo, int hi) { return static_cast<std::uint8_t>(pick(lo, hi)); };
  const OpInfo& m = info(op);
  Instruction in;
  in.op = op;
  in.qp = u8(0, 7);
  in.stop = pick(0, 1) == 1;
  const bool has_r = m.r_op6 != kNoOp6, has_i = m.i_op6 != kNoOp6;
  const bool use_imm = has_i && (!has_r || imm_form);
  switch (m.shape) {
    case Shape::Binary:
    case Shape::Load:
    case Shape::Store:
      in.rd = m.shape == Shape::Store ? u8(0, 31) : u8(0, 15);
      in.ra = u8(0, 31);
      in.imm_form = use_imm;
      if (!use_imm) {
        in.rb = u8(0, 31);
      } else if (m.shape == Shape::Binary && m.i_op6 == info(Opcode::Sll).i_op6) {
        in.imm = pick(0, 63);
      } else {
        in.imm = pick(-256, 255);
      }
      break;
    case Shape::Unary:
      in.rd = u8(0, 15);
      in.ra = u8(0, 31);
      break;
    case Shape::Sla:
      in.rd = u8(0, 15);
      in.ra = u8(0, 31);
      in.rb = u8(0, 31);
      in.imm = pick(0, 3);
      break;
    case Shape::Ext:
      in.rd = u8(0, 15);
      in.ra = u8(0, 31);
      in.imm = pick(0, 63);
      in.imm_form = true;
      break;
    case Shape::Const:
      in.rd = u8(0, 15);
      in.imm = op == Opcode::Set ? pick(-32768, 32767) : pick(0, 65535);
      break;
    case Shape::Compare:
      in.pt = u8(0, 7);
      in.pf = u8(0, 7);
      in.ra = u8(0, 31);
      in.imm_form = use_imm;
      if (use_imm) {
        in.imm = pick(-256, 255);
      } else {
        in.rb = u8(0, 31);
      }
      break;
    case Shape::PredLogic:
      in.pt = u8(0, 7);
      in.pf = u8(0, 7);
      in.pa = u8(0, 7);
      in.pb = u8(0, 7);
      break;
    case Shape::XpLabel: in.imm = pick(0, (1 << 26) - 1); break;
    case Shape::XpReg: in.rd = u8(0, 31); break;
    case Shape::LoopCount:
    case Shape::Par:
      in.rd = u8(0, 31);
      in.imm = pick(0, 65535);
      break;
    case Shape::LoopCond:
    case Shape::Brk: in.imm = pick(0, 65535); break;
    case Shape::None: break;
    case Shape::StreamGet:
    case Shape::StreamPut:
      in.rd = m.shape == Shape::StreamPut ? u8(0, 31) : u8(0, 15);
      in.imm = pick(0, kStreamChannels - 1);
      break;
  }
  return in;
}

// CRC-32 (IEEE), as in the image format, for tests that forge images with a valid checksum.
inline std::uint32_t crc32(const std::uint8_t* p, std::size_t n) {
  std::uint32_t c = 0xFFFFFFFFu;
  for (std::size_t i = 0; i < n; ++i) {
    c ^= p[i];
    for (int k = 0; k < 8; ++k) c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
  }
  return ~c;
}

}  // namespace par::isa::test
