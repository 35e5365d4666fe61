// Configuration of the DRAM controller (options `dram.*`).
//
// Presets and overrides: `dram.preset` names a device (LPDDR3-1866 by default). Every geometry
// and timing field starts "unset" (0 for geometry, -1 for timings, "" for the mapping) and
// resolved() fills the unset ones from the preset, so an explicitly given option always wins:
// `--dram.preset ddr3-1600 --dram.tCL 12` is DDR3-1600 with CL 12. validate() and the module use
// the resolved values; resolved().to_json() shows them (the registry's effective configuration
// keeps the unset markers, so it reproduces the run exactly even if a preset is revised).
//
// Timings are in clock cycles of the command clock (tCK = 1 / clock_mhz), the unit of datasheet
// timing tables after rounding up, and may be multiples of half a cycle (DDR-333's CL 2.5).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "address_mapping.hpp"
#include "dram_timing.hpp"
#include "par/simkit/json.hpp"

namespace par::simkit {
class OptionRegistry;
}

namespace par::dram {

enum class Preset { Lpddr3_1866, Ddr_333, Ddr3_1600, Ddr4_2400 };
const char* to_string(Preset p);  // the option spelling: "lpddr3-1866", ...

// How an access's completion time is found. Dram: the timing engine (banks, rows, data bus,
// request queue, refresh; dram_timing.hpp). Fixed: every access completes fixed_latency_ns after
// its arrival, whatever its size and whatever else is in flight (no queue, no bandwidth limit:
// a memory stage of constant latency, as some published systems describe theirs).
enum class LatencyModel { Dram, Fixed };
const char* to_string(LatencyModel m);  // "dram", "fixed"

struct DramConfig {
  static constexpr double kUnset = -1;  // a timing taken from the preset

  Preset preset = Preset::Lpddr3_1866;

  // Geometry; 0 = the preset's value.
  unsigned channels = 0;
  unsigned ranks = 0;             // per channel
  unsigned banks = 0;             // per rank
  unsigned bank_groups = 0;       // bank b belongs to group b % bank_groups (1 = no groups)
  std::uint64_t rows = 0;         // per bank
  std::uint64_t row_bytes = 0;    // page of a rank: one row across all devices of the rank
  unsigned bus_bits = 0;          // data-bus width of a channel
  unsigned burst_length = 0;      // beats per burst (two beats per clock)
  double clock_mhz = 0;           // command clock

  // Timings in clock cycles; kUnset = the preset's value.
  double tCL = kUnset;     // RD to first read data beat (RL)
  double tCWL = kUnset;    // WR to first write data beat (WL)
  double tRCD = kUnset;    // ACT to RD/WR
  double tRP = kUnset;     // PRE to ACT, one bank
  double tRPab = kUnset;   // precharge-all before a refresh
  double tRAS = kUnset;    // ACT to PRE
  double tRC = kUnset;     // ACT to ACT, same bank
  double tRRD = kUnset;    // ACT to ACT, other bank of the rank (other bank group)
  double tRRD_L = kUnset;  // ... same bank group
  double tFAW = kUnset;    // at most four ACTs per rank in this window (0 = none)
  double tWR = kUnset;     // last write data beat to PRE
  double tWTR = kUnset;    // last write data beat to RD, same rank (other bank group)
  double tWTR_L = kUnset;  // ... same bank group
  double tRTP = kUnset;    // RD to PRE
  double tCCD = kUnset;    // column command to column command, same rank (other bank group)
  double tCCD_L = kUnset;  // ... same bank group
  double tDQSCK = kUnset;  // read strobe delay, added to RL
  double tRTRS = kUnset;   // idle data-bus cycles between bursts of other ranks or directions
  double tREFI = kUnset;   // refresh interval (one all-bank refresh per rank)
  double tRFC = kUnset;    // refresh cycle time: the rank is unavailable

  LatencyModel latency_model = LatencyModel::Dram;
  double fixed_latency_ns = 0;  // latency_model = fixed: arrival to completion of every access

  // Controller.
  std::string mapping;  // address bit order (address_mapping.hpp); "" = the preset's
  Scheduler scheduler = Scheduler::FrFcfs;
  PagePolicy page_policy = PagePolicy::Open;
  unsigned queue_depth = 32;     // bursts per channel
  bool refresh = true;
  unsigned frontend_cycles = 0;  // controller/PHY cycles added before a request is scheduled
  unsigned return_cycles = 0;    // PHY/return-path cycles added after the last data beat
  bool bank_stats = false;       // per-bank counters in the statistics
  std::string option_prefix = "dram";  // names the options in messages ("host_mem" for host memory)

  // Every unset field filled from the preset.
  DramConfig resolved() const;
  // Every problem of the resolved configuration as "<prefix>.<option>: <why>"; empty when valid.
  std::vector<std::string> validate() const;

  // Derived values (of a resolved configuration).
  std::uint64_t burst_bytes() const { return std::uint64_t{bus_bits} / 8 * burst_length; }
  std::uint64_t channel_bytes() const { return std::uint64_t{ranks} * banks * rows * row_bytes; }
  std::uint64_t capacity() const { return channel_bytes() * channels; }
  double tck_ns() const { return 1000.0 / clock_mhz; }
  // Peak data rate of all channels in bytes per ns (= GB/s).
  double peak_gbs() const { return 2.0 * clock_mhz * 1e-3 * (bus_bits / 8.0) * channels; }
  FieldBits field_bits() const;
  // The resolved values under the option names (without "dram."), for the run's output.
  simkit::Json to_json() const;
};

// Registers every field as `<prefix>.<name>` (a platform may hold several DRAMs: device DRAM,
// host memory) and records the prefix for validation messages.
void register_options(simkit::OptionRegistry& reg, DramConfig& cfg, const std::string& prefix = "dram");

// The engine's parameters of a resolved, valid configuration (cycles -> half-cycle ticks).
EngineParams engine_params(const DramConfig& resolved);

}  // namespace par::dram
