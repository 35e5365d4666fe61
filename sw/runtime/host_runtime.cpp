#include "host_runtime.hpp"

#include <algorithm>
#include <cstring>
#include <sstream>

#include "par/sched/scheduler_registers.hpp"
#include "par/sckit/time_units.hpp"

namespace par::runtime {

using sc_core::sc_time;
using sc_core::SC_NS;

namespace {

std::string hex(std::uint64_t v) {
  std::ostringstream os;
  os << "0x" << std::hex << v;
  return os.str();
}

bool is_pow2(std::uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }

std::string label_list(const std::map<std::string, std::uint64_t>& labels) {
  std::string s;
  for (const auto& [name, addr] : labels) s += (s.empty() ? "" : ", ") + name;
  return s.empty() ? "none" : s;
}

}  // namespace

std::uint64_t f64_bits(double v) {
  std::uint64_t b;
  std::memcpy(&b, &v, 8);
  return b;
}

HostRuntime::Stats::Stats(simkit::StatGroup& g)
    : launches(g.counter("launches", "packets", "Packets launched (DOORBELL writes)")),
      waits(g.counter("waits", "waits", "Waits that had to wait for the device (wait, sync)")),
      wait_ns(g.real("wait_ns", "ns", "Time the host spent waiting for packets to complete")),
      polls(g.counter("polls", "reads", "Polling reads of COMPLETED or the completion flag")),
      copy_to_device_bytes(g.counter("copy_to_device_bytes", "bytes", "Bytes copied by copy_to_device")),
      copy_from_device_bytes(g.counter("copy_from_device_bytes", "bytes", "Bytes copied by copy_from_device")),
      queue_full_waits(g.counter("queue_full_waits", "launches",
                                 "Launches that first waited for a packet to complete (every scheduler queue entry taken)")) {}

HostRuntime::HostRuntime(HostPort& port, const RuntimeConfig& cfg, const isa::Program& program,
                         simkit::StatGroup& stats)
    : port_(port), cfg_(cfg), program_(program), stats_(stats), heap_next_(cfg.heap_base) {
  std::string all;
  for (const std::string& m : cfg_.validate()) all += (all.empty() ? "" : "; ") + m;
  if (!all.empty()) throw std::invalid_argument("invalid host runtime configuration: " + all);
}

// --- memory ----------------------------------------------------------------------------------------

DeviceBuffer HostRuntime::alloc(std::uint64_t bytes, std::uint64_t align) {
  if (!is_pow2(align)) throw RuntimeError("alloc: alignment " + std::to_string(align) + " is not a power of two");
  const std::uint64_t end = cfg_.heap_base + cfg_.heap_bytes;
  const std::uint64_t base = (heap_next_ + align - 1) & ~(align - 1);
  if (base < heap_next_ || base > end || bytes > end - base) {
    throw RuntimeError("alloc of " + std::to_string(bytes) + " bytes (align " + std::to_string(align) +
                       "): device heap exhausted, " + std::to_string(end - heap_next_) + " of " +
                       std::to_string(cfg_.heap_bytes) + " bytes free in [" + hex(cfg_.heap_base) + ", " + hex(end) +
                       ") (master.heap_base, master.heap_bytes)");
  }
  heap_next_ = base + bytes;
  return DeviceBuffer{base, bytes};
}

AccessResult HostRuntime::access(bool write, std::uint64_t address, std::uint8_t* data, unsigned length) {
  AccessResult r = port_.transact(write, address, data, length, port_.now());
  port_.wait_until(r.done);
  if (!r.ok)
    throw RuntimeError(std::string(write ? "write" : "read") + " of " + std::to_string(length) + " bytes at " +
                       hex(address) + " failed: " + r.error);
  return r;
}

void HostRuntime::write(std::uint64_t address, std::uint64_t value) {
  if (address % 8 != 0) throw RuntimeError("write: " + hex(address) + " is not 8-byte aligned");
  std::uint8_t bytes[8];
  std::memcpy(bytes, &value, 8);
  access(true, address, bytes, 8);
}

std::uint64_t HostRuntime::read(std::uint64_t address) {
  if (address % 8 != 0) throw RuntimeError("read: " + hex(address) + " is not 8-byte aligned");
  std::uint8_t bytes[8] = {};
  access(false, address, bytes, 8);
  std::uint64_t v;
  std::memcpy(&v, bytes, 8);
  return v;
}

void HostRuntime::copy(bool to_device, std::uint64_t device, std::uint8_t* host, std::uint64_t bytes) {
  if (bytes == 0) return;
  if (device + bytes < device) throw RuntimeError("copy: " + hex(device) + " + " + std::to_string(bytes) + " bytes wraps around");
  const std::uint64_t chunk = cfg_.copy_chunk_bytes;
  const sc_time interval = port_.clock_period() * static_cast<double>(cfg_.issue_cycles);
  sc_time issue = port_.now();
  sc_time last = issue;
  std::uint64_t done_bytes = 0;
  while (done_bytes < bytes) {
    const std::uint64_t addr = device + done_bytes;
    const std::uint64_t len = std::min(bytes - done_bytes, chunk - (addr & (chunk - 1)));
    const AccessResult r = port_.transact(to_device, addr, host + done_bytes, static_cast<unsigned>(len), issue);
    last = std::max(last, r.done);
    if (!r.ok) {
      port_.wait_until(last);
      throw RuntimeError(std::string(to_device ? "copy_to_device: " : "copy_from_device: ") + std::to_string(len) +
                         "-byte " + (to_device ? "write" : "read") + " at " + hex(addr) + " failed: " + r.error);
    }
    done_bytes += len;
    issue += interval;
  }
  port_.wait_until(last);
  (to_device ? stats_.copy_to_device_bytes : stats_.copy_from_device_bytes) += bytes;
}

void HostRuntime::copy_to_device(std::uint64_t dst, const void* src, std::uint64_t bytes) {
  // TLM data pointers are not const; a write only reads through it.
  copy(true, dst, static_cast<std::uint8_t*>(const_cast<void*>(src)), bytes);
}

void HostRuntime::copy_to_device(const DeviceBuffer& dst, const void* src, std::uint64_t bytes) {
  if (bytes > dst.bytes)
    throw RuntimeError("copy_to_device: " + std::to_string(bytes) + " bytes do not fit the " +
                       std::to_string(dst.bytes) + "-byte buffer at " + hex(dst.address));
  copy_to_device(dst.address, src, bytes);
}

void HostRuntime::copy_from_device(void* dst, std::uint64_t src, std::uint64_t bytes) {
  copy(false, src, static_cast<std::uint8_t*>(dst), bytes);
}

void HostRuntime::copy_from_device(void* dst, const DeviceBuffer& src, std::uint64_t bytes) {
  if (bytes > src.bytes)
    throw RuntimeError("copy_from_device: " + std::to_string(bytes) + " bytes are more than the " +
                       std::to_string(src.bytes) + "-byte buffer at " + hex(src.address));
  copy_from_device(dst, src.address, bytes);
}

// --- symbols ---------------------------------------------------------------------------------------

Kernel HostRuntime::kernel(const std::string& code_label) const {
  const auto it = program_.code_labels.find(code_label);
  if (it != program_.code_labels.end()) return Kernel{code_label, it->second};
  if (program_.data_labels.count(code_label) != 0)
    throw RuntimeError("kernel '" + code_label + "': a data label, not a code label");
  throw RuntimeError("unknown kernel '" + code_label + "' (code labels of " +
                     (program_.source_file.empty() ? std::string("the program") : program_.source_file) + ": " +
                     label_list(program_.code_labels) + ")");
}

std::uint64_t HostRuntime::symbol(const std::string& data_label) const {
  const auto it = program_.data_labels.find(data_label);
  if (it != program_.data_labels.end()) return it->second;
  if (program_.code_labels.count(data_label) != 0)
    throw RuntimeError("symbol '" + data_label + "': a code label, not a data label");
  throw RuntimeError("unknown symbol '" + data_label + "' (data labels of " +
                     (program_.source_file.empty() ? std::string("the program") : program_.source_file) + ": " +
                     label_list(program_.data_labels) + ")");
}

std::string HostRuntime::kernel_name(std::uint64_t start) const {
  for (const auto& [name, addr] : program_.code_labels)
    if (addr == start) return name;
  return "pc " + std::to_string(start);
}

// --- packets ---------------------------------------------------------------------------------------

std::uint64_t HostRuntime::read_reg(std::uint64_t offset) { return read(cfg_.scheduler_base + offset); }
void HostRuntime::write_reg(std::uint64_t offset, std::uint64_t value) { write(cfg_.scheduler_base + offset, value); }

Launch HostRuntime::launch(const Kernel& kernel, std::int64_t threads, std::initializer_list<std::uint64_t> inherited) {
  if (inherited.size() > 15)
    throw RuntimeError("launch of '" + kernel.label + "': " + std::to_string(inherited.size()) +
                       " inherited values, at most 15 (i1..i15)");
  std::array<std::uint64_t, 16> regs{};
  std::size_t k = 1;
  for (std::uint64_t v : inherited) regs[k++] = v;
  return launch(kernel.start, threads, regs);
}

Launch HostRuntime::launch(const Kernel& kernel, std::int64_t threads, const std::array<std::uint64_t, 16>& inherited) {
  return launch(kernel.start, threads, inherited);
}

Launch HostRuntime::launch(std::uint64_t start, std::int64_t threads, const std::array<std::uint64_t, 16>& inherited) {
  if (threads <= 0) return Launch{0};
  const sc_time begin = port_.now();
  // A packet holds a scheduler queue entry until it has completed: with all of them taken by ours,
  // the DOORBELL would be refused.
  if (submitted_ - completed_through_ >= cfg_.queue_depth) {
    ++stats_.queue_full_waits;
    wait_through(submitted_ + 1 - cfg_.queue_depth);
  }
  if (cfg_.wait == WaitMode::Flag && !flag_cleared_) {
    write(cfg_.flag_addr, 0);  // tags are sequence numbers from 1: a stale flag must not look done
    flag_cleared_ = true;
  }
  const std::uint64_t seq = submitted_ + 1;
  // The whole staging block [0x000, 0x100) in one burst; the reserved words are written as 0.
  std::uint64_t block[sched::kStagingEnd / 8] = {};
  block[sched::kRegStart / 8] = start;
  block[sched::kRegThreads / 8] = static_cast<std::uint64_t>(threads);
  if (cfg_.wait == WaitMode::Flag) block[sched::kRegFlagAddr / 8] = cfg_.flag_addr;
  if (cfg_.wait == WaitMode::Interrupt) block[sched::kRegControl / 8] = sched::kControlInterrupt;
  block[sched::kRegTag / 8] = cfg_.wait == WaitMode::Poll ? 0 : seq;
  for (unsigned i = 1; i < sched::kInheritedCount; ++i) block[sched::reg_inherited(i) / 8] = inherited[i];
  std::uint8_t bytes[sizeof block];
  std::memcpy(bytes, block, sizeof block);
  access(true, cfg_.scheduler_base + sched::kRegStart, bytes, sizeof bytes);
  write_reg(sched::kRegDoorbell, 1);
  submitted_ = seq;
  ++stats_.launches;
  LaunchRecord r;
  r.seq = seq;
  r.kernel = kernel_name(start);
  r.start = start;
  r.threads = threads;
  r.submit_begin = begin;
  r.submitted = port_.now();
  records_.push_back(r);
  return Launch{seq};
}

LaunchRecord* HostRuntime::record(std::uint64_t seq) {
  return seq >= 1 && seq <= records_.size() ? &records_[seq - 1] : nullptr;
}

LaunchTiming HostRuntime::timing(const Launch& launch) const {
  if (launch.seq == 0 || launch.seq > records_.size())
    throw RuntimeError("timing: no launch with sequence number " + std::to_string(launch.seq));
  return records_[launch.seq - 1];
}

void HostRuntime::wait() { wait_through(submitted_); }

void HostRuntime::wait(const Launch& launch) {
  if (launch.seq == 0) return;
  if (launch.seq > submitted_) throw RuntimeError("wait: no launch with sequence number " + std::to_string(launch.seq));
  if (launch.seq <= completed_through_) {
    const LaunchRecord& r = records_[launch.seq - 1];
    if (!r.ok) throw DeviceError(r.seq, r.error);
    return;
  }
  wait_through(submitted_);
}

void HostRuntime::wait_through(std::uint64_t target) {
  if (target <= completed_through_) return;
  const sc_time begin = port_.now();
  for (std::uint64_t s = completed_through_ + 1; s <= target; ++s) records_[s - 1].wait_begin = begin;
  ++stats_.waits;
  const sc_time poll(cfg_.poll_ns, SC_NS);
  const auto check_limit = [&] {
    if (cfg_.wait_limit_ns > 0 && port_.now() - begin > sc_time(cfg_.wait_limit_ns, SC_NS)) {
      std::ostringstream os;
      os << "wait for packets " << completed_through_ + 1 << ".." << target
         << " took longer than master.wait_limit_ns = " << cfg_.wait_limit_ns << " ns";
      throw RuntimeError(os.str());
    }
  };
  bool failed = false;
  switch (cfg_.wait) {
    case WaitMode::Interrupt:
      // One interrupt per packet, in any order: when as many have come as packets up to target,
      // those have completed (wait_through is called for everything submitted, or to free an entry).
      while (interrupts_ < target) {
        const sckit::Interrupt m = port_.wait_interrupt();
        ++interrupts_;
        failed = failed || (m.data & sched::kInterruptFailedBit) != 0;
      }
      break;
    case WaitMode::Poll:
    case WaitMode::Flag: {
      const bool flag = cfg_.wait == WaitMode::Flag;
      for (;;) {
        ++stats_.polls;
        const std::uint64_t v = flag ? read(cfg_.flag_addr) & ~sched::kFlagErrorBit : read_reg(sched::kRegCompleted);
        if (v >= target) break;
        check_limit();
        port_.wait_until(port_.now() + poll);
      }
      // A failed packet's flag (or COMPLETED) does not say which earlier packet failed: STATUS does.
      failed = (read_reg(sched::kRegStatus) & sched::kStatusError) != 0;
      break;
    }
  }
  const sc_time end = port_.now();
  stats_.wait_ns += sckit::to_ns(end - begin);
  for (std::uint64_t s = completed_through_ + 1; s <= target; ++s) {
    records_[s - 1].completed = end;
    records_[s - 1].done = true;
  }
  completed_through_ = target;
  if (failed) fail_packet(read_reg(sched::kRegFailedSeq));
}

void HostRuntime::fail_packet(std::uint64_t failed_seq) {
  write_reg(sched::kRegClearError, 1);
  std::string why = diagnostics_ ? diagnostics_(failed_seq) : std::string();
  if (why.empty()) why = "the thread scheduler reported it (FAILED_SEQ = " + std::to_string(failed_seq) + ")";
  LaunchRecord* r = record(failed_seq);
  std::string what;
  if (r != nullptr) {
    what = "packet " + std::to_string(failed_seq) + " (" + r->kernel + ", " + std::to_string(r->threads) +
           " threads) failed: " + why;
    r->ok = false;
    r->error = what;
  } else {
    what = "packet " + std::to_string(failed_seq) + " failed: " + why;
  }
  throw DeviceError(failed_seq, what);
}

}  // namespace par::runtime
