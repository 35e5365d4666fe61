// Fuzz target: the PAR core on generated valid programs (program_generator.hpp).
//
// Properties: every generated program runs to its end in timing mode (a random core shape and
// timing parameters) and in functional mode (a random width), and the two agree on every
// thread's final registers and on the memory of every thread's slice; functional mode with one
// thread at a time agrees too.
#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "fuzz_support.hpp"
#include "par/isa/disassembler.hpp"
#include "program_generator.hpp"
#include "program_runner.hpp"

using namespace par;

namespace {

core::ProgramRun run(const fuzz::GeneratedRun& g, const core::CoreConfig& cfg, core::RunMode mode, int width) {
  core::RunOptions opt;
  opt.mode = mode;
  opt.functional_width = width;
  opt.capture_first = 0;
  opt.capture_count = static_cast<std::uint64_t>(g.program.threads);
  core::ProgramRun r = core::run_program(g.program, cfg, opt);
  std::sort(r.registers.begin(), r.registers.end(), [](const auto& a, const auto& b) { return a.thread < b.thread; });
  return r;
}

std::string describe(const fuzz::GeneratedRun& g) {
  std::ostringstream os;
  os << "L=" << g.timing.lanes << " T=" << g.timing.threads_per_lane << " rob=" << g.timing.rob_size
     << " width=" << g.functional_width << "\n"
     << isa::disassemble_program(g.program);
  return os.str();
}

void agree(const fuzz::GeneratedRun& g, const core::ProgramRun& a, const core::ProgramRun& b, const char* what) {
  if (!a.ok || !b.ok) fuzz::violated(std::string(what) + ": a valid program failed: " + (a.ok ? b.error : a.error) + "\n" + describe(g));
  if (a.registers.size() != b.registers.size() || a.registers.size() != static_cast<std::size_t>(g.program.threads))
    fuzz::violated(std::string(what) + ": registers of " + std::to_string(a.registers.size()) + " and " +
                   std::to_string(b.registers.size()) + " threads\n" + describe(g));
  for (std::size_t t = 0; t < a.registers.size(); ++t) {
    const core::ThreadRegisters &x = a.registers[t], &y = b.registers[t];
    if (x.thread != y.thread || x.r != y.r || x.p != y.p)
      fuzz::violated(std::string(what) + ": final registers of thread " + std::to_string(x.thread) + " differ\n" + describe(g));
  }
  const auto words = static_cast<std::size_t>(g.data_bytes / 8);
  if (a.read(g.data_base, words) != b.read(g.data_base, words))
    fuzz::violated(std::string(what) + ": memory differs\n" + describe(g));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::ByteReader in(data, size);
  const fuzz::GeneratedRun g = fuzz::generate_run(in);
  core::CoreConfig functional_cfg;
  functional_cfg.local_mem_size = g.timing.local_mem_size;
  functional_cfg.max_cycles = g.timing.max_cycles;
  const core::ProgramRun timed = run(g, g.timing, core::RunMode::Timing, 1);
  const core::ProgramRun wide = run(g, functional_cfg, core::RunMode::Functional, g.functional_width);
  agree(g, timed, wide, "timing vs functional");
  const core::ProgramRun single = run(g, functional_cfg, core::RunMode::Functional, 1);
  agree(g, wide, single, "functional, two widths");
  return 0;
}
