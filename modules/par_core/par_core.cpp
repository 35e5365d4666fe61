#include "par_core.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <sstream>

#include "par/sckit/fast_time.hpp"
#include "par/sckit/prefetch_hint.hpp"

namespace par::core {

using sc_core::sc_time;

using sckit::current_time;
using sckit::time_from_value;

ParCore::ParCore(sc_core::sc_module_name name, const CoreConfig& cfg, const LoadedProgram& program,
                 RunMode mode, int functional_width, sc_time clock_period, sc_time quantum)
    : sc_module(name),
      ctrl("ctrl"),
      mem("mem"),
      irq("irq"),
      cfg_(cfg),
      period_(clock_period),
      cycles_of_(clock_period.value()),
      quantum_(quantum),
      local_(cfg.local_mem_base, cfg.local_mem_size),
      engine_(this->name(), cfg, program, local_, this, mode, functional_width),
      program_(program) {
  if (cfg.prefetch.enabled) {
    prefetch_payload_.set_extension(new sckit::PrefetchHint);  // owned by the payload
    engine_.set_prefetch_port(this);
  }
  ctrl.register_b_transport(this, &ParCore::ctrl_transport);
  if (engine_.stream() != nullptr) {
    streams_ = std::make_unique<tlm_utils::simple_target_socket<ParCore>>("streams");
    streams_->register_b_transport(this, &ParCore::stream_transport);
  }
  total_.lanes = cfg.lanes;
  total_.threads_per_lane = cfg.threads_per_lane;
  total_.rob_size = cfg.rob_size;
  SC_HAS_PROCESS(ParCore);
  SC_THREAD(run_thread);
  sensitive << start_;  // static: a wait on the event would register with it per packet
  SC_METHOD(drive_line);
  sensitive << start_ << packet_end_;
  dont_initialize();
}

void ParCore::run_thread() {
  // Every core's thread has a stack of its own, each page-aligned: the frames of the packet loop
  // below would sit at the same offset in every stack and compete for the same sets of the host's
  // caches (8 cores' hot frames in one 8-way set of the level-1 data cache). A gap of a different
  // number of cache lines per core (by its name, so the same on every run) moves each core's
  // frames to other sets (README "Host cost").
  std::uint32_t hash = 2166136261u;  // FNV-1a
  for (const char* c = basename(); *c != '\0'; ++c) hash = (hash ^ static_cast<unsigned char>(*c)) * 16777619u;
  char* gap = static_cast<char*>(__builtin_alloca(64 * (hash % 64) + 64));
  asm volatile("" : : "r"(gap) : "memory");  // kept although never used
  run_packets();
}

void ParCore::run_packets() {
  for (;;) {
    sc_core::wait();  // for start_; drive_line() lowers the line in this delta cycle
    CoreStats& stats = *running_;
    stats = CoreStats();
    Packet packet;
    packet.start = pending_.start;
    packet.threads = pending_.threads;
    packet.first_thread = pending_.first_thread;
    std::memcpy(packet.inherited, pending_.inherited, sizeof packet.inherited);
    std::string error;
    packet_start_ = sc_core::sc_time_stamp();
    // The first sample boundary at or after the start (boundaries are multiples of the period).
    if (sample_period_ > 0)
      next_sample_ = (packet_start_.value() + sample_period_ - 1) / sample_period_ * sample_period_;
    if (trace_ != nullptr) trace_->begin_packet(to_ps_(packet_start_), to_ps_(period_));
    if (exec_trace_ != nullptr)
      exec_trace_->begin_packet(packet_start_.value() / period_.value(), to_ps_(packet_start_), to_ps_(period_));
    in_engine_ = true;
    last_ok_ = engine_.run(packet, stats, &error);
    in_engine_ = false;
    const auto& regs = engine_.captured_registers();
    captured_.insert(captured_.end(), regs.begin(), regs.end());
    ++packets_run_;
    total_.accumulate(stats);
    std::swap(running_, last_packet_);
    if (!last_ok_ && engine_.stopped()) {  // not an error: the run ends here
      stopped_ = true;
      in_engine_ = false;
      sc_core::sc_stop();
      return;
    }
    if (!last_ok_ && error_.empty()) error_ = error;
    // The packet occupied the core for its execution time (part of which the core may already
    // have spent synchronising). drive_line() ends it then: the thread is not resumed for it (a
    // coroutine switch per packet less, README "Host cost").
    const sc_time end = at_cycle(stats.cycles);
    if (end > sc_core::sc_time_stamp()) packet_end_.notify(end - sc_core::sc_time_stamp());
    // A packet that took no simulated time: let the line fall first, so that it rises again.
    else if (irq.read()) packet_end_.notify(sc_core::SC_ZERO_TIME);
    else packet_end_.notify();
  }
}

void ParCore::drive_line() {
  // The two never fire in one delta cycle: a launch starts at the earliest one DOORBELL after the
  // previous one ended.
  if (!packet_end_.triggered()) {  // start_
    irq.write(false);
    return;
  }
  if (trace_ != nullptr)
    trace_->end_packet(to_ps_(sc_core::sc_time_stamp()), pending_.threads, pending_.first_thread, pending_.start,
                       last_ok_);
  busy_ = false;
  irq.write(true);
}

void ParCore::set_trace(trace::Timeline* timeline, trace::VcdWriter* vcd) {
  trace_.reset();
  if (timeline != nullptr || vcd != nullptr) {
    trace_ = std::make_unique<CoreTrace>(timeline, vcd, basename());
    if (!trace_->enabled()) trace_.reset();  // no selected signal and no timeline
  }
  engine_.set_stall_listener(trace_.get());
}

void ParCore::set_exec_trace(trace::ExecTrace* exec) {
  exec_trace_.reset();
  if (exec != nullptr && exec->wants_core(basename()))
    exec_trace_ = std::make_unique<CoreExecTrace>(*exec, basename(), program_);
  engine_.set_exec_listener(exec_trace_.get());
}

std::int64_t ParCore::threads_started() const { return total_.threads + (in_engine_ ? running_->threads : 0); }

std::string ParCore::pending_work() const {
  if (!busy_) return "";
  std::ostringstream os;
  os << "running threads " << pending_.first_thread << ".." << pending_.first_thread + static_cast<std::uint64_t>(pending_.threads) - 1
     << " (launched at " << packet_start_ << ", " << (in_engine_ ? *running_ : *last_packet_).threads << " started)";
  if (in_memory_access_)
    os << ", waiting for the response to its " << mem_payload_.get_data_length() << "-byte "
       << (mem_payload_.is_write() ? "store" : "load") << " at 0x" << std::hex << mem_payload_.get_address() << std::dec
       << " on `mem`";
  return os.str();
}

void ParCore::ctrl_transport(tlm::tlm_generic_payload& tx, sc_time& delay) {
  tx.set_response_status(ctrl_access(tx, delay));
}

tlm::tlm_response_status ParCore::ctrl_access(tlm::tlm_generic_payload& tx, const sc_time& delay) {
  const std::uint64_t addr = tx.get_address();
  const unsigned len = tx.get_data_length();
  if (const tlm::tlm_response_status s = sckit::check_access(tx, kRegisterRules); s != tlm::TLM_INCOMPLETE_RESPONSE)
    return s;
  if (addr < kCoreDescriptorEnd) {
    if (len > kCoreDescriptorEnd - addr) return tlm::TLM_BURST_ERROR_RESPONSE;
    auto* regs = reinterpret_cast<unsigned char*>(&staged_) + addr;
    if (tx.is_write()) std::memcpy(regs, tx.get_data_ptr(), len);
    else std::memcpy(tx.get_data_ptr(), regs, len);
    return tlm::TLM_OK_RESPONSE;
  }
  if (len != 8) return addr < kCoreRegSpaceEnd ? tlm::TLM_BURST_ERROR_RESPONSE : tlm::TLM_ADDRESS_ERROR_RESPONSE;
  if (addr == kCoreRegStatus) {
    if (tx.is_write()) return tlm::TLM_COMMAND_ERROR_RESPONSE;
    const std::uint64_t status = busy_ ? kCoreStatusBusy : last_ok_ ? kCoreStatusIdle : kCoreStatusFailed;
    std::memcpy(tx.get_data_ptr(), &status, 8);
    return tlm::TLM_OK_RESPONSE;
  }
  if (addr != kCoreRegDoorbell) return tlm::TLM_ADDRESS_ERROR_RESPONSE;
  if (tx.is_read()) return tlm::TLM_COMMAND_ERROR_RESPONSE;
  // One launch at a time: a DOORBELL while busy is refused (the scheduler tracks occupancy).
  if (busy_) return tlm::TLM_GENERIC_ERROR_RESPONSE;
  busy_ = true;
  pending_ = staged_;
  start_.notify(delay);
  return tlm::TLM_OK_RESPONSE;
}

bool ParCore::transact(bool write, std::uint64_t addr, std::uint8_t* data, unsigned len,
                       const std::uint8_t* byte_enable, Cycle cycle, Cycle& done, std::string& error) {
  // One payload object serves every access: only this core's thread issues them, one at a time.
  tlm::tlm_generic_payload& tx = mem_payload_;
  tx.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
  tx.set_address(addr);
  tx.set_data_ptr(data);
  tx.set_data_length(len);
  tx.set_streaming_width(len);
  tx.set_byte_enable_ptr(const_cast<std::uint8_t*>(byte_enable));
  tx.set_byte_enable_length(byte_enable != nullptr ? len : 0);
  tx.set_dmi_allowed(false);
  tx.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  in_memory_access_ = true;  // for the deadlock report (prefetches never block a packet)
  const bool ok = transact_payload(tx, cycle, done, error);
  in_memory_access_ = false;
  return ok;
}

bool ParCore::transact_payload(tlm::tlm_generic_payload& tx, Cycle cycle, Cycle& done, std::string& error) {
  // The access leaves the core in `cycle`; the core runs ahead of the SystemC time, so that is
  // a delay annotation (never negative: the core synchronises only up to its fetch cycle).
  // Integer time-resolution units (at_cycle() without building an sc_time per access).
  const sc_dt::uint64 period = period_.value();
  const sc_dt::uint64 leave = packet_start_.value() + period * static_cast<sc_dt::uint64>(cycle);
  const sc_dt::uint64 now = current_time().value();
  sc_time delay = leave > now ? time_from_value(leave - now) : sc_core::SC_ZERO_TIME;
  mem->b_transport(tx, delay);
  // Back in the core in the first cycle at or after the annotated completion.
  const sc_dt::uint64 ticks = now + delay.value() - packet_start_.value();
  done = std::max<Cycle>(cycle + 1, static_cast<Cycle>(cycles_of_(ticks + period - 1)));
  if (!tx.is_response_ok()) {
    error = tx.get_response_string();
    return false;
  }
  return true;
}

bool ParCore::prefetch(std::uint64_t addr, unsigned len, Cycle cycle, Cycle& done) {
  if (prefetch_buffer_.size() < len) prefetch_buffer_.resize(len);
  tlm::tlm_generic_payload& tx = prefetch_payload_;
  tx.set_command(tlm::TLM_IGNORE_COMMAND);
  tx.set_address(addr);
  tx.set_data_ptr(prefetch_buffer_.data());  // never read or written
  tx.set_data_length(len);
  tx.set_streaming_width(len);
  tx.set_byte_enable_ptr(nullptr);
  tx.set_byte_enable_length(0);
  tx.set_dmi_allowed(false);
  tx.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  std::string ignored;
  return transact_payload(tx, cycle, done, ignored);
}

Cycle ParCore::reached(Cycle cycle) {
  const sc_dt::uint64 start = packet_start_.value(), period = period_.value();
  const sc_dt::uint64 local = start + period * static_cast<sc_dt::uint64>(cycle);
  // Statistics samples due at or before the frontend's position: the work so far is the work of
  // the cycles before it (README "Statistics": live counters).
  while (sample_period_ > 0 && local >= next_sample_) {
    const auto due = static_cast<Cycle>(cycles_of_(next_sample_ - start + period - 1));
    CoreStats s = total_;
    s.accumulate(engine_.progress(*running_, due));
    samples_.emplace_back(next_sample_, std::move(s));
    next_sample_ += sample_period_;
  }
  sc_dt::uint64 now = current_time().value();
  if (local > now && local - now >= quantum_.value()) {
    sc_core::wait(time_from_value(local - now));
    now = current_time().value();
  }
  // The next call: when the frontend is a quantum ahead of the SystemC time as it is now (time
  // only advances, so this is never later than the first cycle that must wait), or reaches the
  // next sample.
  sc_dt::uint64 next = now + quantum_.value();
  if (sample_period_ > 0) next = std::min(next, next_sample_);
  return next <= start ? cycle : static_cast<Cycle>(cycles_of_(next - start + period - 1));
}

void ParCore::set_sample_period(sc_time period) {
  sample_period_ = period.value();
  samples_.clear();
}

CoreStats ParCore::stats_so_far() const {
  CoreStats s = total_;
  if (in_engine_) s.accumulate(engine_.progress(*running_, engine_.synced_cycle()));
  return s;
}

CoreStats ParCore::take_sample(sc_time at) {
  // Boundaries before `at` were sampled already (with the live figures, the core had not passed
  // them then): their records are stale.
  while (!samples_.empty() && samples_.front().first < at.value()) samples_.pop_front();
  if (samples_.empty() || samples_.front().first != at.value()) return stats_so_far();
  CoreStats s = std::move(samples_.front().second);
  samples_.pop_front();
  return s;
}

}  // namespace par::core
