// The interval calendar shared by the HT link's channels and the interconnect's ports.
#include <gtest/gtest.h>

#include "par/simkit/interval_calendar.hpp"

namespace par::simkit {
namespace {

constexpr IntervalCalendar::Ticks ns(double v) { return static_cast<IntervalCalendar::Ticks>(v * 1000.0 + 0.5); }

TEST(IntervalCalendar, BackToBackPacketsQueue) {
  IntervalCalendar c;
  EXPECT_EQ(c.reserve(ns(0), ns(10)), ns(0));
  EXPECT_EQ(c.reserve(ns(0), ns(10)), ns(10));
  EXPECT_EQ(c.reserve(ns(5), ns(10)), ns(20));
  EXPECT_EQ(c.busy_until(), ns(30));
  EXPECT_EQ(c.intervals(), 1u);  // touching reservations merge
}

TEST(IntervalCalendar, AnEarlierPacketUsesAGapBeforeALaterReservation) {
  IntervalCalendar c;
  EXPECT_EQ(c.reserve(ns(205), ns(25)), ns(205));  // a response reserved first in call order
  EXPECT_EQ(c.reserve(ns(130), ns(20)), ns(130));  // fits before it
  EXPECT_EQ(c.reserve(ns(150), ns(60)), ns(230));  // 55 ns gap is too short: after it
  EXPECT_EQ(c.reserve(ns(150), ns(55)), ns(150));  // exactly fills the gap
  EXPECT_EQ(c.intervals(), 1u);
  EXPECT_EQ(c.busy_until(), ns(290));
  EXPECT_EQ(c.reserve(ns(100), 0), ns(100));  // nothing to send, nothing reserved
}

TEST(IntervalCalendar, RetireForgetsOnlyThePast) {
  IntervalCalendar c;
  c.reserve(ns(0), ns(10));
  c.reserve(ns(20), ns(10));
  c.reserve(ns(40), ns(10));
  EXPECT_EQ(c.intervals(), 3u);
  c.retire(ns(30));
  EXPECT_EQ(c.intervals(), 1u);
  EXPECT_EQ(c.reserve(ns(35), ns(10)), ns(50));
}

TEST(IntervalCalendar, ARequestInsideTheLatestReservationQueuesBehindItAndMerges) {
  IntervalCalendar c;
  c.reserve(ns(0), ns(10));
  c.reserve(ns(20), ns(10));
  EXPECT_EQ(c.reserve(ns(20), ns(5)), ns(30));  // at the latest's start
  EXPECT_EQ(c.reserve(ns(34), ns(5)), ns(35));  // inside it
  EXPECT_EQ(c.reserve(ns(40), ns(5)), ns(40));  // at its end: touches it
  EXPECT_EQ(c.intervals(), 2u);
  EXPECT_EQ(c.busy_until(), ns(45));
  EXPECT_EQ(c.reserve(ns(19), ns(1)), ns(19));  // before the latest's start: the gap, touching it
  EXPECT_EQ(c.intervals(), 2u);
  EXPECT_EQ(c.reserve(ns(46), ns(1)), ns(46));  // after a gap: a new interval
  EXPECT_EQ(c.intervals(), 3u);
}

}  // namespace
}  // namespace par::simkit
