// Options of the platform itself (`platform.*`, `bus.*`, `run.*`) and registration of every
// module's options in one registry.
#pragma once

#include "par/simkit/options.hpp"
#include "platform_config.hpp"

namespace par::platform {

// Registers the options of every block of `cfg`.
void register_options(simkit::OptionRegistry& reg, PlatformConfig& cfg);

}  // namespace par::platform
