// Device presets: datasheet-class JEDEC values for the supported devices (sources in README.md).
#pragma once

#include <vector>

#include "dram_config.hpp"

namespace par::dram {

struct DramPreset {
  Preset id;
  const char* name;    // option spelling
  const char* device;  // what the geometry describes
  const char* source;  // where the values come from
  DramConfig values;   // every geometry and timing field set; controller fields default
};

const std::vector<DramPreset>& presets();
const DramPreset& preset(Preset id);

}  // namespace par::dram
