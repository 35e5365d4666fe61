// The JSON type of simkit's API.
#pragma once

#include <nlohmann/json.hpp>

namespace par::simkit {

// Insertion-ordered, so documents list options and statistics in registration order (the order
// of the module hierarchy) rather than alphabetically.
using Json = nlohmann::ordered_json;

}  // namespace par::simkit
