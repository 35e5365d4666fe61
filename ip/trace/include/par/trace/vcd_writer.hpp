// Value-change waveforms of chosen signals (core stall, queue occupancies, link busy), written as
// an IEEE 1364 VCD file for GTKWave or Surfer.
//
//   VcdWriter vcd;                                          // platform, only when --vcd
//   vcd.select({"core*.stall", "link"});                    // before the modules declare signals
//   SignalRef stall(&vcd, "core0.stall", 1);                // module constructor (1 bit: a wire)
//   SignalRef queue(&vcd, "link.h2d.queue", 8);             // 8-bit integer
//   stall.set(t_ps, 1); ... stall.set(t2_ps, 0);            // while simulating
//   vcd.write_file("run.vcd");
//
// Calls may come out of time order (loosely-timed modules run ahead of each other): write()
// sorts the changes stably by time; of several changes of one signal at one time the last call
// wins, and a change to the value the signal already has is not written. Timescale 1 ps: the
// simulated times are integer picoseconds, so nothing is rounded and no two distinct times merge.
//
// Selection: glob patterns ('*' any run of characters including '.', '?' one character); a
// pattern also selects everything below a matching scope ("link" selects "link.h2d.busy"). No
// select() call, or an empty list, selects everything. An unselected signal gets an invalid id
// (a null SignalRef), so its changes cost nothing.
//
// Bound: at most `max_changes` changes are kept; later ones are dropped and counted. Because the
// dropped changes may lie anywhere in time, write() then stops the waveform before the earliest
// dropped change and says so in a $comment, instead of drawing stale values.
//
// Not thread-safe. Programming errors (bad names, width 0 or > 64, the same name with another
// width, select() after a signal was declared) throw std::invalid_argument / std::logic_error.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "par/trace/detail/chunked_vector.hpp"
#include "par/trace/time.hpp"

namespace par::trace {

struct SignalId {
  std::uint32_t index = 0xffffffffu;
  bool valid() const noexcept { return index != 0xffffffffu; }
};

class VcdWriter {
 public:
  explicit VcdWriter(std::uint64_t max_changes = 1'000'000);

  // Glob patterns choosing the signals to record; call before any signal() call.
  void select(std::vector<std::string> patterns);
  bool is_selected(std::string_view hierarchical_name) const;

  // Declares a signal: dotted hierarchical name ("core0.stall"; words of [A-Za-z0-9_]), width 1
  // (a wire: any nonzero value is 1) or 2..64 (an integer: values are truncated to the width),
  // and its value at time 0. Returns the same id for the same name; an invalid id when the
  // signal is not selected.
  SignalId signal(std::string_view hierarchical_name, unsigned width, std::uint64_t initial = 0);
  // Declares a counting signal (an occupancy: queue entries, MSHRs in use), starting at 0: its
  // changes are added, not set (add()), so modules that reserve [begin, end) out of time order
  // record +1 at begin and -1 at end and the writer sums them in time order. A name is either
  // counting or plain.
  SignalId counting_signal(std::string_view hierarchical_name, unsigned width);
  // Records that the signal has `value` from time t on. Invalid ids are ignored.
  void change(SignalId signal, Ps t, std::uint64_t value) {
    if (!signal.valid()) return;
    if (changes_.size() >= max_changes_) {
      note_dropped(t);
      return;
    }
    changes_.push_back(Change{t, value, signal.index});
  }

  // Adds `delta` to a counting signal from time t on. Invalid ids are ignored.
  void add(SignalId signal, Ps t, std::int64_t delta) { change(signal, t, static_cast<std::uint64_t>(delta)); }

  // Run information (command line, configuration) written as a $comment after the header.
  void set_info(std::string text) { info_ = std::move(text); }

  // Every declared name (selected or not) in declaration order, for listing what can be traced.
  const std::vector<std::string>& declared() const noexcept { return declared_; }
  // Patterns that selected no declared signal (a typo, usually): call after elaboration.
  std::vector<std::string> unmatched_patterns() const;
  std::size_t selected_count() const noexcept { return signals_.size(); }

  std::uint64_t recorded() const noexcept { return changes_.size(); }
  std::uint64_t dropped() const noexcept { return dropped_; }
  // Earliest time of a dropped change (kEndOfTime when none): the waveform ends before it.
  Ps first_dropped_time() const noexcept { return first_dropped_; }
  std::uint64_t max_changes() const noexcept { return max_changes_; }
  std::size_t memory_bytes() const noexcept;

  // Text of the $date section; default: the local time when write() runs. Set a fixed text for
  // byte-identical files across runs.
  void set_date(std::string date) { date_ = std::move(date); }

  void write(std::ostream& os) const;
  // Returns false and sets *error ("cannot write 'x.vcd': ...") on failure.
  bool write_file(const std::string& path, std::string* error = nullptr) const;

 private:
  struct Signal {
    std::string name;  // full dotted name
    unsigned width;
    std::uint64_t initial;
    bool counting;
  };
  struct Change {
    Ps t;
    std::uint64_t value;
    std::uint32_t signal;
  };
  void note_dropped(Ps t) noexcept;
  SignalId declare(std::string_view hierarchical_name, unsigned width, std::uint64_t initial, bool counting);

  std::uint64_t max_changes_;
  std::vector<std::string> patterns_;
  std::vector<std::string> declared_;
  struct Declared {
    std::uint32_t order;   // index in declared_
    unsigned width;
    SignalId id;           // invalid when not selected
    bool counting;
  };
  std::unordered_map<std::string, Declared> by_name_;
  std::unordered_set<std::string> scopes_;  // every proper prefix of a declared name
  std::vector<Signal> signals_;             // selected ones; SignalId indexes this
  detail::ChunkedVector<Change> changes_;
  std::uint64_t dropped_ = 0;
  Ps first_dropped_ = kEndOfTime;
  std::string date_;
  std::string info_;
};

// A module's handle on one signal: a VcdWriter that may be null (tracing off) plus the id. Null
// as well when the signal is not selected, so set() on an untraced signal is one inline branch.
class SignalRef {
 public:
  SignalRef() = default;
  SignalRef(VcdWriter* vcd, std::string_view hierarchical_name, unsigned width,
            std::uint64_t initial = 0)
      : id_(vcd ? vcd->signal(hierarchical_name, width, initial) : SignalId{}),
        vcd_(id_.valid() ? vcd : nullptr) {}
  // A counting signal (VcdWriter::counting_signal): SignalRef(vcd, "dram.ch0.queue", 8, SignalRef::kCounting).
  struct Counting {};
  static constexpr Counting kCounting{};
  SignalRef(VcdWriter* vcd, std::string_view hierarchical_name, unsigned width, Counting)
      : id_(vcd ? vcd->counting_signal(hierarchical_name, width) : SignalId{}),
        vcd_(id_.valid() ? vcd : nullptr) {}

  bool enabled() const noexcept { return vcd_ != nullptr; }
  void set(Ps t, std::uint64_t value) const {
    if (vcd_) vcd_->change(id_, t, value);
  }
  // Counting signals only.
  void add(Ps t, std::int64_t delta) const {
    if (vcd_) vcd_->add(id_, t, delta);
  }
  // Counting signals only: one more from `begin` until `end`.
  void occupy(Ps begin, Ps end) const {
    if (vcd_) {
      vcd_->add(id_, begin, 1);
      vcd_->add(id_, end, -1);
    }
  }

 private:
  SignalId id_;
  VcdWriter* vcd_ = nullptr;
};

}  // namespace par::trace
