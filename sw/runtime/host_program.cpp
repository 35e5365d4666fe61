#include "host_program.hpp"

#include <systemc>

namespace par::runtime {

std::string HostProgramRunner::run() {
  std::ostream& log = log_stream_ != nullptr ? *log_stream_ : static_cast<std::ostream&>(log_);
  try {
    const int rc = program_->run(rt_, log);
    rt_.wait();  // like the end of a master program: the host's packets have completed
    if (rc != 0) return "host program '" + program_->name() + "' returned " + std::to_string(rc);
  } catch (const sc_core::sc_unwind_exception&) {
    throw;  // SystemC kills or resets the thread
  } catch (const RuntimeError& e) {
    return e.what();
  } catch (const std::exception& e) {
    return "host program '" + program_->name() + "' failed: " + e.what();
  }
  return "";
}

}  // namespace par::runtime
