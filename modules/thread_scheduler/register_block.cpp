#include "register_block.hpp"

#include <cstring>

namespace par::sched {

Decoded decode(std::uint64_t offset, std::uint64_t length, bool write) {
  Decoded d;
  if (length == 0 || length % 8 != 0 || offset % 8 != 0 || offset >= kRegSpaceEnd) return d;
  if (offset < kStagingEnd) {
    d.result = offset + length <= kStagingEnd ? RegResult::Ok : RegResult::BurstError;
    d.reg = Reg::Staging;
    return d;
  }
  if (length != 8) {
    d.result = RegResult::BurstError;
    return d;
  }
  struct Entry {
    std::uint64_t offset;
    Reg reg;
    bool writable;
  };
  static constexpr Entry kControl[] = {
      {kRegDoorbell, Reg::Doorbell, true},     {kRegStatus, Reg::Status, false},
      {kRegSubmitted, Reg::Submitted, false},  {kRegCompleted, Reg::Completed, false},
      {kRegQueued, Reg::Queued, false},        {kRegFailedSeq, Reg::FailedSeq, false},
      {kRegClearError, Reg::ClearError, true},
  };
  for (const Entry& e : kControl) {
    if (e.offset != offset) continue;
    d.reg = e.reg;
    d.result = e.writable == write ? RegResult::Ok : RegResult::CommandError;
    return d;
  }
  return d;  // a hole in the control block
}

std::uint64_t* StagingRegisters::word(std::uint64_t offset) {
  return const_cast<std::uint64_t*>(static_cast<const StagingRegisters*>(this)->word(offset));
}

const std::uint64_t* StagingRegisters::word(std::uint64_t offset) const {
  switch (offset) {
    case kRegStart: return &staged_.start;
    case kRegThreads: return reinterpret_cast<const std::uint64_t*>(&staged_.threads);
    case kRegFlagAddr: return &staged_.flag_addr;
    case kRegTag: return &staged_.tag;
    case kRegControl: return &staged_.control;
    default: break;
  }
  if (offset > kRegInheritedBase && offset < kStagingEnd) return &staged_.inherited[(offset - kRegInheritedBase) / 8];
  return nullptr;
}

void StagingRegisters::write(std::uint64_t offset, const std::uint8_t* data, std::size_t length) {
  for (std::size_t i = 0; i < length; i += 8) {
    std::uint64_t* w = word(offset + i);
    if (w != nullptr) std::memcpy(w, data + i, 8);
  }
}

void StagingRegisters::read(std::uint64_t offset, std::uint8_t* data, std::size_t length) const {
  for (std::size_t i = 0; i < length; i += 8) {
    const std::uint64_t* w = word(offset + i);
    const std::uint64_t v = w != nullptr ? *w : 0;
    std::memcpy(data + i, &v, 8);
  }
}

}  // namespace par::sched
