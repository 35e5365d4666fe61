// Timing of the Acme example DRAM, in clock cycles, without SystemC: banks with one open row
// each, tRCD / tCL / tRP, and a data bus of bus_bytes per cycle.
#pragma once

#include <cstdint>
#include <vector>

namespace acme {

struct DramTiming {
  unsigned banks = 8;
  std::uint64_t row_bytes = 2048;  // a row of one bank
  unsigned bus_bytes = 8;          // data per cycle
  unsigned tRCD = 14;              // ACT to column command
  unsigned tCL = 14;               // column command to first data
  unsigned tRP = 14;               // PRE to ACT
};

enum class RowOutcome { Hit, Miss, Conflict };

struct Scheduled {
  std::uint64_t done = 0;  // cycle after the last data beat
  RowOutcome row = RowOutcome::Miss;
};

// Rows are spread over banks row by row: row_index = address / row_bytes, bank = row_index mod
// banks. A bank takes a new access when the previous one's data has left it (column commands of
// row hits pipeline; tCL overlaps). An access is timed on the row of its first byte.
class BankTimer {
 public:
  explicit BankTimer(const DramTiming& timing);

  Scheduled schedule(std::uint64_t arrival_cycle, std::uint64_t address, std::uint64_t length);

 private:
  struct Bank {
    bool open = false;
    std::uint64_t row = 0;
    std::uint64_t ready = 0;  // first cycle it takes a new access
  };
  DramTiming t_;
  std::vector<Bank> banks_;
};

}  // namespace acme
