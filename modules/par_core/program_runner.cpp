#include "program_runner.hpp"

#include <cstring>
#include <new>
#include <sstream>
#include <stdexcept>

#include "par/isa/assembler.hpp"

namespace par::core {

namespace {
// Reads outside the local-memory window would read past its mapping.
void check_window(const LocalMemory* memory, std::uint64_t addr, std::uint64_t bytes) {
  if (memory == nullptr) throw std::out_of_range("ProgramRun::read: the run has no memory (it failed before loading)");
  if (memory->contains(addr, bytes)) return;
  std::ostringstream os;
  os << "ProgramRun::read: " << bytes << " bytes at 0x" << std::hex << addr << " are not all in the local memory [0x"
     << memory->base() << ", 0x" << memory->base() + memory->size() << ")";
  throw std::out_of_range(os.str());
}
}  // namespace

std::vector<std::uint64_t> ProgramRun::read(std::uint64_t addr, std::size_t count, int size) const {
  std::vector<std::uint64_t> out(count, 0);
  for (std::size_t i = 0; i < count; ++i) {
    check_window(memory.get(), addr + i * static_cast<std::uint64_t>(size), static_cast<std::uint64_t>(size));
    std::uint8_t bytes[8] = {};
    memory->read_block(addr + i * static_cast<std::uint64_t>(size), bytes, static_cast<std::size_t>(size));
    std::memcpy(&out[i], bytes, static_cast<std::size_t>(size));
  }
  return out;
}

std::vector<double> ProgramRun::read_f64(std::uint64_t addr, std::size_t count) const {
  std::vector<double> out(count);
  const std::vector<std::uint64_t> raw = read(addr, count, 8);
  std::memcpy(out.data(), raw.data(), count * 8);
  return out;
}

std::vector<float> ProgramRun::read_f32(std::uint64_t addr, std::size_t count, int stride) const {
  std::vector<float> out(count);
  for (std::size_t i = 0; i < count; ++i) {
    check_window(memory.get(), addr + i * static_cast<std::uint64_t>(stride), 4);
    std::uint8_t bytes[4];
    memory->read_block(addr + i * static_cast<std::uint64_t>(stride), bytes, 4);
    std::memcpy(&out[i], bytes, 4);
  }
  return out;
}

bool load_data(const isa::Program& program, LocalMemory& memory, std::string* error) {
  for (const isa::DataSection& d : program.data) {
    if (d.bytes.empty()) continue;
    if (!memory.contains(d.address, d.bytes.size())) {
      if (error) {
        std::ostringstream os;
        os << "data section at 0x" << std::hex << d.address << " (" << std::dec << d.bytes.size()
           << " bytes) lies outside the local memory [0x" << std::hex << memory.base() << ", 0x"
           << memory.base() + memory.size() << ")";
        *error = os.str();
      }
      return false;
    }
    memory.write_block(d.address, d.bytes.data(), d.bytes.size());
  }
  return true;
}

ProgramRun run_program(const isa::Program& program, const CoreConfig& cfg, const RunOptions& options) {
  ProgramRun run;
  const std::vector<std::string> problems = cfg.validate();
  if (!problems.empty()) {
    for (const std::string& p : problems) run.error += (run.error.empty() ? "" : "\n") + p;
    return run;
  }
  if (program.kind != isa::ProgramKind::Packet) {
    run.error = "'" + program.source_file + "' is a .MASTER program; it needs the full platform";
    return run;
  }
  std::unique_ptr<LoadedProgram> loaded = LoadedProgram::load(program, cfg, &run.error);
  if (!loaded) return run;
  try {
    run.memory = std::make_unique<LocalMemory>(cfg.local_mem_base, cfg.local_mem_size);
  } catch (const std::bad_alloc&) {
    run.error = "the host cannot provide " + std::to_string(cfg.local_mem_size) +
                " bytes of local memory (core.local_mem_size)";
    return run;
  }
  if (!load_data(program, *run.memory, &run.error)) return run;

  PacketEngine engine("core0", cfg, *loaded, *run.memory, nullptr, options.mode, options.functional_width);
  if (options.capture_count > 0) engine.capture_registers(options.capture_first, options.capture_count);
  engine.set_stall_listener(options.stall_listener);
  engine.set_exec_listener(options.exec_listener);
  if (options.always_select_contexts) engine.always_select_contexts();
  engine.set_timing_replay(options.timing_replay);
  Packet packet;
  packet.start = program.start;
  packet.threads = program.threads;
  for (int i = 1; i < 16; ++i) packet.inherited[i] = program.inherited[static_cast<std::size_t>(i)];
  StreamUnit* stream = engine.stream();
  if (stream && options.stream_fill && !options.stream_fill(*stream, &run.error)) return run;
  run.ok = engine.run(packet, run.stats, &run.error);
  if (stream && options.stream_drain) options.stream_drain(*stream);
  run.registers = engine.captured_registers();
  run.replay = engine.replay_counts();
  return run;
}

ProgramRun run_file(const std::string& path, const CoreConfig& cfg, const RunOptions& options) {
  const isa::AssemblyResult asm_result = isa::assemble_file(path);
  if (!asm_result.ok()) {
    ProgramRun run;
    run.error = asm_result.messages();
    return run;
  }
  return run_program(*asm_result.program, cfg, options);
}

}  // namespace par::core
