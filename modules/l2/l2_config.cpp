#include "l2_config.hpp"

#include <sstream>
#include <stdexcept>

#include "par/cachekit/config_checks.hpp"
#include "par/simkit/options.hpp"

namespace par::l2 {

namespace {

bool is_pow2(std::uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }

bool require_range(std::vector<std::string>& e, const char* name, std::uint64_t value,
                   std::uint64_t lo, std::uint64_t hi) {
  return cachekit::require_range(e, std::string("l2.") + name, value, lo, hi);
}

bool require_pow2(std::vector<std::string>& e, const char* name, std::uint64_t value,
                  const char* why = "") {
  if (is_pow2(value)) return true;
  e.push_back(std::string("l2.") + name + ": " + std::to_string(value) + " is not a power of two" +
              why);
  return false;
}

}  // namespace

std::vector<std::string> L2Config::validate() const {
  std::vector<std::string> e;
  const bool banks_ok = require_range(e, "banks", banks, 1, 64);
  const bool ways_ok = require_range(e, "ways", ways, 1, 64);
  bool line_ok = require_range(e, "line_bytes", line_bytes, 4, 4096);
  line_ok = line_ok && require_pow2(e, "line_bytes", line_bytes);
  if (banks_ok && xor_hash) require_pow2(e, "banks", banks, " (required by l2.xor_hash)");
  if (interleave_bytes != 0 &&
      require_range(e, "interleave_bytes", interleave_bytes, 1, 1ull << 30) &&
      require_pow2(e, "interleave_bytes", interleave_bytes) && line_ok &&
      interleave_bytes < line_bytes) {
    e.push_back("l2.interleave_bytes: " + std::to_string(interleave_bytes) +
                " is smaller than a line (l2.line_bytes = " + std::to_string(line_bytes) + ")");
  }
  if (require_range(e, "bank_bytes", bank_bytes, 1, 1ull << 30) && ways_ok && line_ok) {
    const std::uint64_t set_bytes = std::uint64_t{ways} * line_bytes;
    if (bank_bytes % set_bytes != 0) {
      e.push_back("l2.bank_bytes: " + std::to_string(bank_bytes) +
                  " is not a multiple of l2.ways * l2.line_bytes = " + std::to_string(set_bytes));
    }
  }
  require_range(e, "mshrs", mshrs, 1, 1024);
  require_range(e, "hit_latency", hit_latency, 0, 100000);
  // The bank clock must give a period of at least 1 ps (the default SystemC time resolution).
  if (!(clock_mhz > 0 && clock_mhz <= 1e6)) {
    std::ostringstream os;
    os << "l2.clock_mhz: " << clock_mhz << " is out of range (0, 1000000]";
    e.push_back(os.str());
  }
  return e;
}

const L2Config& checked(const L2Config& cfg) {
  cachekit::throw_if_invalid(cfg.validate(), "L2");
  return cfg;
}

void register_options(simkit::OptionRegistry& reg, L2Config& c) {
  reg.add("l2.banks", c.banks, "Number of L2 banks; each accepts one new access per cycle.")
      .range(1, 64);
  reg.add("l2.bank_bytes", c.bank_bytes,
          "Capacity of one L2 bank in bytes (a multiple of l2.ways * l2.line_bytes).")
      .range(1, 1ull << 30);
  reg.add("l2.ways", c.ways, "Associativity of each L2 bank (LRU replacement).").range(1, 64);
  reg.add("l2.line_bytes", c.line_bytes,
          "L2 line size in bytes (power of two): the unit of DRAM fills and writebacks.")
      .range(4, 4096);
  reg.add("l2.interleave_bytes", c.interleave_bytes,
          "Bytes mapped to one bank before the next bank (power of two, at least a line); "
          "0 = one line.")
      .range(0, 1ull << 30);
  reg.add("l2.xor_hash", c.xor_hash,
          "XOR-fold the upper address bits into the bank index so power-of-two strides spread "
          "over all banks (needs a power-of-two l2.banks).");
  reg.add("l2.mshrs", c.mshrs,
          "Miss status holding registers per bank: line fills in flight; later misses to the same "
          "line merge, misses beyond this wait.")
      .range(1, 1024);
  reg.add("l2.hit_latency", c.hit_latency,
          "Cycles from the bank accepting an access to its response on a hit (added after the "
          "fill on a miss).")
      .range(0, 100000);
  reg.add("l2.clock_mhz", c.clock_mhz, "L2 bank clock in MHz (cycle = one access slot per bank).")
      .range(1e-3, 1e6);
  reg.add("l2.write_allocate", c.write_allocate,
          "Allocate a line on a write miss (write-back, write-allocate); off: write misses go "
          "straight to DRAM.");
  reg.add("l2.write_validate", c.write_validate,
          "A write miss that covers a whole line allocates it without reading DRAM.");
}

}  // namespace par::l2
