// The version of parsys (the project version of CMakeLists.txt): `parsys --version`, stats.json
// ("parsys_version"), config.json ("$parsys_version") and config.ini (first comment line).
#pragma once

namespace par::platform {

inline constexpr const char* kVersion = PARSYS_VERSION;

}  // namespace par::platform
