// Command-line pieces shared by the cli tests (one unity translation unit may hold several of
// their files, so each piece is defined once, here).
#pragma once

#include <string>

#include "../support/parsys_cli.hpp"

namespace par::testing {

// The device with DRAM behind L2 (global memory), the platform most runs use.
inline const std::string kGlobal = "--config " + config_file("device-dram.ini");
// The test plug-in RAM (tests/plugin), loaded at run time.
inline const std::string kTestRam = std::string("plugin:") + PARSYS_TEST_PLUGIN_DIR + "/test_ram.so";

}  // namespace par::testing
