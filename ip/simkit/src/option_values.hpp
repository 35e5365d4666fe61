// Text <-> value conversions shared by the option types, the INI reader and the dumps.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace par::simkit::detail {

// Each parse_* returns "" on success, otherwise the error without the option name, quoting the
// text as given: "'abc' is not an integer".
std::string parse_bool(std::string_view text, bool& out);
// Decimal or 0x hex, optional sign, optional size suffix K M G T (or KiB MiB GiB TiB, powers of
// 1024). `type` names the target in overflow messages; min/max are its limits.
std::string parse_signed(std::string_view text, std::int64_t lo, std::int64_t hi, const char* type,
                         std::int64_t& out);
std::string parse_unsigned(std::string_view text, std::uint64_t hi, const char* type,
                           std::uint64_t& out);
// Finite decimal floating point ("1.5", "2e-9"; no inf/nan).
std::string parse_real(std::string_view text, double& out);

std::string hex_text(std::uint64_t v);  // "0x1f"
std::string_view trim(std::string_view s);

// INI spelling of a string value: as is when it reads back unchanged, otherwise in double
// quotes with \" \\ \n \t \r escapes (empty, surrounding blanks, comment characters, ...).
std::string ini_quote(const std::string& s);

// Well-formed UTF-8 (no overlong forms, surrogates or code points above U+10FFFF).
bool valid_utf8(std::string_view s);

// Levenshtein distance, for "did you mean" suggestions.
std::size_t edit_distance(std::string_view a, std::string_view b);

}  // namespace par::simkit::detail
