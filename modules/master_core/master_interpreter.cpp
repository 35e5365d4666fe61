#include "master_interpreter.hpp"

#include <cstring>
#include <sstream>
#include <stdexcept>

#include "par/isa/encoding.hpp"
#include "par/isa/semantics.hpp"

namespace par::master {

using isa::Instruction;
using isa::Opcode;
using isa::Shape;

namespace {

// A runtime error of the program at the current pc (caught in run()).
struct Stop : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace

InterpreterCounters::InterpreterCounters(simkit::StatGroup& g)
    : instructions(g.counter("instructions", "instructions", "Instructions executed by the .MASTER program")),
      loads(g.counter("loads", "loads", "Loads of the .MASTER program (one transaction each)")),
      stores(g.counter("stores", "stores", "Stores of the .MASTER program (one transaction each)")),
      control(g.counter("control", "instructions", "Control instructions (xp, loop, brk, par, sync)")) {}

MasterInterpreter::MasterInterpreter(const isa::Program& program, const MasterConfig& cfg, HostPort& port,
                                     PacketControl& control, InterpreterCounters& counters)
    : program_(program), cfg_(cfg), port_(port), control_(control), counters_(counters) {
  code_.resize(program.code.size());
  illegal_.resize(program.code.size());
  for (std::size_t pc = 0; pc < program.code.size(); ++pc) {
    std::string why;
    if (auto in = isa::decode(program.code[pc], &why)) code_[pc] = *in;
    else illegal_[pc] = why.empty() ? "undecodable word" : why;  // an error only if fetched
  }
  for (std::size_t k = 1; k < 16; ++k) inherited_[k] = program.inherited[k];  // i0 = 0
  stack_.reserve(static_cast<std::size_t>(cfg.control_stack_depth) + 1);
}

void MasterInterpreter::flush() {
  if (pending_cycles_ == 0) return;
  port_.compute(pending_cycles_);
  pending_cycles_ = 0;
}

std::string MasterInterpreter::run() {
  state_ = MasterRegisters{};
  state_.p[0] = 1;
  stack_.clear();
  stack_.push_back(Entry{Kind::Par, 0, true, program_.start, 0});
  pc_ = program_.start;
  m_ = true;
  ended_ = false;
  std::uint64_t at = pc_;
  const auto where = [this](std::uint64_t pc) {
    std::string s = "runtime error at pc " + std::to_string(pc);
    const std::string loc = program_.location(pc);
    if (loc.rfind("pc ", 0) != 0) s += " (" + loc + ")";
    return s + ": ";
  };
  try {
    while (!ended_) {
      at = pc_;
      if (pc_ >= code_.size())
        throw Stop("PC outside the program (" + std::to_string(code_.size()) + " instructions)");
      if (static_cast<std::int64_t>(executed_) >= cfg_.max_instructions)
        throw Stop("run limit exceeded: more than " + std::to_string(cfg_.max_instructions) +
                   " instructions (master.max_instructions); probable endless loop with " +
                   std::to_string(stack_.size() - 1) + " open control-stack entries");
      if (!illegal_[pc_].empty()) throw Stop("illegal instruction: " + illegal_[pc_]);
      const Instruction& in = code_[pc_];
      ++executed_;
      ++counters_.instructions;
      if (in.is_control()) control(in);
      else if (in.is_stream())
        throw Stop("'" + std::string(in.meta().mnemonic) + "' needs a PAR core's stream unit; the master core has none");
      else if (in.is_memory()) memory(in);
      else value_or_compare(in);
    }
    flush();
  } catch (const Stop& e) {
    flush();
    return where(at) + e.what();
  } catch (const std::runtime_error& e) {  // par / sync: bus errors, failed packets
    flush();
    return where(at) + e.what();
  }
  try {
    control_.sync();  // the end of the master program waits for its packets (docs/isa.md §2.3)
  } catch (const std::runtime_error& e) {
    return where(at) + e.what() + " (implicit sync at the end of the master program)";
  }
  return "";
}

void MasterInterpreter::advance(bool stop) {
  ++pc_;
  if (stop) block_end();
}

void MasterInterpreter::value_or_compare(const Instruction& in) {
  pending_cycles_ += cfg_.cpi;
  if (pred(in.qp)) {
    const Shape shape = in.meta().shape;
    const std::uint16_t flags = in.meta().flags;
    if (shape == Shape::Compare || shape == Shape::PredLogic) {
      bool c = false;
      if (shape == Shape::PredLogic) isa::sem::execute_compare(in, pred(in.pa), pred(in.pb), c);
      else isa::sem::execute_compare(in, reg(in.ra), in.imm_form ? static_cast<std::uint64_t>(in.imm) : reg(in.rb), c);
      if (in.pt != 0) state_.p[in.pt] = c;
      if (in.pf != 0) state_.p[in.pf] = !c;  // pf last: it wins when pt == pf (docs/isa.md §6.6)
    } else {
      const bool no_b = shape == Shape::Unary || shape == Shape::Const;
      const std::uint64_t a = shape == Shape::Const ? 0 : reg(in.ra);
      const std::uint64_t b = no_b ? 0 : in.imm_form ? static_cast<std::uint64_t>(in.imm) : reg(in.rb);
      const std::uint64_t c = (flags & isa::kReadsRd) ? reg(in.rd) : (flags & isa::kReadsP7) ? state_.p[7] : 0;
      std::uint64_t result = 0;
      bool flag = false;
      if (!isa::sem::execute_value(in, a, b, c, result, flag))
        throw Stop(std::string("no semantics for '") + std::string(in.meta().mnemonic) + "'");
      state_.r[in.rd] = result;
      if (flags & isa::kWritesP7) state_.p[7] = flag;
    }
  }
  advance(in.stop);
}

void MasterInterpreter::memory(const Instruction& in) {
  if (!pred(in.qp)) {
    pending_cycles_ += cfg_.cpi;
    advance(in.stop);
    return;
  }
  const bool store = in.is_store();
  const int size = isa::access_size(in.op);
  const std::uint64_t addr = reg(in.ra) + (in.imm_form ? static_cast<std::uint64_t>(in.imm) : reg(in.rb));
  const auto describe = [&](const char* what) {
    std::ostringstream os;
    os << what << size << "-byte " << (store ? "store" : "load") << " at 0x" << std::hex << addr;
    return os.str();
  };
  if (addr % static_cast<std::uint64_t>(size) != 0) throw Stop(describe("misaligned "));
  flush();
  std::uint8_t bytes[8] = {};
  if (store) {
    const std::uint64_t data = reg(in.rd);  // a store's data may be an inherited register
    std::memcpy(bytes, &data, static_cast<std::size_t>(size));
  }
  const AccessResult r = port_.transact(store, addr, bytes, static_cast<unsigned>(size), port_.now());
  port_.wait_until(r.done);
  if (!r.ok)
    throw Stop(describe(r.error == "TLM_ADDRESS_ERROR_RESPONSE" ? "unmapped " : "failed ") + " (" + r.error + ")");
  if (store) {
    ++counters_.stores;
  } else {
    std::uint64_t raw = 0;
    std::memcpy(&raw, bytes, static_cast<std::size_t>(size));  // little-endian host
    state_.r[in.rd] = isa::sem::extend_load(in.op, raw);
    ++counters_.loads;
  }
  advance(in.stop);
}

void MasterInterpreter::push(Kind kind, std::uint64_t addr, std::uint8_t qp, bool mask, std::int64_t count) {
  if (stack_.size() - 1 >= static_cast<std::size_t>(cfg_.control_stack_depth))
    throw Stop("command-stack overflow (master.control_stack_depth = " + std::to_string(cfg_.control_stack_depth) +
               " entries)");
  stack_.push_back(Entry{kind, qp, mask, addr, count});
}

void MasterInterpreter::control(const Instruction& in) {
  ++counters_.control;
  const bool q = m_ && pred(in.qp);
  const std::uint64_t next = pc_ + 1;
  bool block_ends = in.stop;
  if (in.op != Opcode::Par && in.op != Opcode::Sync) pending_cycles_ += cfg_.cpi;
  switch (in.op) {
    case Opcode::Xp:
    case Opcode::XpR: {
      if (!q) {
        pc_ = next;
        break;
      }
      const std::uint64_t target = in.op == Opcode::XpR ? reg(in.rd) : static_cast<std::uint64_t>(in.imm);
      if (target >= code_.size())
        throw Stop("expand target " + std::to_string(target) + " is outside the program (" +
                   std::to_string(code_.size()) + " instructions)");
      // A tail expand (stop bit) pushes nothing: M stays as it is until the enclosing entry.
      if (!in.stop) push(Kind::Ret, next, 0, m_, 0);
      m_ = q;
      pc_ = target;
      block_ends = false;
      break;
    }
    case Opcode::LoopR:
    case Opcode::Loop: {
      // The master may count with any register (docs/isa.md §7.6); the count is read once.
      const std::int64_t count = in.op == Opcode::LoopR ? static_cast<std::int64_t>(reg(in.rd)) : 0;
      if (!q || (in.op == Opcode::LoopR && count <= 0)) {
        pc_ = next;
        break;
      }
      if (!in.stop) push(Kind::Ret, next, 0, m_, 0);  // loop-and-continue
      push(in.op == Opcode::LoopR ? Kind::CLoop : Kind::PLoop, static_cast<std::uint64_t>(in.imm), in.qp, q, count);
      m_ = q;
      pc_ = static_cast<std::uint64_t>(in.imm);
      block_ends = false;
      break;
    }
    case Opcode::Brk: {
      if (q) {
        m_ = false;
        // The n topmost entries, stopping below the PAR entry (level 0).
        std::uint64_t n = static_cast<std::uint64_t>(in.imm);
        for (std::size_t level = stack_.size() - 1; level >= 1 && n > 0; --level, --n) stack_[level].mask = false;
      }
      pc_ = next;
      block_ends = block_ends || !m_;
      break;
    }
    case Opcode::Par: {
      if (q) {
        flush();
        std::array<std::uint64_t, 16> inherited{};
        for (std::size_t k = 1; k < 16; ++k) inherited[k] = state_.r[k];  // snapshot of r1..r15
        const std::int64_t threads = static_cast<std::int64_t>(reg(in.rd));
        if (threads > 0) control_.par(static_cast<std::uint64_t>(in.imm), threads, inherited);
        else pending_cycles_ += cfg_.cpi;  // N <= 0 launches nothing (docs/isa.md §7.8)
      } else {
        pending_cycles_ += cfg_.cpi;
      }
      pc_ = next;
      break;
    }
    case Opcode::Sync: {
      if (q) {
        flush();
        control_.sync();
      } else {
        pending_cycles_ += cfg_.cpi;
      }
      pc_ = next;
      break;
    }
    default:
      throw Stop(std::string("illegal instruction: '") + std::string(in.meta().mnemonic) + "' is not a control instruction");
  }
  if (block_ends) block_end();
}

// docs/isa.md §7.3: keeps popping while a restored mask is empty and after every loop that exits.
void MasterInterpreter::block_end() {
  for (;;) {
    Entry& top = stack_.back();
    switch (top.kind) {
      case Kind::Ret:
        m_ = top.mask;
        pc_ = top.addr;
        stack_.pop_back();
        if (m_) return;
        break;
      case Kind::CLoop:
      case Kind::PLoop: {
        top.mask = top.mask && pred(top.qp);
        bool again = top.mask;
        if (top.kind == Kind::CLoop) again = --top.count > 0 && again;
        if (again) {
          m_ = true;
          pc_ = top.addr;
          return;
        }
        stack_.pop_back();
        break;
      }
      case Kind::Par:
        ended_ = true;
        return;
    }
  }
}

}  // namespace par::master
