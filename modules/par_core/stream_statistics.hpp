// Counters of a core's stream unit (README "Stream unit"), a `stream` group under the core's
// statistics: get and put instructions and the elements they moved.
#pragma once

#include "par/simkit/stats.hpp"
#include "stream_unit.hpp"

namespace par::core {

class StreamStatistics {
 public:
  StreamStatistics();
  simkit::StatGroup& group() { return group_; }
  void update(const StreamUnit& unit);

 private:
  simkit::StatGroup group_;
  simkit::Counter *gets_, *puts_, *read_, *written_;
};

}  // namespace par::core
