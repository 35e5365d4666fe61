#include "par/cachekit/config_checks.hpp"

#include <stdexcept>

namespace par::cachekit {

bool require_range(std::vector<std::string>& errors, const std::string& option, std::uint64_t value,
                   std::uint64_t lo, std::uint64_t hi) {
  if (value >= lo && value <= hi) return true;
  errors.push_back(option + ": " + std::to_string(value) + " is out of range " + std::to_string(lo) + ".." +
                   std::to_string(hi));
  return false;
}

void throw_if_invalid(const std::vector<std::string>& errors, const std::string& what) {
  std::string all;
  for (const auto& e : errors) all += (all.empty() ? "" : "; ") + e;
  if (!all.empty()) throw std::invalid_argument("invalid " + what + " configuration: " + all);
}

}  // namespace par::cachekit
