#include "par/trace/tap_recorder.hpp"

namespace par::trace {

TapRecorder::TapRecorder(Timeline* timeline, std::string_view process, std::string_view thread,
                         std::string_view category)
    : track_(timeline, process, thread) {
  if (timeline == nullptr) return;
  category_ = timeline->category(category);
  read_ = timeline->name("read");
  write_ = timeline->name("write");
  ignore_ = timeline->name("ignore");
}

void TapRecorder::record(const tlm::tlm_generic_payload& tx, Ps begin, Ps end) {
  const NameId name = tx.is_read() ? read_ : tx.is_write() ? write_ : ignore_;
  track_.interval(name, category_, begin, end,
                  {Arg::hex("addr", tx.get_address()), {"bytes", tx.get_data_length()}});
}

void TapRecorder::close(const tlm::tlm_generic_payload& tx, Ps end) {
  const auto it = open_.find(&tx);
  if (it == open_.end()) return;  // END_RESP of a transaction begun before the tap saw it
  record(tx, it->second, end);
  open_.erase(it);
}

void TapRecorder::forward(const tlm::tlm_generic_payload& tx, const tlm::tlm_phase& phase_in,
                          Ps t_in, tlm::tlm_sync_enum status, const tlm::tlm_phase& phase_out,
                          Ps t_out) {
  if (!enabled()) return;
  if (phase_in == tlm::BEGIN_REQ) open_[&tx] = t_in;
  if (phase_in == tlm::END_RESP) {
    close(tx, t_in);
  } else if (status == tlm::TLM_COMPLETED) {
    close(tx, t_out);
  } else if (status == tlm::TLM_UPDATED && phase_out == tlm::END_RESP) {
    close(tx, t_out);
  }
}

void TapRecorder::backward(const tlm::tlm_generic_payload& tx, const tlm::tlm_phase&, Ps,
                           tlm::tlm_sync_enum status, const tlm::tlm_phase& phase_out, Ps t_out) {
  if (!enabled()) return;
  // BEGIN_RESP answered with TLM_COMPLETED (no END_RESP phase) or TLM_UPDATED/END_RESP.
  if (status == tlm::TLM_COMPLETED || (status == tlm::TLM_UPDATED && phase_out == tlm::END_RESP))
    close(tx, t_out);
}

}  // namespace par::trace
