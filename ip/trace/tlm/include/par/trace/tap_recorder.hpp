// What a TransactionTap records, without the socket plumbing (transaction_tap.hpp): one interval
// per completed transaction on one timeline track, named "read" / "write" (other commands:
// "ignore"), with arguments addr (hex) and bytes.
//
// Blocking transport: the interval is [call time + incoming delay, return time + returned delay].
// Non-blocking transport: from the BEGIN_REQ (time of the call + its delay) to the END_RESP, or,
// when the transaction completes without an END_RESP phase (TLM_COMPLETED returned on the forward
// or the backward path), to that return's time + returned delay. Transactions still open at the
// end of the run are not recorded (open_count() tells how many).
#pragma once

#include <cstddef>
#include <string_view>
#include <unordered_map>

#include <tlm>

#include "par/trace/timeline.hpp"

namespace par::trace {

class TapRecorder {
 public:
  // `timeline` null: records nothing (every call returns at its first branch).
  TapRecorder(Timeline* timeline, std::string_view process, std::string_view thread,
              std::string_view category);

  bool enabled() const noexcept { return track_.enabled(); }

  void blocking(const tlm::tlm_generic_payload& tx, Ps begin, Ps end) {
    if (enabled()) record(tx, begin, end);
  }
  // A forward-path call made with `phase_in` at `t_in` (time + delay), that returned `status`
  // with `phase_out` at `t_out`.
  void forward(const tlm::tlm_generic_payload& tx, const tlm::tlm_phase& phase_in, Ps t_in,
               tlm::tlm_sync_enum status, const tlm::tlm_phase& phase_out, Ps t_out);
  // The same for a backward-path call.
  void backward(const tlm::tlm_generic_payload& tx, const tlm::tlm_phase& phase_in, Ps t_in,
                tlm::tlm_sync_enum status, const tlm::tlm_phase& phase_out, Ps t_out);

  std::size_t open_count() const noexcept { return open_.size(); }

 private:
  void record(const tlm::tlm_generic_payload& tx, Ps begin, Ps end);
  void close(const tlm::tlm_generic_payload& tx, Ps end);

  TrackRef track_;
  CategoryId category_;
  NameId read_, write_, ignore_;
  std::unordered_map<const tlm::tlm_generic_payload*, Ps> open_;  // non-blocking: BEGIN_REQ time
};

}  // namespace par::trace
