// A user's own sc_main on the installed parsys package (README.md): a PAR core (parsys::par_core)
// whose global loads and stores pass through the user's TrafficMonitor into the banked L2
// (parsys::l2) backed by the DRAM model (parsys::dram); a small driver of the user's own launches
// the kernel's packet through the core's control registers and waits for its completion line.
//
//   driver --ctrl--> core0 --mem--> monitor --> l2 --bank<i>.mem--> dram
//
// The kernel is SVA (Z[i][col] = fma(x[i], a, y[i]), sw/kernels/sva.par of parsys); after the run
// every result is compared bit for bit with the same computation in C++.
//
//   user_platform [KERNEL.par]     exit 0: every result exact; 1: a wrong result or a failed run
#include <cmath>
#include <cstdint>
#include <cstring>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "dram.hpp"                     // parsys::dram
#include "l2.hpp"                       // parsys::l2
#include "par/core/core_registers.hpp"  // the core's register map (parsys::par_core)
#include "par/isa/assembler.hpp"        // parsys::par_isa
#include "par_core.hpp"                 // parsys::par_core
#include "traffic_monitor.hpp"          // the user's own module

namespace {

using sc_core::sc_time;
using sc_core::SC_NS;

// Starts one packet on a PAR core through its `ctrl` registers (descriptor, DOORBELL), waits for
// the completion line to rise and reads STATUS, then stops the simulation.
class Driver : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<Driver> ctrl;
  sc_core::sc_in<bool> done;

  SC_HAS_PROCESS(Driver);
  Driver(sc_core::sc_module_name name, const par::core::PacketDescriptor& packet)
      : sc_module(name), ctrl("ctrl"), done("done"), packet_(packet) {
    SC_THREAD(run);
  }
  std::uint64_t status() const { return status_; }
  bool finished() const { return finished_; }

 private:
  void run() {
    access(tlm::TLM_WRITE_COMMAND, par::core::kCoreRegStart, &packet_, sizeof packet_);
    std::uint64_t ring = 1;
    access(tlm::TLM_WRITE_COMMAND, par::core::kCoreRegDoorbell, &ring, sizeof ring);
    wait(done.posedge_event());
    access(tlm::TLM_READ_COMMAND, par::core::kCoreRegStatus, &status_, sizeof status_);
    finished_ = true;
    sc_core::sc_stop();
  }
  void access(tlm::tlm_command command, std::uint64_t address, void* data, unsigned bytes) {
    tlm::tlm_generic_payload tx;
    tx.set_command(command);
    tx.set_address(address);
    tx.set_data_ptr(static_cast<unsigned char*>(data));
    tx.set_data_length(bytes);
    tx.set_streaming_width(bytes);
    sc_time delay = sc_core::SC_ZERO_TIME;
    ctrl->b_transport(tx, delay);
    if (!tx.is_response_ok()) SC_REPORT_FATAL("driver", ("core register access refused: " + tx.get_response_string()).c_str());
    wait(delay);
  }

  par::core::PacketDescriptor packet_;
  std::uint64_t status_ = par::core::kCoreStatusBusy;
  bool finished_ = false;
};

// A binary64 of the kernel's data as the file gives it (before the run).
double initial(const par::isa::Program& program, std::uint64_t address) {
  for (const par::isa::DataSection& d : program.data) {
    if (address >= d.address && address - d.address + 8 <= d.bytes.size()) {
      double value = 0;
      std::memcpy(&value, d.bytes.data() + (address - d.address), sizeof value);
      return value;
    }
  }
  throw std::runtime_error("no data at " + std::to_string(address));
}

// SVA's result in C++: Z[i][col] = fma(x[i], a, y[i]) with the kernel's own inputs (sva_x, sva_y)
// and inherited registers (a as binary32 bits in i3, the row length of Z in i4, &Z[0][col] in
// i5). Returns the number of results the DRAM holds exactly.
std::int64_t check_sva(const par::isa::Program& program, const par::dram::Dram& memory) {
  const std::uint64_t x = program.data_labels.at("sva_x"), y = program.data_labels.at("sva_y");
  const std::uint32_t a_bits = static_cast<std::uint32_t>(program.inherited[3]);
  float a = 0;
  std::memcpy(&a, &a_bits, sizeof a);
  std::int64_t exact = 0;
  for (std::int64_t i = 0; i < program.threads; ++i) {
    const std::uint64_t offset = 8 * static_cast<std::uint64_t>(i);
    const double want = std::fma(initial(program, x + offset), static_cast<double>(a), initial(program, y + offset));
    double got = 0;
    const std::uint64_t z = program.inherited[5] + static_cast<std::uint64_t>(i) * program.inherited[4];
    if (memory.peek(z, reinterpret_cast<std::uint8_t*>(&got), sizeof got) && std::memcmp(&got, &want, sizeof got) == 0) {
      ++exact;
    } else if (i - exact < 5) {  // the first few differences
      std::cerr << "Z[" << i << "]: " << got << ", expected " << want << "\n";
    }
  }
  return exact;
}

}  // namespace

int sc_main(int argc, char* argv[]) {
  const std::string kernel = argc > 1 ? argv[1] : PARSYS_KERNEL;
  const par::isa::AssemblyResult assembled = par::isa::assemble_file(kernel);
  if (!assembled.ok()) {
    std::cerr << assembled.messages();
    return 1;
  }
  const par::isa::Program& program = *assembled.program;
  if (program.data_labels.count("sva_x") == 0) {
    std::cerr << kernel << ": not the SVA kernel (no sva_x): this example checks SVA's result\n";
    return 1;
  }

  // Parsys's models with their plain C++ configurations: a 4x4 core whose local memory is a small
  // window far above the data, so that every load and store of the kernel goes to the L2.
  par::core::CoreConfig core_cfg;
  core_cfg.lanes = 4;
  core_cfg.threads_per_lane = 4;
  core_cfg.local_mem_base = 0x400000000000;
  core_cfg.local_mem_size = 0x10000;
  par::l2::L2Config l2_cfg;  // 4 banks x 64 KiB, 8 ways, 64-byte lines
  par::dram::DramConfig dram_cfg;  // LPDDR3-1866, 2 GiB from address 0
  std::string error;
  const std::unique_ptr<par::core::LoadedProgram> loaded = par::core::LoadedProgram::load(program, core_cfg, &error);
  if (!loaded) {
    std::cerr << kernel << ": " << error << "\n";
    return 1;
  }

  const sc_time clock(1, SC_NS), quantum(100, SC_NS);
  par::core::ParCore core("core0", core_cfg, *loaded, par::core::RunMode::Timing, 1, clock, quantum);
  TrafficMonitor monitor("monitor");
  par::l2::L2 l2("l2", l2_cfg);
  par::dram::Dram dram("dram", dram_cfg);
  par::core::PacketDescriptor packet;
  packet.start = program.start;
  packet.threads = program.threads;
  for (int k = 1; k < 16; ++k) packet.inherited[k] = program.inherited[static_cast<std::size_t>(k)];
  Driver driver("driver", packet);
  sc_core::sc_signal<bool> core_done("core_done");

  core.mem.bind(monitor.in);
  monitor.out.bind(l2.in);
  for (unsigned b = 0; b < l2.banks(); ++b) l2.bank(b).mem.bind(dram.in);
  driver.ctrl.bind(core.ctrl);
  core.irq.bind(core_done);
  driver.done.bind(core_done);

  for (const par::isa::DataSection& d : program.data) {
    if (!dram.poke(d.address, d.bytes.data(), d.bytes.size())) {
      std::cerr << kernel << ": a data section at " << d.address << " lies outside the DRAM\n";
      return 1;
    }
  }

  sc_core::sc_start();
  if (!driver.finished() || driver.status() != par::core::kCoreStatusIdle) {
    std::cerr << "the packet did not complete: " << (core.failed() ? core.error() : "no completion") << "\n";
    return 1;
  }
  l2.flush();  // write the dirty lines back: the results are now in the DRAM

  const std::int64_t exact = check_sva(program, dram);
  const par::simkit::Stat* l2_requests = l2.stats().find("requests");
  const std::uint64_t l2_seen = l2_requests ? static_cast<std::uint64_t>(l2_requests->number()) : 0;
  std::cout << "kernel: " << kernel << "\n"
            << "core0: " << core.total_stats().cycles << " cycles, " << program.threads << " threads on "
            << core_cfg.lanes << "x" << core_cfg.threads_per_lane << "\n"
            << "monitor: " << monitor.reads() << " reads, " << monitor.writes() << " writes, " << monitor.bytes()
            << " bytes, mean latency " << monitor.mean_latency() << "\n"
            << "l2: " << l2_seen << " requests\n"
            << "sva: " << exact << " of " << program.threads << " results exact\n";
  // The monitor sits on the only path into the L2: both must have counted the same accesses.
  if (monitor.errors() != 0 || l2_seen != monitor.reads() + monitor.writes()) {
    std::cerr << "the monitor and the L2 disagree, or an access failed\n";
    return 1;
  }
  return exact == program.threads ? 0 : 1;
}
