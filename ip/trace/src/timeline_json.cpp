// Timeline::write_json: lanes, process and thread numbering, sorting and the JSON text.
//
// Numbering: processes get pids 1..P in display order; threads (one per lane of every track) get
// tids from P+1 upwards, unique across the file, so no tid equals a pid (Perfetto treats
// tid == pid as a process's main thread) and no viewer merges rows of different processes.
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <numeric>
#include <ostream>
#include <tuple>

#include "json_text.hpp"
#include "lanes.hpp"
#include "par/trace/timeline.hpp"

namespace par::trace {

namespace {

using detail::append_int;
using detail::append_json_string;
using detail::append_real;
using detail::append_uint;
using detail::append_us;

double double_of(std::uint64_t bits) {
  double value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

// Buffers the text and hands it to the stream in large blocks.
class Out {
 public:
  explicit Out(std::ostream& os) : os_(os) { buf_.reserve(kBlock + 4096); }
  ~Out() { flush(); }
  Out(const Out&) = delete;
  Out& operator=(const Out&) = delete;
  std::string& text() { return buf_; }
  void line_done() {
    if (buf_.size() >= kBlock) flush();
  }
  void flush() {
    os_.write(buf_.data(), static_cast<std::streamsize>(buf_.size()));
    buf_.clear();
  }

 private:
  static constexpr std::size_t kBlock = 1 << 16;
  std::ostream& os_;
  std::string buf_;
};

// One line of traceEvents after numbering: where it goes and in which order.
struct Row {
  std::uint32_t tid;
  Ps ts;
  std::uint64_t dur;   // complete events only; longer first among equal starts (parents first)
  std::uint64_t rank;  // 0..: counters carried into the window, then recorded events in call order
};

}  // namespace

class Timeline::JsonWriter {
 public:
  explicit JsonWriter(const Timeline& tl) : tl_(tl) {}

  void write(std::ostream& os) {
    number_rows();
    Out out(os);
    std::string& s = out.text();
    s += "{\"traceEvents\":[\n";
    first_ = true;
    write_metadata(out);
    write_events(out);
    write_truncation_marker(out);
    s += "\n],\n\"displayTimeUnit\":\"ns\",\n\"otherData\":";
    write_other_data(s);
    s += "}\n";
  }

 private:
  // A counter's value before the window, written at the window's start.
  struct CarriedCounter {
    std::uint32_t track;
    std::uint32_t name;
    Ps ts;
    double value;
  };

  void number_rows() {
    const auto& events = tl_.events_;
    const std::size_t tracks = tl_.tracks_.size();
    // Lanes per track, from the complete events in call order.
    std::vector<std::vector<std::uint32_t>> complete(tracks);
    for (std::uint32_t i = 0; i < events.size(); ++i) {
      if (events[i].phase == Phase::Complete) complete[events[i].track].push_back(i);
    }
    lane_of_.assign(events.size(), 0);
    lanes_.assign(tracks, 1);
    for (std::size_t t = 0; t < tracks; ++t) {
      std::vector<detail::Span> spans;
      spans.reserve(complete[t].size());
      for (const std::uint32_t i : complete[t]) {
        spans.push_back({events[i].ts, events[i].ts + events[i].extra});
      }
      const detail::LaneAssignment a = detail::assign_lanes(spans);
      for (std::size_t k = 0; k < spans.size(); ++k) lane_of_[complete[t][k]] = a.lane[k];
      lanes_[t] = a.lanes;
      forced_ += a.forced;
    }
    // Display order of processes: sort index (default: creation index), then creation.
    const auto& procs = tl_.processes_;
    process_order_.resize(procs.size());
    std::iota(process_order_.begin(), process_order_.end(), 0u);
    const auto sort_key = [&](std::uint32_t p) {
      const auto it = tl_.process_sort_index_.find(procs[p].name);
      return std::make_pair(it == tl_.process_sort_index_.end() ? static_cast<long long>(p)
                                                                : static_cast<long long>(it->second),
                            p);
    };
    std::sort(process_order_.begin(), process_order_.end(),
              [&](std::uint32_t a, std::uint32_t b) { return sort_key(a) < sort_key(b); });
    pid_of_.assign(procs.size(), 0);
    first_tid_.assign(tracks, 0);
    std::uint32_t next_tid = static_cast<std::uint32_t>(procs.size()) + 1;
    for (std::size_t k = 0; k < process_order_.size(); ++k) {
      const std::uint32_t p = process_order_[k];
      pid_of_[p] = static_cast<std::uint32_t>(k) + 1;
      for (const std::uint32_t t : procs[p].tracks) {
        first_tid_[t] = next_tid;
        next_tid += lanes_[t];
      }
    }
    // Counters carried into the window, in a fixed order (the map's order is not).
    for (const auto& [key, c] : tl_.counters_before_window_) {
      carried_.push_back(CarriedCounter{static_cast<std::uint32_t>(key >> 32),
                                        static_cast<std::uint32_t>(key & 0xffffffffu), tl_.limits_.from, c.value});
    }
    std::sort(carried_.begin(), carried_.end(), [](const CarriedCounter& a, const CarriedCounter& b) {
      return std::tie(a.track, a.name) < std::tie(b.track, b.name);
    });
    rows_.reserve(carried_.size() + events.size());
    for (std::size_t k = 0; k < carried_.size(); ++k) {
      rows_.push_back(Row{first_tid_[carried_[k].track], carried_[k].ts, 0, k});
    }
    for (std::uint32_t i = 0; i < events.size(); ++i) {
      const Event& e = events[i];
      const bool complete_event = e.phase == Phase::Complete;
      last_ts_ = std::max(last_ts_, e.ts + (complete_event ? e.extra : 0));
      rows_.push_back(Row{first_tid_[e.track] + lane_of_[i], e.ts, complete_event ? e.extra : 0,
                          carried_.size() + i});
    }
    std::sort(rows_.begin(), rows_.end(), [](const Row& a, const Row& b) {
      if (a.tid != b.tid) return a.tid < b.tid;
      if (a.ts != b.ts) return a.ts < b.ts;
      if (a.dur != b.dur) return a.dur > b.dur;
      return a.rank < b.rank;
    });
  }

  void begin_event(std::string& s) {
    if (!first_) s += ",\n";
    first_ = false;
  }

  void metadata(Out& out, const char* what, std::uint32_t pid, std::uint32_t tid,
                const std::string* name, long long sort_index) {
    std::string& s = out.text();
    begin_event(s);
    s += "{\"ph\":\"M\",\"name\":\"";
    s += what;
    s += "\",\"pid\":";
    append_uint(s, pid);
    s += ",\"tid\":";
    append_uint(s, tid);
    s += ",\"ts\":0,\"args\":{";
    if (name != nullptr) {
      s += "\"name\":";
      append_json_string(s, *name);
    } else {
      s += "\"sort_index\":";
      append_int(s, sort_index);
    }
    s += "}}";
    out.line_done();
  }

  void write_metadata(Out& out) {
    const auto& procs = tl_.processes_;
    long long thread_index = 0;
    for (std::size_t k = 0; k < process_order_.size(); ++k) {
      const Process& p = procs[process_order_[k]];
      const std::uint32_t pid = static_cast<std::uint32_t>(k) + 1;
      metadata(out, "process_name", pid, 0, &p.name, 0);
      metadata(out, "process_sort_index", pid, 0, nullptr, static_cast<long long>(k));
      for (const std::uint32_t t : p.tracks) {
        for (std::uint32_t lane = 0; lane < lanes_[t]; ++lane) {
          std::string name = tl_.tracks_[t].thread;
          if (lane > 0) name += " #" + std::to_string(lane + 1);
          metadata(out, "thread_name", pid, first_tid_[t] + lane, &name, 0);
          metadata(out, "thread_sort_index", pid, first_tid_[t] + lane, nullptr, thread_index++);
        }
      }
    }
  }

  void common_fields(std::string& s, std::uint32_t track, std::uint32_t tid, Ps ts) {
    s += ",\"pid\":";
    append_uint(s, pid_of_[tl_.tracks_[track].process]);
    s += ",\"tid\":";
    append_uint(s, tid);
    s += ",\"ts\":";
    append_us(s, ts);
  }

  void counter_name(std::string& s, std::uint32_t track, std::uint32_t name) {
    const std::string& thread = tl_.tracks_[track].thread;
    const std::string& counter = tl_.names_.text(name);
    append_json_string(s, thread.empty() ? counter : thread + "/" + counter);
  }

  void write_args(std::string& s, const Event& e) {
    if (e.args_count == 0) return;
    s += ",\"args\":{";
    for (std::uint32_t k = 0; k < e.args_count; ++k) {
      const StoredArg& a = tl_.args_[e.args_begin + k];
      if (k != 0) s += ',';
      append_json_string(s, tl_.names_.text(a.key));
      s += ':';
      switch (a.kind) {
        case Arg::Kind::Int: append_int(s, static_cast<std::int64_t>(a.bits)); break;
        case Arg::Kind::Uint: append_uint(s, a.bits); break;
        case Arg::Kind::Real: append_real(s, double_of(a.bits)); break;
        case Arg::Kind::Bool: s += a.bits != 0 ? "true" : "false"; break;
        case Arg::Kind::Text:
          append_json_string(s, tl_.names_.text(static_cast<std::uint32_t>(a.bits)));
          break;
        case Arg::Kind::Hex: {
          static const char kHex[] = "0123456789abcdef";
          char digits[16];
          int n = 0;
          std::uint64_t v = a.bits;
          do {
            digits[n++] = kHex[v & 0xF];
            v >>= 4;
          } while (v != 0);
          s += "\"0x";
          while (n > 0) s += digits[--n];
          s += '"';
          break;
        }
      }
    }
    s += '}';
  }

  void write_events(Out& out) {
    for (const Row& row : rows_) {
      std::string& s = out.text();
      begin_event(s);
      if (row.rank < carried_.size()) {
        const CarriedCounter& c = carried_[row.rank];
        s += "{\"ph\":\"C\",\"name\":";
        counter_name(s, c.track, c.name);
        s += ",\"cat\":\"counter\"";
        common_fields(s, c.track, row.tid, row.ts);
        s += ",\"args\":{\"value\":";
        append_real(s, c.value);
        s += "}}";
        out.line_done();
        continue;
      }
      const Event& e = tl_.events_[row.rank - carried_.size()];
      switch (e.phase) {
        case Phase::Complete: s += "{\"ph\":\"X\",\"name\":"; break;
        case Phase::Instant: s += "{\"ph\":\"i\",\"s\":\"t\",\"name\":"; break;
        case Phase::Counter: s += "{\"ph\":\"C\",\"name\":"; break;
      }
      if (e.phase == Phase::Counter) {
        counter_name(s, e.track, e.name);
      } else {
        append_json_string(s, tl_.names_.text(e.name));
      }
      s += ",\"cat\":";
      append_json_string(s, tl_.categories_.text(e.category));
      common_fields(s, e.track, row.tid, e.ts);
      if (e.phase == Phase::Complete) {
        s += ",\"dur\":";
        append_us(s, e.extra);
      }
      if (e.phase == Phase::Counter) {
        s += ",\"args\":{\"value\":";
        append_real(s, double_of(e.extra));
        s += '}';
      } else {
        write_args(s, e);
      }
      s += '}';
      out.line_done();
    }
  }

  // When the bound dropped events: a global instant (a line across every row in the viewers) at
  // the earliest dropped event, from where on the trace is incomplete.
  void write_truncation_marker(Out& out) {
    if (tl_.first_dropped_ == kEndOfTime || rows_.empty()) return;
    std::string& s = out.text();
    begin_event(s);
    s += "{\"ph\":\"i\",\"s\":\"g\",\"name\":";
    append_json_string(s, "trace incomplete from here: " + std::to_string(tl_.dropped_) +
                              " events dropped (trace.max_events / trace.category_max)");
    s += ",\"cat\":\"trace\",\"pid\":1,\"tid\":";
    append_uint(s, rows_.front().tid);
    s += ",\"ts\":";
    append_us(s, tl_.first_dropped_);
    s += ",\"args\":{\"events_dropped\":";
    append_uint(s, tl_.dropped_);
    s += "}}";
    out.line_done();
  }

  // {"dram": 12, ...} for the categories where `field` is not zero, sorted by name.
  template <class Field>
  void category_object(std::string& s, Field field) {
    std::vector<std::pair<std::string, std::uint64_t>> items;
    for (std::uint32_t c = 0; c < tl_.category_counts_.size(); ++c) {
      const std::uint64_t v = field(tl_.category_counts_[c]);
      if (v != 0) items.emplace_back(tl_.categories_.text(c), v);
    }
    std::sort(items.begin(), items.end());
    s += '{';
    for (std::size_t k = 0; k < items.size(); ++k) {
      if (k != 0) s += ',';
      append_json_string(s, items[k].first);
      s += ':';
      append_uint(s, items[k].second);
    }
    s += '}';
  }

  void write_other_data(std::string& s) {
    const TimelineLimits& lim = tl_.limits_;
    s += '{';
    for (const auto& [key, value] : tl_.info_) {
      append_json_string(s, key);
      s += ':';
      append_json_string(s, value);
      s += ",\n";
    }
    s += "\"trace\":{\"producer\":\"parsys\",\"time_unit_of_ts\":\"us\",\"events_recorded\":";
    append_uint(s, tl_.events_.size());
    s += ",\"events_dropped\":";
    append_uint(s, tl_.dropped_);
    s += ",\"events_outside_window\":";
    append_uint(s, tl_.outside_window_);
    s += ",\"events_filtered_out\":";
    append_uint(s, tl_.filtered_out_);
    s += ",\"max_events\":";
    append_uint(s, lim.max_events);
    s += ",\"categories\":";
    if (lim.categories.empty()) {
      s += "null";
    } else {
      s += '[';
      bool first_category = true;
      for (const std::string& cat : lim.categories) {
        if (!first_category) s += ',';
        first_category = false;
        append_json_string(s, cat);
      }
      s += ']';
    }
    s += ",\"category_max\":{";
    bool first = true;
    for (const auto& [cat, cap] : lim.category_max) {
      if (!first) s += ',';
      first = false;
      append_json_string(s, cat);
      s += ':';
      append_uint(s, cap);
    }
    s += "},\"window_from_us\":";
    append_us(s, lim.from);
    s += ",\"window_to_us\":";
    if (lim.to == kEndOfTime) {
      s += "null";
    } else {
      append_us(s, lim.to);
    }
    s += ",\"recorded_by_category\":";
    category_object(s, [](const CategoryCount& c) { return c.recorded; });
    s += ",\"dropped_by_category\":";
    category_object(s, [](const CategoryCount& c) { return c.dropped; });
    s += ",\"lanes_overflowed\":";
    append_uint(s, forced_);
    s += ",\"complete_until_us\":";
    if (tl_.first_dropped_ == kEndOfTime) {
      s += "null";
    } else {
      append_us(s, tl_.first_dropped_);
    }
    s += ",\"last_event_us\":";
    append_us(s, last_ts_);
    s += ",\"counter_interval_us\":";
    append_us(s, lim.counter_interval);
    s += ",\"counter_samples_merged\":";
    append_uint(s, tl_.counters_merged_);
    s += "}}";
  }

  const Timeline& tl_;
  std::vector<std::uint32_t> lane_of_;     // per event: lane within its track
  std::vector<std::uint32_t> lanes_;       // per track
  std::vector<std::uint32_t> process_order_;
  std::vector<std::uint32_t> pid_of_;      // per process
  std::vector<std::uint32_t> first_tid_;   // per track: tid of lane 0
  std::vector<CarriedCounter> carried_;
  std::vector<Row> rows_;
  std::uint64_t forced_ = 0;
  Ps last_ts_ = 0;  // the latest time any recorded event reaches
  bool first_ = true;
};

void Timeline::write_json(std::ostream& os) const { JsonWriter(*this).write(os); }

bool Timeline::write_json_file(const std::string& path, std::string* error) const {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  if (file) write_json(file);
  if (file) file.close();
  if (!file) {
    if (error != nullptr) *error = "cannot write '" + path + "': " + std::strerror(errno);
    return false;
  }
  return true;
}

}  // namespace par::trace
