#include "bank_timer.hpp"

#include <algorithm>

namespace acme {

BankTimer::BankTimer(const DramTiming& timing) : t_(timing), banks_(timing.banks) {}

Scheduled BankTimer::schedule(std::uint64_t arrival_cycle, std::uint64_t address, std::uint64_t length) {
  const std::uint64_t row_index = address / t_.row_bytes;
  Bank& bank = banks_[row_index % t_.banks];
  const std::uint64_t row = row_index / t_.banks;
  Scheduled s;
  std::uint64_t activate = 0;  // cycles before the column command
  if (bank.open && bank.row == row) {
    s.row = RowOutcome::Hit;
  } else if (bank.open) {
    s.row = RowOutcome::Conflict;
    activate = t_.tRP + t_.tRCD;
  } else {
    s.row = RowOutcome::Miss;
    activate = t_.tRCD;
  }
  const std::uint64_t data = std::max<std::uint64_t>(1, (length + t_.bus_bytes - 1) / t_.bus_bytes);
  const std::uint64_t start = std::max(arrival_cycle, bank.ready);
  s.done = start + activate + t_.tCL + data;
  bank.ready = start + activate + data;
  bank.open = true;
  bank.row = row;
  return s;
}

}  // namespace acme
