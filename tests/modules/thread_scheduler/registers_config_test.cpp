// Register decoding and the staging registers (plain C++), and the scheduler's configuration:
// defaults, validation messages, options.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "par/simkit/options.hpp"
#include "register_block.hpp"
#include "scheduler_config.hpp"
#include "par/sched/scheduler_registers.hpp"

namespace par::sched {
namespace {

struct DecodeCase {
  std::uint64_t offset;
  std::uint64_t length;
  bool write;
  RegResult result;
  Reg reg;
};

TEST(Registers, MapOffsetsAreTheLeadsFixedValues) {
  EXPECT_EQ(kRegStart, 0x000u);
  EXPECT_EQ(kRegThreads, 0x008u);
  EXPECT_EQ(kRegFlagAddr, 0x010u);
  EXPECT_EQ(kRegTag, 0x018u);
  EXPECT_EQ(reg_inherited(1), 0x088u);
  EXPECT_EQ(reg_inherited(15), 0x0F8u);
  EXPECT_EQ(kRegDoorbell, 0x100u);
  EXPECT_EQ(kRegStatus, 0x108u);
  EXPECT_EQ(kRegSubmitted, 0x110u);
  EXPECT_EQ(kRegCompleted, 0x118u);
  EXPECT_EQ(kRegQueued, 0x120u);
  EXPECT_EQ(kRegFailedSeq, 0x128u);
  EXPECT_EQ(kRegClearError, 0x130u);
  EXPECT_EQ(kRegControl, 0x020u);
  EXPECT_EQ(kControlInterrupt, 1u);
  EXPECT_EQ(kRegSpaceEnd, 0x148u);
  EXPECT_EQ(kInterruptFailedBit, 0x80000000u);
  EXPECT_EQ(kInterruptTagMask, 0x7fffffffu);
  EXPECT_EQ(kFlagErrorBit, 0x8000000000000000ull);
}

TEST(Registers, DecodeAcceptsOnlyTheDocumentedAccesses) {
  const DecodeCase cases[] = {
      {0x000, 8, true, RegResult::Ok, Reg::Staging},
      {0x000, 8, false, RegResult::Ok, Reg::Staging},
      {0x000, 256, true, RegResult::Ok, Reg::Staging},       // the whole staging block
      {0x080, 128, true, RegResult::Ok, Reg::Staging},       // I[0..15]
      {0x020, 8, true, RegResult::Ok, Reg::Staging},         // CONTROL
      {0x028, 8, false, RegResult::Ok, Reg::Staging},        // reserved word: reads 0
      {0x0F8, 16, true, RegResult::BurstError, Reg::Staging},  // crosses into DOORBELL
      {0x004, 8, false, RegResult::AddressError, Reg::Staging},
      {0x000, 4, false, RegResult::AddressError, Reg::Staging},
      {0x000, 0, false, RegResult::AddressError, Reg::Staging},
      {0x000, 12, true, RegResult::AddressError, Reg::Staging},
      {0x100, 8, true, RegResult::Ok, Reg::Doorbell},
      {0x100, 8, false, RegResult::CommandError, Reg::Doorbell},
      {0x100, 16, true, RegResult::BurstError, Reg::Staging},
      {0x108, 8, false, RegResult::Ok, Reg::Status},
      {0x108, 8, true, RegResult::CommandError, Reg::Status},
      {0x110, 8, false, RegResult::Ok, Reg::Submitted},
      {0x118, 8, false, RegResult::Ok, Reg::Completed},
      {0x120, 8, false, RegResult::Ok, Reg::Queued},
      {0x128, 8, false, RegResult::Ok, Reg::FailedSeq},
      {0x130, 8, true, RegResult::Ok, Reg::ClearError},
      {0x130, 8, false, RegResult::CommandError, Reg::ClearError},
      {0x138, 8, false, RegResult::AddressError, Reg::Staging},  // hole
      {0x140, 8, false, RegResult::AddressError, Reg::Staging},  // reserved
      {0x148, 8, false, RegResult::AddressError, Reg::Staging},
      {~0ull - 7, 8, false, RegResult::AddressError, Reg::Staging},
  };
  for (const DecodeCase& c : cases) {
    const Decoded d = decode(c.offset, c.length, c.write);
    EXPECT_EQ(d.result, c.result) << std::hex << "offset 0x" << c.offset << std::dec << " length " << c.length
                                  << (c.write ? " write" : " read");
    if (c.result == RegResult::Ok || c.result == RegResult::CommandError) {
      EXPECT_EQ(d.reg, c.reg) << std::hex << c.offset;
    }
  }
}

TEST(Registers, OneBurstStagesAWholeCommandAndReservedWordsReadZero) {
  std::vector<std::uint64_t> words(32);
  for (std::size_t i = 0; i < words.size(); ++i) words[i] = 1000 + i;
  words[1] = static_cast<std::uint64_t>(-3);  // THREADS is signed
  StagingRegisters s;
  s.write(0x000, reinterpret_cast<const std::uint8_t*>(words.data()), 256);
  const Command& c = s.command();
  EXPECT_EQ(c.start, 1000u);
  EXPECT_EQ(c.threads, -3);
  EXPECT_EQ(c.flag_addr, 1002u);
  EXPECT_EQ(c.tag, 1003u);
  EXPECT_EQ(c.control, 1004u);
  EXPECT_EQ(c.inherited[0], 0u);  // i0 is never inherited
  for (unsigned k = 1; k < 16; ++k) EXPECT_EQ(c.inherited[k], 1016u + k) << k;
  std::vector<std::uint64_t> back(32, 0xdead);
  s.read(0x000, reinterpret_cast<std::uint8_t*>(back.data()), 256);
  for (std::size_t i = 0; i < back.size(); ++i) {
    const bool reserved = (i >= 5 && i < 16) || i == 16;
    EXPECT_EQ(back[i], reserved ? 0 : words[i]) << "word " << i;
  }
  // A single register write leaves the others alone.
  const std::uint64_t seven = 7;
  s.write(reg_inherited(3), reinterpret_cast<const std::uint8_t*>(&seven), 8);
  EXPECT_EQ(s.command().inherited[3], 7u);
  EXPECT_EQ(s.command().inherited[4], 1020u);
}

TEST(SchedulerConfig, DefaultsAreValid) {
  const SchedulerConfig c;
  EXPECT_TRUE(c.validate().empty());
  EXPECT_EQ(c.queue_depth, 32u);
  EXPECT_EQ(c.policy, Policy::Static);
  EXPECT_EQ(c.chunk_threads, 256);
  EXPECT_FALSE(c.overlap_packets);
  EXPECT_EQ(c.register_latency_ns, 10.0);
  EXPECT_EQ(c.dispatch_latency_ns, 10.0);
  EXPECT_STREQ(to_string(Policy::Static), "static");
  EXPECT_STREQ(to_string(Policy::Dynamic), "dynamic");
}

TEST(SchedulerConfig, ValidateNamesEveryBadOption) {
  SchedulerConfig c;
  c.queue_depth = 0;
  c.chunk_threads = 0;
  c.register_latency_ns = -1;
  c.dispatch_latency_ns = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(c.validate(), (std::vector<std::string>{
                              "scheduler.queue_depth: 0 is out of range 1..65536",
                              "scheduler.chunk_threads: 0 is out of range 1..1099511627776",
                              "scheduler.register_latency_ns: -1 is out of range 0..1e+09 ns",
                              "scheduler.dispatch_latency_ns: nan is out of range 0..1e+09 ns",
                          }));
  try {
    checked(c);
    FAIL() << "checked() accepted an invalid configuration";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()),
              "invalid thread scheduler configuration: scheduler.queue_depth: 0 is out of range 1..65536; "
              "scheduler.chunk_threads: 0 is out of range 1..1099511627776; "
              "scheduler.register_latency_ns: -1 is out of range 0..1e+09 ns; "
              "scheduler.dispatch_latency_ns: nan is out of range 0..1e+09 ns");
  }
}

TEST(SchedulerConfig, OptionsSetTheFieldsAndRejectBadValuesByName) {
  SchedulerConfig c;
  simkit::OptionRegistry reg;
  register_options(reg, c);
  const simkit::ParseResult ok = reg.parse(std::vector<std::string>{
      "--scheduler.queue_depth", "8", "--scheduler.policy", "dynamic", "--scheduler.chunk_threads", "64",
      "--scheduler.overlap_packets", "true", "--scheduler.register_latency_ns", "2.5",
      "--scheduler.dispatch_latency_ns", "0"});
  ASSERT_TRUE(ok.ok()) << ok.errors.front();
  EXPECT_EQ(c.queue_depth, 8u);
  EXPECT_EQ(c.policy, Policy::Dynamic);
  EXPECT_EQ(c.chunk_threads, 64);
  EXPECT_TRUE(c.overlap_packets);
  EXPECT_EQ(c.register_latency_ns, 2.5);
  EXPECT_EQ(c.dispatch_latency_ns, 0.0);

  SchedulerConfig d;
  simkit::OptionRegistry reg2;
  register_options(reg2, d);
  const simkit::ParseResult bad =
      reg2.parse(std::vector<std::string>{"--scheduler.policy", "fifo", "--scheduler.queue_depth", "0"});
  ASSERT_EQ(bad.errors.size(), 2u);
  EXPECT_NE(bad.errors[0].find("scheduler.policy"), std::string::npos) << bad.errors[0];
  EXPECT_NE(bad.errors[0].find("'fifo' is not one of: static, dynamic"), std::string::npos) << bad.errors[0];
  EXPECT_NE(bad.errors[1].find("scheduler.queue_depth"), std::string::npos) << bad.errors[1];
  EXPECT_EQ(d.policy, Policy::Static);
  EXPECT_EQ(d.queue_depth, 32u);
}

}  // namespace
}  // namespace par::sched
