#include "dram_config.hpp"

#include <cmath>

#include "dram_presets.hpp"
#include "par/simkit/format.hpp"
#include "par/simkit/options.hpp"

namespace par::dram {

namespace {

struct TimingField {
  const char* name;
  double DramConfig::*member;
  double lo;
  double hi;
  const char* help;
};

// One table drives preset resolution, validation, registration and the JSON dump.
const TimingField kTimings[] = {
    {"tCL", &DramConfig::tCL, 1, 1000, "Read latency (RL/CL): RD command to the first read data beat."},
    {"tCWL", &DramConfig::tCWL, 1, 1000, "Write latency (WL/CWL): WR command to the first write data beat."},
    {"tRCD", &DramConfig::tRCD, 1, 1000, "ACT to RD/WR, same bank."},
    {"tRP", &DramConfig::tRP, 1, 1000, "PRE to ACT, same bank (tRPpb)."},
    {"tRPab", &DramConfig::tRPab, 1, 1000, "Precharge of all banks before a refresh."},
    {"tRAS", &DramConfig::tRAS, 1, 1000, "ACT to PRE, same bank."},
    {"tRC", &DramConfig::tRC, 1, 1000, "ACT to ACT, same bank (at least tRAS + tRP)."},
    {"tRRD", &DramConfig::tRRD, 1, 1000, "ACT to ACT, different banks of a rank (different bank groups: tRRD_S)."},
    {"tRRD_L", &DramConfig::tRRD_L, 1, 1000, "ACT to ACT, different banks of the same bank group."},
    {"tFAW", &DramConfig::tFAW, 0, 1000, "Four-activate window: at most four ACTs per rank in any tFAW (0 = no limit)."},
    {"tWR", &DramConfig::tWR, 1, 1000, "Write recovery: last write data beat to PRE."},
    {"tWTR", &DramConfig::tWTR, 1, 1000, "Last write data beat to RD, same rank (different bank groups: tWTR_S)."},
    {"tWTR_L", &DramConfig::tWTR_L, 1, 1000, "Last write data beat to RD, same bank group."},
    {"tRTP", &DramConfig::tRTP, 1, 1000, "RD to PRE, same bank."},
    {"tCCD", &DramConfig::tCCD, 1, 1000, "Column command to column command, same rank (different bank groups: tCCD_S)."},
    {"tCCD_L", &DramConfig::tCCD_L, 1, 1000, "Column command to column command, same bank group."},
    {"tDQSCK", &DramConfig::tDQSCK, 0, 1000, "Read data strobe delay, added to tCL."},
    {"tRTRS", &DramConfig::tRTRS, 0, 1000, "Idle data-bus cycles between bursts of different ranks or directions."},
    {"tREFI", &DramConfig::tREFI, 1, 1e7, "Refresh interval: every rank does one all-bank refresh per tREFI."},
    {"tRFC", &DramConfig::tRFC, 1, 1e5, "Refresh cycle time: the rank accepts no command for tRFC."},
};

std::string num(double v) { return simkit::format_shortest(v); }

unsigned log2_of(std::uint64_t v) {
  unsigned b = 0;
  while (b < 63 && (std::uint64_t{1} << b) < v) ++b;
  return b;
}

bool is_pow2(std::uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }

class Checker {
 public:
  Checker(std::vector<std::string>& errors, std::string prefix) : e_(errors), prefix_(std::move(prefix)) {}
  bool range(const char* name, double v, double lo, double hi) {
    if (v >= lo && v <= hi) return true;
    add(name, num(v) + " is out of range " + num(lo) + ".." + num(hi));
    return false;
  }
  bool pow2(const char* name, std::uint64_t v) {
    if (is_pow2(v)) return true;
    add(name, std::to_string(v) + " is not a power of two");
    return false;
  }
  void at_least(const char* name, double v, const char* what, double bound) {
    if (v < bound) add(name, num(v) + " is less than " + what + " = " + num(bound));
  }
  void add(const char* name, const std::string& why) {
    e_.push_back(prefix_ + "." + name + ": " + why);
  }

 private:
  std::vector<std::string>& e_;
  std::string prefix_;
};

Tick ticks(double cycles) { return static_cast<Tick>(std::llround(cycles * 2)); }

}  // namespace

DramConfig DramConfig::resolved() const {
  const DramConfig& p = dram::preset(this->preset).values;
  DramConfig c = *this;
  auto fill = [](auto& field, const auto& from) {
    if (field == 0) field = from;
  };
  fill(c.channels, p.channels);
  fill(c.ranks, p.ranks);
  fill(c.banks, p.banks);
  fill(c.bank_groups, p.bank_groups);
  fill(c.rows, p.rows);
  fill(c.row_bytes, p.row_bytes);
  fill(c.bus_bits, p.bus_bits);
  fill(c.burst_length, p.burst_length);
  if (c.clock_mhz <= 0) c.clock_mhz = p.clock_mhz;
  for (const TimingField& t : kTimings)
    if (c.*(t.member) < 0) c.*(t.member) = p.*(t.member);
  if (c.mapping.empty()) c.mapping = p.mapping;
  return c;
}

std::vector<std::string> DramConfig::validate() const {
  std::vector<std::string> errors;
  Checker check(errors, option_prefix);
  const DramConfig c = resolved();

  bool geometry = check.range("channels", c.channels, 1, 64) && check.pow2("channels", c.channels);
  geometry &= check.range("ranks", c.ranks, 1, 16) && check.pow2("ranks", c.ranks);
  geometry &= check.range("banks", c.banks, 1, 256) && check.pow2("banks", c.banks);
  geometry &= check.range("bank_groups", c.bank_groups, 1, 256) &&
              check.pow2("bank_groups", c.bank_groups);
  if (geometry && c.banks % c.bank_groups != 0) {
    check.add("bank_groups", std::to_string(c.bank_groups) + " does not divide banks = " +
                                 std::to_string(c.banks));
    geometry = false;
  }
  geometry &= check.range("rows", static_cast<double>(c.rows), 1, 1 << 24) && check.pow2("rows", c.rows);
  geometry &= check.range("row_bytes", static_cast<double>(c.row_bytes), 16, 1 << 20) &&
              check.pow2("row_bytes", c.row_bytes);
  geometry &= check.range("bus_bits", c.bus_bits, 8, 1024) && check.pow2("bus_bits", c.bus_bits);
  geometry &= check.range("burst_length", c.burst_length, 2, 32) &&
              check.pow2("burst_length", c.burst_length);
  if (geometry && c.burst_bytes() > c.row_bytes) {
    check.add("row_bytes", std::to_string(c.row_bytes) + " is smaller than one burst (" +
                               std::to_string(c.burst_bytes()) + " bytes)");
    geometry = false;
  }
  if (!(c.clock_mhz > 0 && c.clock_mhz <= 10000))
    check.add("clock_mhz", num(c.clock_mhz) + " is out of range (0, 10000]");

  bool timings = true;
  for (const TimingField& t : kTimings) {
    const double v = c.*(t.member);
    if (!check.range(t.name, v, t.lo, t.hi)) {
      timings = false;
    } else if (std::fmod(v * 2, 1.0) != 0) {
      check.add(t.name, num(v) + " is not a multiple of half a cycle");
      timings = false;
    }
  }
  if (timings) {
    // Combinations a device cannot have (or that the model cannot make progress with).
    check.at_least("tRC", c.tRC, "tRAS + tRP", c.tRAS + c.tRP);
    check.at_least("tRAS", c.tRAS, "tRCD", c.tRCD);
    check.at_least("tRRD_L", c.tRRD_L, "tRRD", c.tRRD);
    check.at_least("tWTR_L", c.tWTR_L, "tWTR", c.tWTR);
    check.at_least("tCCD_L", c.tCCD_L, "tCCD", c.tCCD);
    if (c.refresh) {
      // Between two refreshes a rank must fit one whole access: ACT, the column command, the
      // row's earliest precharge.
      const double write = c.tCWL + c.burst_length / 2.0 + c.tWR;
      const double access = std::max(c.tRAS, c.tRCD + std::max(c.tRTP, write));
      const double need = c.tRFC + c.tRPab + access + 1;
      if (c.tREFI < need)
        check.add("tREFI", num(c.tREFI) +
                               " leaves no room for an access between refreshes (needs at least "
                               "tRFC + tRPab + " +
                               num(access + 1) + " = " + num(need) + ")");
    }
  }
  if (geometry) {
    AddressMapping m;
    const std::string why = m.parse(c.mapping, c.field_bits(), c.burst_bytes());
    if (!why.empty()) check.add("mapping", why);
  }
  if (c.queue_depth < 1 || c.queue_depth > 4096)
    check.add("queue_depth", std::to_string(c.queue_depth) + " is out of range 1..4096");
  if (c.frontend_cycles > 100000)
    check.add("frontend_cycles", std::to_string(c.frontend_cycles) + " is out of range 0..100000");
  if (c.return_cycles > 100000)
    check.add("return_cycles", std::to_string(c.return_cycles) + " is out of range 0..100000");
  return errors;
}

FieldBits DramConfig::field_bits() const {
  FieldBits b;
  b.row = log2_of(rows);
  b.rank = log2_of(ranks);
  b.bank = log2_of(banks);
  b.channel = log2_of(channels);
  b.column = log2_of(row_bytes);
  return b;
}

simkit::Json DramConfig::to_json() const {
  simkit::Json j;
  j["preset"] = to_string(preset);
  j["channels"] = channels;
  j["ranks"] = ranks;
  j["banks"] = banks;
  j["bank_groups"] = bank_groups;
  j["rows"] = rows;
  j["row_bytes"] = row_bytes;
  j["bus_bits"] = bus_bits;
  j["burst_length"] = burst_length;
  j["clock_mhz"] = clock_mhz;
  for (const TimingField& t : kTimings) j[t.name] = this->*(t.member);
  j["mapping"] = mapping;
  j["scheduler"] = to_string(scheduler);
  j["page_policy"] = to_string(page_policy);
  j["queue_depth"] = queue_depth;
  j["refresh"] = refresh;
  j["frontend_cycles"] = frontend_cycles;
  j["return_cycles"] = return_cycles;
  j["bank_stats"] = bank_stats;
  j["latency_model"] = to_string(latency_model);
  j["fixed_latency_ns"] = fixed_latency_ns;
  j["capacity"] = capacity();
  j["peak_gbs"] = peak_gbs();
  return j;
}

void register_options(simkit::OptionRegistry& reg, DramConfig& c, const std::string& prefix) {
  c.option_prefix = prefix;
  const std::string p = prefix + ".";
  reg.add_enum(p + "preset", c.preset,
               "Device preset; it gives every geometry and timing option left unset.",
               {{"lpddr3-1866", Preset::Lpddr3_1866},
                {"ddr-333", Preset::Ddr_333},
                {"ddr3-1600", Preset::Ddr3_1600},
                {"ddr4-2400", Preset::Ddr4_2400}});
  reg.add(p + "channels", c.channels, "Channels (independent buses and controllers); 0 = preset.")
      .range(0, 64);
  reg.add(p + "ranks", c.ranks, "Ranks per channel; 0 = preset.").range(0, 16);
  reg.add(p + "banks", c.banks, "Banks per rank; 0 = preset.").range(0, 256);
  reg.add(p + "bank_groups", c.bank_groups,
          "Bank groups per rank (bank b is in group b mod groups; 1 = none); 0 = preset.")
      .range(0, 256);
  reg.add(p + "rows", c.rows, "Rows per bank; 0 = preset.").range(0, 1 << 24);
  reg.add(p + "row_bytes", c.row_bytes,
          "Row (page) size of a rank in bytes, across all its devices; 0 = preset.")
      .range(0, 1 << 20);
  reg.add(p + "bus_bits", c.bus_bits, "Data-bus width of a channel in bits; 0 = preset.")
      .range(0, 1024);
  reg.add(p + "burst_length", c.burst_length,
          "Burst length in beats (two beats per clock); 0 = preset.")
      .range(0, 32);
  reg.add(p + "clock_mhz", c.clock_mhz,
          "Command clock in MHz (the data rate is twice this); 0 = preset.")
      .range(0, 10000);
  for (const TimingField& t : kTimings)
    reg.add(p + t.name, c.*(t.member),
            std::string(t.help) + " Clock cycles (multiples of 0.5); -1 = preset.")
        .range(-1, t.hi);
  reg.add(p + "mapping", c.mapping,
          "Address bit order, most significant first, of row, rank, bank, channel, column; "
          "'name:N' takes N bits of a field (e.g. row,rank,bank,column:6,channel,column:6). "
          "Empty = preset.");
  reg.add_enum(p + "scheduler", c.scheduler,
               "Request scheduling: frfcfs (row hits first, gaps used) or fcfs (call order).",
               {{"frfcfs", Scheduler::FrFcfs}, {"fcfs", Scheduler::Fcfs}});
  reg.add_enum(p + "page_policy", c.page_policy,
               "Row-buffer policy: open (rows stay open) or closed (precharge after each access).",
               {{"open", PagePolicy::Open}, {"closed", PagePolicy::Closed}});
  reg.add(p + "queue_depth", c.queue_depth,
          "Request-queue entries (bursts) per channel; a full queue delays new requests.")
      .range(1, 4096);
  reg.add(p + "refresh", c.refresh, "Model refresh (all-bank, every tREFI, for tRFC).");
  reg.add(p + "frontend_cycles", c.frontend_cycles,
          "Controller/PHY cycles added to every request before it is scheduled.")
      .range(0, 100000);
  reg.add(p + "return_cycles", c.return_cycles,
          "PHY and return-path cycles added to every completion after its last data beat (hold no queue entry).")
      .range(0, 100000);
  reg.add(p + "bank_stats", c.bank_stats, "Per-bank counters in the statistics.");
  reg.add_enum(p + "latency_model", c.latency_model,
               "Timing model: dram (banks, rows, bus, queue, refresh) or fixed (every access completes "
               "fixed_latency_ns after its arrival: no queue, no bandwidth limit).",
               {{"dram", LatencyModel::Dram}, {"fixed", LatencyModel::Fixed}});
  reg.add(p + "fixed_latency_ns", c.fixed_latency_ns,
          "latency_model = fixed: the latency of every access in ns, from its arrival to its completion.")
      .range(0, 1e9);
}

const char* to_string(LatencyModel m) { return m == LatencyModel::Fixed ? "fixed" : "dram"; }

EngineParams engine_params(const DramConfig& c) {
  EngineParams p;
  p.channels = c.channels;
  p.ranks = c.ranks;
  p.banks = c.banks;
  p.bank_groups = c.bank_groups;
  p.burst = c.burst_length;  // one beat per half cycle
  p.tCL = ticks(c.tCL);
  p.tCWL = ticks(c.tCWL);
  p.tRCD = ticks(c.tRCD);
  p.tRP = ticks(c.tRP);
  p.tRPab = ticks(c.tRPab);
  p.tRAS = ticks(c.tRAS);
  p.tRC = ticks(c.tRC);
  p.tRRD = ticks(c.tRRD);
  p.tRRD_L = ticks(c.tRRD_L);
  p.tFAW = ticks(c.tFAW);
  p.tWR = ticks(c.tWR);
  p.tWTR = ticks(c.tWTR);
  p.tWTR_L = ticks(c.tWTR_L);
  p.tRTP = ticks(c.tRTP);
  p.tCCD = ticks(c.tCCD);
  p.tCCD_L = ticks(c.tCCD_L);
  p.tDQSCK = ticks(c.tDQSCK);
  p.tRTRS = ticks(c.tRTRS);
  p.tREFI = ticks(c.tREFI);
  p.tRFC = ticks(c.tRFC);
  p.refresh = c.refresh;
  p.scheduler = c.scheduler;
  p.page_policy = c.page_policy;
  p.queue_depth = c.queue_depth;
  return p;
}

}  // namespace par::dram
