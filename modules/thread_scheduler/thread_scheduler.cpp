#include "thread_scheduler.hpp"

#include <cstring>
#include <sstream>

#include "packet_descriptor.hpp"
#include "par/sckit/payload.hpp"

namespace par::sched {

using sc_core::sc_time;
using sc_core::SC_NS;
using sc_core::SC_ZERO_TIME;

namespace {

tlm::tlm_response_status to_tlm(RegResult r) {
  switch (r) {
    case RegResult::Ok: return tlm::TLM_OK_RESPONSE;
    case RegResult::AddressError: return tlm::TLM_ADDRESS_ERROR_RESPONSE;
    case RegResult::BurstError: return tlm::TLM_BURST_ERROR_RESPONSE;
    case RegResult::CommandError: return tlm::TLM_COMMAND_ERROR_RESPONSE;
  }
  return tlm::TLM_GENERIC_ERROR_RESPONSE;
}

// Exact for whole picoseconds (to_seconds() * 1e9 is not: 6 ns would give 5.999...).
double ns(const sc_time& t) { return t / sc_time(1, SC_NS); }

std::string hex(std::uint64_t v) {
  std::ostringstream os;
  os << "0x" << std::hex << v;
  return os.str();
}

}  // namespace

ThreadScheduler::ThreadScheduler(sc_core::sc_module_name name, const SchedulerConfig& cfg)
    : sc_module(name),
      regs("regs"),
      cores("cores"),
      notify("notify"),
      cfg_(checked(cfg)),
      register_latency_(cfg_.register_latency_ns, SC_NS),
      dispatch_latency_(cfg_.dispatch_latency_ns, SC_NS),
      stats_group_(this->name()),
      stats_(stats_group_) {
  regs.register_b_transport(this, &ThreadScheduler::b_transport);
  regs.register_transport_dbg(this, &ThreadScheduler::transport_dbg);
  SC_HAS_PROCESS(ThreadScheduler);
  SC_THREAD(dispatch_thread);
}

void ThreadScheduler::end_of_elaboration() {
  logic_ = std::make_unique<DispatchLogic>(cfg_, cores.size());
  stats_.add_cores(cores.size());
}

// --- tracing --------------------------------------------------------------------------------------

void ThreadScheduler::set_trace(trace::Timeline* timeline, trace::VcdWriter* vcd) {
  launches_ = trace::TrackRef(timeline, "scheduler", "launches");
  if (timeline != nullptr) {
    packet_name_ = timeline->name("packet");
    launch_category_ = timeline->category("launch");
  }
  pending_signal_ = trace::SignalRef(vcd, "scheduler.pending", 16);
}

void ThreadScheduler::trace_pending() {
  if (pending_signal_.enabled())
    pending_signal_.set(to_ps_(sc_core::sc_time_stamp()), logic_->outstanding());
}

void ThreadScheduler::trace_packet(const PacketRecord& r) {
  if (!launches_.enabled()) return;
  unsigned used_cores = 0;
  const auto it = cores_of_packet_.find(r.seq);
  if (it != cores_of_packet_.end()) {
    for (bool used : it->second) used_cores += used ? 1 : 0;
    cores_of_packet_.erase(it);
  }
  launches_.interval(packet_name_, launch_category_, to_ps_(r.submitted), to_ps_(r.finished),
                     {{"seq", r.seq}, {"threads", r.threads}, {"cores", used_cores},
                      {"start", r.start}, {"ok", r.ok}});
}

// --- registers ------------------------------------------------------------------------------------

std::uint64_t ThreadScheduler::peek(std::uint64_t offset) const {
  const Decoded d = decode(offset, 8, false);
  if (d.result != RegResult::Ok) return 0;
  if (d.reg == Reg::Staging) {
    std::uint8_t bytes[8];
    staging_.read(offset, bytes, 8);
    std::uint64_t v;
    std::memcpy(&v, bytes, 8);
    return v;
  }
  if (logic_ == nullptr) return 0;
  switch (d.reg) {
    case Reg::Status: return logic_->status();
    case Reg::Submitted: return logic_->submitted();
    case Reg::Completed:
    case Reg::Wait: return logic_->completed();
    case Reg::Queued: return logic_->queued();
    case Reg::FailedSeq: return logic_->failed_seq();
    default: return 0;
  }
}

void ThreadScheduler::b_transport(tlm::tlm_generic_payload& tx, sc_time& delay) {
  const std::uint64_t address = tx.get_address();
  const unsigned length = tx.get_data_length();
  if (tx.get_byte_enable_ptr() != nullptr) {
    tx.set_response_status(tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
    return;
  }
  if (tx.get_streaming_width() < length) {
    tx.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    return;
  }
  if (!tx.is_read() && !tx.is_write()) {  // TLM_IGNORE_COMMAND
    tx.set_response_status(tlm::TLM_OK_RESPONSE);
    return;
  }
  const Decoded d = decode(address, length, tx.is_write());
  if (d.result != RegResult::Ok) {
    delay += register_latency_;
    tx.set_response_status(to_tlm(d.result));
    return;
  }
  std::uint8_t* data = tx.get_data_ptr();
  tlm::tlm_response_status status = tlm::TLM_OK_RESPONSE;
  switch (d.reg) {
    case Reg::Staging:
      if (tx.is_write()) staging_.write(address, data, length);
      else staging_.read(address, data, length);
      delay += register_latency_;
      break;
    case Reg::Doorbell:
      doorbell(delay);
      break;
    case Reg::ClearError:
      logic_->clear_error();
      delay += register_latency_;
      break;
    case Reg::Wait: {
      std::uint64_t value = 0;
      status = wait_read(value, delay);
      std::memcpy(data, &value, 8);
      break;
    }
    default: {
      const std::uint64_t value = peek(address);
      std::memcpy(data, &value, 8);
      delay += register_latency_;
      break;
    }
  }
  tx.set_response_status(status);
}

void ThreadScheduler::doorbell(sc_time& delay) {
  // The command as staged when the doorbell arrives; it takes effect one register access later.
  const Command cmd = staging_.command();
  sc_core::wait(delay + register_latency_);
  delay = SC_ZERO_TIME;
  if (logic_->full()) {
    ++stats_.queue_full_stalls;
    const sc_time blocked = sc_core::sc_time_stamp();
    while (logic_->full()) sc_core::wait(progress_);
    stats_.queue_full_ns += ns(sc_core::sc_time_stamp() - blocked);
  }
  const std::uint64_t seq = logic_->submit(cmd);
  PacketRecord r;
  r.seq = seq;
  r.start = cmd.start;
  r.threads = cmd.threads;
  r.submitted = sc_core::sc_time_stamp();
  records_.push_back(r);
  ++stats_.commands;
  trace_pending();
  wake_.notify(SC_ZERO_TIME);
}

tlm::tlm_response_status ThreadScheduler::wait_read(std::uint64_t& value, sc_time& delay) {
  sc_core::wait(delay + register_latency_);
  delay = SC_ZERO_TIME;
  const std::uint64_t last = logic_->submitted();
  while (!logic_->finished_through(last)) sc_core::wait(progress_);
  value = logic_->completed();
  return logic_->failed_through(last) ? tlm::TLM_GENERIC_ERROR_RESPONSE : tlm::TLM_OK_RESPONSE;
}

unsigned int ThreadScheduler::transport_dbg(tlm::tlm_generic_payload& tx) {
  const std::uint64_t address = tx.get_address();
  const unsigned length = tx.get_data_length();
  const bool write = tx.is_write();
  const Decoded d = decode(address, length, write);
  if ((!write && !tx.is_read()) || d.result != RegResult::Ok || (write && d.reg != Reg::Staging)) {
    // Debug writes never ring the doorbell or clear the error.
    tx.set_response_status(d.result != RegResult::Ok ? to_tlm(d.result) : tlm::TLM_COMMAND_ERROR_RESPONSE);
    return 0;
  }
  if (d.reg == Reg::Staging) {
    if (write) staging_.write(address, tx.get_data_ptr(), length);
    else staging_.read(address, tx.get_data_ptr(), length);
  } else {
    const std::uint64_t value = peek(address);  // WAIT reads COMPLETED without blocking
    std::memcpy(tx.get_data_ptr(), &value, 8);
  }
  tx.set_response_status(tlm::TLM_OK_RESPONSE);
  return length;
}

// --- dispatch -------------------------------------------------------------------------------------

void ThreadScheduler::dispatch_thread() {
  for (;;) {
    while (const std::optional<Action> a = logic_->next()) {
      PacketRecord& r = records_.at(a->seq - 1);
      const sc_time now = sc_core::sc_time_stamp();
      if (a->kind == Action::Kind::Complete) {
        if (r.shares == 0) r.started = now;  // THREADS <= 0
        const std::uint64_t seq = a->seq;
        completions_.run([this, seq] { signal_completion(seq); });
        continue;
      }
      const Share share = a->share;
      if (r.shares == 0) r.started = now;
      ++r.shares;
      r.threads_launched += share.threads;
      ++stats_.shares;
      stats_.threads_launched += static_cast<std::uint64_t>(share.threads);
      if (launches_.enabled()) {
        std::vector<bool>& used = cores_of_packet_[a->seq];
        used.resize(logic_->cores());
        used[share.core] = true;
      }
      CoreCounters& cc = stats_.core(share.core);
      ++cc.shares;
      cc.threads += static_cast<std::uint64_t>(share.threads);
      // One descriptor at a time: the dispatcher is busy while it sends one.
      if (dispatch_latency_ > SC_ZERO_TIME) sc_core::wait(dispatch_latency_);
      const std::uint64_t seq = a->seq;
      shares_.run([this, seq, share] { run_share(seq, share); });
    }
    sc_core::wait(wake_);
  }
}

void ThreadScheduler::run_share(std::uint64_t seq, Share share) {
  const Command& cmd = logic_->command(seq);
  core::PacketDescriptor desc;
  desc.start = cmd.start;
  desc.threads = share.threads;
  desc.first_thread = share.first_thread;
  static_assert(sizeof desc.inherited == sizeof cmd.inherited, "i0..i15 in both");
  std::memcpy(desc.inherited, cmd.inherited, sizeof desc.inherited);
  desc.inherited[0] = 0;

  tlm::tlm_generic_payload tx;
  sckit::prepare_request(tx, tlm::TLM_WRITE_COMMAND, core::kCtrlLaunch, reinterpret_cast<unsigned char*>(&desc),
                         sizeof desc);
  const sc_time launched = sc_core::sc_time_stamp();
  sc_time delay = SC_ZERO_TIME;
  cores[static_cast<int>(share.core)]->b_transport(tx, delay);
  if (delay > SC_ZERO_TIME) sc_core::wait(delay);
  stats_.core(share.core).busy_ns += ns(sc_core::sc_time_stamp() - launched);

  const bool ok = tx.is_response_ok();
  if (!ok) {
    const std::uint64_t last = share.first_thread + static_cast<std::uint64_t>(share.threads) - 1;
    note_failure(records_.at(seq - 1), "threads " + std::to_string(share.first_thread) + ".." +
                                           std::to_string(last) + " on core " + std::to_string(share.core) +
                                           ": " + tx.get_response_string());
  }
  logic_->share_done(seq, share.core, ok);
  wake_.notify(SC_ZERO_TIME);
}

void ThreadScheduler::signal_completion(std::uint64_t seq) {
  records_.at(seq - 1).executed = sc_core::sc_time_stamp();
  const Command cmd = logic_->command(seq);
  if (cmd.flag_addr != 0) {
    const std::uint64_t value = cmd.tag | (logic_->packet_failed(seq) ? kFlagErrorBit : 0);
    const std::string why = write_flag(cmd.flag_addr, value);
    if (!why.empty()) {
      logic_->fail(seq);
      note_failure(records_.at(seq - 1), why);
    }
  }
  // Taken after the flag write: records_ may have grown (and moved) meanwhile.
  PacketRecord& r = records_.at(seq - 1);
  const bool failed = logic_->packet_failed(seq);
  logic_->finish(seq);
  r.finished = sc_core::sc_time_stamp();
  r.done = true;
  r.ok = !failed;
  ++stats_.packets_completed;
  if (failed) ++stats_.packets_failed;
  if (cmd.threads <= 0) ++stats_.empty_packets;
  stats_.packet_ns += ns(r.finished - r.started);
  trace_packet(r);
  trace_pending();
  progress_.notify(SC_ZERO_TIME);
  wake_.notify(SC_ZERO_TIME);
}

std::string ThreadScheduler::write_flag(std::uint64_t address, std::uint64_t value) {
  if (notify.size() == 0) return "completion flag at " + hex(address) + " not written: `notify` is not bound";
  tlm::tlm_generic_payload tx;
  sckit::prepare_request(tx, tlm::TLM_WRITE_COMMAND, address, reinterpret_cast<unsigned char*>(&value), 8);
  sc_time delay = SC_ZERO_TIME;
  notify->b_transport(tx, delay);
  if (delay > SC_ZERO_TIME) sc_core::wait(delay);
  ++stats_.flag_writes;
  if (tx.is_response_ok()) return "";
  ++stats_.flag_write_errors;
  return "completion flag write to " + hex(address) + ": " + tx.get_response_string();
}

void ThreadScheduler::note_failure(PacketRecord& r, const std::string& why) {
  r.ok = false;
  if (r.error.empty()) r.error = why;
  if (first_error_.empty()) first_error_ = "packet " + std::to_string(r.seq) + ": " + why;
}

}  // namespace par::sched
