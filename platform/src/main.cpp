// parsys: the command-line front end.
//
//   parsys run KERNEL.par|IMAGE.bin [--config FILE.ini] [--core.lanes N] ... [--out DIR]
//   parsys asm FILE.par -o FILE.bin
//   parsys disasm FILE.bin [-o FILE.par]
//
// Boost.Program_options parses the command line (the command's own options and, as string
// values, every module option); the module options are then handed to the simkit registry, which
// converts and validates them, reads the --config INI files (with file:line messages) and writes
// the effective configuration. Exit status: 0 success, 1 assembly or runtime error, 2 bad usage
// or configuration.
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <memory>
#include <new>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include <boost/program_options.hpp>

#include "core_statistics.hpp"
#include "par/isa/assembler.hpp"
#include "par/isa/disassembler.hpp"
#include "par/isa/image.hpp"
#include "par/plugin/crash_report.hpp"
#include "par/simkit/options.hpp"
#include "platform.hpp"
#include "platform_options.hpp"
#include "outputs.hpp"
#include "report.hpp"
#include "version.hpp"

namespace po = boost::program_options;
using namespace par;

namespace {

constexpr int kOk = 0, kFailed = 1, kUsage = 2, kInterrupted = 130;

const char* kUsageText =
    "usage: parsys <command> [options]\n"
    "\n"
    "commands:\n"
    "  run FILE      run the packet of a .par source or .bin image on the platform\n"
    "  asm FILE      assemble a .par source into a binary image (-o FILE.bin)\n"
    "  disasm FILE   print the source of a binary image (or -o FILE.par)\n"
    "\n"
    "'parsys --help' or 'parsys run --help' lists every option with its default;\n"
    "'parsys --version' prints the version.\n";

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

const char* kWerrorHelp = "treat assembler warnings as errors (exit status 1)";

// Prints the assembler's diagnostics; with `werror` its warnings are errors. Returns the program
// when there was no error.
std::optional<isa::Program> report_assembly(const isa::AssemblyResult& r, bool werror, std::ostream& err) {
  bool failed = !r.ok();
  for (isa::Diagnostic d : r.diagnostics) {
    if (werror && d.severity == isa::Diagnostic::Severity::Warning) {
      d.severity = isa::Diagnostic::Severity::Error;
      d.message += " [--Werror]";
      failed = true;
    }
    err << d.str() << '\n';
  }
  if (failed) return std::nullopt;
  return r.program;
}

// Loads a program: a .bin image, or any other file as assembly source.
std::optional<isa::Program> load_program(const std::string& path, bool werror, std::ostream& err) {
  if (ends_with(path, ".bin")) {
    std::string error;
    auto p = isa::load_image(path, &error);
    if (!p) err << "parsys: " << error << '\n';
    return p;
  }
  return report_assembly(isa::assemble_file(path), werror, err);
}

// The threads whose final registers --dump-regs asks for, checked before the run when the number of
// threads is known: the packet of a .PAR file launched by parsys itself (not a host program).
std::string check_register_request(const isa::Program& program, const platform::PlatformConfig& cfg,
                                   const std::string& request, std::uint64_t first, std::uint64_t count) {
  if (program.kind != isa::ProgramKind::Packet || !cfg.host_program.empty()) return "";
  const auto threads = static_cast<std::uint64_t>(program.threads);
  if (first < threads && count <= threads - first) return "";
  return "--dump-regs '" + request + "': the packet has " + std::to_string(threads) + " threads" +
         (threads > 0 ? " (0.." + std::to_string(threads - 1) + ")" : "");
}

// Final registers from every core (the scheduler spreads a packet's threads over the cores), in
// thread order; a thread launched more than once (run.repeat) keeps the values of its last run.
std::vector<core::ThreadRegisters> captured_registers(platform::Platform& plat) {
  std::vector<core::ThreadRegisters> all;
  for (int c = 0; c < plat.core_count(); ++c) {
    const auto& regs = plat.core(c).captured_registers();
    all.insert(all.end(), regs.begin(), regs.end());
  }
  std::stable_sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.thread < b.thread; });
  std::vector<core::ThreadRegisters> last;
  for (const core::ThreadRegisters& t : all) {
    if (!last.empty() && last.back().thread == t.thread) last.back() = t;
    else last.push_back(t);
  }
  return last;
}

// "FIRST[:COUNT]" of --dump-regs (COUNT 1 when left out).
bool parse_thread_range(const std::string& text, std::uint64_t& first, std::uint64_t& count) {
  const auto number = [](const std::string& t, std::uint64_t& v) {
    if (t.empty() || !std::isdigit(static_cast<unsigned char>(t[0]))) return false;
    errno = 0;
    char* end = nullptr;
    v = std::strtoull(t.c_str(), &end, 0);
    return errno == 0 && *end == '\0';
  };
  const auto colon = text.find(':');
  count = 1;
  return number(text.substr(0, colon), first) &&
         (colon == std::string::npos || (number(text.substr(colon + 1), count) && count > 0 && count <= (64u << 20)));
}

struct CommandLine {
  po::variables_map vm;
  std::vector<std::string> module_args;  // canonical --name=value tokens for the simkit registry
  std::vector<std::string> unknown;      // options neither Boost nor the registry knows
};

// Parses `args` with Boost.Program_options. Every registry option is declared as a string option so
// that "--core.lanes 8" and "--core.lanes=8" are both understood; its values are re-emitted for
// the registry, which does the typed conversion.
// "--flag false": a boolean option takes the next argument when it is a boolean literal (the
// registry's rule); Boost would take the literal for a positional argument, so join the two.
std::vector<std::string> join_boolean_values(const std::vector<std::string>& args, const simkit::OptionRegistry& reg) {
  static const char* kLiterals[] = {"true", "false", "yes", "no", "on", "off", "1", "0"};
  std::vector<std::string> out;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    const bool bare = a.rfind("--", 0) == 0 && a.find('=') == std::string::npos;
    const simkit::Option* opt = bare ? reg.find(a.substr(2)) : nullptr;
    // An instance's option (--core3.lanes 4) is unknown to Boost, which would take its value for a
    // positional argument: join the two as the registry would read them.
    const simkit::Option* instance_of = bare ? reg.find_instance_option(a.substr(2)) : nullptr;
    if (instance_of != nullptr && instance_of->type_name() != "bool" && i + 1 < args.size() &&
        !(args[i + 1].rfind("--", 0) == 0 ||
          (args[i + 1].size() == 2 && args[i + 1][0] == '-' && std::isalpha(static_cast<unsigned char>(args[i + 1][1]))))) {
      out.push_back(a + "=" + args[++i]);
      continue;
    }
    if (instance_of != nullptr) opt = instance_of;
    if (opt != nullptr && opt->type_name() == "bool" && i + 1 < args.size()) {
      std::string next = args[i + 1];
      for (char& c : next) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      if (std::find(std::begin(kLiterals), std::end(kLiterals), next) != std::end(kLiterals)) {
        out.push_back(a + "=" + args[++i]);
        continue;
      }
    }
    out.push_back(a);
  }
  return out;
}

bool parse_command_line(const std::vector<std::string>& raw_args, const po::options_description& command,
                        const po::positional_options_description& positional, simkit::OptionRegistry& reg,
                        CommandLine& out, std::ostream& err) {
  const std::vector<std::string> args = join_boolean_values(raw_args, reg);
  po::options_description modules;
  for (const auto& opt : reg.options()) {
    if (opt->type_name() == "bool")
      modules.add_options()(opt->name().c_str(),
                            po::value<std::vector<std::string>>()->implicit_value({"true"}, "true"), "");
    else
      modules.add_options()(opt->name().c_str(), po::value<std::vector<std::string>>(), "");
  }
  po::options_description all;
  all.add(command).add(modules);
  // A misspelt option would make Boost take its value for a positional argument; report it here,
  // with the registry's suggestion of what was meant.
  bool unknown = false;
  for (const std::string& a : args) {
    if (a == "--") break;
    if (a.rfind("--", 0) != 0) continue;
    const std::string name = a.substr(2, a.find('=') == std::string::npos ? std::string::npos : a.find('=') - 2);
    if (all.find_nothrow(name, false) != nullptr || reg.find_instance_option(name) != nullptr) continue;
    for (const std::string& e : reg.parse(std::vector<std::string>{a}).errors) err << "parsys: " << e << '\n';
    unknown = true;
  }
  if (unknown) return false;
  try {
    po::parsed_options parsed = po::command_line_parser(args)
                                    .options(all)
                                    .positional(positional)
                                    .style(po::command_line_style::default_style &
                                           ~po::command_line_style::allow_guessing)
                                    .allow_unregistered()
                                    .run();
    for (const po::option& o : parsed.options) {
      if (o.unregistered) {
        for (const std::string& t : o.original_tokens) out.unknown.push_back(t);
        continue;
      }
      if (reg.find(o.string_key) == nullptr) continue;  // a command option
      for (const std::string& v : o.value) out.module_args.push_back("--" + o.string_key + "=" + v);
      if (o.value.empty()) out.module_args.push_back("--" + o.string_key);
    }
    po::store(parsed, out.vm);
    po::notify(out.vm);
  } catch (const po::error& e) {
    err << "parsys: " << e.what() << '\n';
    return false;
  }
  return true;
}

int cmd_asm(const std::vector<std::string>& args) {
  po::options_description desc("asm options");
  desc.add_options()("help,h", po::bool_switch(), "print this help")(
      "output,o", po::value<std::string>(), "binary image to write")("Werror", po::bool_switch(), kWerrorHelp)(
      "input", po::value<std::string>(), "source file");
  po::positional_options_description pos;
  pos.add("input", 1);
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(desc).positional(pos).run(), vm);
  } catch (const po::error& e) {
    std::cerr << "parsys asm: " << e.what() << '\n';
    return kUsage;
  }
  if (vm["help"].as<bool>()) {
    std::cout << "usage: parsys asm FILE.par -o FILE.bin\n\n" << desc;
    return kOk;
  }
  if (!vm.count("input") || !vm.count("output")) {
    std::cerr << "parsys asm: expected 'parsys asm FILE.par -o FILE.bin'\n";
    return kUsage;
  }
  const std::optional<isa::Program> program =
      report_assembly(isa::assemble_file(vm["input"].as<std::string>()), vm["Werror"].as<bool>(), std::cerr);
  if (!program) return kFailed;
  std::string error;
  if (!isa::save_image(*program, vm["output"].as<std::string>(), &error)) {
    std::cerr << "parsys asm: " << error << '\n';
    return kFailed;
  }
  return kOk;
}

int cmd_disasm(const std::vector<std::string>& args) {
  po::options_description desc("disasm options");
  desc.add_options()("help,h", po::bool_switch(), "print this help")(
      "output,o", po::value<std::string>(), "source file to write (default: standard output)")(
      "input", po::value<std::string>(), "binary image");
  po::positional_options_description pos;
  pos.add("input", 1);
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(desc).positional(pos).run(), vm);
  } catch (const po::error& e) {
    std::cerr << "parsys disasm: " << e.what() << '\n';
    return kUsage;
  }
  if (vm["help"].as<bool>()) {
    std::cout << "usage: parsys disasm FILE.bin [-o FILE.par]\n\n" << desc;
    return kOk;
  }
  if (!vm.count("input")) {
    std::cerr << "parsys disasm: expected 'parsys disasm FILE.bin'\n";
    return kUsage;
  }
  std::string error;
  auto program = isa::load_image(vm["input"].as<std::string>(), &error);
  if (!program) {
    std::cerr << "parsys disasm: " << error << '\n';
    return kFailed;
  }
  std::vector<std::string> problems;
  const std::string text = isa::disassemble_program(*program, &problems);
  for (const std::string& p : problems) std::cerr << "parsys disasm: warning: the listing does not assemble back: " << p << '\n';
  if (vm.count("output")) {
    std::ofstream f(vm["output"].as<std::string>());
    if (!(f << text)) {
      std::cerr << "parsys disasm: cannot write '" << vm["output"].as<std::string>() << "'\n";
      return kFailed;
    }
  } else {
    std::cout << text;
  }
  return kOk;
}

// What `parsys run` was asked for besides the module options.
struct RunRequest {
  std::string input;  // the program file
  std::string out_dir;  // "" = no output directory (--no-out)
  bool quiet = false;
  std::vector<platform::MemoryDump> dumps;  // --dump-mem, addresses resolved once the program is loaded
  std::string registers;  // --dump-regs as given; threads [reg_first, reg_first + reg_count)
  std::uint64_t reg_first = 0, reg_count = 0;
};

po::options_description run_options() {
  po::options_description command("run options");
  command.add_options()("help,h", po::bool_switch(), "print every option with its default and exit")(
      "config", po::value<std::vector<std::string>>()->composing(),
      "INI file with option values (sections give the prefix); may repeat, the command line wins")(
      "out", po::value<std::string>(), "write stats.json, stats.txt, config.ini/json and dumps into DIR "
                                       "(created with its parents; default: parsys-out)")(
      "no-out", po::bool_switch(), "write no output files (only the report on standard output)")(
      "dump-mem", po::value<std::vector<std::string>>()->composing(),
      "final memory contents ADDR:LEN or LABEL[+OFFSET][:LEN] to dump (may repeat)")(
      "dump-regs", po::value<std::string>(), "final registers of threads FIRST[:COUNT]")(
      "mode", po::value<std::string>(), "timing or functional (same as --run.mode)")(
      "host", po::value<std::string>(), "run the C++ host program NAME of sw/host on the master core of the full "
                                        "system (same as --platform.host master --platform.host_program NAME)")(
      "max-cycles", po::value<std::string>(), "run limit in cycles (same as --core.max_cycles)")(
      "max-host-seconds", po::value<std::string>(), "stop after this much host time (same as --run.max_host_seconds)")(
      "check-protocol", po::bool_switch(), "check the TLM-2.0 base protocol on every socket binding "
                                           "(same as --protocol_check.enable)")(
      "stats-window", po::value<std::string>(), "add a statistics sample every CYCLES PAR-core cycles "
                                                "(same as --run.stats_window_cycles)")(
      "trace-timeline", po::value<std::string>(), "write a Chrome/Perfetto timeline (JSON) of the run to FILE "
                                                  "(same as --trace.timeline)")(
      "vcd", po::value<std::string>(), "write a VCD waveform of the chosen signals to FILE (same as --trace.vcd)")(
      "quiet,q", po::bool_switch(), "no report on standard output")("Werror", po::bool_switch(), kWerrorHelp)(
      "input", po::value<std::vector<std::string>>(), "program (.par source or .bin image)");
  return command;
}

// The module options for the registry: config files first, then the command line (the registry
// applies precedence), the run command's shorthands (--mode, --host, ...) last.
std::vector<std::string> module_arguments(const CommandLine& cl) {
  std::vector<std::string> a;
  if (cl.vm.count("config"))
    for (const std::string& f : cl.vm["config"].as<std::vector<std::string>>()) {
      a.push_back("--config");
      a.push_back(f);
    }
  a.insert(a.end(), cl.unknown.begin(), cl.unknown.end());
  a.insert(a.end(), cl.module_args.begin(), cl.module_args.end());
  const auto shorthand = [&](const char* name, const std::string& option) {
    if (cl.vm.count(name)) a.push_back("--" + option + "=" + cl.vm[name].as<std::string>());
  };
  shorthand("mode", "run.mode");
  if (cl.vm.count("host")) a.push_back("--platform.host=master");
  shorthand("host", "platform.host_program");
  shorthand("max-cycles", "core.max_cycles");
  if (cl.vm["check-protocol"].as<bool>()) a.push_back("--protocol_check.enable=true");
  shorthand("trace-timeline", "trace.timeline");
  shorthand("vcd", "trace.vcd");
  shorthand("stats-window", "run.stats_window_cycles");
  shorthand("max-host-seconds", "run.max_host_seconds");
  return a;
}

// Reads the module options into `cfg` and the rest of the command line into `req`; every problem
// is printed. False on a usage or configuration error.
bool read_run_request(const CommandLine& cl, simkit::OptionRegistry& reg, platform::PlatformConfig& cfg,
                      RunRequest& req) {
  const simkit::ParseResult parsed = reg.parse(module_arguments(cl));
  bool ok = parsed.ok();
  for (const std::string& e : parsed.errors) std::cerr << "parsys: " << e << '\n';
  const auto unexpected = [&ok](const std::string& p) {
    std::cerr << "parsys: unexpected argument '" << p << "'\n";
    ok = false;
  };
  for (const std::string& p : parsed.positional) unexpected(p);
  std::vector<std::string> inputs;
  if (cl.vm.count("input")) inputs = cl.vm["input"].as<std::vector<std::string>>();
  if (inputs.empty()) {
    std::cerr << "parsys: no program given ('parsys run FILE.par')\n";
    ok = false;
  }
  for (std::size_t i = 1; i < inputs.size(); ++i) unexpected(inputs[i]);
  if (!inputs.empty()) req.input = inputs.front();
  cfg.instances = reg.instance_values();
  for (const std::string& e : cfg.validate()) {
    std::cerr << "parsys: " << e << '\n';
    ok = false;
  }
  if (cl.vm.count("dump-regs")) {
    req.registers = cl.vm["dump-regs"].as<std::string>();
    if (!parse_thread_range(req.registers, req.reg_first, req.reg_count)) {
      std::cerr << "parsys: --dump-regs '" << req.registers << "': expected FIRST[:COUNT]\n";
      ok = false;
    }
  }
  if (cl.vm["no-out"].as<bool>() && cl.vm.count("out")) {
    std::cerr << "parsys: --out and --no-out contradict each other\n";
    ok = false;
  }
  req.out_dir = cl.vm.count("out")          ? cl.vm["out"].as<std::string>()
                : cl.vm["no-out"].as<bool>() ? std::string()
                                             : std::string(platform::kDefaultOutputDir);
  req.quiet = cl.vm["quiet"].as<bool>();
  return ok;
}

// The dump requests that need the program (labels, the packet's threads). False after a message.
bool check_dump_requests(const CommandLine& cl, const isa::Program& program, const platform::PlatformConfig& cfg,
                         RunRequest& req) {
  bool ok = true;
  if (cl.vm.count("dump-mem"))
    for (const std::string& d : cl.vm["dump-mem"].as<std::vector<std::string>>()) {
      platform::MemoryDump md;
      const std::string e = platform::parse_dump_request(d, program, md.address, md.length);
      if (!e.empty()) {
        std::cerr << "parsys: " << e << '\n';
        ok = false;
      }
      req.dumps.push_back(md);
    }
  if (!ok || req.reg_count == 0) return ok;
  const std::string e = check_register_request(program, cfg, req.registers, req.reg_first, req.reg_count);
  if (!e.empty()) std::cerr << "parsys: " << e << '\n';
  return e.empty();
}

// Everything the run will write, checked now so that a bad path or range costs no simulation.
// Returns kOk, or the exit status after a message.
int check_outputs(platform::Platform& plat, const platform::PlatformConfig& cfg, const RunRequest& req) {
  for (const platform::MemoryDump& d : req.dumps)
    if (const std::string e = plat.check_memory_range(d.address, d.length); !e.empty()) {
      std::cerr << "parsys: --dump-mem " << e << '\n';
      return kUsage;
    }
  std::vector<std::string> errors;
  if (!req.out_dir.empty()) errors.push_back(platform::prepare_output_dir(req.out_dir));
  if (!cfg.trace.timeline_file.empty())
    errors.push_back(platform::prepare_output_file(cfg.trace.timeline_file, "--trace.timeline"));
  if (!cfg.trace.vcd_file.empty()) errors.push_back(platform::prepare_output_file(cfg.trace.vcd_file, "--trace.vcd"));
  int status = kOk;
  for (const std::string& e : errors)
    if (!e.empty()) {
      std::cerr << "parsys: " << e << '\n';
      status = kFailed;
    }
  return status;
}

// Runs the platform with the run.* limits, Ctrl-C and the watchdog; false when the run failed or
// stopped early (plat.error()).
bool simulate(platform::Platform& plat, const platform::PlatformConfig& cfg, const simkit::OptionRegistry& reg,
              const RunRequest& req, const std::vector<std::string>& args) {
  for (int c = 0; req.reg_count > 0 && c < plat.core_count(); ++c)
    plat.core(c).capture_registers(req.reg_first, req.reg_count);
  platform::RunLimits limits;
  limits.max_host_seconds = cfg.run.max_host_seconds;
  limits.progress = cfg.run.progress == platform::Progress::On ||
                    (cfg.run.progress == platform::Progress::Auto && isatty(STDERR_FILENO) != 0);
  limits.stuck_grace_seconds = cfg.run.stuck_grace_seconds;
  // A model stuck in a call ignores Ctrl-C and the limit: the run's watchdog ends the process
  // after this (platform/src/run_watchdog.hpp), with the statistics so far but without the report.
  // It runs on the watchdog's thread: only the StuckRun, never `plat`, whose models may still run.
  limits.on_stuck = [&](const platform::StuckRun& stuck) {
    std::cerr << "parsys: " << stuck.message << '\n';
    if (req.out_dir.empty()) return;
    const std::string e = platform::write_output_dir(req.out_dir, stuck.stats, stuck.table, reg.effective_ini(),
                                                     reg.effective_json(), {}, {});
    if (!e.empty()) std::cerr << "parsys: " << e << '\n';
  };
  platform::install_interrupt_handler();
  std::string command_line = "parsys run";
  for (const std::string& a : args) command_line += " " + a;
  plat.set_run_info(command_line, reg.effective_ini());
  return plat.run(limits);
}

// The report's input: the run's figures and what ran on the host.
platform::RunSummary summarise(platform::Platform& plat, const platform::PlatformConfig& cfg,
                               const isa::Program& program, const std::string& input) {
  platform::RunSummary summary;
  summary.program = input;
  summary.threads = program.threads;
  summary.entry = "address " + std::to_string(program.start);
  for (const auto& [label, addr] : program.code_labels)
    if (addr == program.start) summary.entry = label;
  summary.cfg = &cfg;
  summary.simulated_ns = plat.simulated_time().to_seconds() * 1e9;
  summary.host_seconds = plat.host_seconds();
  // An interrupted run reports the running packets' work too.
  for (int c = 0; c < plat.core_count(); ++c) summary.cores.push_back(plat.core(c).stats_so_far());
  summary.core = plat.core(0).stats_so_far();
  summary.stats = &plat.stats().root();
  if (cfg.full_system()) {
    summary.host_software = !cfg.host_program.empty() ? "host program " + cfg.host_program
                            : program.kind == isa::ProgramKind::Master ? ".MASTER program of " + input
                                                                       : "driver launching the packet of " + input;
    summary.launches = &plat.launch_times();
    summary.host_log = plat.host_log();
  }
  return summary;
}

// After the run: messages, the report, the dumps and the output directory. Returns the exit status.
int write_results(platform::Platform& plat, const platform::PlatformConfig& cfg, const simkit::OptionRegistry& reg,
                  RunRequest& req, const isa::Program& program, bool ok) {
  for (platform::MemoryDump& d : req.dumps) {
    d.bytes.resize(d.length);
    const std::string e = plat.read_memory(d.address, d.bytes.data(), d.length);
    if (!e.empty()) {
      std::cerr << "parsys: --dump-mem " << e << '\n';
      return kUsage;
    }
  }
  const platform::RunSummary summary = summarise(plat, cfg, program, req.input);
  if (!ok) std::cerr << "parsys: " << plat.error() << '\n';
  for (const std::string& w : plat.trace_warnings()) std::cerr << "parsys: warning: " << w << '\n';
  // Checkers that record instead of stopping (protocol_check.stop_on_violation = false); a
  // stopping checker's violation is the run's error above.
  std::vector<tlmcheck::Violation> violations;
  if (!cfg.protocol_check.stop_on_violation) violations = plat.links().violations();
  for (const auto& v : violations) std::cerr << "parsys: " << v.message << '\n';
  const std::vector<core::ThreadRegisters> registers = captured_registers(plat);
  // A thread of the request that never ran (a host program's packets have fewer threads).
  const bool registers_missing = ok && registers.size() < req.reg_count;
  if (registers_missing)
    std::cerr << "parsys: --dump-regs '" << req.registers << "': " << req.reg_count - registers.size() << " of the "
              << req.reg_count << " threads did not run\n";
  // A run stopped early (Ctrl-C, host-time limit, deadlock) still reports what it gathered.
  // Without an output directory the dumps go to standard output, after the report (-q leaves out
  // only the report).
  if (ok || plat.stopped_early()) {
    if (!req.quiet) platform::write_report(std::cout, summary);
    if (req.out_dir.empty()) {
      for (const platform::MemoryDump& d : req.dumps) platform::write_hex(std::cout, d);
      platform::write_registers(std::cout, registers);
    }
    std::cout.flush();
    if (!std::cout) {
      std::cerr << "parsys: cannot write the report to standard output\n";
      return kFailed;
    }
  }
  if (!req.out_dir.empty()) {
    const std::string e = platform::write_output_dir(req.out_dir, plat.stats(), reg.effective_ini(),
                                                     reg.effective_json(), req.dumps, registers);
    if (!e.empty()) {
      std::cerr << "parsys: " << e << '\n';
      return kFailed;
    }
    if (const std::size_t omitted = plat.stats().launches_without_tree(); omitted > 0 && !req.quiet)
      std::cerr << "parsys: note: stats.json keeps the statistics tree of the first " << cfg.run.launch_stats << " of "
                << plat.stats().launches().size() << " launches (--run.launch_stats -1 keeps every one)\n";
  }
  if (plat.interrupted()) return kInterrupted;
  if (registers_missing) return kUsage;
  return ok && violations.empty() ? kOk : kFailed;
}

// parsys run: options, program, platform, simulation, results.
int cmd_run(const std::vector<std::string>& args) {
  platform::PlatformConfig cfg;
  simkit::OptionRegistry reg;
  platform::register_options(reg, cfg);
  const po::options_description command = run_options();
  po::positional_options_description pos;
  pos.add("input", -1);
  CommandLine cl;
  if (!parse_command_line(args, command, pos, reg, cl, std::cerr)) return kUsage;
  platform::install_report_handler(cl.vm["quiet"].as<bool>());
  if (cl.vm["help"].as<bool>()) {
    std::cout << "usage: parsys run FILE [options]\n\n" << command << "\nmodule options (INI section = prefix):\n";
    reg.help(std::cout);
    return kOk;
  }
  RunRequest req;
  if (!read_run_request(cl, reg, cfg, req)) return kUsage;
  const std::optional<isa::Program> program = load_program(req.input, cl.vm["Werror"].as<bool>(), std::cerr);
  if (!program) return kFailed;
  if (!check_dump_requests(cl, *program, cfg, req)) return kUsage;
  platform::Platform plat(cfg, *program);
  if (!plat.ok()) {
    std::cerr << "parsys: " << plat.error() << '\n';
    return kUsage;
  }
  if (const int status = check_outputs(plat, cfg, req); status != kOk) return status;
  const bool ok = simulate(plat, cfg, reg, req, args);
  return write_results(plat, cfg, reg, req, *program, ok);
}

int run_command(const std::string& command, const std::vector<std::string>& args) {
  if (command == "--help" || command == "-h" || command == "help") {
    std::cout << kUsageText << '\n';
    return cmd_run({"--help"});
  }
  if (command == "--version" || command == "version") {
    std::cout << "parsys " << platform::kVersion << '\n';
    return kOk;
  }
  if (command == "run") return cmd_run(args);
  if (command == "asm") return cmd_asm(args);
  if (command == "disasm") return cmd_disasm(args);
  std::cerr << "parsys: unknown command '" << command << "'\n\n" << kUsageText;
  return kUsage;
}

}  // namespace

// SystemC prints a copyright banner when its kernel starts unless this variable is set; parsys's
// output is its report, so main() switches the banner off before handing over to SystemC.
int main(int argc, char* argv[]) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  return sc_core::sc_elab_and_sim(argc, argv);
}

// Every failure the commands foresee is a message and an exit status of their own; what is left
// (the host running out of memory, a SystemC error during elaboration) ends here in one line on
// stderr instead of SystemC's "uncaught exception" report on standard output.
int sc_main(int argc, char* argv[]) {
  platform::install_report_handler(false);
  plugin::install_crash_reporter();
  if (argc < 2) {
    std::cerr << kUsageText;
    return kUsage;
  }
  try {
    return run_command(argv[1], std::vector<std::string>(argv + 2, argv + argc));
  } catch (const std::bad_alloc&) {
    std::cerr << "parsys: the host ran out of memory\n";
  } catch (const sc_core::sc_report& r) {
    std::cerr << "parsys: SystemC error: " << r.get_msg_type() << ": " << r.get_msg() << '\n';
  } catch (const std::exception& e) {
    std::cerr << "parsys: internal error: " << e.what() << '\n';
  }
  return kFailed;
}
