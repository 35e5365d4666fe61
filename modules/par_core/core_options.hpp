// The PAR core's configuration as named options (`core.<name>`), settable from INI files and the
// command line.
#pragma once

#include "core_config.hpp"
#include "par/simkit/options.hpp"

namespace par::core {

void register_options(simkit::OptionRegistry& reg, CoreConfig& cfg);

}  // namespace par::core
