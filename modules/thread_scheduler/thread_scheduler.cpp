#include "thread_scheduler.hpp"

#include <algorithm>
#include <cstring>
#include <sstream>

#include "par/core/core_registers.hpp"
#include "par/sckit/fast_time.hpp"
#include "par/sckit/payload.hpp"
#include "par/sckit/target_check.hpp"
#include "par/sckit/time_units.hpp"

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

std::string status_name(tlm::tlm_response_status status) {
  tlm::tlm_generic_payload tx;
  tx.set_response_status(status);
  return tx.get_response_string();
}


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
      core_irq("core_irq"),
      notify("notify"),
      irq("irq"),
      cfg_(checked(cfg)),
      register_latency_(cfg_.register_latency_ns, SC_NS),
      dispatch_latency_(cfg_.dispatch_latency_ns, SC_NS),
      stats_group_(this->name()),
      stats_(stats_group_) {
  regs.register_b_transport(this, &ThreadScheduler::b_transport);
  regs.register_transport_dbg(this, &ThreadScheduler::transport_dbg);
  SC_HAS_PROCESS(ThreadScheduler);
  SC_THREAD(control_thread);
  // Statically sensitive: a wait with an or-list and a timeout registers with and removes from
  // each event on every wake-up (README.md "Host cost"); `timer_` stands for the timeout.
  sensitive << doorbell_rung_ << line_rose_ << timer_;
}

void ThreadScheduler::end_of_elaboration() {
  if (core_slots_.empty()) core_slots_.assign(cores.size(), 1);
  if (core_slots_.size() != cores.size())
    throw std::invalid_argument(std::string(name()) + ": " + std::to_string(cores.size()) + " cores bound to `cores` but " +
                                std::to_string(core_slots_.size()) + " core shapes given (set_core_slots)");
  logic_ = std::make_unique<DispatchLogic>(cfg_, core_slots_);
  if (static_cast<std::size_t>(core_irq.size()) != cores.size())
    throw std::invalid_argument(std::string(name()) + ": " + std::to_string(cores.size()) + " cores bound to `cores` but " +
                                std::to_string(core_irq.size()) + " completion lines to `core_irq`");
  stats_.add_cores(cores.size());
  running_.resize(cores.size());
  has_share_.assign(cores.size(), 0);
  for (int c = 0; c < core_irq.size(); ++c) lines_.push_back(core_irq[c]);
  inputs_ |= doorbell_rung_;
  inputs_ |= line_rose_;
  if (core_irq.size() > 0) {
    sc_core::sc_spawn_options lines;
    lines.spawn_method();
    lines.dont_initialize();
    for (int c = 0; c < core_irq.size(); ++c) lines.set_sensitivity(&core_irq[c]->posedge_event());
    // Immediate: the process runs in the delta cycle in which it would have seen the line itself.
    sc_core::sc_spawn([this] { line_rose_.notify(); }, "core_lines", &lines);
  }
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
    pending_signal_.set(to_ps_(sckit::current_time()), logic_->outstanding());
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
    case Reg::Status: {
      std::uint64_t status = logic_->status();
      if (!doorbells_.empty()) status |= kStatusBusy;
      if (logic_->outstanding() + doorbells_.size() >= cfg_.queue_depth) status |= kStatusQueueFull;
      return status;
    }
    case Reg::Submitted: return logic_->submitted();
    case Reg::Completed: return logic_->completed();
    case Reg::Queued: return logic_->queued();
    case Reg::FailedSeq: return logic_->failed_seq();
    default: return 0;
  }
}

void ThreadScheduler::b_transport(tlm::tlm_generic_payload& tx, sc_time& delay) {
  const std::uint64_t address = tx.get_address();
  const unsigned length = tx.get_data_length();
  sckit::AccessRules rules;
  rules.byte_enables = sckit::AccessRules::ByteEnables::Refused;
  rules.ignore = sckit::AccessRules::Ignore::OkAfterShape;
  if (const tlm::tlm_response_status s = sckit::check_access(tx, rules); s != tlm::TLM_INCOMPLETE_RESPONSE) {
    tx.set_response_status(s);
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
      break;
    case Reg::Doorbell: status = doorbell(delay); break;
    case Reg::ClearError: logic_->clear_error(); break;
    default: {
      const std::uint64_t value = peek(address);
      std::memcpy(data, &value, 8);
      break;
    }
  }
  delay += register_latency_;
  tx.set_response_status(status);
}

tlm::tlm_response_status ThreadScheduler::doorbell(const sc_time& delay) {
  // A queue entry is taken from the doorbell on: counting those not yet in effect, the queue
  // cannot overflow (the host tracks its packets and rings only with an entry free).
  if (logic_->outstanding() + doorbells_.size() >= cfg_.queue_depth) {
    ++stats_.doorbells_refused;
    return tlm::TLM_GENERIC_ERROR_RESPONSE;
  }
  // The command as staged when the doorbell arrives; it takes effect one register access later.
  const Doorbell b{sckit::current_time() + delay + register_latency_, staging_.command()};
  auto it = doorbells_.end();
  while (it != doorbells_.begin() && std::prev(it)->at > b.at) --it;
  doorbells_.insert(it, b);
  doorbell_rung_.notify(SC_ZERO_TIME);
  return tlm::TLM_OK_RESPONSE;
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
    const std::uint64_t value = peek(address);
    std::memcpy(tx.get_data_ptr(), &value, 8);
  }
  tx.set_response_status(tlm::TLM_OK_RESPONSE);
  return length;
}

// --- the control process ----------------------------------------------------------------------------

void ThreadScheduler::control_thread() {
  for (;;) {
    accept_doorbells();
    finish_due();
    collect_core_completions();
    const sc_time now = sckit::current_time();
    if (sending_ && sending_->at <= now) {
      const ShareRun s = *sending_;
      sending_.reset();
      start_share(s);
    }
    if (!sending_) dispatch();
    // The earliest timer, if any (sc_max_time() is a library call: not per wake-up).
    bool timed = false;
    sc_time next;
    const auto earliest = [&](const sc_time& at) {
      if (!timed || at < next) next = at;
      timed = true;
    };
    if (!doorbells_.empty()) earliest(doorbells_.front().at);
    for (const Finishing& f : finishing_) earliest(f.at);
    if (sending_) earliest(sending_->at);
    // As wait(next - now, doorbell_rung_ | line_rose_) would: the timeout is a fresh timed
    // notification at every wait (a pending one is cancelled first, as SystemC cancels the timeout
    // when an event of the list wakes the process; a cancelled timed notification stays in the
    // kernel's queue either way), so the kernel sees the same notifications in the same order. A
    // zero timeout is a delta notification, whose cancellation reorders the delta queue: that
    // rare wait keeps the or-list, and so the timer is never pending in a delta.
    timer_.cancel();
    if (!timed) {
      sc_core::wait();
    } else if (next > now) {
      timer_.notify(next - now);
      sc_core::wait();
    } else {
      sc_core::wait(SC_ZERO_TIME, inputs_);
    }
  }
}

void ThreadScheduler::accept_doorbells() {
  const sc_time now = sckit::current_time();
  while (!doorbells_.empty() && doorbells_.front().at <= now) {
    const Command cmd = doorbells_.front().cmd;
    doorbells_.pop_front();
    const std::uint64_t seq = logic_->submit(cmd);
    PacketRecord r;
    r.seq = seq;
    r.start = cmd.start;
    r.threads = cmd.threads;
    r.submitted = now;
    records_.push_back(r);
    ++stats_.commands;
    trace_pending();
  }
}

void ThreadScheduler::collect_core_completions() {
  for (std::size_t c = 0; c < running_.size(); ++c) {
    if (!has_share_[c] || !lines_[c]->read()) continue;
    // The line may still be high from the core's previous launch: STATUS tells.
    std::uint64_t status = core::kCoreStatusBusy;
    const tlm::tlm_response_status r = core_access(c, tlm::TLM_READ_COMMAND, core::kCoreRegStatus, &status, 8);
    if (r == tlm::TLM_OK_RESPONSE && status == core::kCoreStatusBusy) continue;
    const ShareRun s = *running_[c];
    running_[c].reset();
    has_share_[c] = 0;
    if (r != tlm::TLM_OK_RESPONSE) share_done(s, false, "STATUS read: " + status_name(r));
    else if (status == core::kCoreStatusIdle) share_done(s, true, std::string());  // no message to build
    else share_done(s, false, "the core reported a failure");
  }
}

void ThreadScheduler::finish_due() {
  const sc_time now = sckit::current_time();
  // In the order the completions were started.
  for (std::size_t i = 0; i < finishing_.size();) {
    if (finishing_[i].at > now) {
      ++i;
      continue;
    }
    const std::uint64_t seq = finishing_[i].seq;
    finishing_.erase(finishing_.begin() + static_cast<std::ptrdiff_t>(i));
    finish(seq);
  }
}

void ThreadScheduler::dispatch() {
  while (!sending_) {
    const std::optional<Action> a = logic_->next();
    if (!a) return;
    PacketRecord& r = records_.at(a->seq - 1);
    const sc_time now = sckit::current_time();
    if (a->kind == Action::Kind::Complete) {
      if (r.shares == 0) r.started = now;  // THREADS <= 0
      start_completion(a->seq);
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
    const ShareRun s{a->seq, share, now + dispatch_latency_};
    if (dispatch_latency_ > SC_ZERO_TIME) sending_ = s;
    else start_share(s);
  }
}

tlm::tlm_response_status ThreadScheduler::core_access(std::size_t c, tlm::tlm_command cmd, std::uint64_t offset,
                                                      void* data, unsigned length) {
  // One payload for all of them (a core's registers answer at once, never calling back): a payload
  // built per access costs an allocation of its extension array, three accesses per share.
  tlm::tlm_generic_payload& tx = core_payload_;
  sckit::prepare_request(tx, cmd, offset, static_cast<unsigned char*>(data), length);
  sc_time delay = SC_ZERO_TIME;
  cores[static_cast<int>(c)]->b_transport(tx, delay);
  return tx.get_response_status();
}

void ThreadScheduler::start_share(const ShareRun& s) {
  const Command& cmd = logic_->command(s.seq);
  core::PacketDescriptor desc;
  desc.start = cmd.start;
  desc.threads = s.share.threads;
  desc.first_thread = s.share.first_thread;
  static_assert(sizeof desc.inherited == sizeof cmd.inherited, "i0..i15 in both");
  std::memcpy(desc.inherited, cmd.inherited, sizeof desc.inherited);
  desc.inherited[0] = 0;
  std::uint64_t ring = 1;
  tlm::tlm_response_status r = core_access(s.share.core, tlm::TLM_WRITE_COMMAND, core::kCoreRegStart, &desc, sizeof desc);
  if (r == tlm::TLM_OK_RESPONSE) r = core_access(s.share.core, tlm::TLM_WRITE_COMMAND, core::kCoreRegDoorbell, &ring, 8);
  ShareRun started = s;
  started.at = sckit::current_time();
  if (r == tlm::TLM_OK_RESPONSE) {
    running_[s.share.core] = started;
    has_share_[s.share.core] = 1;
  }
  else share_done(started, false, status_name(r));
}

void ThreadScheduler::share_done(const ShareRun& s, bool ok, const std::string& why) {
  stats_.core(s.share.core).busy_ns += sckit::to_ns(sckit::current_time() - s.at);
  if (!ok) {
    const std::uint64_t last = s.share.first_thread + static_cast<std::uint64_t>(s.share.threads) - 1;
    note_failure(records_.at(s.seq - 1), "threads " + std::to_string(s.share.first_thread) + ".." +
                                             std::to_string(last) + " on core " + std::to_string(s.share.core) + ": " +
                                             why);
  }
  logic_->share_done(s.seq, s.share.core, ok);
}

void ThreadScheduler::start_completion(std::uint64_t seq) {
  const sc_time now = sckit::current_time();
  records_.at(seq - 1).executed = now;
  const Command& cmd = logic_->command(seq);
  if (cmd.flag_addr == 0) {
    finish(seq);
    return;
  }
  const std::uint64_t value = cmd.tag | (logic_->packet_failed(seq) ? kFlagErrorBit : 0);
  sc_time done = now;
  const std::string why = write_flag(cmd.flag_addr, value, done);
  if (!why.empty()) {
    logic_->fail(seq);
    note_failure(records_.at(seq - 1), why);
  }
  // The flag's data is in host memory from this call on (loosely timed): a host that sees it
  // must also find a failure in STATUS.
  logic_->publish_failure(seq);
  finishing_.push_back({done, seq});
}

void ThreadScheduler::finish(std::uint64_t seq) {
  const Command cmd = logic_->command(seq);
  PacketRecord& r = records_.at(seq - 1);
  const bool failed = logic_->packet_failed(seq);
  logic_->finish(seq);
  r.finished = sckit::current_time();
  r.done = true;
  ++packets_done_;
  r.ok = !failed;
  ++stats_.packets_completed;
  if (failed) ++stats_.packets_failed;
  if (cmd.threads <= 0) ++stats_.empty_packets;
  stats_.packet_ns += sckit::to_ns(r.finished - r.started);
  trace_packet(r);
  trace_pending();
  // Counted in COMPLETED, then announced: a host woken by the interrupt finds it there.
  if ((cmd.control & kControlInterrupt) != 0 && irq.size() > 0) {
    const std::uint32_t data = (static_cast<std::uint32_t>(cmd.tag) & kInterruptTagMask) | (failed ? kInterruptFailedBit : 0);
    irq->interrupt(data, SC_ZERO_TIME);
    ++stats_.interrupts;
  }
  finished_.notify(SC_ZERO_TIME);
}

std::string ThreadScheduler::write_flag(std::uint64_t address, std::uint64_t value, sc_time& done) {
  if (notify.size() == 0) return "completion flag at " + hex(address) + " not written: `notify` is not bound";
  tlm::tlm_generic_payload tx;
  sckit::prepare_request(tx, tlm::TLM_WRITE_COMMAND, address, reinterpret_cast<unsigned char*>(&value), 8);
  sc_time delay = SC_ZERO_TIME;
  notify->b_transport(tx, delay);
  done = sckit::current_time() + delay;
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
