// Reproduces the single-lane study of the 2011 thesis (docs/published-results.md §3): every benchmark at
// L = 1, T = 1, 2, 4, 8 with the 2011 configuration, printed side by side with the published
// Tables 2-8 and the relative error; optionally written as CSV and Markdown.
//
//   reproduce-parsim [--csv FILE] [--md FILE]
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "kernel_refs.hpp"
#include "par/simkit/format.hpp"
#include "program_runner.hpp"

using namespace par;

namespace {

struct Row {
  std::string bench;
  int T = 0;
  core::CoreStats s;
  kernels::PublishedRow pub;
  double cycles_tolerance = 0;  // relative, the project's acceptance criterion for this row
};

double rel_error(double measured, double published) {
  return published == 0 ? 0 : (measured - published) / published;
}

std::string pct_error(double measured, double published) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%+.2f%%", 100 * rel_error(measured, published));
  return buf;
}

std::string f2(double v) { return simkit::format_fixed(v, 2); }
std::string p2(double v) { return simkit::format_percent(v, 2); }

}  // namespace

int main(int argc, char** argv) {
  std::string csv_path, md_path;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if ((a == "--csv" || a == "--md") && i + 1 < argc) (a == "--csv" ? csv_path : md_path) = argv[++i];
    else {
      std::cerr << "usage: reproduce-parsim [--csv FILE] [--md FILE]\n";
      return 2;
    }
  }

  std::vector<Row> rows;
  for (const kernels::KernelInfo& k : kernels::kernel_table()) {
    for (std::size_t t = 0; t < kernels::kPublishedThreadsPerLane.size(); ++t) {
      core::CoreConfig cfg;  // the defaults are the 2011 model (Table 1)
      cfg.lanes = 1;
      cfg.threads_per_lane = kernels::kPublishedThreadsPerLane[t];
      const core::ProgramRun run = core::run_file(kernels::kernel_path(k), cfg);
      if (!run.ok) {
        std::cerr << "reproduce-parsim: " << k.name << " T=" << cfg.threads_per_lane << ": " << run.error << '\n';
        return 1;
      }
      rows.push_back(Row{std::string(k.title), cfg.threads_per_lane, run.stats, k.published[t],
                         kernels::reproduction_tolerance(k, cfg.threads_per_lane)});
    }
  }

  using isa::Unit;
  std::printf("Single-lane reproduction (L = 1, 2011 configuration): measured / published (error)\n\n");
  std::printf("%-9s %2s  %-30s %-22s %-18s %-18s %-26s %-26s %-26s\n", "bench", "T", "cycles", "IPC", "IPC+cmp",
              "FPU thr", "ALU", "CMP", "L/S");
  for (const Row& r : rows) {
    const core::CoreStats& s = r.s;
    const std::string cycles = std::to_string(s.cycles) + " / " + std::to_string(r.pub.cycles) + " (" +
                               pct_error(static_cast<double>(s.cycles), static_cast<double>(r.pub.cycles)) + ")";
    std::printf("%-9s %2d  %-30s %-22s %-18s %-18s %-26s %-26s %-26s\n", r.bench.c_str(), r.T, cycles.c_str(),
                (f2(s.ipc()) + " / " + f2(r.pub.ipc)).c_str(), f2(s.ipc_with_cmp()).c_str(),
                (f2(s.fpu_throughput()) + " / " + f2(r.pub.fpu_throughput)).c_str(),
                (p2(s.utilization(Unit::Alu)) + " / " + f2(r.pub.alu_percent) + "%").c_str(),
                (p2(s.utilization(Unit::Cmp)) + " / " + f2(r.pub.cmp_percent) + "%").c_str(),
                (p2(s.utilization(Unit::Ls)) + " / " + f2(r.pub.ls_percent) + "%").c_str());
  }

  if (!csv_path.empty()) {
    std::ofstream f(csv_path);
    f << "benchmark,threads_per_lane,cycles,published_cycles,cycles_error,ipc,published_ipc,ipc_with_cmp,"
         "fpu_throughput,published_fpu_throughput,alu_utilization,published_alu_utilization,cmp_utilization,"
         "published_cmp_utilization,ls_utilization,published_ls_utilization,cycles_tolerance\n";
    for (const Row& r : rows) {
      const core::CoreStats& s = r.s;
      f << r.bench << ',' << r.T << ',' << s.cycles << ',' << r.pub.cycles << ','
        << rel_error(static_cast<double>(s.cycles), static_cast<double>(r.pub.cycles)) << ',' << s.ipc() << ','
        << r.pub.ipc << ',' << s.ipc_with_cmp() << ',' << s.fpu_throughput() << ',' << r.pub.fpu_throughput << ','
        << s.utilization(Unit::Alu) << ',' << r.pub.alu_percent / 100 << ',' << s.utilization(Unit::Cmp) << ','
        << r.pub.cmp_percent / 100 << ',' << s.utilization(Unit::Ls) << ',' << r.pub.ls_percent / 100 << ','
        << r.cycles_tolerance << '\n';
    }
    if (!f) {
      std::cerr << "reproduce-parsim: cannot write " << csv_path << '\n';
      return 1;
    }
  }
  if (!md_path.empty()) {
    std::ofstream f(md_path);
    f << "| Benchmark | T | Cycles | Published | Error | IPC (pub.) | IPC with CMP | FPU thr (pub.) | ALU (pub.) | "
         "CMP (pub.) | L/S (pub.) |\n|---|---|---|---|---|---|---|---|---|---|---|\n";
    for (const Row& r : rows) {
      const core::CoreStats& s = r.s;
      f << "| " << r.bench << " | " << r.T << " | " << s.cycles << " | " << r.pub.cycles << " | "
        << pct_error(static_cast<double>(s.cycles), static_cast<double>(r.pub.cycles)) << " | " << f2(s.ipc())
        << " (" << f2(r.pub.ipc) << ") | " << f2(s.ipc_with_cmp()) << " | " << f2(s.fpu_throughput()) << " ("
        << f2(r.pub.fpu_throughput) << ") | " << p2(s.utilization(Unit::Alu)) << " (" << f2(r.pub.alu_percent)
        << "%) | " << p2(s.utilization(Unit::Cmp)) << " (" << f2(r.pub.cmp_percent) << "%) | "
        << p2(s.utilization(Unit::Ls)) << " (" << f2(r.pub.ls_percent) << "%) |\n";
    }
    if (!f) {
      std::cerr << "reproduce-parsim: cannot write " << md_path << '\n';
      return 1;
    }
  }
  return 0;
}
