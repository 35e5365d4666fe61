// Checkers on the bindings of the real parsys modules, through CheckedBindings: the same device
// model twice, once bound directly (checking disabled) and once with a checker on every binding,
// must give identical results and no violation. The bindings cover every socket kind the
// platform uses: simple initiator -> multi-passthrough target (harness -> interconnect), multi
// initiator -> simple target (interconnect -> L2, interconnect -> memory), simple initiator ->
// multi target (L2 banks -> DRAM), and the DRAM's approximately-timed path.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "support/sc_isolation.hpp"
#include "support/tlm_harness.hpp"
#include "dram.hpp"
#include "interconnect.hpp"
#include "l2.hpp"
#include "memory.hpp"
#include "par/tlmcheck/checked_bindings.hpp"
#include "tlm_check_test_support.hpp"

namespace par::tlmcheck {
namespace {

using par::testing::run_isolated;
using par::testing::TlmHarness;
using sc_core::SC_NS;
using sc_core::sc_time;
using testing::AtInitiator;
using testing::ns;

constexpr std::uint64_t kMemBase = 0x100000000ull;

// harness -> bus -> {L2 -> DRAM, memory}; an AT initiator -> DRAM. Names end in `suffix`.
struct Device {
  TlmHarness harness;
  AtInitiator at;
  interconnect::Interconnect bus;
  l2::L2 l2;
  dram::Dram dram;
  memory::Memory mem;
  CheckedBindings<> links;

  Device(const std::string& suffix, const CheckerConfig& check)
      : harness(("h_" + suffix).c_str()),
        at(("at_" + suffix).c_str()),
        bus(("bus_" + suffix).c_str(), bus_config()),
        l2(("l2_" + suffix).c_str(), l2::L2Config()),
        dram(("dram_" + suffix).c_str(), dram::DramConfig()),
        mem(("mem_" + suffix).c_str(), memory::MemoryConfig()),
        links(check) {
    // The platform's one line per binding, with the sockets' own names.
    links.bind(harness.out, harness.out.name(), bus.in, bus.in.name());
    links.bind(bus.out, "bus.out[0]", l2.in, l2.in.name());
    links.bind(bus.out, "bus.out[1]", mem.in, mem.in.name());
    for (unsigned b = 0; b < l2.banks(); ++b) {
      links.bind(l2.bank(b).mem, l2.bank(b).mem.name(), dram.in, dram.in.name());
    }
    links.bind(at.out, at.out.name(), dram.in, dram.in.name());
    EXPECT_EQ(bus.add_region({"l2", 0, dram.capacity(), 0, true}), "");
    EXPECT_EQ(bus.add_region({"mem", kMemBase, mem.size(), 1, true}), "");

    harness.at(ns(10)).write(0x40, {1, 2, 3, 4, 5, 6, 7, 8});
    harness.at(ns(12)).write(0x1000, std::vector<std::uint8_t>(64, 0x11));
    harness.then().read(0x40, 8);
    harness.at(ns(30)).read(0x1030, 32);  // spans two L2 lines: split by the L2
    harness.at(ns(31)).write(kMemBase + 0x10, {9, 8, 7, 6});
    harness.then().read(kMemBase + 0x10, 4);
    harness.at(ns(90)).read(0x40000, 64);                // L2 miss, DRAM row miss
    harness.at(ns(95)).read(0x40010, 16);                // merges into the fill in flight
    harness.at(ns(400)).read(kMemBase + mem.size(), 4);  // unmapped: address error
    harness.at(ns(500)).read(0x2080, 8);                 // misses in banks 2 and 3
    harness.at(ns(510)).read(0x20c0, 8);
    for (int i = 0; i < 6; ++i) {
      AtInitiator::Request r;
      r.write = i % 2 == 0;
      r.address = 0x80000 + 0x40 * static_cast<unsigned>(i / 2);
      r.data.assign(16, static_cast<unsigned char>(0x20 + i));
      r.at = ns(2000 + 7 * i);
      at.requests.push_back(r);
    }
  }
  static interconnect::InterconnectConfig bus_config() {
    interconnect::InterconnectConfig c;
    c.latency_ns = 2;
    c.port_bytes_per_ns = 8;
    return c;
  }
};

TEST(CheckerBindings, RealModulesPassWithIdenticalResults) {
  run_isolated([] {
    CheckerConfig off;
    CheckerConfig on;
    on.enable = true;
    Device direct("direct", off), checked("checked", on);
    sc_core::sc_start(ns(100000));

    EXPECT_TRUE(direct.links.checkers().empty());
    ASSERT_EQ(checked.links.checkers().size(), 8u);
    ASSERT_EQ(direct.harness.size(), checked.harness.size());
    for (std::size_t i = 0; i < direct.harness.size(); ++i) {
      const auto& a = direct.harness.result(i);
      const auto& b = checked.harness.result(i);
      EXPECT_EQ(b.status, a.status) << i;
      EXPECT_EQ(b.latency, a.latency) << i;
      EXPECT_EQ(b.read_data, a.read_data) << i;
    }
    EXPECT_EQ(checked.harness.result(2).value(), 0x0807060504030201u);
    EXPECT_EQ(checked.harness.result(5).read_data, (std::vector<std::uint8_t>{9, 8, 7, 6}));
    EXPECT_EQ(checked.harness.result(8).status, tlm::TLM_ADDRESS_ERROR_RESPONSE);
    for (std::size_t i = 0; i < direct.at.requests.size(); ++i) {
      const auto& a = direct.at.requests[i];
      const auto& b = checked.at.requests[i];
      EXPECT_EQ(b.status, tlm::TLM_OK_RESPONSE) << i;
      EXPECT_EQ(b.request_ended, a.request_ended) << i;
      EXPECT_EQ(b.responded, a.responded) << i;
      EXPECT_EQ(b.read_data, a.read_data) << i;
    }
    EXPECT_EQ(checked.at.requests[1].read_data, std::vector<unsigned char>(16, 0x20));

    EXPECT_EQ(checked.links.violation_count(), 0u);
    for (const Violation& v : checked.links.violations()) ADD_FAILURE() << v.message;
    // Every checker saw traffic of its binding.
    for (const auto& c : checked.links.checkers()) {
      const auto* b = static_cast<const simkit::Counter*>(c->stats().find("b_transport"));
      const auto* nb = static_cast<const simkit::Counter*>(c->stats().find("nb_transactions"));
      EXPECT_GT(b->value() + nb->value(), 0u) << c->name();
    }
    // Names: module and statistics after the two sockets, unique per binding.
    EXPECT_STREQ(checked.links.checkers()[0]->name(), "check_h_checked_out__bus_checked_in");
    EXPECT_EQ(checked.links.checkers()[0]->monitor().initiator(), "h_checked.out");
    EXPECT_EQ(checked.links.checkers()[0]->monitor().target(), "bus_checked.in");
    EXPECT_STREQ(checked.links.checkers()[1]->name(), "check_bus_out_0___l2_checked_in");
    EXPECT_STREQ(checked.links.checkers()[3]->name(),
                 "check_l2_checked_bank0_mem__dram_checked_in");
    const simkit::Stat* routed =
        checked.links.stats().find("check_h_checked_out__bus_checked_in.b_transport");
    ASSERT_NE(routed, nullptr);
    EXPECT_EQ(routed->number(), 11.0);
    EXPECT_EQ(checked.links.stats()
                  .find("check_at_checked_out__dram_checked_in.nb_transactions")
                  ->number(),
              6.0);
  });
}

TEST(CheckerBindings, SameSocketNamesGetUniqueCheckers) {
  run_isolated([] {
    CheckerConfig on;
    on.enable = true;
    CheckedBindings<> links(on);
    memory::MemoryConfig mc;
    memory::Memory a("a", mc), b("b", mc);
    TlmHarness ha("ha"), hb("hb");
    links.bind(ha.out, "x.out", a.in, "y.in");
    links.bind(hb.out, "x.out", b.in, "y.in");
    ASSERT_EQ(links.checkers().size(), 2u);
    EXPECT_STREQ(links.checkers()[0]->name(), "check_x_out__y_in");
    EXPECT_STREQ(links.checkers()[1]->name(), "check_x_out__y_in_2");
    ha.at(ns(1)).read(0, 4);
    hb.at(ns(2)).read(0, 4);
    sc_core::sc_start(ns(100));
    EXPECT_EQ(links.stats().find("check_x_out__y_in_2.b_transport")->number(), 1.0);
  });
}

TEST(CheckerBindings, InvalidConfigurationIsRefused) {
  CheckerConfig bad;
  bad.enable = true;
  bad.max_delay_ns = 0;
  EXPECT_THROW(CheckedBindings<>{bad}, std::invalid_argument);
}

}  // namespace
}  // namespace par::tlmcheck
