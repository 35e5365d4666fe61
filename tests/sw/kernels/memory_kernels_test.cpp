// End-to-end tests of the memory-system kernels (sw/kernels/pointer-chase.par, stream-sva.par),
// their generators (scripts/gen-pointer-chase, scripts/gen-stream-sva) and scripts/sweep,
// scripts/mem-latency and scripts/link-study, through the parsys command, with local memory and with device DRAM
// behind the L2 (platform/configs/device-dram.ini). Expected values are computed here from the
// assembled programs' data (the chain is followed in C++, SVA uses std::fma), not taken from the
// generators.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "support/temp_dir.hpp"
#include "kernel_refs.hpp"
#include "par/isa/assembler.hpp"

namespace {

using par::kernels::ProgramData;

const std::string kRoot = PARSYS_SOURCE_DIR;
const std::string kDeviceDram = "--config " + kRoot + "/platform/configs/device-dram.ini";
const std::string kOneThread = "--core.lanes 1 --core.threads_per_lane 1";

struct Command {
  int status = -1;
  std::string out;  // stdout and stderr
};

Command shell(const std::string& cmd) {
  Command r;
  FILE* p = popen((cmd + " 2>&1").c_str(), "r");
  if (p == nullptr) return r;
  std::array<char, 4096> buf{};
  while (std::fgets(buf.data(), buf.size(), p)) r.out += buf.data();
  const int st = pclose(p);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

// The .checked variant of these tests (CMakeLists.txt) sets PARSYS_TEST_RUN_ARGS: every
// `parsys run`, the scripts' included, then goes through a wrapper that appends those arguments.
const char* test_run_args() {
  const char* extra = std::getenv("PARSYS_TEST_RUN_ARGS");
  return extra != nullptr && *extra != '\0' ? extra : nullptr;
}

std::string parsys() {
  // Removed when the test program exits.
  struct Wrapper {
    std::string path;
    ~Wrapper() {
      if (path != PARSYS_BIN) std::remove(path.c_str());
    }
  };
  static const Wrapper wrapper{[] {
    if (test_run_args() == nullptr) return std::string(PARSYS_BIN);
    const std::string path = std::string(::testing::TempDir()) + "parsys_with_test_args_" + std::to_string(getpid());
    std::ofstream(path) << "#!/bin/sh\nif [ \"$1\" = run ]; then exec " << PARSYS_BIN << " \"$@\" " << test_run_args()
                        << "; fi\nexec " << PARSYS_BIN << " \"$@\"\n";
    chmod(path.c_str(), 0755);
    return path;
  }()};
  return wrapper.path;
}
std::string script(const std::string& name) { return std::string(PARSYS_PYTHON) + " " + kRoot + "/scripts/" + name; }
std::string kernel(const std::string& name) { return kRoot + "/sw/kernels/" + name; }

std::string fresh_dir(const std::string& name) { return par::testing::temp_dir("memk_" + name); }

std::string read_text(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), {});
}

std::vector<std::uint8_t> read_bytes(const std::string& path) {
  const std::string s = read_text(path);
  return std::vector<std::uint8_t>(s.begin(), s.end());
}

std::uint64_t le64(const std::vector<std::uint8_t>& b, std::size_t at) {
  std::uint64_t v = 0;
  for (int k = 7; k >= 0; --k) v = (v << 8) | b.at(at + static_cast<std::size_t>(k));
  return v;
}

par::isa::Program assemble(const std::string& path) {
  const par::isa::AssemblyResult r = par::isa::assemble_file(path);
  if (!r.ok()) {
    ADD_FAILURE() << path << ":\n" << r.messages();
    return {};
  }
  return *r.program;
}

std::string hex(std::uint64_t v) {
  std::ostringstream os;
  os << "0x" << std::hex << v;
  return os.str();
}

// --- Pointer chase ------------------------------------------------------------------------------

// Loads per loop iteration: the loop body runs from label `step` to the end of the program.
std::uint64_t loads_per_iteration(const par::isa::Program& p) { return p.code.size() - p.code_labels.at("step"); }

// The address reached from `start` after `steps` loads, following the chain in the program's data.
std::uint64_t follow(const ProgramData& data, std::uint64_t start, std::uint64_t steps) {
  std::uint64_t p = start;
  for (std::uint64_t k = 0; k < steps; ++k) p = data.read(p, 8);
  return p;
}

// The chase reads its start pointer from the result word (i3) and stores the final one there.
std::uint64_t start_pointer(const par::isa::Program& p) {
  const ProgramData data(p);
  return data.read(data.inherited(3), 8);
}

std::uint64_t expected_final_pointer(const par::isa::Program& p) {
  const ProgramData data(p);
  const std::uint64_t steps = (data.inherited(1) + data.inherited(2)) * loads_per_iteration(p);
  return follow(data, start_pointer(p), steps);
}

struct ChaseRun {
  bool ok = false;
  std::uint64_t final_pointer = 0;
  double cycles = 0;
};

// Runs a pointer-chase program and reads the stored pointer and the core's cycles.
ChaseRun run_chase(const std::string& par_file, const std::string& args, const std::string& dir) {
  const par::isa::Program p = assemble(par_file);
  ChaseRun run;
  if (p.code.empty()) return run;
  const std::uint64_t result = ProgramData(p).inherited(3);
  const Command c = shell(parsys() + " run " + par_file + " " + args + " -q --out " + dir + " --dump-mem " +
                          hex(result) + ":8");
  EXPECT_EQ(c.status, 0) << c.out;
  if (c.status != 0) return run;
  const std::vector<std::uint8_t> mem = read_bytes(dir + "/mem_" + hex(result) + "_8.bin");
  EXPECT_EQ(mem.size(), 8u);
  if (mem.size() != 8) return run;
  run.final_pointer = le64(mem, 0);
  const nlohmann::json stats = nlohmann::json::parse(read_text(dir + "/stats.json"));
  run.cycles = stats["core0"]["cycles"]["value"].get<double>();
  run.ok = true;
  return run;
}

std::string generate_chase(const std::string& dir, const std::string& name, const std::string& options) {
  const std::string file = dir + "/" + name + ".par";
  const Command c = shell(script("gen-pointer-chase") + " " + options + " --out " + file);
  EXPECT_EQ(c.status, 0) << c.out;
  return file;
}

TEST(PointerChase, ShippedInstanceStoresTheFinalPointer) {
  const std::string file = kernel("pointer-chase.par");
  const par::isa::Program p = assemble(file);
  ASSERT_FALSE(p.code.empty());
  EXPECT_EQ(p.threads, 1);
  const std::uint64_t expected = expected_final_pointer(p);
  // The walk does not end where it started: a program that stored its start pointer would fail.
  EXPECT_EQ(start_pointer(p), ProgramData(p).address("chase_chain"));
  ASSERT_NE(expected, start_pointer(p));
  EXPECT_NE(read_text(file).find("Expected final pointer: " + hex(expected) + " "), std::string::npos);
  const std::string dir = fresh_dir("shipped_chase");
  const ChaseRun local = run_chase(file, "", dir + "/local");
  const ChaseRun dram = run_chase(file, kDeviceDram + " " + kOneThread, dir + "/dram");
  ASSERT_TRUE(local.ok && dram.ok);
  EXPECT_EQ(local.final_pointer, expected);
  EXPECT_EQ(dram.final_pointer, expected);
  EXPECT_GT(dram.cycles, local.cycles);
}

// The chain of every stride is one cycle through the whole working set, with the stride's shape.
TEST(PointerChase, GeneratedChainsAreOneCycleWithTheirStride) {
  const std::string dir = fresh_dir("chain_shape");
  struct Case {
    const char* stride;
    std::uint64_t bytes, element;
  };
  for (const Case& k : {Case{"unit", 4096, 8}, Case{"line", 8192, 64}, Case{"random", 16384, 64}}) {
    SCOPED_TRACE(k.stride);
    const std::string file = generate_chase(dir, k.stride, "--bytes " + std::to_string(k.bytes) + " --stride " +
                                                               k.stride + " --steps 64 --base 0x20000");
    const par::isa::Program p = assemble(file);
    ASSERT_FALSE(p.code.empty());
    const ProgramData data(p);
    const std::uint64_t start = data.address("chase_chain");
    EXPECT_EQ(start, 0x20000u);
    EXPECT_EQ(data.inherited(3), start + k.bytes);
    EXPECT_EQ(data.address("chase_result"), start + k.bytes);
    EXPECT_EQ(start_pointer(p), start);
    const std::uint64_t n = k.bytes / k.element;
    std::set<std::uint64_t> seen;
    std::uint64_t p_addr = start, sequential = 0;
    for (std::uint64_t s = 0; s < n; ++s) {
      EXPECT_TRUE(seen.insert(p_addr).second) << "revisits " << hex(p_addr);
      EXPECT_EQ((p_addr - start) % k.element, 0u);
      ASSERT_LT(p_addr - start, k.bytes);
      const std::uint64_t next = data.read(p_addr, 8);
      sequential += next == p_addr + k.element;
      p_addr = next;
    }
    EXPECT_EQ(p_addr, start) << "the chain is not one cycle of " << n << " elements";
    EXPECT_EQ(seen.size(), n);
    if (std::string(k.stride) == "random") {
      EXPECT_LT(sequential, n / 8) << "random order looks sequential";
    } else {
      EXPECT_EQ(sequential, n - 1);
    }
  }
  // Another seed gives another order of the same lines.
  const par::isa::Program a = assemble(dir + "/random.par");
  const par::isa::Program b = assemble(generate_chase(dir, "seed2", "--bytes 16384 --stride random --steps 64 --base 0x20000 --seed 2"));
  ASSERT_FALSE(a.data.empty() || b.data.empty());
  EXPECT_NE(a.data[0].bytes, b.data[0].bytes);
  EXPECT_EQ(a.data[0].bytes.size(), b.data[0].bytes.size());
}

// Small generated chains of each stride, walked a number of steps that is not a multiple of the
// chain length, end on the pointer the C++ walk reaches, with local memory and with device DRAM.
TEST(PointerChase, GeneratedChainsEndOnTheExpectedPointer) {
  const std::string dir = fresh_dir("chain_final");
  for (const char* stride : {"unit", "line", "random"}) {
    SCOPED_TRACE(stride);
    const std::string file = generate_chase(dir, stride, std::string("--bytes 3K --stride ") + stride +
                                                             " --steps 200 --warmup 44 --unroll 4");
    const par::isa::Program p = assemble(file);
    ASSERT_FALSE(p.code.empty());
    EXPECT_EQ(loads_per_iteration(p), 4u);
    EXPECT_EQ(ProgramData(p).inherited(1), 50u);
    EXPECT_EQ(ProgramData(p).inherited(2), 11u);
    const std::uint64_t expected = follow(ProgramData(p), start_pointer(p), 244);
    ASSERT_NE(expected, start_pointer(p));
    const ChaseRun local = run_chase(file, "", dir + "/" + stride + "_local");
    const ChaseRun dram = run_chase(file, kDeviceDram + " " + kOneThread, dir + "/" + stride + "_dram");
    EXPECT_TRUE(local.ok && dram.ok);
    EXPECT_EQ(local.final_pointer, expected);
    EXPECT_EQ(dram.final_pointer, expected);
  }
}

// --chains N: N threads, each on a cycle of its own through a share of the lines (together every
// line once), end on the pointers the C++ walk reaches and the header lists, in local memory and
// in device DRAM with threads side by side.
TEST(PointerChase, ChainsGiveEachThreadItsOwnCycle) {
  const std::string dir = fresh_dir("chains");
  const std::string file = generate_chase(dir, "chains", "--bytes 4K --stride random --chains 4 --steps 20 --warmup 8 --unroll 4");
  const par::isa::Program p = assemble(file);
  ASSERT_FALSE(p.code.empty());
  EXPECT_EQ(p.threads, 4);
  const ProgramData data(p);
  const std::uint64_t start = data.address("chase_chain"), result = data.address("chase_result");
  EXPECT_EQ(data.inherited(3), result);
  std::set<std::uint64_t> seen;
  std::vector<std::uint64_t> expected;
  for (std::uint64_t t = 0; t < 4; ++t) {
    SCOPED_TRACE(t);
    const std::uint64_t first = data.read(result + 8 * t, 8);
    std::uint64_t q = first, length = 0;
    do {
      EXPECT_TRUE(seen.insert(q).second) << "revisits " << hex(q);
      ASSERT_LT(q - start, 4096u);
      q = data.read(q, 8);
      ASSERT_LE(++length, 64u);
    } while (q != first);
    EXPECT_EQ(length, 16u);  // 64 lines in 4 chains
    expected.push_back(follow(data, first, 28));
    ASSERT_NE(expected.back(), first);
  }
  EXPECT_EQ(seen.size(), 64u);
  std::string listed = "//   ";
  for (std::uint64_t e : expected) listed += hex(e) + (e == expected.back() ? "\n" : ", ");
  EXPECT_NE(read_text(file).find(listed), std::string::npos) << listed;
  for (const std::string& args : {std::string(), kDeviceDram + " --core.lanes 2 --core.threads_per_lane 2"}) {
    SCOPED_TRACE(args);
    const std::string out = dir + (args.empty() ? "/local" : "/dram");
    const Command c = shell(parsys() + " run " + file + " " + args + " -q --out " + out + " --dump-mem " + hex(result) + ":32");
    ASSERT_EQ(c.status, 0) << c.out;
    const std::vector<std::uint8_t> mem = read_bytes(out + "/mem_" + hex(result) + "_32.bin");
    ASSERT_EQ(mem.size(), 32u);
    for (std::size_t t = 0; t < 4; ++t) EXPECT_EQ(le64(mem, 8 * t), expected[t]) << "thread " << t;
  }
}

// Load-to-use latency by the S / 2S method: a random chain well inside the L2 (16 KiB of the
// 256 KiB) against one four times the L2 (1 MiB). Measured with the initial device-dram model:
// 12.0 cycles/load in the L2 (l2.hit_latency 10 + bus.latency_ns 2), 76.4 cycles/load from
// LPDDR3-1866 (row conflicts: about 64 ns in the DRAM, plus the L2 and the bus).
TEST(PointerChase, L2HitsAreFasterThanDram) {
  const std::string dir = fresh_dir("l2_vs_dram");
  auto cycles_per_load = [&](const std::string& size, const std::string& warmup) {
    const std::uint64_t s = 2048;
    double c[2] = {0, 0};
    for (std::uint64_t m = 1; m <= 2; ++m) {
      const std::string name = size + "_" + std::to_string(m);
      const std::string file = generate_chase(dir, name, "--bytes " + size + " --stride random --steps " +
                                                             std::to_string(m * s) + " --warmup " + warmup);
      const ChaseRun r = run_chase(file, kDeviceDram + " " + kOneThread, dir + "/" + name);
      EXPECT_TRUE(r.ok);
      EXPECT_EQ(r.final_pointer, expected_final_pointer(assemble(file)));
      c[m - 1] = r.cycles;
    }
    return (c[1] - c[0]) / static_cast<double>(s);
  };
  const double l2 = cycles_per_load("16K", "256");
  const double dram = cycles_per_load("1M", "8192");
  EXPECT_GE(l2, 10.0);  // at least l2.hit_latency
  EXPECT_LE(l2, 20.0);
  EXPECT_GE(dram, 40.0);  // at least a closed-row LPDDR3 line fill (43 cycles of 1.072 ns)
  EXPECT_LE(dram, 200.0);
  EXPECT_GT(dram, 3 * l2) << "L2 " << l2 << " cycles/load, DRAM " << dram << " cycles/load";
}

// --- Streaming SVA ------------------------------------------------------------------------------

// The final x, y, z arrays equal the inputs and z = fma(x, a, y) bit for bit.
void check_stream_sva(const std::string& args, const std::string& dir) {
  const std::string file = kernel("stream-sva.par");
  const par::isa::Program p = assemble(file);
  ASSERT_FALSE(p.code.empty());
  const ProgramData data(p);
  const auto n = static_cast<std::size_t>(p.threads);
  ASSERT_GE(n, 4096u);
  const std::uint64_t x = data.address("sva_x"), y = data.address("sva_y"), z = data.address("sva_z");
  EXPECT_EQ(data.inherited(1), x);
  EXPECT_EQ(data.inherited(2), y);
  EXPECT_EQ(data.inherited(3), z);
  const double a = data.inherited_f64(4);
  EXPECT_EQ(a, 2.5);
  const std::uint64_t len = z + 8 * n - x;
  const Command c = shell(parsys() + " run " + file + " " + args + " -q --out " + dir + " --dump-mem " + hex(x) +
                          ":" + std::to_string(len));
  ASSERT_EQ(c.status, 0) << c.out;
  const std::vector<std::uint8_t> mem = read_bytes(dir + "/mem_" + hex(x) + "_" + std::to_string(len) + ".bin");
  ASSERT_EQ(mem.size(), len);
  const std::vector<double> xs = data.f64(x, n), ys = data.f64(y, n);
  std::size_t wrong = 0, changed_inputs = 0, nonzero = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double want = std::fma(xs[i], a, ys[i]);
    std::uint64_t want_bits;
    std::memcpy(&want_bits, &want, 8);
    wrong += le64(mem, z - x + 8 * i) != want_bits;
    nonzero += want != 0.0;
    changed_inputs += le64(mem, x - x + 8 * i) != data.read(x + 8 * i, 8);
    changed_inputs += le64(mem, y - x + 8 * i) != data.read(y + 8 * i, 8);
  }
  EXPECT_EQ(wrong, 0u);
  EXPECT_EQ(changed_inputs, 0u);
  EXPECT_GT(nonzero, n * 9 / 10);  // z starts zero, so the check really needs the kernel's stores
}

TEST(StreamSva, ResultWithLocalMemory) { check_stream_sva("", fresh_dir("sva_local")); }

TEST(StreamSva, ResultWithDeviceDram) {
  const std::string dir = fresh_dir("sva_dram");
  check_stream_sva(kDeviceDram, dir);
  // The arrays (3 x 128 KiB) do not fit the 256 KiB L2: x and y come from DRAM, z goes back to it.
  const nlohmann::json stats = nlohmann::json::parse(read_text(dir + "/stats.json"));
  EXPECT_EQ(stats["dram"]["reads"]["value"].get<double>(), 2 * 16384 * 8 / 64);
  EXPECT_GT(stats["dram"]["writes"]["value"].get<double>(), 0);
}

// --- Generated files and scripts ----------------------------------------------------------------

// The shipped instances are exactly what their recorded generator command writes.
TEST(MemoryKernelFiles, ShippedInstancesAreUpToDate) {
  const std::string dir = fresh_dir("regen");
  for (const char* name : {"pointer-chase.par", "stream-sva.par"}) {
    SCOPED_TRACE(name);
    const std::string text = read_text(kernel(name));
    const std::string tag = "// Regenerate: scripts/";
    const std::size_t at = text.find(tag);
    ASSERT_NE(at, std::string::npos);
    std::string cmd = text.substr(at + tag.size(), text.find('\n', at) - at - tag.size());
    const std::size_t out = cmd.find(" --out ");
    ASSERT_NE(out, std::string::npos);
    cmd = cmd.substr(0, out) + " --out " + dir + "/" + name;
    const Command c = shell(script(cmd));
    ASSERT_EQ(c.status, 0) << c.out;
    const std::string again = read_text(dir + "/" + name);
    // Only the recorded command line (with the output path) may differ.
    auto body = [](const std::string& s) { return s.substr(s.find("\n//\n")); };
    EXPECT_TRUE(body(again) == body(text)) << "run: scripts/" << text.substr(at + tag.size(), 80);
  }
}

TEST(MemoryKernelFiles, GeneratorsRejectBadArguments) {
  Command c = shell(script("gen-pointer-chase") + " --bytes 100 --stride line");
  EXPECT_EQ(c.status, 2);
  EXPECT_NE(c.out.find("gen-pointer-chase: chain size 100 bytes: must be a multiple of 64 bytes"), std::string::npos) << c.out;
  c = shell(script("gen-pointer-chase") + " --steps 12 --unroll 8");
  EXPECT_EQ(c.status, 2);
  EXPECT_NE(c.out.find("steps (12) must be a non-negative multiple of the unroll factor 8"), std::string::npos) << c.out;
  c = shell(script("gen-pointer-chase") + " --bytes 4K --chains 3");
  EXPECT_EQ(c.status, 2);
  EXPECT_NE(c.out.find("gen-pointer-chase: 64 elements do not split into 3 chains of at least two elements each"),
            std::string::npos) << c.out;
  c = shell(script("gen-stream-sva") + " --elements 12Q");
  EXPECT_EQ(c.status, 2);
  EXPECT_NE(c.out.find("gen-stream-sva: bad size '12Q'"), std::string::npos) << c.out;
}

// RFC 4180 CSV (quoted cells may hold commas and doubled quotes; no line breaks in cells here).
std::vector<std::vector<std::string>> read_csv(const std::string& path) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream in(read_text(path));
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    std::vector<std::string> cells(1);
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
      const char ch = line[i];
      if (quoted && ch == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        cells.back() += '"';
        ++i;
      } else if (ch == '"') {
        quoted = !quoted;
      } else if (ch == ',' && !quoted) {
        cells.emplace_back();
      } else {
        cells.back() += ch;
      }
    }
    rows.push_back(cells);
  }
  return rows;
}

std::size_t column(const std::vector<std::string>& header, const std::string& name) {
  for (std::size_t i = 0; i < header.size(); ++i)
    if (header[i] == name) return i;
  ADD_FAILURE() << "no column " << name;
  return 0;
}

TEST(Sweep, TwoByOneGridGivesTwoRowsWithTheStatistics) {
  const std::string dir = fresh_dir("sweep");
  const Command c = shell(script("sweep") + " " + kernel("stream-sva.par") + " --parsys " + parsys() + " " +
                          kDeviceDram + " --grid core.threads_per_lane=1,4 --grid l2.banks=4 -j 2 --out " + dir +
                          "/r.csv -q --stat l2.bank0.hits -- --core.lanes 8");
  ASSERT_EQ(c.status, 0) << c.out;
  const auto rows = read_csv(dir + "/r.csv");
  ASSERT_EQ(rows.size(), 3u);
  const std::vector<std::string>& h = rows[0];
  const std::vector<std::string> expected = {
      "kernel", "core.threads_per_lane", "l2.banks", "status", "error", "core0.cycles", "run.simulated_ns",
      "run.thread_instructions", "core0.ipc", "core0.utilization.fpu", "core0.utilization.ls", "l2.hit_rate",
      "dram.bandwidth", "dram.avg_latency", "dram.row_hit_rate", "run.host_seconds", "l2.bank0.hits",
      "wall_seconds", "run_dir"};
  EXPECT_EQ(h, expected);
  for (std::size_t r = 1; r < rows.size(); ++r) {
    ASSERT_EQ(rows[r].size(), h.size());
    EXPECT_EQ(rows[r][column(h, "status")], "ok");
    EXPECT_EQ(rows[r][column(h, "l2.banks")], "4");
    EXPECT_EQ(rows[r][column(h, "run.thread_instructions")], std::to_string(16384 * 5));
    EXPECT_GT(std::stod(rows[r][column(h, "core0.cycles")]), 0);
    EXPECT_GT(std::stod(rows[r][column(h, "dram.bandwidth")]), 0);
    // Each run's directory holds its configuration, with the grid value applied.
    const std::string ini = read_text(rows[r][column(h, "run_dir")] + "/config.ini");
    EXPECT_NE(ini.find("threads_per_lane = " + rows[r][column(h, "core.threads_per_lane")]), std::string::npos);
    EXPECT_NE(ini.find("lanes = 8"), std::string::npos);
  }
  EXPECT_EQ(rows[1][column(h, "core.threads_per_lane")], "1");
  EXPECT_EQ(rows[2][column(h, "core.threads_per_lane")], "4");
  EXPECT_NE(rows[1][column(h, "core0.cycles")], rows[2][column(h, "core0.cycles")]);
}

TEST(Sweep, FailedRunGivesAnErrorRowAndNonZeroExit) {
  const std::string dir = fresh_dir("sweep_fail");
  const Command c = shell(script("sweep") + " " + kernel("pointer-chase.par") + " --parsys " + parsys() +
                          " --grid l2.ways=8,0 --out " + dir + "/r.csv -q " + kDeviceDram);
  EXPECT_EQ(c.status, 1) << c.out;
  EXPECT_NE(c.out.find("2 runs, 1 failed"), std::string::npos) << c.out;
  const auto rows = read_csv(dir + "/r.csv");
  ASSERT_EQ(rows.size(), 3u);
  const auto& h = rows[0];
  EXPECT_EQ(rows[1][column(h, "status")], "ok");
  EXPECT_EQ(rows[2][column(h, "status")], "error");
  EXPECT_NE(rows[2][column(h, "error")].find("exit status 2: parsys: --l2.ways: '0' is out of range [1, 64]"),
            std::string::npos) << rows[2][column(h, "error")];
  EXPECT_EQ(rows[2][column(h, "core0.cycles")], "");
}

TEST(MemLatency, TableAndCsvForTwoSizes) {
  const std::string dir = fresh_dir("mem_latency");
  const Command c = shell(script("mem-latency") + " --parsys " + parsys() + " --sizes 8K,1M --strides random,unit "
                          "--steps 2048 --no-plot --out-dir " + dir);
  ASSERT_EQ(c.status, 0) << c.out;
  EXPECT_NE(c.out.find("ns/load"), std::string::npos) << c.out;
  const auto rows = read_csv(dir + "/mem-latency.csv");
  ASSERT_EQ(rows.size(), 5u);
  const auto& h = rows[0];
  auto cpl = [&](std::size_t r) { return std::stod(rows[r].at(column(h, "cycles_per_load"))); };
  EXPECT_EQ(rows[1][column(h, "stride")], "random");
  EXPECT_EQ(rows[1][column(h, "bytes")], "8192");
  EXPECT_EQ(rows[2][column(h, "bytes")], "1048576");
  EXPECT_EQ(rows[1][column(h, "l2_hit_rate")], "1.0000");
  EXPECT_EQ(rows[2][column(h, "dram_reads_per_load")], "1.0000");
  EXPECT_GT(cpl(2), 3 * cpl(1));              // random: DRAM against L2
  EXPECT_LT(cpl(4), cpl(2));                  // unit stride beyond the L2: 7 of 8 loads hit the line
  EXPECT_GT(cpl(4), cpl(3));
  EXPECT_EQ(rows[4][column(h, "l2_hit_rate")], "0.8750");
}

// scripts/mem-latency on platform/configs/hwacha.ini, random stride: the three plateaus of the
// published ccbench validation of the Hwacha platform within 10 % (L1 hit 4 cycles, L2 hit 22
// cycles, DRAM load-to-use 110 ns at 1 GHz), and their edges at the L1 (16 KiB) and L2 (256 KiB)
// capacities: the largest size of a level is still on its plateau, the next size (1.5x) is not.
TEST(MemLatency, HwachaPlateausAndEdges) {
  const std::string dir = fresh_dir("mem_latency_hwacha");
  const Command c = shell(script("mem-latency") + " --parsys " + parsys() + " --config " + kRoot +
                          "/platform/configs/hwacha.ini --sizes 8K,16K,24K,128K,256K,384K,2M --strides random "
                          "--steps 2048 --no-plot --out-dir " + dir);
  ASSERT_EQ(c.status, 0) << c.out;
  EXPECT_NE(c.out.find("random plateaus: L1 (<= 8KiB)"), std::string::npos) << c.out;
  const auto rows = read_csv(dir + "/mem-latency.csv");
  ASSERT_EQ(rows.size(), 8u);
  const auto& h = rows[0];
  std::map<std::string, double> cycles, l1_hits, l2_hits;
  for (std::size_t r = 1; r < rows.size(); ++r) {
    ASSERT_EQ(rows[r][column(h, "status")], "ok");
    const std::string size = rows[r][column(h, "size")];
    cycles[size] = std::stod(rows[r][column(h, "cycles_per_load")]);
    l1_hits[size] = std::stod(rows[r][column(h, "l1_hit_rate")]);
    const std::string l2 = rows[r][column(h, "l2_hit_rate")];
    l2_hits[size] = l2.empty() ? -1 : std::stod(l2);
    EXPECT_EQ(rows[r][column(h, "memory")], "dram");
  }
  auto within = [](double v, double target) { return std::abs(v - target) <= 0.1 * target; };
  for (const char* s : {"8K", "16K"}) {  // L1 plateau, up to its edge
    EXPECT_TRUE(within(cycles[s], 4)) << s << ": " << cycles[s];
    EXPECT_EQ(l1_hits[s], 1.0) << s;
  }
  for (const char* s : {"24K", "128K", "256K"}) {  // L2 plateau, from just past the L1 to its edge
    EXPECT_TRUE(within(cycles[s], 22)) << s << ": " << cycles[s];
    EXPECT_EQ(l1_hits[s], 0.0) << s;
    EXPECT_EQ(l2_hits[s], 1.0) << s;
  }
  for (const char* s : {"384K", "2M"}) {  // DRAM, from just past the L2 (cycles = ns at 1 GHz)
    EXPECT_TRUE(within(cycles[s], 110)) << s << ": " << cycles[s];
    EXPECT_EQ(l2_hits[s], 0.0) << s;
  }
}

// In the XD1000 placement the data lives in host memory: the memory columns come from host_mem.*
// (one host-memory read per load), and a load takes the link's round trip of the HT link's README
// for an 8-byte read (254 ns of stages + 8 + 12 bytes at 1.25 ns + the host memory's own latency),
// in whole 10-ns core cycles.
TEST(MemLatency, HostMemoryColumnsComeFromHostMemory) {
  const std::string dir = fresh_dir("mem_latency_host");
  const Command c = shell(script("mem-latency") + " --parsys " + parsys() + " --config " + kRoot +
                          "/platform/configs/xd1000.ini --sizes 4K --strides random --steps 256 --no-plot --out-dir " +
                          dir);
  ASSERT_EQ(c.status, 0) << c.out;
  EXPECT_NE(c.out.find("host rd/ld"), std::string::npos) << c.out;
  const auto rows = read_csv(dir + "/mem-latency.csv");
  ASSERT_EQ(rows.size(), 2u);
  const auto& h = rows[0];
  EXPECT_EQ(rows[1][column(h, "memory")], "host_mem");
  EXPECT_EQ(rows[1][column(h, "l2_hit_rate")], "");
  EXPECT_EQ(rows[1][column(h, "dram_reads_per_load")], "1.0000");
  const double mem_ns = std::stod(rows[1][column(h, "dram_latency_ns")]);
  // DDR-333: 27 ns for a row hit (the 4-KiB chain lies in one 16-KiB row), 45 for a closed row.
  EXPECT_GE(mem_ns, 27);
  EXPECT_LT(mem_ns, 80);
  const double load_ns = std::stod(rows[1][column(h, "ns_per_load")]);
  EXPECT_GE(load_ns, 254 + 20 * 1.25 + mem_ns - 1);
  EXPECT_LE(load_ns, 254 + 20 * 1.25 + mem_ns + 20);
}

// scripts/link-study in the XD1000 placement (2 lanes, T = 1 and 16): the streaming kernel is
// link-bound (its utilisation rises with T, and the 16-bit link carries more at T = 16), the
// filter's traffic is light enough that the link width changes its utilisation by under 5%.
TEST(LinkStudy, WidthMattersForTheStreamingKernelNotForTheFilter) {
  const std::string dir = fresh_dir("link_study");
  const Command c = shell(script("link-study") + " --parsys " + parsys() + " --threads 1,16 --no-plot -j 2 --out-dir " +
                          dir);
  ASSERT_EQ(c.status, 0) << c.out;
  EXPECT_NE(c.out.find("T=16"), std::string::npos) << c.out;
  EXPECT_FALSE(std::ifstream(dir + "/link-study.png").good());
  const auto rows = read_csv(dir + "/link-study.csv");
  ASSERT_EQ(rows.size(), 9u);  // 2 kernels x 2 widths x 2 thread counts
  const auto& h = rows[0];
  std::map<std::string, double> util;  // "kernel/width/T"
  std::map<std::string, std::string> busiest;
  for (std::size_t r = 1; r < rows.size(); ++r) {
    ASSERT_EQ(rows[r].size(), h.size());
    ASSERT_EQ(rows[r][column(h, "status")], "ok") << rows[r][column(h, "error")];
    const std::string key = rows[r][column(h, "kernel")] + "/" + rows[r][column(h, "ht.width_bits")] + "/" +
                            rows[r][column(h, "core.threads_per_lane")];
    util[key] = std::stod(rows[r][column(h, "device_utilisation")]);
    busiest[key] = rows[r][column(h, "busiest_unit")];
    // The device utilisation is the busiest unit's.
    EXPECT_NEAR(util[key], std::stod(rows[r][column(h, "core0.utilization." + busiest[key])]), 5e-5) << key;
  }
  ASSERT_EQ(util.size(), 8u);
  auto u = [&](const std::string& kernel_name, const std::string& width, const std::string& threads) {
    return util[kernel_name + "/" + width + "/" + threads];
  };
  for (const std::string w : {"8", "16"}) {
    EXPECT_GT(u("stream-sva", w, "16"), 3 * u("stream-sva", w, "1")) << w;
    EXPECT_EQ(busiest["stream-sva/" + w + "/16"], "ls");
    EXPECT_GT(u("hpf", w, "16"), 4 * u("hpf", w, "1")) << w;
  }
  // Streaming: the 8-bit link is the bottleneck at T = 16; twice its bandwidth gives > 10% more.
  EXPECT_GT(u("stream-sva", "16", "16"), 1.1 * u("stream-sva", "8", "16"));
  // Filter: close to compute-bound at T = 16, and the width changes the utilisation by < 5%.
  EXPECT_GT(u("hpf", "8", "16"), 0.8);
  for (const std::string t : {"1", "16"}) {
    EXPECT_GE(u("hpf", "16", t), u("hpf", "8", t)) << t;
    EXPECT_LT(u("hpf", "16", t), 1.05 * u("hpf", "8", t)) << t;
  }
}
}  // namespace
