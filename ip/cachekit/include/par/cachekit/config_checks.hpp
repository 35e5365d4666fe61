// Checks shared by the cache configurations (l2.*, l1.*): every message is collected, then thrown
// together.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace par::cachekit {

// Appends "<option>: <value> is out of range lo..hi" and returns false when out of range;
bool require_range(std::vector<std::string>& errors, const std::string& option, std::uint64_t value,
                   std::uint64_t lo, std::uint64_t hi);
// Throws std::invalid_argument("invalid <what> configuration: <every message>") unless `errors`
// is empty.
void throw_if_invalid(const std::vector<std::string>& errors, const std::string& what);

}  // namespace par::cachekit
