#include "report.hpp"

#include <algorithm>
#include <iomanip>
#include <ostream>
#include <sstream>

#include "par/simkit/format.hpp"

namespace par::platform {

namespace {

using isa::Unit;

const char* const kFuLabels[isa::kBackendUnits] = {"ALU", "FPU", "LS", "CMP"};

std::string pct(double v) { return simkit::format_percent(v, 2); }
std::string fix2(double v) { return simkit::format_fixed(v, 2); }

std::string si(double v) {
  std::ostringstream os;
  os << std::setprecision(3);
  if (v >= 1e9) os << v / 1e9 << " G";
  else if (v >= 1e6) os << v / 1e6 << " M";
  else if (v >= 1e3) os << v / 1e3 << " k";
  else os << v << " ";
  return os.str();
}

void line(std::ostream& os, const char* label, const std::string& text) {
  os << "  " << std::left << std::setw(27) << label << text << '\n';
}

double stat(const simkit::StatGroup& g, const std::string& path) {
  const simkit::Stat* s = g.find(path);
  return s != nullptr ? s->number() : 0;
}

// One line for the L1s, one per L2 bank and one for the DRAM, when the platform has them.
void write_memory_system(std::ostream& os, const simkit::StatGroup& root) {
  if (const simkit::StatGroup* g = root.find_group("l1")) {  // totals over the cores' L1s
    std::ostringstream t;
    t << static_cast<std::uint64_t>(stat(*g, "accesses")) << " accesses, " << static_cast<std::uint64_t>(stat(*g, "hits"))
      << " hits, " << static_cast<std::uint64_t>(stat(*g, "misses")) << " misses, "
      << static_cast<std::uint64_t>(stat(*g, "mshr_merges")) << " MSHR merges, "
      << static_cast<std::uint64_t>(stat(*g, "writebacks") + stat(*g, "flush_writebacks")) << " writebacks";
    line(os, "l1", t.str());
  }
  if (root.find_group("l2") != nullptr) {
    for (int b = 0;; ++b) {
      const std::string label = "l2.bank" + std::to_string(b);
      const simkit::StatGroup* g = root.find_group(label);
      if (g == nullptr) break;
      std::ostringstream t;
      if (g->find("hits") == nullptr) {  // a plug-in bank: the adapter's counters, its own under .model
        t << static_cast<std::uint64_t>(stat(*g, "reads")) << " reads, " << static_cast<std::uint64_t>(stat(*g, "writes"))
          << " writes, plug-in model";
        line(os, label.c_str(), t.str());
        continue;
      }
      t << static_cast<std::uint64_t>(stat(*g, "accesses")) << " accesses, " << static_cast<std::uint64_t>(stat(*g, "hits"))
        << " hits, " << static_cast<std::uint64_t>(stat(*g, "misses")) << " misses, "
        << static_cast<std::uint64_t>(stat(*g, "mshr_merges")) << " MSHR merges, "
        << static_cast<std::uint64_t>(stat(*g, "writebacks")) << " writebacks, "
        << static_cast<std::uint64_t>(stat(*g, "bank_conflict_cycles")) << " bank-conflict cycles";
      line(os, label.c_str(), t.str());
    }
  }
  if (const simkit::StatGroup* d = root.find_group("dram")) {
    std::ostringstream t;
    // Transactions and bursts are different units: each gets its own clause.
    t << static_cast<std::uint64_t>(stat(*d, "reads")) << " read and " << static_cast<std::uint64_t>(stat(*d, "writes"))
      << " write transactions, ";
    if (d->find("row_hits") != nullptr)  // the built-in model; a plug-in's own counters are under dram.model
      t << static_cast<std::uint64_t>(stat(*d, "bursts")) << " bursts (row hits/misses/conflicts "
        << static_cast<std::uint64_t>(stat(*d, "row_hits")) << '/' << static_cast<std::uint64_t>(stat(*d, "row_misses"))
        << '/' << static_cast<std::uint64_t>(stat(*d, "row_conflicts")) << "), ";
    else
      t << "plug-in model, ";
    if (stat(*d, "reads") + stat(*d, "writes") > 0)
      t << "mean latency " << fix2(stat(*d, "avg_latency")) << " ns, " << fix2(stat(*d, "bandwidth")) << " GB/s";
    else
      t << "unused";
    line(os, "dram", t.str());
  }
  // Full system: both link directions and host memory.
  if (const simkit::StatGroup* link = root.find_group("link")) {
    for (const char* dir : {"h2d", "d2h"}) {
      const simkit::StatGroup* g = link->find_group(dir);
      if (g == nullptr) continue;
      std::ostringstream t;
      t << static_cast<std::uint64_t>(stat(*g, "packets")) << " packets, "
        << static_cast<std::uint64_t>(stat(*g, "data_bytes")) << " data bytes, utilisation "
        << fix2(100 * stat(*g, "utilisation")) << "%, mean queueing " << fix2(stat(*g, "avg_queue_ns")) << " ns, "
        << static_cast<std::uint64_t>(stat(*g, "outstanding_stalls")) << " outstanding-limit stalls";
      const std::string label = std::string("link.") + dir;
      line(os, label.c_str(), t.str());
    }
  }
  if (const simkit::StatGroup* h = root.find_group("host_mem")) {
    std::ostringstream t;
    t << static_cast<std::uint64_t>(stat(*h, "reads")) << " reads, " << static_cast<std::uint64_t>(stat(*h, "writes"))
      << " writes";
    if (stat(*h, "reads") + stat(*h, "writes") > 0) t << ", mean latency " << fix2(stat(*h, "avg_latency")) << " ns";
    line(os, "host_mem", t.str());
  }
}

// The sum of every statistic called `name` in `g` and the groups below it.
double total_below(const simkit::Json& g, const std::string& name) {
  double sum = 0;
  for (const auto& [key, value] : g.items()) {
    if (!value.is_object()) continue;
    if (key == name && value.contains("value") && value["value"].is_number()) sum += value["value"].get<double>();
    else if (!value.contains("value")) sum += total_below(value, name);
  }
  return sum;
}

// With --check-protocol: what the checkers saw over all bindings.
void write_protocol_check(std::ostream& os, const simkit::StatGroup& root) {
  const simkit::StatGroup* g = root.find_group("protocol_check");
  if (g == nullptr) return;
  const simkit::Json j = g->to_json();
  std::ostringstream t;
  t << static_cast<std::uint64_t>(total_below(j, "b_transport")) << " b_transport, "
    << static_cast<std::uint64_t>(total_below(j, "nb_transactions")) << " non-blocking transactions, "
    << static_cast<std::uint64_t>(total_below(j, "transport_dbg")) << " transport_dbg calls checked; "
    << static_cast<std::uint64_t>(total_below(j, "violations")) << " violations";
  line(os, "Protocol check", t.str());
}

// Full system: where each launch's time went (the first and last few when there are many); the
// parts add up to the window (launch_time.hpp), the windows and the tail to the whole run.
void write_launches(std::ostream& os, const std::vector<LaunchTimes>& launches, double simulated_ns) {
  os << "  Launches (ns; window = previous completion to this one = host + link + queueing + device + overlap)\n";
  os << "    " << std::right << std::setw(5) << "seq" << "  " << std::left << std::setw(14) << "kernel" << std::right
     << std::setw(9) << "threads";
  for (const char* h : {"window", "host", "link", "queueing", "device", "overlap"}) os << std::setw(12) << h;
  os << '\n';
  const std::size_t n = launches.size(), shown = 8;
  for (std::size_t i = 0; i < n; ++i) {
    if (n > shown && i == shown / 2) os << "    ... " << n - shown << " more (stats.json \"launches\")\n";
    if (n > shown && i >= shown / 2 && i < n - shown / 2) continue;
    const LaunchTimes& t = launches[i];
    os << "    " << std::right << std::setw(5) << t.seq << "  " << std::left << std::setw(14) << t.kernel.substr(0, 14)
       << std::right << std::setw(9) << t.threads;
    for (double v : {t.window_ns(), t.host_ns, t.link_ns, t.queueing_ns, t.device_ns, t.overlap_ns})
      os << std::setw(12) << fix2(v);
    os << '\n';
  }
  const double last = launches.back().end_ns;
  os << "    after the last launch (host software until it ends): " << fix2(std::max(0.0, simulated_ns - last))
     << " ns of the run's " << fix2(simulated_ns) << " ns\n";
}

// The cores as one platform: counts summed, time the longest core's, lanes of all cores.
core::CoreStats side_by_side(const std::vector<core::CoreStats>& cores) {
  core::CoreStats all = cores.front();
  for (std::size_t c = 1; c < cores.size(); ++c) all.accumulate(cores[c]);
  all.cycles = 0;
  for (const core::CoreStats& c : cores) all.cycles = std::max(all.cycles, c.cycles);
  all.lanes = cores.front().lanes * static_cast<int>(cores.size());
  return all;
}

// Thread contexts: how the issue slots and rounds were spread, and per FU its idle cycles by the
// state of each context's next instruction, as a mean over the contexts.
void write_contexts(std::ostream& os, const core::CoreConfig& cfg, const core::CoreStats& s) {
  std::int64_t lo = s.contexts.front().slots, hi = lo;
  for (const core::ContextCounters& c : s.contexts) {
    lo = std::min(lo, c.slots);
    hi = std::max(hi, c.slots);
  }
  std::ostringstream t;
  t << s.contexts.size() << ", round-robin, ready = " << core::to_string(cfg.context_ready) << ", FU wait: "
    << (cfg.context_fu_wait.empty() ? "none" : cfg.context_fu_wait) << "; issue slots per context " << lo << ".." << hi;
  line(os, "Thread contexts", t.str());
  const double per = static_cast<double>(s.cycles) * static_cast<double>(s.contexts.size());
  for (int u = 0; u < isa::kBackendUnits; ++u) {
    std::ostringstream f;
    f << "busy " << pct(s.utilization(static_cast<Unit>(u))) << ", idle by next instruction:";
    for (int k = 0; k < core::kIdleCauses; ++k) {
      std::int64_t sum = 0;
      for (const core::ContextCounters& c : s.contexts) sum += c.idle[static_cast<std::size_t>(u)][static_cast<std::size_t>(k)];
      f << (k ? ", " : " ") << core::idle_cause_name(static_cast<core::IdleCause>(k)) << ' '
        << pct(per > 0 ? static_cast<double>(sum) / per : 0.0);
    }
    const std::string label = std::string("  ") + kFuLabels[u];
    line(os, label.c_str(), f.str());
  }
}

}  // namespace

void write_report(std::ostream& os, const RunSummary& r) {
  const PlatformConfig& cfg = *r.cfg;
  // With several cores the headline is the platform's: the cores run side by side, so its time is
  // the longest core's and its throughput the sum; per-core utilisations follow, one line each.
  const bool several = r.cores.size() > 1;
  const core::CoreStats s = several ? side_by_side(r.cores) : r.core;
  const bool timed = cfg.run.mode == core::RunMode::Timing;
  os << "parsys run " << r.program << '\n';
  os << "  platform: " << cfg.cores << " PAR core" << (cfg.cores > 1 ? "s" : "") << ", L = " << cfg.core.lanes
     << ", T = " << cfg.core.threads_per_lane << ", " << (timed ? "timing" : "functional") << " mode, "
     << cfg.run.clock_mhz << " MHz, memory " << to_string(cfg.memory);
  if (cfg.full_system()) os << ", host across the " << cfg.ht.width_bits << "-bit HT link";
  os << '\n';
  if (!cfg.instances.empty()) {  // per-instance options: the shapes above are the type's
    os << "  per instance:";
    for (std::size_t i = 0; i < cfg.instances.size(); ++i)
      os << (i ? ", " : " ") << cfg.instances[i].name() << " = " << cfg.instances[i].text;
    os << '\n';
  }
  if (!r.host_software.empty()) {
    os << "  host:     " << r.host_software;
    if (r.launches != nullptr) os << ", " << r.launches->size() << " launches";
    os << "\n  device:   " << s.rounds << " rounds";
  } else {
    os << "  packet:   " << r.threads << " threads from " << r.entry << ", " << s.rounds << " rounds";
    if (cfg.run.repeat > 1) os << " over " << cfg.run.repeat << " launches";
  }
  os << '\n';
  if (!r.host_log.empty()) {  // the host program's own account (sw/host)
    std::istringstream log(r.host_log);
    for (std::string l; std::getline(log, l);) os << "  host log: " << l << '\n';
  }
  os << '\n';

  std::ostringstream per_fu, per_fu_thread;
  for (int u = 0; u < isa::kBackendUnits; ++u) {
    per_fu << kFuLabels[u] << ' ' << s.instructions[static_cast<std::size_t>(u)] << (u + 1 < isa::kBackendUnits ? "  " : "");
    per_fu_thread << kFuLabels[u] << ' ' << s.thread_instructions[static_cast<std::size_t>(u)]
                  << (u + 1 < isa::kBackendUnits ? "  " : "");
  }
  std::int64_t control = 0;
  std::ostringstream ctl;
  for (int k = 0; k < core::kControlKinds; ++k) {
    control += s.control[static_cast<std::size_t>(k)];
    ctl << (k ? ", " : "") << core::control_kind_name(static_cast<core::ControlKind>(k)) << ' '
        << s.control[static_cast<std::size_t>(k)];
  }

  if (timed) {
    std::ostringstream t;
    if (cfg.full_system())  // the whole run: host software, link and device; the device's part beside it
      t << simkit::format_fixed(r.simulated_ns / 1e3, 3) << " us simulated (host, link and device; device "
        << s.cycles << " cycles)";
    else
      t << s.cycles << " cycles (" << simkit::format_fixed(r.simulated_ns / 1e3, 3) << " us simulated)";
    line(os, "Execution time", t.str());
    line(os, "Instructions per FU", per_fu.str());
    line(os, "IPC", fix2(s.ipc()) + "   (with compare-unit instructions: " + fix2(s.ipc_with_cmp()) + ")");
    line(os, "FPU throughput", fix2(s.fpu_throughput()));
  }
  if (timed && !several) {
    line(os, "ALU utilisation", pct(s.utilization(Unit::Alu)));
    line(os, "Compare-unit utilisation", pct(s.utilization(Unit::Cmp)));
    line(os, "L/S-unit utilisation", pct(s.utilization(Unit::Ls)));
    line(os, "ROB utilisation", pct(s.rob_utilization()) + "   (max occupancy " + std::to_string(s.rob_max_occupancy) +
                                    " of " + std::to_string(cfg.core_config(0).rob_size) + ")");
    std::ostringstream st;
    st << s.stall_total();
    bool first = true;
    for (int c = 0; c < core::kStallCauses; ++c) {
      const std::int64_t v = s.stalls[static_cast<std::size_t>(c)];
      if (v == 0) continue;
      st << (first ? ":  " : ", ") << core::stall_cause_name(static_cast<core::StallCause>(c)) << ' ' << v;
      first = false;
    }
    line(os, "Stall cycles", st.str());
    line(os, "FPU utilisation", pct(s.utilization(Unit::Fpu)));
    if (!s.contexts.empty()) write_contexts(os, cfg.core_config(0), s);
  }
  if (!timed) line(os, "Instructions per FU", per_fu.str());
  line(os, "Thread-instructions", per_fu_thread.str() + "  control " + std::to_string(control) + " (" + ctl.str() + ")");
  if (several) {
    for (std::size_t c = 0; c < r.cores.size(); ++c) {
      const core::CoreStats& cs = r.cores[c];
      std::ostringstream os2;
      os2 << cs.cycles << " cycles, " << cs.threads << " threads, IPC " << fix2(cs.ipc()) << ", ALU "
          << pct(cs.utilization(Unit::Alu)) << ", FPU " << pct(cs.utilization(Unit::Fpu)) << ", L/S "
          << pct(cs.utilization(Unit::Ls));
      const std::string label = "core" + std::to_string(c);
      line(os, label.c_str(), os2.str());
    }
  }
  if (s.global_accesses > 0) {
    std::ostringstream g;
    g << s.global_transactions << " transactions for " << s.global_accesses << " thread accesses, "
      << s.global_bytes << " bytes, mean latency "
      << fix2(static_cast<double>(s.global_latency_sum) / static_cast<double>(s.global_transactions)) << " cycles";
    if (s.ls_limit_stall_cycles > 0) g << ", " << s.ls_limit_stall_cycles << " cycles at core.ls_max_outstanding";
    line(os, "Global loads/stores", g.str());
  }
  if (r.stats != nullptr) write_memory_system(os, *r.stats);
  if (r.launches != nullptr && !r.launches->empty()) write_launches(os, *r.launches, r.simulated_ns);
  if (r.stats != nullptr) write_protocol_check(os, *r.stats);
  std::ostringstream speed;
  const double ti = static_cast<double>(s.total_thread_instructions());
  speed << simkit::format_fixed(r.host_seconds, 3) << " s host, ";
  if (timed) speed << si(static_cast<double>(s.cycles) / r.host_seconds) << "cycles/s, ";
  speed << si(ti / r.host_seconds) << "thread-instructions/s";
  line(os, "Simulator speed", speed.str());
}

void write_hex(std::ostream& os, const MemoryDump& d) {
  std::ostringstream h;
  for (std::size_t i = 0; i < d.bytes.size(); ++i) {
    if (i % 16 == 0) h << (i ? "\n" : "") << "  0x" << std::hex << std::setw(8) << std::setfill('0') << d.address + i << ':';
    h << ' ' << std::hex << std::setw(2) << std::setfill('0') << static_cast<int>(d.bytes[i]);
  }
  os << h.str() << '\n';
}

void write_registers(std::ostream& os, const std::vector<core::ThreadRegisters>& registers) {
  std::ostringstream f;
  for (const core::ThreadRegisters& t : registers) {
    f << "thread " << t.thread << '\n';
    for (int r = 0; r < 16; ++r)
      f << "  r" << r << " = 0x" << std::hex << std::setw(16) << std::setfill('0') << t.r[static_cast<std::size_t>(r)]
        << std::dec << std::setfill(' ') << (r % 4 == 3 ? "\n" : "");
    f << "  p0..p7 =";
    for (int p = 0; p < 8; ++p) f << ' ' << static_cast<int>(t.p[static_cast<std::size_t>(p)]);
    f << '\n';
  }
  os << f.str();
}

}  // namespace par::platform
