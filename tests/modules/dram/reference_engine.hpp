// A brute-force model of the timing engine's schedule, for the differential test only: the rules of
// README.md ("Timing model", "Scheduling policy") applied step by step - every command slot and
// every data start is tried one clock at a time and checked against every reservation within
// reach - with no shortcut, no cursor and no retirement. The engine's searches must return
// exactly what this does; it is slow (each check scans its timelines), so the streams it checks
// are short.
#pragma once

#include <vector>

#include "dram_timing.hpp"

namespace par::dram::testing {

class ReferenceEngine {
 public:
  explicit ReferenceEngine(const EngineParams& p);
  BurstResult schedule(const BurstRequest& req);

 private:
  struct Epoch {
    std::uint64_t row;
    Tick act;
    Tick pre;
    Tick pre_min;
  };
  struct Burst {
    Tick start, end;
    unsigned rank, group;
    Op op;
  };
  struct Column {  // a RD or WR command of a rank
    Tick at;
    unsigned group;
    Tick data_end;
  };
  struct Rank {
    std::vector<std::pair<Tick, unsigned>> acts;  // ACT tick, bank group
    std::vector<Column> reads, writes;
    std::vector<std::vector<Epoch>> banks;
    Tick offset = 0;
    Tick last_act = -kNever;
  };
  struct Channel {
    std::vector<Tick> commands;
    std::vector<Burst> data;
    std::vector<std::pair<Tick, Tick>> held;  // queue entries: [admitted, end)
    std::vector<Rank> ranks;
    Tick last_column = -kNever;
    Burst last{-kNever, -kNever, 0, 0, Op::Read};  // FCFS: the latest data burst
  };
  struct Window {
    Tick start, end;
  };

  Window window_after(const Rank& r, Tick t) const;  // first refresh window starting after t
  bool in_window(const Rank& r, Tick t) const;
  Tick close_bound(const Rank& r, const Epoch& e) const;
  Tick spacing(const Burst& a, unsigned rank, unsigned group, Op op) const;
  bool command_free(const Channel& ch, Tick t) const;
  bool activate_ok(const Channel& ch, const Rank& r, unsigned group, Tick x) const;
  bool column_ok(const Channel& ch, const Rank& r, unsigned rank, unsigned group, Op op, Tick c) const;
  Tick find_activate(const Channel& ch, const Rank& r, unsigned group, Tick lo) const;
  Tick find_column(const Channel& ch, const Rank& r, unsigned rank, unsigned group, Op op, Tick lo,
                   Tick hi) const;
  Tick find_precharge(const Channel& ch, Tick lo, Tick hi) const;
  Tick admit(const Channel& ch, Tick arrival) const;
  void commit_column(Channel& ch, Rank& r, unsigned rank, unsigned group, Epoch& e, Op op, Tick c,
                     BurstResult& res);

  EngineParams p_;
  std::vector<Channel> channels_;
};

}  // namespace par::dram::testing
