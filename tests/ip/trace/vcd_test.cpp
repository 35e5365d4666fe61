// VcdWriter: a golden file, time ordering, collapsing, wires and vectors, selection, bounds and
// declaration errors.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>

#include "support/temp_dir.hpp"
#include "par/trace/vcd_writer.hpp"

namespace par::trace {
namespace {

std::string text_of(const VcdWriter& vcd) {
  std::ostringstream os;
  vcd.write(os);
  return os.str();
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream os;
  os << in.rdbuf();
  return os.str();
}

// The value-change part: everything after $enddefinitions.
std::string changes_of(const std::string& vcd) {
  const std::string marker = "$enddefinitions $end\n";
  return vcd.substr(vcd.find(marker) + marker.size());
}

TEST(Vcd, SmallWaveformMatchesTheGoldenFile) {
  VcdWriter vcd;
  vcd.set_date("fixed date");
  const SignalId stall0 = vcd.signal("core0.stall", 1);
  const SignalId stall1 = vcd.signal("core1.stall", 1, 1);
  const SignalId queue = vcd.signal("link.h2d.queue", 8);
  const SignalId busy = vcd.signal("link.busy", 1);
  vcd.change(queue, 0, 2);        // at time 0: part of $dumpvars
  vcd.change(stall0, 3000, 1);
  vcd.change(busy, 1000, 1);      // out of order
  vcd.change(queue, 1000, 3);
  vcd.change(queue, 1000, 5);     // same time: the last call wins
  vcd.change(stall1, 2000, 1);    // no change: neither the value nor #2000 is written
  vcd.change(stall0, 5000, 0);
  vcd.change(busy, 5000, 0);
  vcd.change(queue, 4000, 300);   // truncated to 8 bits: 44
  EXPECT_EQ(vcd.recorded(), 9u);
  EXPECT_EQ(text_of(vcd), read_file(PARSYS_SOURCE_DIR "/tests/ip/trace/golden/small.vcd"));
}

TEST(Vcd, OutOfOrderChangesAreWrittenInTimeOrder) {
  VcdWriter vcd;
  const SignalId s = vcd.signal("core0.stall", 1);
  // 100 and 300 keep the initial 0; 500 sets 1; 700 and 900 keep it: one change is written.
  for (const Ps t : {900, 100, 500, 300, 700}) vcd.change(s, t, t >= 500 ? 1 : 0);
  EXPECT_EQ(changes_of(text_of(vcd)), "#0\n$dumpvars\n0!\n$end\n#500\n1!\n");

  VcdWriter toggles;
  const SignalId w = toggles.signal("a.w", 1);
  for (const Ps t : {40, 10, 30, 20}) toggles.change(w, t, t / 10 % 2);
  EXPECT_EQ(changes_of(text_of(toggles)), "#0\n$dumpvars\n0!\n$end\n#10\n1!\n#20\n0!\n#30\n1!\n#40\n0!\n");
}

TEST(Vcd, SameTimeChangesCollapseToTheLastCall) {
  VcdWriter vcd;
  const SignalId a = vcd.signal("a", 1);
  const SignalId b = vcd.signal("b", 4);
  vcd.change(a, 10, 1);
  vcd.change(b, 10, 3);
  vcd.change(a, 10, 0);
  vcd.change(a, 10, 1);
  vcd.change(b, 10, 7);
  vcd.change(b, 20, 9);
  vcd.change(b, 20, 7);  // back to the current value at the same time: nothing at #20
  vcd.change(a, 30, 1);  // no change
  EXPECT_EQ(changes_of(text_of(vcd)), "#0\n$dumpvars\n0!\nb0 \"\n$end\n#10\n1!\nb111 \"\n");
}

TEST(Vcd, WiresAreZeroOrOneAndVectorsAreTruncatedToTheirWidth) {
  VcdWriter vcd;
  const SignalId wire = vcd.signal("w", 1);
  const SignalId v3 = vcd.signal("v3", 3);
  const SignalId v64 = vcd.signal("v64", 64, 5);
  vcd.change(wire, 1, 5);
  vcd.change(v3, 1, 13);  // 0b1101 -> 0b101
  vcd.change(v64, 1, ~std::uint64_t{0});
  vcd.change(v3, 2, 8);   // 0b1000 -> 0
  const std::string text = text_of(vcd);
  EXPECT_NE(text.find("$var wire 1 ! w $end\n$var integer 3 \" v3 $end\n$var integer 64 # v64 $end\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(changes_of(text), "#0\n$dumpvars\n0!\nb0 \"\nb101 #\n$end\n#1\n1!\nb101 \"\nb" +
                                  std::string(64, '1') + " #\n#2\nb0 \"\n");
}

TEST(Vcd, ScopesNestPerDottedWordInDeclarationOrder) {
  VcdWriter vcd;
  vcd.signal("l2.bank1.mshrs", 5);
  vcd.signal("core0.stall", 1);
  vcd.signal("l2.bank0.mshrs", 5);
  vcd.signal("top", 1);
  const std::string text = text_of(vcd);
  const std::string expected =
      "$scope module parsys $end\n"
      "$scope module l2 $end\n"
      "$scope module bank1 $end\n"
      "$var integer 5 ! mshrs $end\n"
      "$upscope $end\n"
      "$scope module bank0 $end\n"
      "$var integer 5 # mshrs $end\n"
      "$upscope $end\n"
      "$upscope $end\n"
      "$scope module core0 $end\n"
      "$var wire 1 \" stall $end\n"
      "$upscope $end\n"
      "$var wire 1 $ top $end\n"
      "$upscope $end\n"
      "$enddefinitions $end\n";
  EXPECT_NE(text.find(expected), std::string::npos) << text;
}

TEST(Vcd, IdentifierCodesStayUniqueBeyondOneCharacter) {
  VcdWriter vcd;
  for (int k = 0; k < 9000; ++k) vcd.signal("s.x" + std::to_string(k), 1);
  std::istringstream in(text_of(vcd));
  std::set<std::string> codes;
  std::string line;
  int vars = 0;
  while (std::getline(in, line)) {
    if (line.rfind("$var ", 0) != 0) continue;
    std::istringstream words(line);
    std::string var, type, width, code;
    words >> var >> type >> width >> code;
    codes.insert(code);
    ++vars;
    for (const char c : code) ASSERT_TRUE(c >= '!' && c <= '~') << line;
  }
  EXPECT_EQ(vars, 9000);
  EXPECT_EQ(codes.size(), 9000u);
}

TEST(Vcd, SelectionPatternsChooseSignalsAndScopes) {
  VcdWriter vcd;
  vcd.select({"core*.stall", "link", "dram.ch?.queue", "nothing.here"});
  EXPECT_TRUE(vcd.signal("core0.stall", 1).valid());
  EXPECT_TRUE(vcd.signal("core12.stall", 1).valid());
  EXPECT_FALSE(vcd.signal("core0.busy", 1).valid());
  EXPECT_TRUE(vcd.signal("link.h2d.busy", 1).valid());  // below the "link" scope
  EXPECT_TRUE(vcd.signal("link.d2h.queue", 8).valid());
  EXPECT_FALSE(vcd.signal("linked.x", 1).valid());
  EXPECT_TRUE(vcd.signal("dram.ch3.queue", 8).valid());
  EXPECT_FALSE(vcd.signal("dram.ch10.queue", 8).valid());
  EXPECT_FALSE(vcd.signal("l2.bank0.mshrs", 4).valid());
  EXPECT_EQ(vcd.selected_count(), 5u);
  EXPECT_EQ(vcd.declared().size(), 9u);
  EXPECT_EQ(vcd.unmatched_patterns(), std::vector<std::string>{"nothing.here"});

  vcd.change(SignalId{}, 10, 1);  // unselected: ignored
  EXPECT_EQ(vcd.recorded(), 0u);
  const std::string text = text_of(vcd);
  EXPECT_EQ(text.find("linked"), std::string::npos);
  EXPECT_EQ(text.find("mshrs"), std::string::npos);
  EXPECT_NE(text.find("$var wire 1 # busy $end"), std::string::npos) << text;
}

TEST(Vcd, NoSelectionSelectsEverything) {
  VcdWriter vcd;
  EXPECT_TRUE(vcd.is_selected("anything.at.all"));
  vcd.select({});
  EXPECT_TRUE(vcd.signal("x.y", 1).valid());
  EXPECT_TRUE(vcd.unmatched_patterns().empty());
}

TEST(Vcd, SignalRefIsNullWhenTracingIsOffOrTheSignalIsNotSelected) {
  const SignalRef off(nullptr, "core0.stall", 1);
  EXPECT_FALSE(off.enabled());
  off.set(10, 1);

  VcdWriter vcd;
  vcd.select({"core0.stall"});
  const SignalRef stall(&vcd, "core0.stall", 1);
  const SignalRef busy(&vcd, "core0.busy", 1);
  EXPECT_TRUE(stall.enabled());
  EXPECT_FALSE(busy.enabled());
  stall.set(10, 1);
  busy.set(10, 1);
  EXPECT_EQ(vcd.recorded(), 1u);
}

TEST(Vcd, MaxChangesDropsTheRestAndStopsTheWaveformBeforeTheEarliestDrop) {
  VcdWriter vcd(3);
  vcd.set_date("d");
  const SignalId a = vcd.signal("a", 1);
  const SignalId b = vcd.signal("b", 8);
  vcd.change(a, 100, 1);
  vcd.change(b, 300, 4);
  vcd.change(a, 500, 0);
  vcd.change(b, 400, 5);  // dropped
  vcd.change(b, 200, 2);  // dropped: the earliest
  EXPECT_EQ(vcd.recorded(), 3u);
  EXPECT_EQ(vcd.dropped(), 2u);
  EXPECT_EQ(vcd.first_dropped_time(), 200u);
  const std::string text = text_of(vcd);
  EXPECT_NE(text.find("$comment\n   2 signals, 3 value changes recorded, 2 dropped (max_changes 3);\n"
                      "   the waveform stops at #200, the earliest dropped change\n$end\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(changes_of(text), "#0\n$dumpvars\n0!\nb0 \"\n$end\n#100\n1!\n#200\n");
}

// Occupancies reserved out of time order (an MSHR or queue entry from its allocation to its end):
// +1/-1 changes summed in time order; equal times net out.
TEST(Vcd, CountingSignalsSumTheirChangesInTimeOrder) {
  VcdWriter vcd;
  vcd.set_date("d");
  const SignalRef q(&vcd, "dram.ch0.queue", 8, SignalRef::kCounting);
  q.occupy(100, 400);
  q.occupy(50, 100);  // ends where the first begins: no change at 100
  q.occupy(200, 300);
  q.add(300, 0);
  EXPECT_EQ(changes_of(text_of(vcd)), "#0\n$dumpvars\nb0 !\n$end\n#50\nb1 !\n#200\nb10 !\n#300\nb1 !\n#400\nb0 !\n");
  EXPECT_THROW(vcd.signal("dram.ch0.queue", 8), std::invalid_argument);  // counting, not plain
  EXPECT_EQ(vcd.counting_signal("dram.ch0.queue", 8).index, 0u);
}

// The command line and the configuration go into a $comment after the header; "$end" inside the
// text cannot end the section early.
TEST(Vcd, RunInformationIsAComment) {
  VcdWriter vcd;
  vcd.set_date("d");
  vcd.signal("a", 1);
  vcd.set_info("command: parsys run k.par\nconfiguration:\n[core]\nlanes = 4 $end");
  const std::string text = text_of(vcd);
  EXPECT_NE(text.find("$comment\n   command: parsys run k.par\n   configuration:\n   [core]\n   lanes = 4 Send\n$end\n"
                      "$timescale 1ps $end\n"),
            std::string::npos)
      << text;
}

TEST(Vcd, AnEmptyWaveformIsComplete) {
  VcdWriter vcd;
  vcd.set_date("d");
  EXPECT_EQ(text_of(vcd),
            "$date\n   d\n$end\n$version\n   parsys\n$end\n$comment\n   0 signals, 0 value changes "
            "recorded, 0 dropped (max_changes 1000000)\n$end\n$timescale 1ps $end\n"
            "$scope module parsys $end\n$upscope $end\n$enddefinitions $end\n#0\n$dumpvars\n$end\n");
}

TEST(Vcd, TheDefaultDateIsNotEmpty) {
  VcdWriter vcd;
  const std::string text = text_of(vcd);
  ASSERT_EQ(text.rfind("$date\n   ", 0), 0u);
  EXPECT_GT(text.find("\n$end"), std::string("$date\n   ").size() + 10);
}

TEST(Vcd, DeclarationMistakesThrow) {
  VcdWriter vcd;
  EXPECT_THROW(vcd.signal("", 1), std::invalid_argument);
  EXPECT_THROW(vcd.signal("core0..stall", 1), std::invalid_argument);
  EXPECT_THROW(vcd.signal(".x", 1), std::invalid_argument);
  EXPECT_THROW(vcd.signal("x.", 1), std::invalid_argument);
  EXPECT_THROW(vcd.signal("has space", 1), std::invalid_argument);
  EXPECT_THROW(vcd.signal("bus[3]", 1), std::invalid_argument);
  EXPECT_THROW(vcd.signal("w0", 0), std::invalid_argument);
  EXPECT_THROW(vcd.signal("w65", 65), std::invalid_argument);
  const SignalId s = vcd.signal("link.busy", 1);
  EXPECT_EQ(vcd.signal("link.busy", 1).index, s.index);
  try {
    vcd.signal("link.busy", 2);
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "vcd: signal 'link.busy' declared with widths 1 and 2");
  }
  EXPECT_THROW(vcd.signal("link", 1), std::invalid_argument);           // is a scope
  EXPECT_THROW(vcd.signal("link.busy.bit0", 1), std::invalid_argument);  // below a signal
  EXPECT_THROW(vcd.select({"x"}), std::logic_error);
  try {
    vcd.signal("has space", 1);
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(),
                 "vcd: bad signal name 'has space' (dotted words of letters, digits and '_')");
  }
}

TEST(Vcd, WritesFilesAndReportsFailures) {
  VcdWriter vcd;
  vcd.set_date("d");
  vcd.change(vcd.signal("a", 1), 5, 1);
  const std::string path = par::testing::temp_dir("vcd") + "/test.vcd";
  std::string error;
  ASSERT_TRUE(vcd.write_file(path, &error)) << error;
  EXPECT_EQ(read_file(path), text_of(vcd));
  std::remove(path.c_str());
  EXPECT_FALSE(vcd.write_file("/nonexistent-dir/x.vcd", &error));
  EXPECT_EQ(error, "cannot write '/nonexistent-dir/x.vcd': No such file or directory");
}

}  // namespace
}  // namespace par::trace
