// Glob matching for signal selection: '*' matches any run of characters (dots included), '?'
// exactly one; everything else matches itself. No character classes or escapes.
#pragma once

#include <string_view>

namespace par::trace {

bool glob_match(std::string_view pattern, std::string_view text) noexcept;

}  // namespace par::trace
