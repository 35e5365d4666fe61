// The events of a Timeline read back from its JSON, in a form tests can compare exactly: track
// "process/thread" (lane rows "ch0 #2" folded back into their track), name, category, begin and
// end in picoseconds, arguments. Used by the tap test and the module tracing tests.
#pragma once

#include <cmath>
#include <cstdint>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "par/trace/timeline.hpp"

namespace par::trace::testing {

struct RecordedEvent {
  std::string ph;     // "X", "i" or "C"
  std::string track;  // "process/thread"
  std::string name;
  std::string cat;
  std::uint64_t begin_ps = 0;
  std::uint64_t end_ps = 0;  // = begin_ps except for intervals
  nlohmann::json args;
};

inline std::uint64_t us_to_ps(double us) { return static_cast<std::uint64_t>(std::llround(us * 1e6)); }

// Every non-metadata event in file order (per row, in time order).
inline std::vector<RecordedEvent> recorded_events(const Timeline& tl) {
  std::ostringstream os;
  tl.write_json(os);
  const nlohmann::json doc = nlohmann::json::parse(os.str());
  std::map<int, std::string> process;
  std::map<std::pair<int, int>, std::string> thread;
  for (const auto& e : doc.at("traceEvents")) {
    if (e.at("ph") != "M") continue;
    const std::string what = e.at("name");
    if (what == "process_name") process[e.at("pid")] = e.at("args").at("name");
    if (what == "thread_name") {
      std::string t = e.at("args").at("name");
      const auto lane = t.find(" #");
      if (lane != std::string::npos) t.resize(lane);
      thread[{e.at("pid"), e.at("tid")}] = t;
    }
  }
  std::vector<RecordedEvent> out;
  for (const auto& e : doc.at("traceEvents")) {
    if (e.at("ph") == "M") continue;
    RecordedEvent r;
    r.ph = e.at("ph");
    r.name = e.at("name");
    r.cat = e.value("cat", "");
    const int pid = e.at("pid");
    const auto t = thread.find({pid, e.at("tid")});
    r.track = process.at(pid) + "/" + (t != thread.end() ? t->second : std::string("?"));
    r.begin_ps = us_to_ps(e.at("ts").get<double>());
    r.end_ps = r.begin_ps + (e.contains("dur") ? us_to_ps(e.at("dur").get<double>()) : 0);
    r.args = e.value("args", nlohmann::json::object());
    out.push_back(std::move(r));
  }
  return out;
}

// The events on one track (and with one phase).
inline std::vector<RecordedEvent> on_track(const std::vector<RecordedEvent>& all,
                                           const std::string& track, const std::string& ph = "X") {
  std::vector<RecordedEvent> out;
  for (const RecordedEvent& r : all)
    if (r.track == track && r.ph == ph) out.push_back(r);
  return out;
}

}  // namespace par::trace::testing
