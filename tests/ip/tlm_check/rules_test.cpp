// The rule catalogue (names are an interface: tests, scripts and users grep for them) and the
// checker configuration.
#include "par/tlmcheck/rules.hpp"

#include <gtest/gtest.h>

#include <set>
#include <stdexcept>
#include <string>

#include "par/simkit/options.hpp"
#include "par/tlmcheck/checker_config.hpp"

namespace par::tlmcheck {
namespace {

TEST(Rules, EveryRuleHasItsNameSectionAndText) {
  const std::pair<Rule, const char*> expected[] = {
      {Rule::CommandValue, "gp.command"},
      {Rule::DataPointer, "gp.data_ptr"},
      {Rule::DataLength, "gp.data_length"},
      {Rule::ByteEnableLength, "gp.byte_enable_length"},
      {Rule::StreamingWidth, "gp.streaming_width"},
      {Rule::DmiAllowedInit, "gp.dmi_allowed"},
      {Rule::ResponseStatusInit, "gp.response_status_init"},
      {Rule::RefCount, "gp.ref_count"},
      {Rule::ResponseStatus, "gp.response_status"},
      {Rule::CommandModified, "gp.command_modified"},
      {Rule::AddressModified, "gp.address_modified"},
      {Rule::DataPointerModified, "gp.data_ptr_modified"},
      {Rule::DataLengthModified, "gp.data_length_modified"},
      {Rule::ByteEnableModified, "gp.byte_enable_modified"},
      {Rule::StreamingWidthModified, "gp.streaming_width_modified"},
      {Rule::WriteDataModified, "gp.write_data_modified"},
      {Rule::ExtensionLeak, "gp.extension_leak"},
      {Rule::InFlightReuse, "tx.in_flight_reuse"},
      {Rule::MixedInterfaces, "tx.mixed_interfaces"},
      {Rule::BlockingFromMethod, "b.method_process"},
      {Rule::NegativeDelay, "timing.negative_delay"},
      {Rule::BlockingTimeOrder, "timing.b_transport_order"},
      {Rule::BlockingWait, "timing.b_transport_wait"},
      {Rule::NbTimeOrder, "timing.nb_transport_order"},
      {Rule::MemoryManager, "nb.memory_manager"},
      {Rule::UnknownPhase, "nb.unknown_phase"},
      {Rule::PhaseDirection, "nb.phase_direction"},
      {Rule::PhaseSequence, "nb.phase_sequence"},
      {Rule::RequestExclusion, "nb.request_exclusion"},
      {Rule::ResponseExclusion, "nb.response_exclusion"},
      {Rule::AcceptedModified, "nb.accepted_modified"},
      {Rule::DmiCommand, "dmi.command"},
      {Rule::DmiDescriptorInit, "dmi.descriptor_init"},
      {Rule::DmiPointer, "dmi.pointer"},
      {Rule::DmiRange, "dmi.range"},
      {Rule::DmiAccess, "dmi.access"},
      {Rule::DmiWait, "dmi.wait"},
      {Rule::DmiInvalidateRange, "dmi.invalidate_range"},
      {Rule::DebugDataPointer, "dbg.data_ptr"},
      {Rule::DebugReturnCount, "dbg.return_count"},
      {Rule::DebugWait, "dbg.wait"},
  };
  ASSERT_EQ(std::size(expected), kRuleCount);
  ASSERT_EQ(all_rules().size(), kRuleCount);
  std::set<std::string> names;
  for (std::size_t i = 0; i < kRuleCount; ++i) {
    const auto& [rule, name] = expected[i];
    EXPECT_EQ(all_rules()[i], rule);
    EXPECT_STREQ(rule_info(rule).name, name);
    EXPECT_NE(std::string(rule_info(rule).section), "") << name;
    EXPECT_GT(std::string(rule_info(rule).text).size(), 20u) << name;
    names.insert(name);
  }
  EXPECT_EQ(names.size(), kRuleCount);
  EXPECT_STREQ(rule_info(Rule::ResponseStatus).text, "a target must set the response status");
  EXPECT_STREQ(rule_info(Rule::ResponseStatus).section, "14.17");
}

TEST(CheckerConfig, DefaultsAreValidAndDocumented) {
  const CheckerConfig c;
  EXPECT_FALSE(c.enable);
  EXPECT_TRUE(c.stop_on_violation);
  EXPECT_EQ(c.max_delay_ns, 1e9);
  EXPECT_TRUE(c.address_restored);
  EXPECT_TRUE(c.validate().empty());
  EXPECT_NO_THROW(checked(c));
}

TEST(CheckerConfig, BadDelayBoundNamesTheOption) {
  CheckerConfig c;
  c.max_delay_ns = 0;
  ASSERT_EQ(c.validate().size(), 1u);
  EXPECT_EQ(c.validate()[0], "protocol_check.max_delay_ns: 0 is out of range 0.001..1e+15");
  c.max_delay_ns = 1e16;
  EXPECT_EQ(c.validate().size(), 1u);
  try {
    checked(c);
    ADD_FAILURE() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()),
              "invalid protocol checker configuration: protocol_check.max_delay_ns: 1e+16 is out "
              "of range 0.001..1e+15");
  }
}

TEST(CheckerConfig, OptionsBindEveryField) {
  CheckerConfig c;
  simkit::OptionRegistry reg;
  register_options(reg, c);
  for (const char* name : {"protocol_check.enable", "protocol_check.stop_on_violation",
                           "protocol_check.max_delay_ns", "protocol_check.address_restored"}) {
    EXPECT_NE(reg.find(name), nullptr) << name;
  }
  EXPECT_EQ(reg.find("protocol_check.max_delay_ns")->default_text(), "1e+09");
  const simkit::ParseResult r = reg.parse(std::vector<std::string>{
      "--protocol_check.enable", "--protocol_check.stop_on_violation=false",
      "--protocol_check.max_delay_ns=5000", "--protocol_check.address_restored=off"});
  EXPECT_TRUE(r.ok()) << (r.errors.empty() ? "" : r.errors[0]);
  EXPECT_TRUE(c.enable);
  EXPECT_FALSE(c.stop_on_violation);
  EXPECT_EQ(c.max_delay_ns, 5000);
  EXPECT_FALSE(c.address_restored);

  CheckerConfig d;
  simkit::OptionRegistry reg2;
  register_options(reg2, d);
  const simkit::ParseResult bad =
      reg2.parse(std::vector<std::string>{"--protocol_check.max_delay_ns=-1"});
  ASSERT_EQ(bad.errors.size(), 1u);
  EXPECT_NE(bad.errors[0].find("protocol_check.max_delay_ns"), std::string::npos) << bad.errors[0];
}

}  // namespace
}  // namespace par::tlmcheck
