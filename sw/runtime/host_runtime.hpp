// The API that host software uses to drive the PAR device (sw/runtime/README.md): allocate
// device memory, copy to and from it, write inherited registers, launch packets through the
// thread scheduler, wait for them and read their timing. Every operation is a timed transaction
// on the master's bus (master::HostPort), an interrupt wait or a time advance; nothing touches
// memory behind the simulation's back. It is also the master core's PacketControl: a .MASTER
// program's par and sync are launch() and wait().
//
//   HostRuntime& rt = ...;                           // given to HostProgram::run
//   DeviceBuffer x = rt.alloc(n * 8);
//   rt.copy_to_device(x, host_x.data(), n * 8);
//   Launch l = rt.launch(rt.kernel("sva"), n, {x.address, y.address, ...});   // i1, i2, ...
//   rt.wait(l);                                      // throws DeviceError if the packet faulted
//   rt.copy_from_device(host_z.data(), z, n * 8);
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <vector>

#include <systemc>

#include "par/isa/program.hpp"
#include "par/master/host_port.hpp"
#include "par/master/packet_control.hpp"
#include "par/simkit/stats.hpp"
#include "runtime_config.hpp"

namespace par::runtime {

// Misuse or a failed access: unknown label, exhausted heap, an error response on the bus.
class RuntimeError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A packet completed with an error. what() = "packet 3 (sva, 1280 threads) failed: <why>".
class DeviceError : public RuntimeError {
 public:
  DeviceError(std::uint64_t seq, const std::string& what) : RuntimeError(what), seq_(seq) {}
  std::uint64_t seq() const { return seq_; }

 private:
  std::uint64_t seq_;
};

struct DeviceBuffer {
  std::uint64_t address = 0;
  std::uint64_t bytes = 0;
};

struct Kernel {
  std::string label;
  std::uint64_t start = 0;  // instruction address
};

// A launched packet; seq is the scheduler's sequence number (0: nothing was launched, N <= 0).
struct Launch {
  std::uint64_t seq = 0;
};

// What the runtime saw of one launch (the lead's per-launch report combines it with the
// scheduler's PacketRecord of the same seq).
struct LaunchRecord {
  std::uint64_t seq = 0;
  std::string kernel;         // code label of the start address, or "pc <n>"
  std::uint64_t start = 0;
  std::int64_t threads = 0;
  sc_core::sc_time submit_begin;  // the host started staging the command
  sc_core::sc_time submitted;     // the DOORBELL write returned (command queued)
  sc_core::sc_time wait_begin;    // the wait that saw it complete began
  sc_core::sc_time completed;     // ... and returned
  bool done = false;
  bool ok = true;
  std::string error;          // DeviceError text when it failed
};
using LaunchTiming = LaunchRecord;

// Explains a failed packet from the device's own records (the platform reads the scheduler's
// PacketRecord and the core's error): a debug view, no simulated time. Returns "" if unknown.
using DeviceDiagnostics = std::function<std::string(std::uint64_t seq)>;

// A stream channel's descriptor as the host reads it (par/core/stream_registers.hpp).
struct StreamChannel {
  std::uint64_t cur = 0;  // head: the next element a get takes or a put writes
  std::uint64_t fin = 0;  // end
};

// binary64 bit pattern, for inherited registers that carry doubles.
std::uint64_t f64_bits(double v);

using master::AccessResult;
using master::HostPort;

class HostRuntime : public master::PacketControl {
 public:
  // `stats` receives the runtime's counters (launches, waits, wait_ns, copy bytes, polls,
  // queue_full_waits). Throws std::invalid_argument when cfg is invalid.
  HostRuntime(HostPort& port, const RuntimeConfig& cfg, const isa::Program& program, simkit::StatGroup& stats);

  const isa::Program& program() const { return program_; }
  const RuntimeConfig& config() const { return cfg_; }
  void set_diagnostics(DeviceDiagnostics d) { diagnostics_ = std::move(d); }

  // --- device memory ---------------------------------------------------------------------------
  // Bump allocation in [heap_base, heap_base + heap_bytes); align is a power of two.
  DeviceBuffer alloc(std::uint64_t bytes, std::uint64_t align = 64);
  std::uint64_t heap_used() const { return heap_next_ - cfg_.heap_base; }

  // Copies in transactions of copy_chunk_bytes (split at multiples of it in the device
  // address), issued issue_cycles apart without waiting for each other; returns when the last
  // one has completed.
  void copy_to_device(std::uint64_t dst, const void* src, std::uint64_t bytes);
  void copy_to_device(const DeviceBuffer& dst, const void* src, std::uint64_t bytes);
  void copy_from_device(void* dst, std::uint64_t src, std::uint64_t bytes);
  void copy_from_device(void* dst, const DeviceBuffer& src, std::uint64_t bytes);

  // One blocking 8-byte access (any address: device or host memory); naturally aligned.
  void write(std::uint64_t address, std::uint64_t value);
  std::uint64_t read(std::uint64_t address);

  // --- streams (core.stream.enabled; README "Streams"), between launches -----------------------
  // Writes `elements` to core `core`'s SRF from element `first` and sets channel `channel` to them
  // (head first, end first + n): an input that the kernel's get takes from.
  void stream_fill(int core, int channel, std::uint64_t first, const std::vector<std::uint64_t>& elements);
  // Sets the channel to the empty elements [first, first + capacity): an output for put.
  void stream_open(int core, int channel, std::uint64_t first, std::uint64_t capacity);
  StreamChannel stream_channel(int core, int channel);
  // What the kernel put to a channel opened at `first`: elements [first, head).
  std::vector<std::uint64_t> stream_drain(int core, int channel, std::uint64_t first);

  // --- program symbols -------------------------------------------------------------------------
  Kernel kernel(const std::string& code_label) const;
  std::uint64_t symbol(const std::string& data_label) const;

  // --- packets ---------------------------------------------------------------------------------
  // Stages START, THREADS, FLAG_ADDR, TAG, CONTROL and I1..I15 in one 256-byte write, then rings
  // DOORBELL. With every queue entry of the scheduler taken by its packets, it first waits for one
  // of them to complete (as wait() does). `inherited` lists i1, i2, ... (at most 15; the rest are
  // 0). threads <= 0 launches nothing (docs/isa.md §7.8) and returns Launch{0}.
  Launch launch(const Kernel& kernel, std::int64_t threads, std::initializer_list<std::uint64_t> inherited = {});
  // i1..i15 at index 1..15 (index 0 is ignored).
  Launch launch(const Kernel& kernel, std::int64_t threads, const std::array<std::uint64_t, 16>& inherited);
  Launch launch(std::uint64_t start, std::int64_t threads, const std::array<std::uint64_t, 16>& inherited);

  // Waits until every packet launched so far has completed. Throws DeviceError (after reading
  // FAILED_SEQ and writing CLEAR_ERROR) if one of them failed.
  void wait();
  // Waits until `launch` (and every earlier one) has completed; may also wait for later ones
  // (a wait covers everything submitted). Returns at once if it is known complete.
  void wait(const Launch& launch);
  bool outstanding() const { return completed_through_ < submitted_; }

  // PacketControl: a .MASTER program's `par` (threads > 0) and `sync`.
  void par(std::uint64_t start, std::int64_t threads, const std::array<std::uint64_t, 16>& inherited) override {
    launch(start, threads, inherited);
  }
  void sync() override { wait(); }

  LaunchTiming timing(const Launch& launch) const;
  const std::vector<LaunchRecord>& launches() const { return records_; }

  // --- time ------------------------------------------------------------------------------------
  void compute(std::uint64_t cycles) { port_.compute(cycles); }
  sc_core::sc_time now() const { return port_.now(); }

 private:
  struct Stats {
    explicit Stats(simkit::StatGroup& g);
    simkit::Counter& launches;
    simkit::Counter& waits;
    simkit::Real& wait_ns;
    simkit::Counter& polls;
    simkit::Counter& copy_to_device_bytes;
    simkit::Counter& copy_from_device_bytes;
    simkit::Counter& queue_full_waits;
  };
  void copy(bool to_device, std::uint64_t device, std::uint8_t* host, std::uint64_t bytes);
  AccessResult access(bool write, std::uint64_t address, std::uint8_t* data, unsigned length);
  std::uint64_t read_reg(std::uint64_t offset);
  // Device address of core's stream window; RuntimeError naming `call` if it has none.
  std::uint64_t stream_window(const char* call, int core) const;
  void set_channel(int core, int channel, std::uint64_t cur, std::uint64_t fin);
  void write_reg(std::uint64_t offset, std::uint64_t value);
  void wait_through(std::uint64_t target);
  [[noreturn]] void fail_packet(std::uint64_t failed_seq);
  std::string kernel_name(std::uint64_t start) const;
  LaunchRecord* record(std::uint64_t seq);

  HostPort& port_;
  RuntimeConfig cfg_;
  const isa::Program& program_;
  Stats stats_;
  DeviceDiagnostics diagnostics_;
  std::uint64_t heap_next_ = 0;
  std::uint64_t submitted_ = 0;          // our packets so far (= the last sequence number)
  std::uint64_t completed_through_ = 0;  // every packet up to this one has completed
  std::uint64_t interrupts_ = 0;         // completion interrupts received (WaitMode::Interrupt)
  bool flag_cleared_ = false;
  std::vector<LaunchRecord> records_;    // index = seq - 1
};

}  // namespace par::runtime
