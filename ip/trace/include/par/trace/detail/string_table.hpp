// Interning: equal text gets the same dense id, so an event stores 4 bytes instead of a string.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace par::trace::detail {

class StringTable {
 public:
  // The id of `text`, adding it on first use. Amortised O(length of text).
  std::uint32_t intern(std::string_view text);
  std::optional<std::uint32_t> find(std::string_view text) const;
  const std::string& text(std::uint32_t id) const { return texts_[id]; }
  std::size_t size() const noexcept { return texts_.size(); }
  // Approximate heap use (texts and index), for the bytes-per-event figure.
  std::size_t memory_bytes() const noexcept;

 private:
  // A deque never moves its elements on growth, so the map's keys may view them.
  std::deque<std::string> texts_;
  std::unordered_map<std::string_view, std::uint32_t> ids_;
};

}  // namespace par::trace::detail
