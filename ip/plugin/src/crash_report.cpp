// The fatal-signal handler of crash_report.hpp. Everything it does is async-signal-safe: it reads
// fixed tables filled at load time and an atomic pointer, writes with write(2), restores the
// previous handler and re-raises.
#include "par/plugin/crash_report.hpp"

#include <dlfcn.h>
#include <link.h>
#include <signal.h>
#include <ucontext.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <iterator>

#include "plugin_call.hpp"

namespace par::plugin {

namespace detail {
std::atomic<const char*> current_plugin_call{nullptr};
}  // namespace detail

namespace {

struct CodeRange {
  std::uintptr_t begin = 0, end = 0;
  const char* label = nullptr;
};
constexpr int kMaxRanges = 64;  // executable segments of every plug-in loaded (usually one each)
CodeRange code_ranges[kMaxRanges];
std::atomic<int> code_range_count{0};

constexpr int kSignals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT};
struct sigaction previous_actions[std::size(kSignals)];
std::atomic<bool> installed{false};

void write_text(const char* s) {
  const ssize_t ignored = ::write(STDERR_FILENO, s, std::strlen(s));
  (void)ignored;
}

const char* signal_name(int sig) {
  switch (sig) {
    case SIGSEGV: return "SIGSEGV (invalid memory access)";
    case SIGBUS: return "SIGBUS (bus error)";
    case SIGILL: return "SIGILL (illegal instruction)";
    case SIGFPE: return "SIGFPE (arithmetic exception)";
    default: return "SIGABRT (abort)";
  }
}

std::uintptr_t faulting_pc(const void* context) {
  const auto* uc = static_cast<const ucontext_t*>(context);
#if defined(__x86_64__)
  return static_cast<std::uintptr_t>(uc->uc_mcontext.gregs[REG_RIP]);
#elif defined(__aarch64__)
  return static_cast<std::uintptr_t>(uc->uc_mcontext.pc);
#else
  (void)uc;
  return 0;
#endif
}

void on_fatal_signal(int sig, siginfo_t* info, void* context) {
  const std::uintptr_t pc = faulting_pc(context);
  const char* in_code = nullptr;
  const int n = code_range_count.load(std::memory_order_acquire);
  for (int i = 0; i < n; ++i)
    if (pc >= code_ranges[i].begin && pc < code_ranges[i].end) in_code = code_ranges[i].label;
  const char* calling = detail::current_plugin_call.load(std::memory_order_relaxed);
  if (in_code != nullptr) {
    // The call names the model too, when it is a call into the same plug-in.
    const bool same = calling != nullptr && std::strncmp(calling, in_code, std::strlen(in_code)) == 0;
    write_text("parsys: ");
    write_text(signal_name(sig));
    write_text(" in ");
    write_text(same ? calling : in_code);
    write_text("\n");
  } else if (calling != nullptr) {
    write_text("parsys: ");
    write_text(signal_name(sig));
    write_text(" while running ");
    write_text(calling);
    write_text("\n");
  }
  // Back to the handlers that were there before (by default: die of the signal), for every
  // signal, so the process reports once: what follows this one (a sanitizer's abort after its own
  // report of the fault) goes to them. A fault happens again when this handler returns; a signal
  // that was sent (abort, kill) is sent once more and arrives when this handler returns.
  for (std::size_t i = 0; i < std::size(kSignals); ++i) ::sigaction(kSignals[i], &previous_actions[i], nullptr);
  if (info == nullptr || info->si_code <= 0) ::raise(sig);
}

// A stack of its own for the handler: a stack overflow is a SIGSEGV with no stack left.
void ensure_signal_stack() {
  stack_t current{};
  if (::sigaltstack(nullptr, &current) == 0 && (current.ss_flags & SS_DISABLE) == 0) return;  // e.g. a sanitizer's
  static char stack_memory[1 << 16];
  stack_t ss{};
  ss.ss_sp = stack_memory;
  ss.ss_size = sizeof stack_memory;
  ::sigaltstack(&ss, nullptr);
}

int remember_segments(dl_phdr_info* info, std::size_t, void* data) {
  const auto* want = static_cast<const std::pair<const link_map*, const char*>*>(data);
  if (info->dlpi_addr != want->first->l_addr || std::strcmp(info->dlpi_name, want->first->l_name) != 0) return 0;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_LOAD || (ph.p_flags & PF_X) == 0) continue;
    const int slot = code_range_count.load(std::memory_order_relaxed);
    if (slot == kMaxRanges) break;
    code_ranges[slot] = CodeRange{info->dlpi_addr + ph.p_vaddr, info->dlpi_addr + ph.p_vaddr + ph.p_memsz, want->second};
    code_range_count.store(slot + 1, std::memory_order_release);
  }
  return 1;
}

}  // namespace

void detail::remember_plugin_code(void* handle, const std::string& label) {
  link_map* map = nullptr;
  if (::dlinfo(handle, RTLD_DI_LINKMAP, &map) != 0 || map == nullptr) return;
  std::pair<const link_map*, const char*> want{map, ::strdup(label.c_str())};  // lives as long as the code
  ::dl_iterate_phdr(remember_segments, &want);
}

const char* plugin_call_in_progress() { return detail::current_plugin_call.load(std::memory_order_relaxed); }

void install_crash_reporter() {
  if (installed.exchange(true)) return;
  ensure_signal_stack();
  struct sigaction action {};
  action.sa_sigaction = on_fatal_signal;
  action.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&action.sa_mask);
  for (std::size_t i = 0; i < std::size(kSignals); ++i) ::sigaction(kSignals[i], &action, &previous_actions[i]);
}

}  // namespace par::plugin
