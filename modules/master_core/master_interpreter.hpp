// The scalar in-order core that runs a .MASTER program (docs/isa.md §2.3): one thread, i0 = 0,
// i1..i15 = the program's .I values. Plain C++: loads and stores are blocking timed transactions
// on the HostPort, `par` is PacketControl::par with r1..r15 as the inherited registers, `sync`
// is PacketControl::sync, the end of the program is an implicit sync.
//
// Control flow is docs/isa.md §7 for a single slot: the active mask M and the masks of the command-stack
// entries are single bits. Time: every non-memory instruction (ALU, FPU, CMP, control, and a
// disqualified load/store/par/sync) costs master.cpi cycles, accumulated locally and handed to
// the port only before a transaction, so a compute loop runs without SystemC synchronisation.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "master_config.hpp"
#include "par/master/host_port.hpp"
#include "par/master/packet_control.hpp"
#include "par/isa/instruction.hpp"
#include "par/isa/program.hpp"
#include "par/simkit/stats.hpp"

namespace par::master {

// Final architectural state of the master thread (for --dump-regs).
struct MasterRegisters {
  std::array<std::uint64_t, 16> r{};
  std::array<std::uint8_t, 8> p{};
};

struct InterpreterCounters {
  explicit InterpreterCounters(simkit::StatGroup& g);
  simkit::Counter& instructions;
  simkit::Counter& loads;
  simkit::Counter& stores;
  simkit::Counter& control;
};

class MasterInterpreter {
 public:
  MasterInterpreter(const isa::Program& program, const MasterConfig& cfg, HostPort& port, PacketControl& control,
                    InterpreterCounters& counters);

  // Runs from the program's start to the end of its top-level block, then waits for every packet
  // it launched. Returns "" or the runtime error: "runtime error at pc 12 (file.par:40): <cause>".
  std::string run();

  const MasterRegisters& registers() const { return state_; }
  std::uint64_t executed() const { return executed_; }

 private:
  enum class Kind : std::uint8_t { Par, Ret, CLoop, PLoop };
  struct Entry {
    Kind kind;
    std::uint8_t qp;
    bool mask;             // the entry's mask (one slot)
    std::uint64_t addr;    // return address or loop body start
    std::int64_t count;    // remaining iterations (CLOOP)
  };

  std::uint64_t reg(int r) const { return r < 16 ? state_.r[static_cast<std::size_t>(r)] : inherited_[static_cast<std::size_t>(r - 16)]; }
  bool pred(int p) const { return state_.p[static_cast<std::size_t>(p)] != 0; }
  void flush();  // hands the accumulated cycles to the port
  void value_or_compare(const isa::Instruction& in);
  void memory(const isa::Instruction& in);
  void control(const isa::Instruction& in);
  void push(Kind kind, std::uint64_t addr, std::uint8_t qp, bool mask, std::int64_t count);
  void block_end();
  void advance(bool stop);

  const isa::Program& program_;
  const MasterConfig& cfg_;
  HostPort& port_;
  PacketControl& control_;
  InterpreterCounters& counters_;
  std::vector<isa::Instruction> code_;
  std::vector<std::string> illegal_;  // reason per pc, "" when the word decodes
  std::array<std::uint64_t, 16> inherited_{};
  MasterRegisters state_;
  std::vector<Entry> stack_;
  std::uint64_t pc_ = 0;
  bool m_ = true;      // the active mask M
  bool ended_ = false;
  std::uint64_t pending_cycles_ = 0;
  std::uint64_t executed_ = 0;
};

}  // namespace par::master
