#include "l2_bank.hpp"

#include "par/sckit/time_units.hpp"

namespace par::l2 {

using sc_core::sc_time;

namespace {

// The bank clock period; at least one time-resolution unit.
ScTick period_ticks(const L2Config& cfg) {
  const ScTick t = to_tick(sckit::clock_period(cfg.clock_mhz));
  return t > 0 ? t : 1;
}

}  // namespace

L2Bank::L2Bank(sc_core::sc_module_name name, const L2Config& cfg, unsigned index,
               simkit::StatGroup* parent_stats)
    : sc_module(name),
      in("in"),
      mem("mem"),
      index_(index),
      line_bytes_(cfg.line_bytes),
      next_(mem),
      stats_(parent_stats != nullptr ? basename() : this->name()) {
  if (parent_stats != nullptr) parent_stats->attach(stats_);
  model_ = std::make_unique<BankModel>(checked(cfg), period_ticks(cfg), next_, stats_);
  in.register_b_transport(this, &L2Bank::b_transport);
  in.register_transport_dbg(this, &L2Bank::transport_dbg);
}

// One model prefetch per line piece, every piece arriving at now + delay; the delay becomes the
// last fill's completion (the requester's count of prefetches in flight needs it).
void L2Bank::serve_prefetch(tlm::tlm_generic_payload& tx, sc_time& delay) {
  const ScTick at = to_tick(current_time() + delay);
  ScTick done = at;
  bool ok = true;
  const unsigned line = model_->geometry().line_bytes();
  for_each_line_piece(tx.get_address(), std::max(tx.get_data_length(), 1u), line,
                      [&](std::uint64_t a, unsigned, unsigned) {
                        const Outcome o = model_->prefetch(a, at);
                        ok = ok && o.ok;
                        done = std::max(done, o.done);
                      });
  tx.set_response_status(ok ? tlm::TLM_OK_RESPONSE : next_.last_error());
  const ScTick after = to_tick(current_time());
  delay = done > after ? to_time(done - after) : sc_core::SC_ZERO_TIME;
}

unsigned int L2Bank::transport_dbg(tlm::tlm_generic_payload& tx) {
  return serve_debug(*model_, model_->geometry().line_bytes(), tx);
}

void L2Bank::set_trace(trace::VcdWriter* vcd) {
  // The model's ticks are time-resolution units.
  model_->set_mshr_signal(trace::SignalRef(vcd, std::string(name()) + ".mshrs", 8, trace::SignalRef::kCounting),
                          sc_core::sc_get_time_resolution().to_seconds() * 1e12);
}

sc_time L2Bank::flush_timed(const sc_time& at, bool invalidate) {
  return to_time(model_->flush(to_tick(at), invalidate));
}

}  // namespace par::l2
