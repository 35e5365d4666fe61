#include "control_unit.hpp"

#include <algorithm>
#include <cstring>

namespace par::core {

using isa::Opcode;

ControlUnit::ControlUnit(const SlotState& state, int stack_depth, bool master)
    : st_(state),
      S_(state.slots()),
      // +1: the PAR entry does not count against the command-stack depth.
      max_depth_(static_cast<std::size_t>(stack_depth) + 1),
      master_(master),
      mask_(static_cast<std::size_t>(S_), 0),
      q_(static_cast<std::size_t>(S_), 0) {
  stack_.reserve(max_depth_);
  masks_.resize(max_depth_ * static_cast<std::size_t>(S_));
}

int ControlUnit::count(const std::uint8_t* m) const {
  int n = 0;
  for (int s = 0; s < S_; ++s) n += m[s];
  return n;
}

void ControlUnit::set_mask(const std::uint8_t* m) {
  int n = 0;
  for (int s = 0; s < S_; ++s) {
    mask_[s] = m[s];
    n += m[s];
  }
  active_ = n;
}

void ControlUnit::save(Saved& out) const {
  out.pc = pc_;
  out.round_ended = round_ended_;
  out.mask = mask_;
  out.stack = stack_;
  out.masks.assign(masks_.begin(), masks_.begin() + static_cast<std::ptrdiff_t>(stack_.size() * static_cast<std::size_t>(S_)));
}

bool ControlUnit::same_state(const Saved& o) const {
  if (pc_ != o.pc || round_ended_ != o.round_ended || stack_.size() != o.stack.size() || mask_ != o.mask) return false;
  for (std::size_t i = 0; i < stack_.size(); ++i) {
    const Entry &a = stack_[i], &b = o.stack[i];
    if (a.kind != b.kind || a.qp != b.qp || a.addr != b.addr || a.count != b.count || a.active != b.active) return false;
  }
  return std::equal(o.masks.begin(), o.masks.end(), masks_.begin());
}

std::vector<std::string> ControlUnit::describe_open_entries(
    const std::function<std::string(std::uint64_t)>& where) const {
  std::vector<std::string> out;
  for (std::size_t i = 1; i < stack_.size(); ++i) {
    const Entry& e = stack_[i];
    std::string d;
    switch (e.kind) {
      case Kind::Ret: d = "expand returning to " + where(e.addr); break;
      case Kind::CLoop: d = "counted loop (body at " + where(e.addr) + ", " + std::to_string(e.count) + " iterations left)"; break;
      case Kind::PLoop: d = "conditional loop on p" + std::to_string(e.qp) + " (body at " + where(e.addr) + ")"; break;
      case Kind::Par: d = "packet entry"; break;
    }
    out.push_back(d + " with " + std::to_string(e.active) + (e.active == 1 ? " thread" : " threads"));
  }
  return out;
}

void ControlUnit::start_round(const std::uint8_t* valid, std::uint64_t start_pc, int active) {
  stack_.clear();
  std::memcpy(entry_mask(0), valid, static_cast<std::size_t>(S_));
  std::memcpy(mask_.data(), valid, static_cast<std::size_t>(S_));
  active_ = active;
  stack_.push_back(Entry{Kind::Par, 0, start_pc, 0, active_});
  m_level_ = 0;
  pc_ = start_pc;
  round_ended_ = false;
  bep_preds_.clear();
}

bool ControlUnit::push(Kind kind, std::uint64_t addr, std::uint8_t qp, std::int64_t iterations,
                       const std::uint8_t* mask, int active, Outcome& out) {
  if (stack_.size() >= max_depth_) {
    out.error = true;
    out.message = "command-stack overflow (core.control_stack_depth = " +
                  std::to_string(max_depth_ - 1) + " entries)";
    return false;
  }
  std::memcpy(entry_mask(stack_.size()), mask, static_cast<std::size_t>(S_));
  stack_.push_back(Entry{kind, qp, addr, iterations, active});
  return true;
}

ControlUnit::Outcome ControlUnit::execute(const isa::Instruction& in, std::uint64_t program_size) {
  Outcome out;
  bep_preds_.clear();
  const std::uint8_t* p = st_.pred(in.qp);
  int q_active = 0;
  for (int s = 0; s < S_; ++s) {
    q_[s] = mask_[s] & p[s];
    q_active += q_[s];
  }
  const bool qualified = q_active > 0;
  const std::uint64_t next = pc_ + 1;
  bool block_ends = in.stop;

  switch (in.op) {
    case Opcode::Xp:
    case Opcode::XpR: {
      if (!qualified) {
        out.disqualified_direct_xp = in.op == Opcode::Xp;
        pc_ = next;
        break;
      }
      std::uint64_t target = static_cast<std::uint64_t>(in.imm);
      if (in.op == Opcode::XpR) {
        const std::uint64_t* r = st_.reg(in.rd);
        int first = -1;
        for (int s = 0; s < S_; ++s) {
          if (!q_[s]) continue;
          if (first < 0) {
            first = s;
            target = r[s];
          } else if (r[s] != target) {
            out.error = true;
            out.message = "indirect expand with disagreeing targets " + std::to_string(target) +
                          " and " + std::to_string(r[s]);
            out.error_slots[0] = first;
            out.error_slots[1] = s;
            return out;
          }
        }
      }
      if (target >= program_size) {
        out.error = true;
        out.message = "expand target " + std::to_string(target) + " is outside the program (" +
                      std::to_string(program_size) + " instructions)";
        return out;
      }
      // A tail expand (stop bit) pushes nothing: M stays narrowed until the enclosing entry.
      if (!in.stop && !push(Kind::Ret, next, 0, 0, mask_.data(), active_, out)) return out;
      set_mask(q_.data());
      m_level_ = -1;
      pc_ = target;
      block_ends = false;
      break;
    }
    case Opcode::LoopR:
    case Opcode::Loop: {
      std::int64_t count = 0;
      if (in.op == Opcode::LoopR) {
        if (!isa::is_inherited(in.rd) && !master_) {
          out.error = true;
          out.message = "illegal instruction: loop count must be an inherited register i1..i15 on a PAR core";
          return out;
        }
        // Inherited registers are equal in every slot; the master has a single slot.
        count = static_cast<std::int64_t>(st_.reg(in.rd)[0]);
      }
      if (!qualified || (in.op == Opcode::LoopR && count <= 0)) {
        pc_ = next;
        break;
      }
      if (!in.stop && !push(Kind::Ret, next, 0, 0, mask_.data(), active_, out)) return out;
      if (!push(in.op == Opcode::LoopR ? Kind::CLoop : Kind::PLoop, static_cast<std::uint64_t>(in.imm),
                in.qp, count, q_.data(), q_active, out))
        return out;
      set_mask(q_.data());
      m_level_ = static_cast<int>(stack_.size()) - 1;
      pc_ = static_cast<std::uint64_t>(in.imm);
      block_ends = false;
      break;
    }
    case Opcode::Brk: {
      if (qualified) {
        int active = 0;
        for (int s = 0; s < S_; ++s) {
          mask_[s] &= static_cast<std::uint8_t>(~q_[s]);
          active += mask_[s];
        }
        active_ = active;
        m_level_ = -1;
        // The n topmost entries, stopping below the PAR entry (level 0).
        std::size_t n = static_cast<std::size_t>(in.imm);
        for (std::size_t level = stack_.size() - 1; level >= 1 && n > 0; --level, --n) {
          std::uint8_t* m = entry_mask(level);
          int left = 0;
          for (int s = 0; s < S_; ++s) {
            m[s] &= static_cast<std::uint8_t>(~q_[s]);
            left += m[s];
          }
          stack_[level].active = left;
        }
      }
      pc_ = next;
      block_ends = block_ends || active_ == 0;
      break;
    }
    default:
      out.error = true;
      out.message = std::string("illegal instruction: '") + std::string(in.meta().mnemonic) +
                    "' is not allowed on a PAR core";
      return out;
  }
  if (block_ends) block_end();
  return out;
}

// docs/isa.md §7.3: keeps popping while a restored mask is empty and after every loop that exits.
void ControlUnit::block_end() {
  for (;;) {
    Entry& top = stack_.back();
    const int level = static_cast<int>(stack_.size()) - 1;
    std::uint8_t* m = entry_mask(static_cast<std::size_t>(level));
    if (top.kind == Kind::Ret) {
      set_mask(m);
      m_level_ = -1;  // the level is popped; its storage will be reused
      pc_ = top.addr;
      stack_.pop_back();
      if (active_ > 0) return;
    } else if (top.kind == Kind::CLoop || top.kind == Kind::PLoop) {
      // The values read are those of all dispatched instructions; the engine makes the frontend
      // wait until their writers have committed (docs/core-timing.md §3.2).
      bool changed = false;
      if (top.qp != 0) {
        bep_preds_.push_back(top.qp);
        const std::uint8_t* p = st_.pred(top.qp);
        int left = 0;
        for (int s = 0; s < S_; ++s) {
          m[s] &= p[s];
          left += m[s];
        }
        changed = left != top.active;
        top.active = left;
      }
      bool again = top.active > 0;
      if (top.kind == Kind::CLoop) again = --top.count > 0 && again;
      if (again) {
        // A counter loop whose slots did not change leaves M as it is: no copy, no count.
        if (changed || m_level_ != level) set_mask(m);
        m_level_ = level;
        pc_ = top.addr;
        return;
      }
      stack_.pop_back();
    } else {
      round_ended_ = true;
      return;
    }
  }
}

}  // namespace par::core
