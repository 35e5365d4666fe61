#include "par/tlmcheck/checker_stats.hpp"

namespace par::tlmcheck {

CheckerStats::CheckerStats(simkit::StatGroup& g)
    : b_transport(g.counter("b_transport", "calls", "b_transport calls checked")),
      nb_transport_fw(g.counter("nb_transport_fw", "calls", "nb_transport_fw calls checked")),
      nb_transport_bw(g.counter("nb_transport_bw", "calls", "nb_transport_bw calls checked")),
      nb_transactions(
          g.counter("nb_transactions", "transactions", "Transactions started with BEGIN_REQ")),
      get_direct_mem_ptr(
          g.counter("get_direct_mem_ptr", "calls", "get_direct_mem_ptr calls checked")),
      invalidate_direct_mem_ptr(g.counter("invalidate_direct_mem_ptr", "calls",
                                          "invalidate_direct_mem_ptr calls checked")),
      transport_dbg(g.counter("transport_dbg", "calls", "transport_dbg calls checked")),
      violations(g.counter("violations", "violations", "Protocol violations detected")) {}

}  // namespace par::tlmcheck
