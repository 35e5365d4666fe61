// Small JSON text helpers shared by the timeline writer: strings, exact microseconds, numbers.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "par/trace/time.hpp"

namespace par::trace::detail {

// `text` as a JSON string literal: quotes, backslashes and control characters escaped, and bytes
// that are not valid UTF-8 replaced by U+FFFD (strict parsers reject them).
void append_json_string(std::string& out, std::string_view text);
// Picoseconds as exact decimal microseconds, trailing zeros removed: 1234500 -> "1.2345".
void append_us(std::string& out, Ps ps);
void append_uint(std::string& out, std::uint64_t value);
void append_int(std::string& out, std::int64_t value);
// Shortest text that reads back to the same double; NaN and infinities (not JSON numbers) as the
// strings "nan", "inf", "-inf".
void append_real(std::string& out, double value);

}  // namespace par::trace::detail
