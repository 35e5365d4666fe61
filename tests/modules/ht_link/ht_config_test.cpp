// HT link configuration: defaults from docs/link-and-memory.md §1, derived link rates, validation
// messages and option registration.
#include <gtest/gtest.h>

#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "ht_config.hpp"
#include "par/simkit/options.hpp"

namespace par::ht {
namespace {

TEST(HtConfig, DefaultsAreThePublishedValues) {
  const HtConfig c;
  EXPECT_TRUE(c.validate().empty());
  EXPECT_EQ(c.width_bits, 8u);
  EXPECT_DOUBLE_EQ(c.clock_mhz, 400);
  EXPECT_DOUBLE_EQ(c.core_clock_mhz, 100);
  EXPECT_FALSE(c.core_clock_align);
  EXPECT_DOUBLE_EQ(c.packet_overhead_ns, 0);
  EXPECT_TRUE(c.posted_writes);
  EXPECT_EQ(c.max_outstanding, 32u);
  EXPECT_EQ(c.wait_queue, 0u);
  EXPECT_DOUBLE_EQ(c.lat.req_device_ns, 70);
  EXPECT_DOUBLE_EQ(c.lat.req_host_ns, 32);
  EXPECT_DOUBLE_EQ(c.lat.sdram_ns, 51);
  EXPECT_DOUBLE_EQ(c.lat.resp_build_ns, 12);
  EXPECT_DOUBLE_EQ(c.lat.resp_host_ns, 30);
  EXPECT_DOUBLE_EQ(c.lat.resp_device_ns, 110);
  EXPECT_DOUBLE_EQ(c.lat.total_ns(), 305);
}

// §1.1: 0.8 / 1.6 GB/s, 1.25 / 0.625 ns per byte, 8 / 16 bytes per 10-ns core cycle.
TEST(HtConfig, LinkRatesAreDerivedFromWidthAndClock) {
  HtConfig c;
  EXPECT_DOUBLE_EQ(c.bytes_per_ns(), 0.8);
  EXPECT_DOUBLE_EQ(c.ns_per_byte(), 1.25);
  EXPECT_DOUBLE_EQ(c.core_cycle_ns(), 10);
  EXPECT_DOUBLE_EQ(c.bytes_per_core_cycle(), 8);
  c.width_bits = 16;
  EXPECT_DOUBLE_EQ(c.bytes_per_ns(), 1.6);
  EXPECT_DOUBLE_EQ(c.ns_per_byte(), 0.625);
  EXPECT_DOUBLE_EQ(c.bytes_per_core_cycle(), 16);
  c.clock_mhz = 200;  // not hard-coded: half the clock, half the rate
  EXPECT_DOUBLE_EQ(c.ns_per_byte(), 1.25);
}

TEST(HtConfig, EveryViolationIsReportedWithItsOptionName) {
  HtConfig c;
  c.width_bits = 12;
  c.clock_mhz = 0;
  c.core_clock_mhz = -5;
  c.packet_overhead_ns = -1;
  c.max_outstanding = 0;
  c.wait_queue = 2000000;
  c.lat.req_device_ns = -1;
  c.lat.req_host_ns = -2;
  c.lat.sdram_ns = -3;
  c.lat.resp_build_ns = -4;
  c.lat.resp_host_ns = -5;
  c.lat.resp_device_ns = 2e9;
  const std::vector<std::string> expected = {
      "ht.width_bits: 12 is not a supported link width (8 or 16)",
      "ht.clock_mhz: 0 is out of range (0, 100000] MHz",
      "ht.core_clock_mhz: -5 is out of range (0, 100000] MHz",
      "ht.packet_overhead_ns: -1 is out of range 0..1000000000",
      "ht.max_outstanding: 0 is out of range 1..4096",
      "ht.wait_queue: 2000000 is out of range 0..1048576 (0 = unbounded)",
      "ht.lat.req_device_ns: -1 is out of range 0..1000000000",
      "ht.lat.req_host_ns: -2 is out of range 0..1000000000",
      "ht.lat.sdram_ns: -3 is out of range 0..1000000000",
      "ht.lat.resp_build_ns: -4 is out of range 0..1000000000",
      "ht.lat.resp_host_ns: -5 is out of range 0..1000000000",
      "ht.lat.resp_device_ns: 2000000000 is out of range 0..1000000000",
  };
  EXPECT_EQ(c.validate(), expected);
}

TEST(HtConfig, WidthSixteenIsValidAndNotANumberIsNot) {
  HtConfig c;
  c.width_bits = 16;
  EXPECT_TRUE(c.validate().empty());
  c.lat.sdram_ns = std::numeric_limits<double>::quiet_NaN();
  ASSERT_EQ(c.validate().size(), 1u);
  EXPECT_EQ(c.validate()[0].rfind("ht.lat.sdram_ns: ", 0), 0u) << c.validate()[0];
}

TEST(HtConfig, CheckedThrowsWithEveryMessage) {
  HtConfig c;
  EXPECT_NO_THROW(checked(c));
  c.width_bits = 32;
  c.max_outstanding = 0;
  try {
    checked(c);
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(),
                 "invalid HT link configuration: ht.width_bits: 32 is not a supported link width "
                 "(8 or 16); ht.max_outstanding: 0 is out of range 1..4096");
  }
}

TEST(HtConfig, OptionsBindEveryField) {
  simkit::OptionRegistry reg;
  HtConfig c;
  register_options(reg, c);
  const std::vector<std::string> names = {
      "ht.width_bits",        "ht.clock_mhz",         "ht.core_clock_mhz",
      "ht.core_clock_align",  "ht.packet_overhead_ns", "ht.posted_writes",
      "ht.max_outstanding",   "ht.wait_queue",        "ht.lat.req_device_ns",
      "ht.lat.req_host_ns",   "ht.lat.sdram_ns",      "ht.lat.resp_build_ns",
      "ht.lat.resp_host_ns",  "ht.lat.resp_device_ns"};
  for (const std::string& n : names) EXPECT_NE(reg.find(n), nullptr) << n;
  EXPECT_EQ(reg.find("ht.width_bits")->default_text(), "8");
  EXPECT_EQ(reg.find("ht.lat.resp_device_ns")->default_text(), "110");

  const simkit::ParseResult r = reg.parse(std::vector<std::string>{
      "--ht.width_bits", "16", "--ht.clock_mhz", "200", "--ht.core_clock_align", "true",
      "--ht.packet_overhead_ns", "1.5", "--ht.posted_writes", "false", "--ht.max_outstanding",
      "8", "--ht.wait_queue", "4", "--ht.lat.req_device_ns", "1", "--ht.lat.req_host_ns", "2",
      "--ht.lat.sdram_ns", "0", "--ht.lat.resp_build_ns", "3", "--ht.lat.resp_host_ns", "4",
      "--ht.lat.resp_device_ns", "5", "--ht.core_clock_mhz", "125"});
  ASSERT_TRUE(r.ok()) << r.errors.front();
  EXPECT_EQ(c.width_bits, 16u);
  EXPECT_DOUBLE_EQ(c.clock_mhz, 200);
  EXPECT_DOUBLE_EQ(c.core_clock_mhz, 125);
  EXPECT_TRUE(c.core_clock_align);
  EXPECT_DOUBLE_EQ(c.packet_overhead_ns, 1.5);
  EXPECT_FALSE(c.posted_writes);
  EXPECT_EQ(c.max_outstanding, 8u);
  EXPECT_EQ(c.wait_queue, 4u);
  EXPECT_DOUBLE_EQ(c.lat.total_ns(), 15);
  EXPECT_TRUE(c.validate().empty());
}

TEST(HtConfig, BadOptionValuesNameTheOption) {
  simkit::OptionRegistry reg;
  HtConfig c;
  register_options(reg, c);
  // Inside the registered range but not a link width: validate() catches it.
  ASSERT_TRUE(reg.parse(std::vector<std::string>{"--ht.width_bits", "12"}).ok());
  ASSERT_EQ(c.validate().size(), 1u);
  EXPECT_EQ(c.validate()[0], "ht.width_bits: 12 is not a supported link width (8 or 16)");
  const simkit::ParseResult r = reg.parse(std::vector<std::string>{"--ht.max_outstanding", "0"});
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_NE(r.errors[0].find("ht.max_outstanding"), std::string::npos) << r.errors[0];
}

}  // namespace
}  // namespace par::ht
