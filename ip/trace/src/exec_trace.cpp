#include "par/trace/exec_trace.hpp"

#include <algorithm>
#include <cstdio>
#include <ostream>

#include "par/trace/glob.hpp"

namespace par::trace {

ExecTrace::ExecTrace(std::ostream& text, Timeline* timeline, std::uint64_t max_records, ExecFilter filter)
    : out_(text), timeline_(timeline), max_(max_records), filter_(std::move(filter)) {
  if (timeline_ != nullptr) category_ = timeline_->category("exec");
  out_ << header() << '\n';
}

ExecTrace::ExecTrace(std::unique_ptr<std::ostream> text, Timeline* timeline, std::uint64_t max_records,
                     ExecFilter filter)
    : ExecTrace(*text, timeline, max_records, std::move(filter)) {
  owned_ = std::move(text);
}

ExecTrace::~ExecTrace() { finish(); }

const char* ExecTrace::header() {
  return "#      cycle core     ctx  round     pc depth active mask source | instruction";
}

bool ExecTrace::wants_core(std::string_view core) const {
  if (filter_.cores.empty()) return true;
  return std::any_of(filter_.cores.begin(), filter_.cores.end(),
                     [core](const std::string& p) { return glob_match(p, core); });
}

std::string ExecTrace::mask_hex(const std::uint8_t* mask, int slots) {
  static const char kDigits[] = "0123456789abcdef";
  std::string hex;
  int top = slots - 1;
  if (slots > 64)
    while (top > 0 && !mask[top]) --top;  // wide masks without leading zero digits
  for (int d = top / 4; d >= 0; --d) {
    int v = 0;
    for (int b = 3; b >= 0; --b) {
      const int s = d * 4 + b;
      v = v * 2 + (s < slots && mask[s] ? 1 : 0);
    }
    hex += kDigits[v];
  }
  return "0x" + hex;
}

bool ExecTrace::has_wanted_thread(const ExecRecord& r) const {
  if (filter_.thread_first == 0 && filter_.thread_count == kNoLimit) return true;
  for (int s = 0; s < r.slots; ++s) {
    if (!r.mask[s]) continue;
    const std::uint64_t t = r.first_thread + static_cast<std::uint64_t>(s);
    if (t >= filter_.thread_first && t - filter_.thread_first < filter_.thread_count) return true;
  }
  return false;
}

void ExecTrace::record(const ExecRecord& r) {
  if (!wants(r.pc, r.cycle) || !has_wanted_thread(r)) return;
  if (recorded_ >= max_) {
    ++dropped_;
    return;
  }
  ++recorded_;
  const std::string mask = mask_hex(r.mask, r.slots);
  char head[160];
  std::snprintf(head, sizeof head, "%12llu %-8.*s %3d %6llu %6llu %5llu %6d ", static_cast<unsigned long long>(r.cycle),
                static_cast<int>(r.core.size()), r.core.data(), r.context, static_cast<unsigned long long>(r.round),
                static_cast<unsigned long long>(r.pc), static_cast<unsigned long long>(r.depth), r.active);
  out_ << head << mask << ' ' << r.source << " | " << r.instruction << '\n';
  if (timeline_ == nullptr) return;
  const auto key = std::make_pair(std::string(r.core), r.context);
  auto it = tracks_.find(key);
  if (it == tracks_.end())
    it = tracks_.emplace(key, timeline_->track(r.core, "exec ctx" + std::to_string(r.context))).first;
  timeline_->interval(it->second, timeline_->name(r.instruction), category_, r.begin, r.end,
                      {{"pc", r.pc}, {"source", r.source}, {"mask", mask}, {"active", r.active},
                       {"depth", r.depth}, {"round", r.round}, {"cycle", r.cycle}});
}

bool ExecTrace::finish() {
  if (!finished_) {
    finished_ = true;
    out_ << "# " << recorded_ << " records";
    if (dropped_ > 0) out_ << "; trace.exec_max = " << max_ << " reached, " << dropped_ << " more not written";
    out_ << '\n';
    out_.flush();
  }
  return static_cast<bool>(out_);
}

namespace {

bool parse_number(const std::string& s, std::uint64_t* v) {
  if (s.empty() || s.size() > 19) return false;
  std::uint64_t n = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    n = n * 10 + static_cast<std::uint64_t>(c - '0');
  }
  *v = n;
  return true;
}

}  // namespace

bool parse_pc_range(const std::string& text, const std::map<std::string, std::uint64_t>& labels,
                    std::uint64_t* first, std::uint64_t* last, std::string* error) {
  *first = 0;
  *last = kNoLimit;
  if (text.empty()) return true;
  const auto fail = [&](const std::string& why) {
    if (error) *error = "trace.exec_pc: '" + text + "' " + why;
    return false;
  };
  const auto address = [&](const std::string& s, std::uint64_t* v) {
    if (parse_number(s, v)) return true;
    const auto it = labels.find(s);
    if (it == labels.end()) return false;
    *v = it->second;
    return true;
  };
  const auto dots = text.find("..");
  if (dots == std::string::npos) {
    const auto it = labels.find(text);
    if (it == labels.end()) return fail("is no code label of the program (expected LABEL or FROM..TO)");
    *first = it->second;
    for (const auto& [name, pc] : labels)  // the block ends before the next label
      if (pc > *first && pc - 1 < *last) *last = pc - 1;
    return true;
  }
  const std::string a = text.substr(0, dots), b = text.substr(dots + 2);
  if (!address(a, first)) return fail("starts with '" + a + "', neither a number nor a code label of the program");
  if (!address(b, last)) return fail("ends with '" + b + "', neither a number nor a code label of the program");
  if (*last < *first) return fail("is empty (its end lies before its start)");
  return true;
}

bool parse_thread_range(const std::string& text, std::uint64_t* first, std::uint64_t* count) {
  *first = 0;
  *count = kNoLimit;
  if (text.empty()) return true;
  const auto colon = text.find(':');
  if (!parse_number(text.substr(0, colon), first)) return false;
  *count = 1;
  if (colon == std::string::npos) return true;
  return parse_number(text.substr(colon + 1), count) && *count > 0;
}

}  // namespace par::trace
