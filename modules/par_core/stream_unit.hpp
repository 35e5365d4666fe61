// The optional stream unit of a PAR core (core.stream.*, README "Stream unit"): a stream register
// file with one bank per lane, channel descriptors, and the conditional get / put instructions
// (docs/isa.md §6.10, docs/core-timing.md §4.9).
//
// The lanes are the processing elements of the routing network. A lane runs an instruction for
// its T slots one per cycle, so a get or put is T accesses, one per slot position t = 0..T-1 in
// that order, each by all L lanes at once with lane l's condition = slot l*T + t qualified. The
// state (SRF contents and descriptors) belongs to the core and lasts across packets: the host
// fills channels before a launch and drains them after it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "par/isa/instruction.hpp"
#include "par/isa/stream.hpp"
#include "slot_state.hpp"

namespace par::core {

struct StreamConfig {
  bool enabled = false;            // core.stream.enabled: without it get / put are runtime errors
  int channels = 8;                // core.stream.channels: descriptors (s0 .. s<channels-1>)
  std::int64_t srf_elements = 4096;  // core.stream.srf_elements: 64-bit elements of the SRF, all banks
  int latency = 1;                 // core.stream.latency: cycles from a slot's access to its result
};

// A get / put that cannot be performed: the message and the slot of the first PE that wanted an
// element in the failing access.
struct StreamFault {
  std::string cause;
  int slot = -1;
};

class StreamUnit {
 public:
  // `pes`: processing elements (the core's lanes; functional mode: the threads run side by side);
  // `slot_positions`: T (1 in functional mode).
  StreamUnit(const StreamConfig& cfg, int pes, int slot_positions);

  // --- host side (fill and drain; between packets) -------------------------------------------
  int channels() const { return static_cast<int>(desc_.size()); }
  std::uint64_t capacity() const { return srf_.capacity(); }
  // Sets channel ch to elements [cur, fin) (empty when fin <= cur); false with a message if ch
  // or a bound is invalid.
  bool set_channel(int ch, std::uint64_t cur, std::uint64_t fin, std::string* error);
  const isa::stream::Descriptor& channel(int ch) const { return desc_[static_cast<std::size_t>(ch)]; }
  // SRF elements [first, first + values.size()); false with a message past the capacity.
  bool write(std::uint64_t first, const std::vector<std::uint64_t>& values, std::string* error);
  bool read(std::uint64_t first, std::uint64_t count, std::vector<std::uint64_t>& out, std::string* error) const;

  // --- core side ----------------------------------------------------------------------------
  // Executes get / put `in` for the qualified slots `q` (slot = pe * T + t).
  std::optional<StreamFault> execute(const isa::Instruction& in, const std::uint8_t* q, SlotState& state);

  // Counters (docs/core-timing.md §8): instructions, and elements moved each way.
  std::uint64_t gets() const { return gets_; }
  std::uint64_t puts() const { return puts_; }
  std::uint64_t elements_read() const { return elements_read_; }
  std::uint64_t elements_written() const { return elements_written_; }

 private:
  int pes_, positions_;
  isa::stream::Srf srf_;
  std::vector<isa::stream::Descriptor> desc_;
  isa::stream::Router router_;
  std::vector<std::uint8_t> cond_;
  std::vector<std::uint64_t> data_;
  std::uint64_t gets_ = 0, puts_ = 0, elements_read_ = 0, elements_written_ = 0;
};

}  // namespace par::core
