#include "stream_unit.hpp"

namespace par::core {

using isa::stream::Status;

StreamUnit::StreamUnit(const StreamConfig& cfg, int pes, int slot_positions)
    : pes_(pes),
      positions_(slot_positions),
      srf_(pes, static_cast<std::uint64_t>(cfg.srf_elements)),
      desc_(static_cast<std::size_t>(cfg.channels)),
      router_(pes),
      cond_(static_cast<std::size_t>(pes), 0),
      data_(static_cast<std::size_t>(pes), 0) {}

bool StreamUnit::set_channel(int ch, std::uint64_t cur, std::uint64_t fin, std::string* error) {
  if (ch < 0 || ch >= channels()) {
    if (error) *error = "no stream channel s" + std::to_string(ch) + " (core.stream.channels = " + std::to_string(channels()) + ")";
    return false;
  }
  if (cur > capacity() || fin > capacity()) {
    if (error)
      *error = "stream channel s" + std::to_string(ch) + ": head " + std::to_string(cur) + " or end " +
               std::to_string(fin) + " past the SRF's " + std::to_string(capacity()) +
               " elements (core.stream.srf_elements)";
    return false;
  }
  desc_[static_cast<std::size_t>(ch)] = {cur, fin};
  return true;
}

namespace {
bool check_range(std::uint64_t first, std::uint64_t count, std::uint64_t capacity, std::string* error) {
  if (first <= capacity && count <= capacity - first) return true;
  if (error)
    *error = "SRF elements [" + std::to_string(first) + ", +" + std::to_string(count) + ") outside its " +
             std::to_string(capacity) + " elements (core.stream.srf_elements)";
  return false;
}
}  // namespace

bool StreamUnit::write(std::uint64_t first, const std::vector<std::uint64_t>& values, std::string* error) {
  if (!check_range(first, values.size(), capacity(), error)) return false;
  for (std::size_t i = 0; i < values.size(); ++i) srf_.element(first + i) = values[i];
  return true;
}

bool StreamUnit::read(std::uint64_t first, std::uint64_t count, std::vector<std::uint64_t>& out,
                      std::string* error) const {
  if (!check_range(first, count, capacity(), error)) return false;
  out.resize(count);
  for (std::uint64_t i = 0; i < count; ++i) out[i] = srf_.element(first + i);
  return true;
}

std::optional<StreamFault> StreamUnit::execute(const isa::Instruction& in, const std::uint8_t* q, SlotState& state) {
  const bool get = in.op == isa::Opcode::Get;
  const int ch = static_cast<int>(in.imm);
  const std::string what = std::string(in.meta().mnemonic) + (get ? " from" : " to") + " s" + std::to_string(ch);
  if (ch >= channels())
    return StreamFault{what + ": no such channel (core.stream.channels = " + std::to_string(channels()) + ")"};
  (get ? gets_ : puts_) += 1;
  isa::stream::Descriptor& d = desc_[static_cast<std::size_t>(ch)];
  std::uint64_t* reg = state.reg(in.rd);
  for (int t = 0; t < positions_; ++t) {
    int first = -1;
    for (int pe = 0; pe < pes_; ++pe) {
      const int slot = pe * positions_ + t;
      cond_[static_cast<std::size_t>(pe)] = q[slot];
      data_[static_cast<std::size_t>(pe)] = reg[slot];
      if (q[slot] && first < 0) first = slot;
    }
    if (first < 0) continue;  // no PE takes part: the channel is not touched
    const Status s = get ? router_.get(srf_, d, cond_.data(), data_.data())
                         : router_.put(srf_, d, cond_.data(), data_.data());
    if (s != Status::Ok) {
      int wanted = 0;
      for (int pe = 0; pe < pes_; ++pe) wanted += cond_[static_cast<std::size_t>(pe)];
      return StreamFault{what + ": channel " + (get ? "empty" : "full") + " (" + std::to_string(wanted) +
                             " elements wanted, " + std::to_string(d.left()) + " left: head " + std::to_string(d.cur) +
                             ", end " + std::to_string(d.fin) + ")",
                         first};
    }
    int k = 0;
    for (int pe = 0; pe < pes_; ++pe) {
      const int slot = pe * positions_ + t;
      if (!q[slot]) continue;
      ++k;
      if (get) reg[slot] = data_[static_cast<std::size_t>(pe)];
    }
    (get ? elements_read_ : elements_written_) += static_cast<std::uint64_t>(k);
  }
  return std::nullopt;
}

}  // namespace par::core
