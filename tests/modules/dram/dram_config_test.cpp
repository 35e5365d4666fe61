// DRAM configuration: preset values, overrides, validation messages, option registration.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "dram_config.hpp"
#include "dram_presets.hpp"
#include "par/simkit/options.hpp"

namespace par::dram {
namespace {

struct PresetRow {
  Preset preset;
  unsigned channels, ranks, banks, bank_groups, bus_bits, burst_length;
  std::uint64_t rows, row_bytes, capacity;
  double clock_mhz;
  double tCL, tCWL, tRCD, tRP, tRPab, tRAS, tRC, tRRD, tRRD_L, tFAW, tWR, tWTR, tWTR_L, tRTP,
      tCCD, tCCD_L, tDQSCK, tRTRS, tREFI, tRFC;
};

constexpr std::uint64_t GiB = 1ull << 30;

// docs/link-and-memory.md §2.3 (LPDDR3-1866) and §1.5 (DDR-333); JEDEC speed bins for the others.
const PresetRow kPresets[] = {
    {Preset::Lpddr3_1866, 2, 1, 8, 1, 32, 8, 32768, 4096, 2 * GiB, 933,
     14, 8, 17, 17, 20, 40, 57, 10, 10, 47, 14, 7, 7, 7, 4, 4, 4, 1, 3640, 196},
    {Preset::Ddr_333, 1, 2, 4, 1, 64, 4, 8192, 16384, 1 * GiB, 166.66666666666666,
     2.5, 1, 3, 3, 3, 7, 10, 2, 2, 8, 3, 1, 1, 2, 1, 1, 0, 1, 1300, 12},
    {Preset::Ddr3_1600, 1, 1, 8, 1, 64, 8, 65536, 8192, 4 * GiB, 800,
     11, 8, 11, 11, 11, 28, 39, 5, 5, 24, 12, 6, 6, 6, 4, 4, 0, 2, 6240, 208},
    {Preset::Ddr4_2400, 1, 1, 16, 4, 64, 8, 65536, 8192, 8 * GiB, 1200,
     16, 12, 16, 16, 16, 39, 55, 4, 6, 26, 18, 3, 9, 9, 4, 6, 0, 2, 9360, 420},
};

TEST(DramConfig, EveryPresetHasItsTimingValues) {
  for (const PresetRow& e : kPresets) {
    DramConfig cfg;
    cfg.preset = e.preset;
    const DramConfig c = cfg.resolved();
    SCOPED_TRACE(to_string(e.preset));
    EXPECT_TRUE(cfg.validate().empty());
    EXPECT_EQ(c.channels, e.channels);
    EXPECT_EQ(c.ranks, e.ranks);
    EXPECT_EQ(c.banks, e.banks);
    EXPECT_EQ(c.bank_groups, e.bank_groups);
    EXPECT_EQ(c.bus_bits, e.bus_bits);
    EXPECT_EQ(c.burst_length, e.burst_length);
    EXPECT_EQ(c.rows, e.rows);
    EXPECT_EQ(c.row_bytes, e.row_bytes);
    EXPECT_EQ(c.capacity(), e.capacity);
    EXPECT_DOUBLE_EQ(c.clock_mhz, e.clock_mhz);
    const std::vector<std::pair<double, double>> timings = {
        {c.tCL, e.tCL},     {c.tCWL, e.tCWL},     {c.tRCD, e.tRCD},   {c.tRP, e.tRP},
        {c.tRPab, e.tRPab}, {c.tRAS, e.tRAS},     {c.tRC, e.tRC},     {c.tRRD, e.tRRD},
        {c.tRRD_L, e.tRRD_L}, {c.tFAW, e.tFAW},   {c.tWR, e.tWR},     {c.tWTR, e.tWTR},
        {c.tWTR_L, e.tWTR_L}, {c.tRTP, e.tRTP},   {c.tCCD, e.tCCD},   {c.tCCD_L, e.tCCD_L},
        {c.tDQSCK, e.tDQSCK}, {c.tRTRS, e.tRTRS}, {c.tREFI, e.tREFI}, {c.tRFC, e.tRFC}};
    for (std::size_t i = 0; i < timings.size(); ++i)
      EXPECT_EQ(timings[i].first, timings[i].second) << "timing #" << i;
  }
}

TEST(DramConfig, PresetNanosecondsMatchTheirSources) {
  // LPDDR3-1866: 14.9 GB/s peak over two channels (docs/link-and-memory.md §2.3); DDR-333: 2.67 GB/s.
  DramConfig lp;
  EXPECT_NEAR(lp.resolved().peak_gbs(), 14.93, 0.01);  // 2 x 933 MHz x 2 x 4 bytes
  DramConfig ddr;
  ddr.preset = Preset::Ddr_333;
  EXPECT_NEAR(ddr.resolved().peak_gbs(), 2.67, 0.01);
  EXPECT_NEAR(ddr.resolved().tck_ns(), 6.0, 1e-9);
  EXPECT_NEAR(ddr.resolved().tRCD * ddr.resolved().tck_ns(), 18.0, 1e-9);
  EXPECT_EQ(preset(Preset::Ddr4_2400).name, std::string("ddr4-2400"));
  EXPECT_EQ(presets().size(), 4u);
}

TEST(DramConfig, AnExplicitOptionOverridesThePreset) {
  simkit::OptionRegistry reg;
  DramConfig cfg;
  register_options(reg, cfg);
  const auto r = reg.parse(std::vector<std::string>{"--dram.preset", "ddr3-1600", "--dram.tCL", "12"});
  ASSERT_TRUE(r.ok()) << r.errors.front();
  const DramConfig c = cfg.resolved();
  EXPECT_EQ(c.tCL, 12);    // given
  EXPECT_EQ(c.tRCD, 11);   // from the preset
  EXPECT_EQ(c.channels, 1u);
  EXPECT_EQ(cfg.tRCD, DramConfig::kUnset);  // the option itself stays "from the preset"
  EXPECT_EQ(c.to_json()["tCL"], 12.0);
  EXPECT_EQ(c.to_json()["preset"], "ddr3-1600");
  EXPECT_TRUE(cfg.validate().empty());
}

TEST(DramConfig, EveryFieldIsAnOption) {
  simkit::OptionRegistry reg;
  DramConfig cfg;
  register_options(reg, cfg);
  for (const char* name :
       {"preset", "channels", "ranks", "banks", "bank_groups", "rows", "row_bytes", "bus_bits",
        "burst_length", "clock_mhz", "tCL", "tCWL", "tRCD", "tRP", "tRPab", "tRAS", "tRC", "tRRD",
        "tRRD_L", "tFAW", "tWR", "tWTR", "tWTR_L", "tRTP", "tCCD", "tCCD_L", "tDQSCK", "tRTRS",
        "tREFI", "tRFC", "mapping", "scheduler", "page_policy", "queue_depth", "refresh",
        "frontend_cycles", "return_cycles", "bank_stats"})
    EXPECT_NE(reg.find(std::string("dram.") + name), nullptr) << name;
  EXPECT_EQ(reg.find("dram.scheduler")->value_text(), "frfcfs");
  const auto r = reg.parse(std::vector<std::string>{"--dram.scheduler", "fcfs", "--dram.row_bytes", "8KiB"});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(cfg.scheduler, Scheduler::Fcfs);
  EXPECT_EQ(cfg.row_bytes, 8192u);
  const auto bad = reg.parse(std::vector<std::string>{"--dram.preset", "ddr5"});
  ASSERT_EQ(bad.errors.size(), 1u);
  EXPECT_EQ(bad.errors[0],
            "--dram.preset: 'ddr5' is not one of: lpddr3-1866, ddr-333, ddr3-1600, ddr4-2400");
}

std::vector<std::string> errors_of(const DramConfig& c) { return c.validate(); }

bool has(const std::vector<std::string>& v, const std::string& msg) {
  return std::find(v.begin(), v.end(), msg) != v.end();
}

TEST(DramConfig, ValidationMessages) {
  DramConfig c;
  c.tRCD = 0;
  EXPECT_EQ(errors_of(c), std::vector<std::string>{"dram.tRCD: 0 is out of range 1..1000"});

  c = DramConfig();
  c.tRC = 50;  // LPDDR3: tRAS 40 + tRP 17
  EXPECT_EQ(errors_of(c), std::vector<std::string>{"dram.tRC: 50 is less than tRAS + tRP = 57"});

  c = DramConfig();
  c.tCL = 2.3;
  EXPECT_EQ(errors_of(c), std::vector<std::string>{"dram.tCL: 2.3 is not a multiple of half a cycle"});

  c = DramConfig();
  c.banks = 6;
  EXPECT_EQ(errors_of(c), std::vector<std::string>{"dram.banks: 6 is not a power of two"});

  c = DramConfig();
  c.mapping = "row,rank,channel,column";
  EXPECT_EQ(errors_of(c), std::vector<std::string>{"dram.mapping: 'bank' is missing (3 bits needed)"});

  c = DramConfig();
  c.mapping = "row,bank,column,channel";  // the channel bit would split every burst
  EXPECT_EQ(errors_of(c),
            std::vector<std::string>{"dram.mapping: the lowest 5 address bits must be column bits "
                                     "(a 32-byte burst is contiguous)"});

  c = DramConfig();
  c.tREFI = 250;  // tRFC 196 + tRPab 20 + an access (tRCD 17 + tCWL 8 + 4 + tWR 14 = 43) + 1
  EXPECT_EQ(errors_of(c),
            std::vector<std::string>{"dram.tREFI: 250 leaves no room for an access between refreshes "
                                     "(needs at least tRFC + tRPab + 44 = 260)"});
  c.refresh = false;
  EXPECT_TRUE(errors_of(c).empty());

  c = DramConfig();
  c.preset = Preset::Ddr4_2400;
  c.tCCD = 8;
  c.row_bytes = 32;
  c.queue_depth = 0;
  const auto e = errors_of(c);
  EXPECT_TRUE(has(e, "dram.tCCD_L: 6 is less than tCCD = 8"));
  EXPECT_TRUE(has(e, "dram.row_bytes: 32 is smaller than one burst (64 bytes)"));
  EXPECT_TRUE(has(e, "dram.queue_depth: 0 is out of range 1..4096"));
}

TEST(DramConfig, EngineParametersAreHalfCycleTicks) {
  DramConfig c;
  c.preset = Preset::Ddr_333;
  const EngineParams p = engine_params(c.resolved());
  EXPECT_EQ(p.tCL, 5);    // CL 2.5
  EXPECT_EQ(p.burst, 4);  // BL4: 2 cycles
  EXPECT_EQ(p.tRCD, 6);
  EXPECT_EQ(p.ranks, 2u);
}

}  // namespace
}  // namespace par::dram
