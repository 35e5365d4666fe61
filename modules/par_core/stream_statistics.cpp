#include "stream_statistics.hpp"

namespace par::core {

StreamStatistics::StreamStatistics() : group_("stream") {
  gets_ = &group_.counter("gets", "instructions", "get instructions executed (each: one access per slot position)");
  puts_ = &group_.counter("puts", "instructions", "put instructions executed");
  read_ = &group_.counter("elements_read", "elements", "Elements delivered to threads by get");
  written_ = &group_.counter("elements_written", "elements", "Elements appended to channels by put");
}

void StreamStatistics::update(const StreamUnit& unit) {
  gets_->set(unit.gets());
  puts_->set(unit.puts());
  read_->set(unit.elements_read());
  written_->set(unit.elements_written());
}

}  // namespace par::core
