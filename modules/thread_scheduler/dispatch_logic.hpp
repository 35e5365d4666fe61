// The thread scheduler's behaviour without time (plain C++, unit-tested without SystemC): the
// bounded packet queue, the order in which shares are launched on the cores, core occupancy,
// completion order and the error state behind the STATUS, COMPLETED and FAILED_SEQ registers.
//
// The SC_MODULE drives it: submit() on DOORBELL; next() whenever something changed, performing
// each action it returns (launch a share on a core, or signal a packet's completion);
// share_done() when a core returns; finish() once the completion has been signalled.
//
// Rules (README.md, "Behaviour"):
// - A packet holds a queue entry from submit() to finish(): at most queue_depth are outstanding.
// - Shares of earlier packets go first. Without overlap a packet is started only after every
//   earlier packet has finished; with overlap a later packet may use cores the earlier packets
//   do not need (static: the share of core c waits for core c; dynamic: chunks of a packet are
//   handed out only when every earlier packet has handed out all of its own).
// - Static shares are launched in core order, each when its core is free; dynamic chunks in
//   thread order, each to the free core with the lowest index.
// - After a share fails, the packet's shares not yet launched are dropped; the packet completes
//   (failed) when its running shares have returned. Later packets still run.
// - A packet with N <= 0 threads launches nothing and completes once every earlier packet has
//   finished; nothing after it starts before that (with overlap it is a fence).
// - STATUS.error and FAILED_SEQ (the lowest failed sequence number) are set when a failed packet
//   finishes, or earlier by publish_failure(), and stay until clear_error().
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <vector>

#include "command.hpp"
#include "scheduler_config.hpp"
#include "share_planner.hpp"

namespace par::sched {

struct Action {
  enum class Kind {
    Launch,    // run `share` of packet `seq` on share.core (the core is now reserved)
    Complete,  // packet `seq` has no share left running: signal its completion, then finish()
  };
  Kind kind = Kind::Launch;
  std::uint64_t seq = 0;
  Share share;  // Launch only
};

class DispatchLogic {
 public:
  // Throws std::invalid_argument for an invalid configuration or no core.
  DispatchLogic(const SchedulerConfig& cfg, std::size_t cores);
  // Cores of different shapes: each core's thread slots (L x T), in core order, weigh its static
  // share (static_shares).
  DispatchLogic(const SchedulerConfig& cfg, std::vector<std::uint64_t> core_slots);

  std::size_t cores() const { return core_busy_.size(); }
  bool core_busy(std::size_t core) const { return core_busy_.at(core); }

  // --- queue -----------------------------------------------------------------------------------
  bool full() const { return outstanding_ >= depth_; }
  // Accepts a packet; returns its sequence number (1, 2, ...). Precondition: !full().
  std::uint64_t submit(const Command& cmd);

  // --- dispatch --------------------------------------------------------------------------------
  // The next action to perform now, or nothing until share_done(), finish() or submit().
  std::optional<Action> next();
  // The share of packet `seq` on `core` has returned, successfully or not; the core is free.
  void share_done(std::uint64_t seq, std::size_t core, bool ok);
  // Marks an unfinished packet as failed (e.g. its completion flag could not be written).
  void fail(std::uint64_t seq);
  // If packet `seq` has failed, STATUS.error and FAILED_SEQ show it from now on (at the latest
  // when it finishes).
  void publish_failure(std::uint64_t seq);
  // The completion of packet `seq` (returned by a Complete action) has been signalled.
  void finish(std::uint64_t seq);

  // --- packets ---------------------------------------------------------------------------------
  // The command of an unfinished packet.
  const Command& command(std::uint64_t seq) const;
  bool packet_failed(std::uint64_t seq) const;

  // --- register values -------------------------------------------------------------------------
  std::uint64_t submitted() const { return submitted_; }
  std::uint64_t completed() const { return completed_; }
  std::uint64_t queued() const { return queued_; }  // accepted, nothing launched yet
  std::uint64_t outstanding() const { return outstanding_; }
  std::uint64_t failed_seq() const { return failed_seq_; }
  bool error() const { return failed_seq_ != 0; }
  std::uint64_t status() const;  // kStatus* bits
  void clear_error() { failed_seq_ = 0; }

 private:
  enum class State { Queued, Active, Signalling, Finished };
  struct Packet {
    std::uint64_t seq = 0;
    Command cmd;
    State state = State::Queued;
    std::vector<Share> static_pending;  // static policy: shares not yet launched, core order
    ChunkCursor chunks;                 // dynamic policy
    unsigned running = 0;               // shares launched and not returned
    bool failed = false;
  };

  Packet& packet(std::uint64_t seq);
  const Packet& packet(std::uint64_t seq) const;
  bool has_work(const Packet& p) const;
  std::optional<Share> pick(Packet& p);
  Action launch(Packet& p, const Share& s);
  void publish_failure(const Packet& p);
  Action complete(Packet& p);

  Policy policy_;
  std::int64_t chunk_;
  bool overlap_;
  std::uint64_t depth_;
  std::vector<std::uint64_t> core_slots_;
  std::vector<bool> core_busy_;
  std::deque<Packet> packets_;  // from the lowest unfinished sequence number on
  std::uint64_t submitted_ = 0, completed_ = 0, queued_ = 0, outstanding_ = 0, failed_seq_ = 0;
};

}  // namespace par::sched
