// Configuration of a whole parsys platform: each module's configuration struct plus run options.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core_config.hpp"
#include "interconnect.hpp"
#include "packet_engine.hpp"

namespace par::platform {

struct RunConfig {
  core::RunMode mode = core::RunMode::Timing;
  double clock_mhz = 1000.0;     // PAR core clock; converts cycles to simulated time
  int functional_width = 1024;   // threads side by side in functional mode
  int repeat = 1;                // launches of the packet, back to back
  double quantum_ns = 1000;      // how far a core may run ahead of SystemC time
};

struct PlatformConfig {
  int cores = 1;
  core::CoreConfig core;
  interconnect::InterconnectConfig bus;
  RunConfig run;

  std::vector<std::string> validate() const;
};

}  // namespace par::platform
