#include "par/trace/detail/string_table.hpp"

namespace par::trace::detail {

std::uint32_t StringTable::intern(std::string_view text) {
  if (const auto it = ids_.find(text); it != ids_.end()) return it->second;
  const auto id = static_cast<std::uint32_t>(texts_.size());
  const std::string& stored = texts_.emplace_back(text);
  ids_.emplace(std::string_view(stored), id);
  return id;
}

std::optional<std::uint32_t> StringTable::find(std::string_view text) const {
  if (const auto it = ids_.find(text); it != ids_.end()) return it->second;
  return std::nullopt;
}

std::size_t StringTable::memory_bytes() const noexcept {
  std::size_t bytes = 0;
  for (const std::string& s : texts_) bytes += sizeof(std::string) + (s.size() > 15 ? s.capacity() + 1 : 0);
  // Node-based map: a node (key, value, next, cached hash) plus a bucket pointer per entry.
  bytes += ids_.size() * (sizeof(std::string_view) + 3 * sizeof(void*)) +
           ids_.bucket_count() * sizeof(void*);
  return bytes;
}

}  // namespace par::trace::detail
