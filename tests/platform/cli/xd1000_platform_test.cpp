// The XD1000 soft processor's configuration (platform/configs/xd1000-softgpu.ini) on the platform,
// through the parsys command: PHOTON with batch contexts gives the reference result, and every
// load of every thread is one 16-byte read across the link (core.read_whole_line with 16-byte
// lines; the kernel's threads never share a texel, so nothing merges), 8 bytes without the option.
#include <gtest/gtest.h>

#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "kernel_refs.hpp"
#include "par/isa/assembler.hpp"
#include "xd1000_refs.hpp"
#include "support/parsys_cli.hpp"

namespace {

using namespace par::testing;

struct Photon {
  nlohmann::json stats;
  std::vector<std::uint64_t> out, expected;
};

Photon run_photon(const std::string& args, const std::string& name) {
  const par::kernels::Xd1000Kernel& k = par::kernels::xd1000_kernel("photon");
  const std::string path = par::kernels::xd1000_kernel_path(k);
  const par::isa::AssemblyResult a = par::isa::assemble_file(path);
  EXPECT_TRUE(a.ok()) << a.messages();
  Photon p;
  if (!a.ok()) return p;
  const std::uint64_t out = par::kernels::ProgramData(*a.program).address(k.output_label);
  std::ostringstream region, file;
  region << "0x" << std::hex << out << ':' << std::dec << 8 * k.output_words;
  file << "mem_0x" << std::hex << out << '_' << std::dec << 8 * k.output_words << ".bin";
  const std::string dir = temp_dir(name);
  const CliResult r = parsys("run " + path + " -q --config " + config_file("xd1000-softgpu.ini") + " " + args +
                             " --out " + dir + " --dump-mem " + region.str());
  EXPECT_EQ(r.status, 0) << r.out;
  if (r.status != 0) return p;
  p.stats = read_json(dir + "/stats.json");
  const std::string bytes = read_file(dir + "/" + file.str());
  p.out.resize(bytes.size() / 8);
  std::memcpy(p.out.data(), bytes.data(), p.out.size() * 8);
  p.expected = par::kernels::photon_reference(*a.program);
  return p;
}

double link_value(const nlohmann::json& stats, const char* channel, const char* name) {
  return stats["link"][channel][name]["value"].get<double>();
}

TEST(Xd1000SoftGpu, PhotonReadsOneWholeTexelPerThreadAndLoad) {
  const Photon whole = run_photon("--core.contexts 8", "xd1000_photon");
  const Photon used = run_photon("--core.contexts 8 --core.read_whole_line false", "xd1000_photon_8b");
  ASSERT_FALSE(whole.out.empty());
  ASSERT_FALSE(used.out.empty());
  EXPECT_EQ(whole.out, whole.expected);
  EXPECT_EQ(used.out, used.expected);
  // 4 loads per particle, one read per thread each, with and without the option.
  const double reads = link_value(whole.stats, "d2h", "reads");
  EXPECT_EQ(reads, 4.0 * 2048);
  EXPECT_EQ(link_value(used.stats, "d2h", "reads"), reads);
  // Each read returns its whole 16-byte line instead of the 8 bytes loaded (the rest of the
  // host-to-device data, the launch's writes, is the same in both runs).
  EXPECT_EQ(link_value(whole.stats, "h2d", "data_bytes") - link_value(used.stats, "h2d", "data_bytes"), 8 * reads);
  EXPECT_GT(whole.stats["core0"]["utilization"]["fpu"]["value"].get<double>(), 0.3);
}

}  // namespace
