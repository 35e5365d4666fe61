#include "dram.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "par/sckit/fast_time.hpp"
#include "par/sckit/target_check.hpp"

namespace par::dram {

using sc_core::sc_time;

namespace {

DramConfig checked(const DramConfig& cfg) {
  const std::vector<std::string> errors = cfg.validate();
  if (!errors.empty()) {
    std::string msg = "invalid DRAM configuration:";
    for (const std::string& e : errors) msg += "\n  " + e;
    throw std::invalid_argument(msg);
  }
  return cfg.resolved();
}

AddressMapping make_mapping(const DramConfig& c) {
  AddressMapping m;
  m.parse(c.mapping, c.field_bits(), c.burst_bytes());  // validated by checked()
  return m;
}

}  // namespace

Dram::Dram(sc_core::sc_module_name name, const DramConfig& cfg)
    : sc_module(name),
      in("in"),
      cfg_(checked(cfg)),
      mapping_(make_mapping(cfg_)),
      engine_(engine_params(cfg_)),
      store_(cfg_.capacity()),
      capacity_(cfg_.capacity()),
      stats_group_(this->name()),
      stats_(stats_group_, cfg_),
      tick_ps_(1e6 / (2.0 * cfg_.clock_mhz)),
      resolution_ps_(sc_core::sc_get_time_resolution().to_seconds() * 1e12),
      // The resolution is a power of ten femtoseconds: rounding recovers it exactly.
      resolution_fs_(std::round(sc_core::sc_get_time_resolution().to_seconds() * 1e15)),
      units_per_ps_(1000.0 / resolution_fs_),
      burst_ns_(static_cast<double>(cfg_.burst_length) * tick_ps_ * 1e-3),
      burst_mask_(cfg_.burst_bytes() - 1),
      frontend_ticks_(static_cast<Tick>(cfg_.frontend_cycles) * 2),
      return_ticks_(static_cast<Tick>(cfg_.return_cycles) * 2),
      peq_(this, &Dram::response_due),
      responses_(*this, in) {
  in.register_b_transport(this, &Dram::b_transport);
  in.register_nb_transport_fw(this, &Dram::nb_transport_fw);
  in.register_transport_dbg(this, &Dram::transport_dbg);
}

// --- time conversion --------------------------------------------------------------------------

sc_time Dram::cycles(double n) const { return sc_time(n * 2 * tick_ps_, sc_core::SC_PS); }

// --- tracing ------------------------------------------------------------------------------------

void Dram::set_trace(trace::Timeline* timeline, trace::VcdWriter* vcd) {
  channel_tracks_.clear();
  bank_tracks_.clear();
  queue_signals_.clear();
  tracing_ = false;
  const std::string name = basename();  // "dram", "host_mem"
  if (vcd != nullptr)
    for (unsigned c = 0; c < cfg_.channels; ++c) {
      trace::SignalRef q(vcd, name + ".ch" + std::to_string(c) + ".queue", 8, trace::SignalRef::kCounting);
      tracing_ = tracing_ || q.enabled();
      queue_signals_.push_back(q);
    }
  if (timeline == nullptr) return;
  tracing_ = true;
  for (unsigned c = 0; c < cfg_.channels; ++c) {
    const std::string ch = "ch" + std::to_string(c);
    channel_tracks_.emplace_back(timeline, name, ch);
    // One command row per bank, as DRAMSys draws them; the rank only when there are several.
    for (unsigned r = 0; r < cfg_.ranks; ++r)
      for (unsigned b = 0; b < cfg_.banks; ++b)
        bank_tracks_.emplace_back(timeline, name,
                                  ch + (cfg_.ranks > 1 ? " rank" + std::to_string(r) : "") + " bank" + std::to_string(b));
  }
  read_name_ = timeline->name("read");
  write_name_ = timeline->name("write");
  dram_category_ = timeline->category("dram");
  for (int k = 0; k < kCommandKinds; ++k) command_names_[k] = timeline->name(kCommandNames[k]);
  command_category_ = timeline->category("dram_cmd");
  refresh_traced_.assign(cfg_.ranks, 0);
}

trace::Ps Dram::tick_ps(Tick t) const { return static_cast<trace::Ps>(std::llround(static_cast<double>(t) * tick_ps_)); }

void Dram::trace_burst(const BurstRequest& req, const BurstResult& res, std::uint64_t address,
                       unsigned bytes) {
  if (!queue_signals_.empty()) {  // the request-queue entry: admission to data completion
    const trace::SignalRef& q = queue_signals_[req.channel];
    q.add(tick_ps(res.admitted), 1);
    q.add(tick_ps(res.data_end), -1);
  }
  if (channel_tracks_.empty()) return;
  channel_tracks_[req.channel].interval(
      req.op == Op::Read ? read_name_ : write_name_, dram_category_, tick_ps(req.arrival), tick_ps(res.data_end),
      {trace::Arg::hex("addr", address), {"bytes", bytes}, {"row", to_string(res.outcome)},
       {"rank", req.rank}, {"bank", req.bank}});
  // The bank's commands, each over the time before the bank's next command may follow: PRE tRP,
  // ACT tRCD, RD and WR tCCD (so that a bank's row stays one properly nested row in the viewers;
  // the data transfer is on the channel's transaction row).
  const EngineParams& p = engine_.params();
  const trace::TrackRef& bank = bank_tracks_[(req.channel * cfg_.ranks + req.rank) * cfg_.banks + req.bank];
  const auto command = [&](Command k, Tick at, Tick until) {
    bank.interval(command_names_[static_cast<int>(k)], command_category_, tick_ps(at), tick_ps(until),
                  {{"row", req.row}});
  };
  if (res.precharge != kNever) command(Command::Pre, res.precharge, res.precharge + p.tRP);
  if (res.activate != kNever) command(Command::Act, res.activate, res.activate + p.tRCD);
  command(req.op == Op::Read ? Command::Rd : Command::Wr, res.column, res.column + p.tCCD);
  if (res.auto_precharge != kNever) command(Command::Pre, res.auto_precharge, res.auto_precharge + p.tRP);
}

// Refresh windows (precharge-all, then tRFC) that start up to `until`, as REF on every bank row of
// their rank; called as the latest completion advances, so the rows show the refreshes that fall
// among the traced commands.
void Dram::trace_refreshes(Tick until) {
  if (bank_tracks_.empty() || !engine_.params().refresh) return;
  for (unsigned r = 0; r < cfg_.ranks; ++r)
    for (TimingEngine::Window w = engine_.next_refresh_window(r, refresh_traced_[r]); w.start <= until;
         w = engine_.next_refresh_window(r, w.start)) {
      refresh_traced_[r] = w.start;
      for (unsigned c = 0; c < cfg_.channels; ++c)
        for (unsigned b = 0; b < cfg_.banks; ++b)
          bank_tracks_[(c * cfg_.ranks + r) * cfg_.banks + b].interval(
              command_names_[static_cast<int>(Command::Ref)], command_category_, tick_ps(w.start), tick_ps(w.end));
    }
}

// --- data ---------------------------------------------------------------------------------------

bool Dram::in_range(std::uint64_t address, std::uint64_t len) const {
  return address < capacity() && len <= capacity() - address;
}

bool Dram::peek(std::uint64_t address, std::uint8_t* dst, std::uint64_t len) const {
  if (!in_range(address, len)) return false;
  store_.read(address, dst, len);
  return true;
}

bool Dram::poke(std::uint64_t address, const std::uint8_t* src, std::uint64_t len) {
  if (!in_range(address, len)) return false;
  store_.write(address, src, len);
  return true;
}

void Dram::copy_data(tlm::tlm_generic_payload& tx, bool honour_byte_enables) {
  const std::uint64_t address = tx.get_address();
  const unsigned len = tx.get_data_length();
  unsigned char* data = tx.get_data_ptr();
  const unsigned char* be = honour_byte_enables ? tx.get_byte_enable_ptr() : nullptr;
  const unsigned be_len = be != nullptr ? tx.get_byte_enable_length() : 0;
  if (tx.is_write()) {
    store_.write(address, data, len, be, be_len);
  } else if (be == nullptr || be_len == 0) {
    store_.read(address, data, len);
  } else {
    std::vector<std::uint8_t> tmp(len);
    store_.read(address, tmp.data(), len);
    for (unsigned i = 0; i < len; ++i)
      if (be[i % be_len] != 0) data[i] = tmp[i];
  }
}

// --- timing -------------------------------------------------------------------------------------

sc_time Dram::serve(tlm::tlm_generic_payload& tx, const sc_time& arrival) {
  const std::uint64_t address = tx.get_address();
  const unsigned len = tx.get_data_length();
  sckit::AccessRules rules;
  rules.ignore = sckit::AccessRules::Ignore::OkFirst;
  rules.size = capacity_;
  if (const tlm::tlm_response_status s = sckit::check_access(tx, rules); s != tlm::TLM_INCOMPLETE_RESPONSE) {
    tx.set_response_status(s);
    if (s != tlm::TLM_OK_RESPONSE) ++stats_.errors;
    return arrival;
  }
  if (tx.get_byte_enable_ptr() != nullptr)
    copy_data(tx, true);
  else if (tx.is_write())
    store_.write(address, tx.get_data_ptr(), len);
  else
    store_.read(address, tx.get_data_ptr(), len);
  tx.set_response_status(tlm::TLM_OK_RESPONSE);
  const Op op = tx.is_read() ? Op::Read : Op::Write;
  if (cfg_.latency_model == LatencyModel::Fixed) {
    if (!fixed_latency_) fixed_latency_ = sc_time(cfg_.fixed_latency_ns, sc_core::SC_NS);
    const sc_time completion = arrival + *fixed_latency_;
    record_access(op, len, arrival, completion);
    stats_.latest.reach(ns(completion));
    return completion;
  }

  // Nothing before the current time can change any more: bound the engine's history (once per
  // advance of SystemC time; arrivals are never before it).
  if (const sc_time& now = sckit::current_time(); now.value() != retire_checked_) {
    retire_checked_ = now.value();
    const Tick now_tick = tick_at_or_after(now) - 1;
    if (now_tick > retired_) {
      engine_.retire(now_tick);
      retired_ = now_tick;
    }
  }

  BurstRequest req;
  req.op = op;
  req.arrival = tick_at_or_after(arrival) + frontend_ticks_;
  Tick done = req.arrival;
  // Split at burst boundaries (row and channel boundaries are burst boundaries too); the bursts
  // are scheduled in address order, all arriving together. A burst whose address differs from the
  // last decoded one only in low column bits has its location (a line's bursts usually do).
  const unsigned column_bits = mapping_.low_column_bits();
  const std::uint64_t low_column_mask = (std::uint64_t{1} << column_bits) - 1;
  const std::uint64_t end = address + len;
  std::uint64_t decoded = address;
  const auto locate = [&req, this](std::uint64_t a) {
    const Location loc = mapping_.decode(a);
    req.channel = loc.channel;
    req.rank = loc.rank;
    req.bank = loc.bank;
    req.row = loc.row;
  };
  locate(address);
  const auto burst_end = [end, this](std::uint64_t a) { return std::min(end, (a | burst_mask_) + 1); };
  // Bursts per engine call: a line's two (a longer run takes several calls, with the same
  // results); a bigger array costs more to set up for every access than it saves.
  constexpr unsigned kRun = 2;
  // Left unset: schedule_line sets every field of the results it returns (setting them here as
  // well measurably costs every access).
  union Results {
    Results() {}
    BurstResult at[kRun];
  } results;
  for (std::uint64_t a = address; a < end;) {
    if ((a ^ decoded) >> column_bits != 0) {
      locate(a);
      decoded = a;
    }
    // The bursts from a on at the same location (a line's bursts), up to its last byte: one
    // engine call.
    const std::uint64_t last = std::min(end - 1, a | low_column_mask);
    unsigned count = 1;
    for (std::uint64_t b = burst_end(a); count < kRun && b <= last; b = burst_end(b)) ++count;
    engine_.schedule_line(req, count, results.at);
    for (unsigned k = 0; k < count; ++k) {
      const std::uint64_t next = burst_end(a);
      const BurstResult& res = results.at[k];
      stats_.burst(req, res, static_cast<unsigned>(next - a), burst_ns_);
      if (tracing_) trace_burst(req, res, a, static_cast<unsigned>(next - a));
      done = std::max(done, res.data_end);
      a = next;
    }
  }

  // The data still has the PHY and the return path to cross (no queue entry held meanwhile).
  const sc_time completion = std::max(tick_time(done + return_ticks_), arrival);
  record_access(op, len, arrival, completion);
  if (done > latest_tick_) {
    // Both advance by increments, so they stay right after a statistics reset (warm-up) and in
    // differences.
    stats_.latest.reach(ns(completion));
    // The refresh count only changes at a REF: until the next one it is the one counted last.
    if (done >= refresh_changes_at_) {
      const TimingEngine::RefreshCount refreshes = engine_.refresh_count(done);
      stats_.refreshes += refreshes.count - refreshes_seen_;
      refreshes_seen_ = refreshes.count;
      refresh_changes_at_ = refreshes.changes_at;
    }
    latest_tick_ = done;
    if (tracing_) trace_refreshes(done);
  }
  return completion;
}

void Dram::b_transport(int, tlm::tlm_generic_payload& tx, sc_time& delay) {
  const sc_time now = sckit::current_time();
  delay = serve(tx, now + delay) - now;
}

unsigned int Dram::transport_dbg(int, tlm::tlm_generic_payload& tx) {
  const unsigned len = tx.get_data_length();
  if (!in_range(tx.get_address(), len)) {
    tx.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return 0;
  }
  if (tx.is_read() || tx.is_write()) copy_data(tx, false);  // debug transport has no byte enables
  tx.set_response_status(tlm::TLM_OK_RESPONSE);
  return tx.is_read() || tx.is_write() ? len : 0;
}

// --- approximately timed ------------------------------------------------------------------------
// BEGIN_REQ is accepted at once (TLM_UPDATED, END_REQ at the request's time): the controller's
// queue is modelled by the engine. The access is scheduled exactly as in b_transport and
// BEGIN_RESP is sent at its completion; END_RESP (or TLM_COMPLETED) frees the socket for the next
// response.

tlm::tlm_sync_enum Dram::nb_transport_fw(int id, tlm::tlm_generic_payload& tx,
                                         tlm::tlm_phase& phase, sc_time& delay) {
  if (phase == tlm::BEGIN_REQ) {
    const sc_time now = sc_core::sc_time_stamp();
    const sc_time completion = serve(tx, now + delay);
    if (tx.has_mm()) tx.acquire();
    at_port_[&tx] = id;
    peq_.notify(tx, tlm::BEGIN_RESP, completion - now);
    phase = tlm::END_REQ;
    return tlm::TLM_UPDATED;
  }
  if (phase == tlm::END_RESP) return responses_.end_response(id);
  SC_REPORT_ERROR(name(), "nb_transport_fw: unexpected phase (base protocol violation)");
  return tlm::TLM_COMPLETED;
}

void Dram::response_due(tlm::tlm_generic_payload& tx, const tlm::tlm_phase&) {
  const auto it = at_port_.find(&tx);
  const int id = it->second;
  at_port_.erase(it);
  responses_.respond(id, tx);
}

}  // namespace par::dram
