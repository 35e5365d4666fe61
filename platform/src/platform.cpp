#include "platform.hpp"

#include <chrono>

#include "program_runner.hpp"

namespace par::platform {

std::vector<std::string> PlatformConfig::validate() const {
  std::vector<std::string> e = core.validate();
  if (cores < 1 || cores > 1024) e.push_back("platform.cores: " + std::to_string(cores) + " is out of range 1..1024");
  if (!(run.clock_mhz > 0 && run.clock_mhz <= 1e6)) e.push_back("run.clock_mhz: must be in (0, 1e6]");
  if (run.repeat < 1) e.push_back("run.repeat: must be at least 1");
  if (!(run.quantum_ns > 0)) e.push_back("run.quantum_ns: must be positive");
  if (run.functional_width < 1 || run.functional_width > (1 << 20))
    e.push_back("run.functional_width: " + std::to_string(run.functional_width) + " is out of range 1..1048576");
  for (const std::string& m : bus.validate()) e.push_back(m);
  return e;
}

Platform::Platform(const PlatformConfig& cfg, const isa::Program& program) : cfg_(cfg), program_(program) {
  for (const std::string& p : cfg_.validate()) error_ += (error_.empty() ? "" : "\n") + p;
  if (cfg_.cores != 1)
    error_ += std::string(error_.empty() ? "" : "\n") +
              "platform.cores: a .PAR packet runs stand-alone on one core; use 1 (several cores need the thread scheduler)";
  if (!error_.empty()) return;
  if (program_.kind != isa::ProgramKind::Packet) {
    error_ = "'" + program_.source_file + "' is a .MASTER program; master programs need the full platform";
    return;
  }
  loaded_ = core::LoadedProgram::load(program_, cfg_.core, &error_);
  if (!loaded_) return;

  const sc_core::sc_time period(1e3 / cfg_.run.clock_mhz, sc_core::SC_NS);
  const sc_core::sc_time quantum(cfg_.run.quantum_ns, sc_core::SC_NS);
  bus_ = std::make_unique<interconnect::Interconnect>("bus", cfg_.bus);
  for (int i = 0; i < cfg_.cores; ++i) {
    cores_.push_back(std::make_unique<core::ParCore>(("core" + std::to_string(i)).c_str(), cfg_.core,
                                                     *loaded_, cfg_.run.mode, period, quantum));
    cores_.back()->mem.bind(bus_->in);  // loads/stores outside local memory
    if (!core::load_data(program_, cores_.back()->local_memory(), &error_)) return;
  }

  // The stand-alone setting: the program's packet runs on core 0.
  core::PacketDescriptor packet;
  packet.start = program_.start;
  packet.threads = program_.threads;
  for (int i = 1; i < 16; ++i) packet.inherited[i] = program_.inherited[static_cast<std::size_t>(i)];
  launcher_ = std::make_unique<PacketLauncher>("launcher", packet, cfg_.run.repeat);
  launcher_->out.bind(cores_[0]->ctrl);
}

Platform::~Platform() = default;

bool Platform::run() {
  if (!ok()) return false;
  // The end of the run is expected; do not report it as an event.
  sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  const auto start = std::chrono::steady_clock::now();
  sc_core::sc_start();
  host_seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  sim_time_ = sc_core::sc_time_stamp();
  for (auto& c : cores_)
    if (c->failed()) {
      error_ = c->error();
      return false;
    }
  if (!launcher_->ok()) {
    error_ = "the packet did not complete";
    return false;
  }
  return true;
}

}  // namespace par::platform
