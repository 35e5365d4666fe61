// An execution trace: one record per executed instruction of the traced cores (cycle, core,
// context, round, PC, source line, active mask, control-stack depth), written as text lines and,
// when a timeline is also recorded, as one-cycle intervals on track <core>/"exec ctx<c>".
//
// The core decides cheaply whether a record is wanted (wants(): PC range and cycle window) before
// it builds the record's texts; record() applies the thread filter and the bound. Once
// `max_records` records are written the rest are counted (dropped()) and finish() writes a closing
// line that says how many; the platform also warns on stderr.
//
// Plain C++ (no SystemC), not thread-safe (SystemC runs one process at a time).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "par/trace/time.hpp"
#include "par/trace/timeline.hpp"

namespace par::trace {

inline constexpr std::uint64_t kNoLimit = std::numeric_limits<std::uint64_t>::max();

struct ExecFilter {
  std::vector<std::string> cores;  // glob patterns over core names ("core0", "core*"); empty = all
  std::uint64_t pc_first = 0, pc_last = kNoLimit;            // inclusive
  std::uint64_t cycle_from = 0, cycle_to = kNoLimit;         // [from, to), core clock cycles
  std::uint64_t thread_first = 0, thread_count = kNoLimit;   // a record needs one active thread in here
};

// One executed instruction, as the core reports it.
struct ExecRecord {
  std::string_view core;
  std::uint64_t cycle = 0;       // core clock cycle of the issue (functional mode: fetch index)
  int context = 0;
  std::uint64_t round = 0;
  std::uint64_t pc = 0;
  std::string_view source;       // "file:line" or "pc <n>"
  std::string_view instruction;  // disassembly
  const std::uint8_t* mask = nullptr;  // active mask M the instruction executed under, a byte per slot
  int slots = 0;
  std::uint64_t first_thread = 0;  // thread index of slot 0 in this round
  int active = 0;                  // set slots of mask
  std::uint64_t depth = 0;         // open control-stack entries above the round's PAR entry
  Ps begin = 0, end = 0;           // the timeline interval
};

class ExecTrace {
 public:
  // `text` receives the lines (not owned; must outlive the trace); `timeline` may be null.
  ExecTrace(std::ostream& text, Timeline* timeline, std::uint64_t max_records, ExecFilter filter);
  // The same, owning the stream (a file opened by make_exec_trace()).
  ExecTrace(std::unique_ptr<std::ostream> text, Timeline* timeline, std::uint64_t max_records, ExecFilter filter);
  ~ExecTrace();

  bool wants_core(std::string_view core) const;
  bool wants(std::uint64_t pc, std::uint64_t cycle) const noexcept {
    return pc >= filter_.pc_first && pc <= filter_.pc_last && cycle >= filter_.cycle_from && cycle < filter_.cycle_to;
  }
  void record(const ExecRecord& r);
  // Writes the closing line (records written, dropped) and flushes; false if the stream failed.
  bool finish();

  std::uint64_t recorded() const noexcept { return recorded_; }
  std::uint64_t dropped() const noexcept { return dropped_; }
  std::uint64_t max_records() const noexcept { return max_; }

  // The mask as hexadecimal, bit k = slot k ("0x0f" for 8 slots), as docs/simt-control-flow.md
  // writes masks: one digit per 4 slots up to 64 slots, without leading zero digits beyond.
  static std::string mask_hex(const std::uint8_t* mask, int slots);
  // The line's column header (also the file's first line).
  static const char* header();

 private:
  bool has_wanted_thread(const ExecRecord& r) const;

  std::unique_ptr<std::ostream> owned_;
  std::ostream& out_;
  Timeline* timeline_;
  std::uint64_t max_;
  ExecFilter filter_;
  std::uint64_t recorded_ = 0, dropped_ = 0;
  CategoryId category_;
  std::map<std::pair<std::string, int>, TrackId, std::less<>> tracks_;
  bool finished_ = false;
};

// "A..B" (inclusive; each a number or a code label) or "LABEL" (its block: from the label up to
// the next code label) into [*first, *last]. Empty text = every PC. False with a message naming
// trace.exec_pc on error.
bool parse_pc_range(const std::string& text, const std::map<std::string, std::uint64_t>& labels,
                    std::uint64_t* first, std::uint64_t* last, std::string* error);
// "FIRST[:COUNT]" into *first, *count (COUNT 1 when absent); empty = every thread.
bool parse_thread_range(const std::string& text, std::uint64_t* first, std::uint64_t* count);

}  // namespace par::trace
