// The pieces the targets share (ip/sckit, simkit/transfer_counters.hpp): the payload checks in their
// fixed order, splitting a payload with byte enables, the period divider, the transfer counters.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "par/sckit/divider.hpp"
#include "par/sckit/payload.hpp"
#include "par/sckit/target_check.hpp"
#include "par/simkit/transfer_counters.hpp"

namespace par::sckit {
namespace {

using R = AccessRules;

struct Shape {
  tlm::tlm_command command = tlm::TLM_READ_COMMAND;
  std::uint64_t address = 0;
  unsigned len = 8;
  unsigned streaming_width = 8;
  bool enables = false;
  unsigned enable_len = 0;
};

tlm::tlm_response_status check(const Shape& s, const AccessRules& rules) {
  static unsigned char data[64], enables[8] = {0xff};
  tlm::tlm_generic_payload tx;
  prepare_request(tx, s.command, s.address, data, s.len);
  tx.set_streaming_width(s.streaming_width);
  if (s.enables) {
    tx.set_byte_enable_ptr(enables);
    tx.set_byte_enable_length(s.enable_len);
  }
  return check_access(tx, rules);
}

AccessRules rules(R::ByteEnables be, R::Ignore ignore, std::uint64_t size = 0, unsigned word = 0,
                  tlm::tlm_response_status narrow = tlm::TLM_BURST_ERROR_RESPONSE) {
  AccessRules r;
  r.byte_enables = be;
  r.ignore = ignore;
  r.size = size;
  r.word = word;
  r.narrow_stream = narrow;
  return r;
}

TEST(TargetCheck, AWellFormedAccessIsServed) {
  EXPECT_EQ(check(Shape{}, AccessRules()), tlm::TLM_INCOMPLETE_RESPONSE);
  Shape with_enables;
  with_enables.enables = true;
  with_enables.enable_len = 4;
  EXPECT_EQ(check(with_enables, rules(R::ByteEnables::NonEmpty, R::Ignore::Serve)), tlm::TLM_INCOMPLETE_RESPONSE);
}

TEST(TargetCheck, EachRuleGivesItsStatus) {
  Shape narrow;
  narrow.streaming_width = 4;
  EXPECT_EQ(check(narrow, AccessRules()), tlm::TLM_BURST_ERROR_RESPONSE);
  EXPECT_EQ(check(narrow, rules(R::ByteEnables::Any, R::Ignore::Serve, 0, 0, tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE)),
            tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
  Shape empty_enables;
  empty_enables.enables = true;
  EXPECT_EQ(check(empty_enables, AccessRules()), tlm::TLM_INCOMPLETE_RESPONSE);  // Any
  EXPECT_EQ(check(empty_enables, rules(R::ByteEnables::NonEmpty, R::Ignore::Serve)),
            tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
  Shape enables = empty_enables;
  enables.enable_len = 8;
  EXPECT_EQ(check(enables, rules(R::ByteEnables::Refused, R::Ignore::Serve)), tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
  Shape last;  // the last 8 bytes of a 256-byte window, then one byte beyond
  last.address = 248;
  EXPECT_EQ(check(last, rules(R::ByteEnables::Any, R::Ignore::Serve, 256)), tlm::TLM_INCOMPLETE_RESPONSE);
  last.address = 249;
  EXPECT_EQ(check(last, rules(R::ByteEnables::Any, R::Ignore::Serve, 256)), tlm::TLM_ADDRESS_ERROR_RESPONSE);
  last.address = 1ull << 40;
  EXPECT_EQ(check(last, rules(R::ByteEnables::Any, R::Ignore::Serve, 256)), tlm::TLM_ADDRESS_ERROR_RESPONSE);
  Shape odd;
  odd.address = 4;
  EXPECT_EQ(check(odd, rules(R::ByteEnables::Any, R::Ignore::Serve, 0, 8)), tlm::TLM_ADDRESS_ERROR_RESPONSE);
  Shape empty;
  empty.len = 0;
  empty.streaming_width = 0;
  EXPECT_EQ(check(empty, rules(R::ByteEnables::Any, R::Ignore::Serve, 0, 8)), tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(check(empty, rules(R::ByteEnables::Any, R::Ignore::OkFirst, 0, 8)), tlm::TLM_OK_RESPONSE);
}

TEST(TargetCheck, RulesApplyInTheirOrder) {
  // Ignore first (the DRAM): before a narrow stream and the window.
  Shape ignore;
  ignore.command = tlm::TLM_IGNORE_COMMAND;
  ignore.streaming_width = 4;
  ignore.address = 1ull << 40;
  EXPECT_EQ(check(ignore, rules(R::ByteEnables::Any, R::Ignore::OkFirst, 256)), tlm::TLM_OK_RESPONSE);
  // Ignore after the shape (register files): a narrow stream still fails, then OK before the word.
  EXPECT_EQ(check(ignore, rules(R::ByteEnables::Refused, R::Ignore::OkAfterShape, 0, 8)),
            tlm::TLM_BURST_ERROR_RESPONSE);
  ignore.streaming_width = 8;
  ignore.address = 3;
  EXPECT_EQ(check(ignore, rules(R::ByteEnables::Refused, R::Ignore::OkAfterShape, 0, 8)), tlm::TLM_OK_RESPONSE);
  // Refused byte enables before the streaming width; an empty pattern after it.
  Shape both;
  both.enables = true;
  both.streaming_width = 4;
  EXPECT_EQ(check(both, rules(R::ByteEnables::Refused, R::Ignore::Serve)), tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
  EXPECT_EQ(check(both, rules(R::ByteEnables::NonEmpty, R::Ignore::Serve)), tlm::TLM_BURST_ERROR_RESPONSE);
}

TEST(PreparePiece, RebasesTheByteEnablePatternAndKeepsTheAttributes) {
  unsigned char data[16] = {};
  unsigned char pattern[3] = {0xff, 0x00, 0xff};
  tlm::tlm_generic_payload whole;
  prepare_request(whole, tlm::TLM_WRITE_COMMAND, 0x1000, data, 16);
  whole.set_byte_enable_ptr(pattern);
  whole.set_byte_enable_length(3);
  whole.set_gp_option(tlm::TLM_FULL_PAYLOAD);
  tlm::tlm_generic_payload piece;
  std::vector<unsigned char> enables;
  prepare_piece(whole, 4, 5, piece, enables);
  EXPECT_EQ(piece.get_command(), tlm::TLM_WRITE_COMMAND);
  EXPECT_EQ(piece.get_address(), 0x1004u);
  EXPECT_EQ(piece.get_data_ptr(), data + 4);
  EXPECT_EQ(piece.get_data_length(), 5u);
  EXPECT_EQ(piece.get_streaming_width(), 5u);
  EXPECT_EQ(piece.get_gp_option(), tlm::TLM_FULL_PAYLOAD);
  EXPECT_EQ(piece.get_response_status(), tlm::TLM_INCOMPLETE_RESPONSE);
  ASSERT_EQ(piece.get_byte_enable_ptr(), enables.data());
  EXPECT_EQ(piece.get_byte_enable_length(), 5u);
  // Bytes 4..8 of the whole: pattern[1], [2], [0], [1], [2].
  EXPECT_EQ(enables, (std::vector<unsigned char>{0x00, 0xff, 0xff, 0x00, 0xff}));
  // No pattern, or one of length 0 (an error for the target to report), passes through.
  whole.set_byte_enable_length(0);
  prepare_piece(whole, 4, 5, piece, enables);
  EXPECT_EQ(piece.get_byte_enable_ptr(), pattern);
  EXPECT_EQ(piece.get_byte_enable_length(), 0u);
  whole.set_byte_enable_ptr(nullptr);
  prepare_piece(whole, 4, 5, piece, enables);
  EXPECT_EQ(piece.get_byte_enable_ptr(), nullptr);
}

TEST(Divider, DividesExactlyAtEveryScale) {
  std::mt19937_64 rng(7);
  using U = std::uint64_t;
  const U max = ~U{0};
  for (U d : std::vector<U>{1, 2, 3, 7, 1000, 1250, 999983, U{1} << 40, max}) {
    const Divider div(d);
    EXPECT_EQ(div.divisor(), d);
    for (U n : std::vector<U>{0, 1, d - 1, d, d + 1, max / d, max / d + 1, max - 1, max})
      EXPECT_EQ(div(n), n / d) << n << " / " << d;
    for (int i = 0; i < 1000; ++i) {
      const std::uint64_t n = rng() >> (rng() % 64);
      EXPECT_EQ(div(n), n / d) << n << " / " << d;
    }
  }
}

TEST(TransferCounters, CountTransfersAndFollowTheLatestCompletion) {
  simkit::StatGroup g("mem");
  simkit::TransferCounters t(g);
  simkit::Real& time_ns = g.real("time_ns", "ns", "latest completion");
  simkit::LatestCompletion latest(time_ns);
  t.count(false, 64);
  t.count(true, 8);
  t.count(false, 32);
  EXPECT_EQ(g.find("reads")->number(), 2);
  EXPECT_EQ(g.find("read_bytes")->number(), 96);
  EXPECT_EQ(g.find("writes")->number(), 1);
  EXPECT_EQ(g.find("write_bytes")->number(), 8);
  latest.reach(100);
  latest.reach(40);  // earlier: no change
  EXPECT_EQ(time_ns.number(), 100);
  time_ns.reset();  // a statistics reset (warm-up): later advances count from there
  latest.reach(130);
  EXPECT_EQ(time_ns.number(), 30);
}

}  // namespace
}  // namespace par::sckit
