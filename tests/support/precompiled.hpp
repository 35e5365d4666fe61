// The third-party headers of the test executables, precompiled once per build tree
// (tests/CMakeLists.txt, parsys_test_pch) and included first in every test source.
#pragma once

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <systemc>
#include <tlm>

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>
