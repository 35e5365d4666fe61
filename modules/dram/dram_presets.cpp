#include "dram_presets.hpp"

#include <stdexcept>

namespace par::dram {

namespace {

// Cycle values are the datasheet nanosecond minima divided by tCK and rounded up (the comments
// give the nanoseconds); tRC is never below tRAS + tRP after that rounding.

DramConfig lpddr3_1866() {
  // docs/link-and-memory.md §2.3: JEDEC JESD209-3 LPDDR3-1866, 8 Gb x32 device per channel.
  DramConfig c;
  c.channels = 2;
  c.ranks = 1;
  c.banks = 8;
  c.bank_groups = 1;
  c.rows = 32768;
  c.row_bytes = 4096;
  c.bus_bits = 32;
  c.burst_length = 8;
  c.clock_mhz = 1866.0 / 2;  // tCK 1.071 ns
  c.tCL = 14;                // RL
  c.tCWL = 8;                // WL set A
  c.tRCD = 17;               // 18 ns
  c.tRP = 17;                // tRPpb 18 ns
  c.tRPab = 20;              // 21 ns
  c.tRAS = 40;               // 42 ns
  c.tRC = 57;                // tRAS + tRPpb; the table's 56 is 60 ns rounded as one value
  c.tRRD = 10;               // 10 ns
  c.tRRD_L = 10;
  c.tFAW = 47;               // 50 ns
  c.tWR = 14;                // 15 ns
  c.tWTR = 7;                // 7.5 ns
  c.tWTR_L = 7;
  c.tRTP = 7;                // 7.5 ns
  c.tCCD = 4;
  c.tCCD_L = 4;
  c.tDQSCK = 4;              // 2.5-5.5 ns: 4 cycles added to RL
  c.tRTRS = 1;
  c.tREFI = 3640;            // 3.9 us
  c.tRFC = 196;              // tRFCab 210 ns (8 Gb)
  c.mapping = "row,rank,bank,channel,column";
  return c;
}

DramConfig ddr_333() {
  // docs/link-and-memory.md §1.5: JEDEC JESD79 DDR-333 (DDR333B, CL 2.5-3-3); one 64-bit DIMM
  // channel, 1 GiB dual-rank of 512 Mb x8 devices (4 banks, 8192 rows, 2 KiB page per device).
  DramConfig c;
  c.channels = 1;
  c.ranks = 2;
  c.banks = 4;
  c.bank_groups = 1;
  c.rows = 8192;
  c.row_bytes = 16384;  // 8 devices x 2 KiB
  c.bus_bits = 64;
  c.burst_length = 4;
  c.clock_mhz = 1000.0 / 6;  // 166 MHz, tCK 6 ns
  c.tCL = 2.5;
  c.tCWL = 1;                // DDR SDRAM write latency: one clock
  c.tRCD = 3;                // 18 ns
  c.tRP = 3;                 // 18 ns
  c.tRPab = 3;
  c.tRAS = 7;                // 42 ns
  c.tRC = 10;                // 60 ns
  c.tRRD = 2;                // 12 ns
  c.tRRD_L = 2;
  c.tFAW = 8;                // DDR SDRAM has no tFAW: 4 x tRRD never limits
  c.tWR = 3;                 // 15 ns
  c.tWTR = 1;                // one clock
  c.tWTR_L = 1;
  c.tRTP = 2;                // no tRTP in DDR SDRAM: PRE may follow a read by BL/2 clocks
  c.tCCD = 1;
  c.tCCD_L = 1;
  c.tDQSCK = 0;              // +-0.6 ns, inside CL
  c.tRTRS = 1;
  c.tREFI = 1300;            // 7.8 us
  c.tRFC = 12;               // 72 ns
  c.mapping = "row,rank,bank,channel,column";
  return c;
}

DramConfig ddr3_1600() {
  // JEDEC JESD79-3F speed bin DDR3-1600K (11-11-11); one 64-bit channel, one rank of 4 Gb x8
  // devices (8 banks, 65536 rows, 1 KiB page per device): 4 GiB.
  DramConfig c;
  c.channels = 1;
  c.ranks = 1;
  c.banks = 8;
  c.bank_groups = 1;
  c.rows = 65536;
  c.row_bytes = 8192;  // 8 devices x 1 KiB
  c.bus_bits = 64;
  c.burst_length = 8;
  c.clock_mhz = 800;  // tCK 1.25 ns
  c.tCL = 11;         // 13.75 ns
  c.tCWL = 8;
  c.tRCD = 11;        // 13.75 ns
  c.tRP = 11;         // 13.75 ns
  c.tRPab = 11;
  c.tRAS = 28;        // 35 ns
  c.tRC = 39;         // 48.75 ns
  c.tRRD = 5;         // max(4 nCK, 6 ns), 1 KiB page
  c.tRRD_L = 5;
  c.tFAW = 24;        // 30 ns, 1 KiB page
  c.tWR = 12;         // 15 ns
  c.tWTR = 6;         // max(4 nCK, 7.5 ns)
  c.tWTR_L = 6;
  c.tRTP = 6;         // max(4 nCK, 7.5 ns)
  c.tCCD = 4;
  c.tCCD_L = 4;
  c.tDQSCK = 0;       // inside CL
  c.tRTRS = 2;        // RL + tCCD + 2 nCK - WL read-to-write: two idle clocks on the bus
  c.tREFI = 6240;     // 7.8 us
  c.tRFC = 208;       // 260 ns (4 Gb)
  c.mapping = "row,rank,bank,channel,column";
  return c;
}

DramConfig ddr4_2400() {
  // JEDEC JESD79-4B speed bin DDR4-2400R (16-16-16); one 64-bit channel, one rank of 8 Gb x8
  // devices (4 bank groups x 4 banks, 65536 rows, 1 KiB page per device): 8 GiB.
  DramConfig c;
  c.channels = 1;
  c.ranks = 1;
  c.banks = 16;
  c.bank_groups = 4;
  c.rows = 65536;
  c.row_bytes = 8192;
  c.bus_bits = 64;
  c.burst_length = 8;
  c.clock_mhz = 1200;  // tCK 0.833 ns
  c.tCL = 16;          // 13.32 ns
  c.tCWL = 12;
  c.tRCD = 16;         // 13.32 ns
  c.tRP = 16;          // 13.32 ns
  c.tRPab = 16;
  c.tRAS = 39;         // 32 ns
  c.tRC = 55;          // 45.32 ns
  c.tRRD = 4;          // tRRD_S max(4 nCK, 3.3 ns), 1 KiB page
  c.tRRD_L = 6;        // max(4 nCK, 4.9 ns)
  c.tFAW = 26;         // max(20 nCK, 21 ns), 1 KiB page
  c.tWR = 18;          // 15 ns
  c.tWTR = 3;          // tWTR_S max(2 nCK, 2.5 ns)
  c.tWTR_L = 9;        // max(4 nCK, 7.5 ns)
  c.tRTP = 9;          // max(4 nCK, 7.5 ns)
  c.tCCD = 4;          // tCCD_S
  c.tCCD_L = 6;        // max(5 nCK, 5 ns)
  c.tDQSCK = 0;
  c.tRTRS = 2;
  c.tREFI = 9360;      // 7.8 us
  c.tRFC = 420;        // tRFC1 350 ns (8 Gb)
  // Consecutive 64-byte bursts alternate bank groups (the bank's low bits), as DDR4 controllers
  // map addresses, so a stream runs at tCCD_S rather than tCCD_L.
  c.mapping = "row,rank,bank:2,column:7,channel,bank:2,column:6";
  return c;
}

}  // namespace

const std::vector<DramPreset>& presets() {
  static const std::vector<DramPreset> list = {
      {Preset::Lpddr3_1866, "lpddr3-1866", "2 x32 channels, 8 Gb LPDDR3 device per channel (2 GiB)",
       "docs/link-and-memory.md §2.3 (JESD209-3 typical values)", lpddr3_1866()},
      {Preset::Ddr_333, "ddr-333", "one 64-bit DIMM, 2 ranks of 512 Mb x8 DDR (1 GiB)",
       "docs/link-and-memory.md §1.5 (JESD79 DDR333B typical values)", ddr_333()},
      {Preset::Ddr3_1600, "ddr3-1600", "one 64-bit channel, 1 rank of 4 Gb x8 DDR3 (4 GiB)",
       "JESD79-3F speed bin DDR3-1600K 11-11-11", ddr3_1600()},
      {Preset::Ddr4_2400, "ddr4-2400", "one 64-bit channel, 1 rank of 8 Gb x8 DDR4 (8 GiB)",
       "JESD79-4B speed bin DDR4-2400R 16-16-16", ddr4_2400()},
  };
  return list;
}

const DramPreset& preset(Preset id) {
  for (const DramPreset& p : presets())
    if (p.id == id) return p;
  throw std::invalid_argument("dram: unknown preset");
}

const char* to_string(Preset p) { return preset(p).name; }

}  // namespace par::dram
