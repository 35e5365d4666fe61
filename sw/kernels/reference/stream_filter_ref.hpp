// C++ reference of the stream-filtering kernels (sw/kernels/stream-filter*.par) and their input.
#pragma once

#include <cstdint>
#include <vector>

namespace par::kernels {

// n signed values in [-1000, 1000), the same for the same seed (a 64-bit LCG: no library
// generator whose sequence could change between standard libraries).
std::vector<std::int64_t> stream_filter_input(std::size_t n, std::uint64_t seed);

// The elements of x greater than t, in their order: what stream-filter.par leaves in s1.
std::vector<std::int64_t> stream_filter(const std::vector<std::int64_t>& x, std::int64_t t);

}  // namespace par::kernels
