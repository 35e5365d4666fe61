#include "l2.hpp"

#include <algorithm>
#include <string>

#include "par/sckit/payload.hpp"

namespace par::l2 {

using sc_core::sc_time;

L2::L2(sc_core::sc_module_name name, const L2Config& cfg, const BankFactory& external_banks)
    : sc_module(name),
      in("in"),
      ctrl("ctrl"),
      cfg_(checked(cfg)),
      geo_(cfg_),
      to_bank_("to_bank"),
      stats_(this->name()),
      requests_(stats_.counter("requests", "accesses", "Accesses received on the L2's socket")),
      split_requests_(stats_.counter("split_requests", "accesses",
                                     "Accesses that spanned several lines (one per line)")) {
  // Totals over the banks, as view formulas so that per-launch differences are right. Registered
  // before the banks exist; the paths are resolved when the statistics are reported.
  for (const auto& stat : BankStats::summed()) {
    std::vector<std::string> paths;
    for (unsigned b = 0; b < cfg_.banks; ++b)
      paths.push_back("bank" + std::to_string(b) + "." + stat.name);
    stats_.sum(stat.name, stat.unit, std::string("Sum of ") + stat.name + " over the banks", std::move(paths));
  }
  if (cfg_.prefetch_stats) {
    simkit::StatGroup& prefetch = stats_.group("prefetch");
    for (const auto& stat : PrefetchCounters::summed()) {
      std::vector<std::string> paths;
      for (unsigned b = 0; b < cfg_.banks; ++b)
        paths.push_back("../bank" + std::to_string(b) + ".prefetch." + stat.name);
      prefetch.sum(stat.name, stat.unit, std::string("Sum of prefetch.") + stat.name + " over the banks",
                   std::move(paths));
    }
    prefetch.formula("accuracy", "ratio", "useful / fills over all banks",
                     [](const simkit::StatView& s) { return s["useful"] / s["fills"]; },
                     simkit::Format::percent(2));
  }
  stats_.formula("hit_rate", "ratio", "hits / accesses over all banks",
                 [](const simkit::StatView& s) { return s["hits"] / s["accesses"]; },
                 simkit::Format::percent(2));
  for (unsigned b = 0; b < cfg_.banks; ++b) {
    const std::string bank_name = "bank" + std::to_string(b);
    if (external_banks) {
      to_bank_.bind(external_banks(bank_name.c_str(), b));
      continue;
    }
    banks_.push_back(std::make_unique<L2Bank>(bank_name.c_str(), cfg_, b, &stats_));
    to_bank_.bind(banks_.back()->in);
  }
  in.register_b_transport(this, &L2::b_transport);
  in.register_transport_dbg(this, &L2::transport_dbg);
  ctrl.register_b_transport(this, &L2::ctrl_transport);
  ctrl.register_transport_dbg(this, &L2::ctrl_dbg);
}

void L2::b_transport(tlm::tlm_generic_payload& tx, sc_time& delay) {
  if (!sckit::is_prefetch(tx)) ++requests_;  // demand traffic (prefetches: l2.prefetch.requests)
  const std::uint64_t addr = tx.get_address();
  const unsigned len = tx.get_data_length();
  const unsigned line = geo_.line_bytes();
  if (len == 0 || geo_.offset_in_line(addr) + len <= line) {
    to_bank(bank_of(addr), tx, delay);
    return;
  }
  split(tx, delay);
}

void L2::split(tlm::tlm_generic_payload& tx, sc_time& delay) {
  const std::uint64_t addr = tx.get_address();
  const unsigned len = tx.get_data_length();
  const unsigned line = geo_.line_bytes();
  if (refuse_bad_payload(tx)) return;
  ++split_requests_;
  // A prefetch's pieces are prefetches too: they carry its hint (detached again before the
  // piece, which would free it, goes).
  auto* hint = tx.get_extension<sckit::PrefetchHint>();
  // Every piece arrives at the same time; the access completes with its slowest piece.
  const sc_time arrival = sc_core::sc_time_stamp() + delay;
  sc_time end = arrival;
  tlm::tlm_response_status status = tlm::TLM_OK_RESPONSE;
  std::vector<unsigned char> be;
  // One payload for every piece (prepare_piece sets each field): a payload's construction and
  // destruction cost more than a line's access.
  tlm::tlm_generic_payload piece;
  for_each_line_piece(addr, len, line, [&](std::uint64_t a, unsigned off, unsigned n) {
    sckit::prepare_piece(tx, off, n, piece, be);
    if (hint != nullptr) piece.set_extension(hint);
    const sc_time now = sc_core::sc_time_stamp();
    sc_time d = arrival > now ? arrival - now : sc_core::SC_ZERO_TIME;
    to_bank(bank_of(a), piece, d);
    if (hint != nullptr) piece.clear_extension(hint);
    end = std::max(end, sc_core::sc_time_stamp() + d);
    if (!piece.is_response_ok() && status == tlm::TLM_OK_RESPONSE) {
      status = piece.get_response_status();
    }
  });
  tx.set_response_status(status);
  const sc_time now = sc_core::sc_time_stamp();
  delay = end > now ? end - now : sc_core::SC_ZERO_TIME;
}

unsigned int L2::transport_dbg(tlm::tlm_generic_payload& tx) {
  const std::uint64_t addr = tx.get_address();
  const unsigned len = tx.get_data_length();
  bool ok = true;
  std::vector<unsigned char> be;
  tlm::tlm_generic_payload piece;  // reused, as in b_transport
  for_each_line_piece(addr, len, geo_.line_bytes(), [&](std::uint64_t a, unsigned off, unsigned n) {
    sckit::prepare_piece(tx, off, n, piece, be);
    ok = to_bank_[static_cast<int>(bank_of(a))]->transport_dbg(piece) == n && ok;
  });
  tx.set_response_status(ok ? tlm::TLM_OK_RESPONSE : tlm::TLM_ADDRESS_ERROR_RESPONSE);
  return ok ? len : 0;
}

void L2::flush(bool invalidate) {
  for (auto& b : banks_) b->flush(invalidate);
}

sc_time L2::flush_timed(const sc_time& at, bool invalidate) {
  sc_time end = at;
  for (auto& b : banks_) end = std::max(end, b->flush_timed(at, invalidate));
  return end;
}

void L2::ctrl_transport(tlm::tlm_generic_payload& tx, sc_time& delay) {
  const std::uint64_t addr = tx.get_address();
  if (addr != kCtrlFlush && addr != kCtrlFlushInvalidate) {
    tx.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  if (tx.is_write()) {
    const sc_time now = sc_core::sc_time_stamp();
    const sc_time end = flush_timed(now + delay, addr == kCtrlFlushInvalidate);
    delay = end - now;
  } else if (tx.is_read()) {
    std::fill_n(tx.get_data_ptr(), tx.get_data_length(), 0);  // nothing to report
  }
  tx.set_response_status(tlm::TLM_OK_RESPONSE);
}

unsigned int L2::ctrl_dbg(tlm::tlm_generic_payload& tx) {
  const std::uint64_t addr = tx.get_address();
  if (addr != kCtrlFlush && addr != kCtrlFlushInvalidate) return 0;
  if (tx.is_write()) flush(addr == kCtrlFlushInvalidate);
  else if (tx.is_read()) std::fill_n(tx.get_data_ptr(), tx.get_data_length(), 0);
  tx.set_response_status(tlm::TLM_OK_RESPONSE);
  return tx.get_data_length();
}

}  // namespace par::l2
