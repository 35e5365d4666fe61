// glob_match: '*' and '?' over dotted signal names.
#include <gtest/gtest.h>

#include "par/trace/glob.hpp"

namespace par::trace {
namespace {

TEST(Glob, LiteralPatternsMatchOnlyThemselves) {
  EXPECT_TRUE(glob_match("core0.stall", "core0.stall"));
  EXPECT_FALSE(glob_match("core0.stall", "core0.stalls"));
  EXPECT_FALSE(glob_match("core0.stall", "core0.stal"));
  EXPECT_TRUE(glob_match("", ""));
  EXPECT_FALSE(glob_match("", "a"));
}

TEST(Glob, StarMatchesAnyRunIncludingDotsAndNothing) {
  EXPECT_TRUE(glob_match("core*.stall", "core0.stall"));
  EXPECT_TRUE(glob_match("core*.stall", "core127.stall"));
  EXPECT_TRUE(glob_match("core*.stall", "core.stall"));
  EXPECT_TRUE(glob_match("core*.stall", "core0.lane3.stall"));
  EXPECT_FALSE(glob_match("core*.stall", "core0.busy"));
  EXPECT_TRUE(glob_match("*", ""));
  EXPECT_TRUE(glob_match("*", "link.h2d.busy"));
  EXPECT_TRUE(glob_match("link.*", "link.h2d.busy"));
  EXPECT_FALSE(glob_match("link.*", "link"));
  EXPECT_TRUE(glob_match("*.busy", "link.h2d.busy"));
  EXPECT_TRUE(glob_match("**a*", "bab"));
  EXPECT_TRUE(glob_match("a*b*c", "aXbYbZc"));
  EXPECT_FALSE(glob_match("a*b*c", "aXbYbZ"));
}

TEST(Glob, QuestionMarkMatchesExactlyOneCharacter) {
  EXPECT_TRUE(glob_match("dram.ch?", "dram.ch3"));
  EXPECT_FALSE(glob_match("dram.ch?", "dram.ch12"));
  EXPECT_FALSE(glob_match("dram.ch?", "dram.ch"));
  EXPECT_TRUE(glob_match("?*", "x"));
  EXPECT_FALSE(glob_match("?*", ""));
}

TEST(Glob, StarInTheTextIsAnOrdinaryCharacter) {
  EXPECT_TRUE(glob_match("a*", "a*b"));
  EXPECT_FALSE(glob_match("a.b", "a*b"));
}

}  // namespace
}  // namespace par::trace
