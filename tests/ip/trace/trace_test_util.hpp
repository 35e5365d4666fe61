// Helpers for the trace tests: the timeline as parsed JSON, and lookups over its events.
#pragma once

#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "par/trace/timeline.hpp"

namespace par::trace::testing {

// n nanoseconds in picoseconds, the timeline's unit.
constexpr Ps ns(std::uint64_t n) { return n * 1000; }

using nlohmann::json;

inline std::string json_text(const Timeline& tl) {
  std::ostringstream os;
  tl.write_json(os);
  return os.str();
}

inline json parse(const Timeline& tl) { return json::parse(json_text(tl)); }

// Events of one phase ("X", "i", "C", "M"), in file order.
inline std::vector<json> events_of(const json& doc, const std::string& ph) {
  std::vector<json> out;
  for (const json& e : doc.at("traceEvents")) {
    if (e.at("ph") == ph) out.push_back(e);
  }
  return out;
}

// Names from the metadata: pid -> process name, (pid, tid) -> thread name.
struct Names {
  std::map<int, std::string> process;
  std::map<std::pair<int, int>, std::string> thread;
  std::map<int, int> process_sort;
  std::map<std::pair<int, int>, int> thread_sort;

  explicit Names(const json& doc) {
    for (const json& e : events_of(doc, "M")) {
      const int pid = e.at("pid");
      const int tid = e.at("tid");
      const std::string what = e.at("name");
      if (what == "process_name") process[pid] = e.at("args").at("name");
      if (what == "thread_name") thread[{pid, tid}] = e.at("args").at("name");
      if (what == "process_sort_index") process_sort[pid] = e.at("args").at("sort_index");
      if (what == "thread_sort_index") thread_sort[{pid, tid}] = e.at("args").at("sort_index");
    }
  }
  // "process/thread" of an event.
  std::string track_of(const json& e) const {
    const int pid = e.at("pid");
    const int tid = e.at("tid");
    return process.at(pid) + "/" + thread.at({pid, tid});
  }
};

}  // namespace par::trace::testing
