// The vendor-side helpers of plugin_api.hpp: Args, the ABI string, the factory wrapper.
#include <gtest/gtest.h>

#include "par/plugin/plugin_api.hpp"
#include "par/plugin/plugin_library.hpp"
#include "support/sc_isolation.hpp"

namespace par::plugin {
namespace {

struct RawArgs {
  std::vector<par_plugin_arg> items;
  par_plugin_args list() const { return {items.size(), items.data()}; }
};

std::string thrown(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "(nothing thrown)";
}

TEST(PluginApi, AbiStringNamesSystemCTlmAndTheStandard) {
  const std::string abi = PARSYS_PLUGIN_SYSTEMC_ABI;
  EXPECT_EQ(abi, std::string("SystemC ") + SC_VERSION + ", TLM " + TLM_VERSION + ", C++ 201703L, libstdc++ cxx11 ABI");
  EXPECT_EQ(abi.rfind("SystemC 2.3.4-Accellera, TLM 2.0.6", 0), 0u) << abi;
  EXPECT_EQ(abi, host_systemc_abi());
  // The linked SystemC is the one the headers describe.
  EXPECT_EQ(std::string(SC_VERSION), sc_core::sc_version_string);
}

TEST(PluginApi, ArgsGettersAndDefaults) {
  const RawArgs raw{{{"tCL", "14", PARSYS_PLUGIN_ARG_USER},
                     {"ratio", "0.5", PARSYS_PLUGIN_ARG_USER},
                     {"mode", "at", PARSYS_PLUGIN_ARG_USER},
                     {"base", "0x80000000", PARSYS_PLUGIN_ARG_PLATFORM}}};
  const par_plugin_args list = raw.list();
  const Args a(&list);
  EXPECT_EQ(a.get_uint("tCL", 1), 14u);
  EXPECT_EQ(a.get_uint("tRCD", 7), 7u);
  EXPECT_EQ(a.get_double("ratio", 0), 0.5);
  EXPECT_EQ(a.get_choice("mode", "lt", {"lt", "at"}), "at");
  EXPECT_EQ(a.require_uint("base"), 0x80000000u);
  EXPECT_TRUE(a.unread().empty());
  EXPECT_NO_THROW(a.reject_unread());
  EXPECT_EQ(Args(nullptr).get_string("x", "dflt"), "dflt");
}

TEST(PluginApi, ArgsErrorsNameTheKey) {
  const RawArgs raw{{{"tCL", "fourteen", PARSYS_PLUGIN_ARG_USER},
                     {"neg", "-1", PARSYS_PLUGIN_ARG_USER},
                     {"ratio", "1.5x", PARSYS_PLUGIN_ARG_USER},
                     {"mode", "ca", PARSYS_PLUGIN_ARG_USER},
                     {"tRDC", "3", PARSYS_PLUGIN_ARG_USER},
                     {"size", "4096", PARSYS_PLUGIN_ARG_PLATFORM}}};
  const par_plugin_args list = raw.list();
  const Args a(&list);
  EXPECT_EQ(thrown([&] { a.get_uint("tCL", 1); }), "argument 'tCL': 'fourteen' is not an unsigned integer");
  EXPECT_EQ(thrown([&] { a.get_uint("neg", 1); }), "argument 'neg': '-1' is not an unsigned integer");
  EXPECT_EQ(thrown([&] { a.get_double("ratio", 1); }), "argument 'ratio': '1.5x' is not a number");
  EXPECT_EQ(thrown([&] { a.get_choice("mode", "lt", {"lt", "at"}); }), "argument 'mode': 'ca' is not one of lt, at");
  EXPECT_EQ(thrown([&] { a.require_uint("clock"); }), "argument 'clock' is required");
  // Unread user keys are errors; unread platform keys (size) are not.
  EXPECT_EQ(a.unread(), std::vector<std::string>{"tRDC"});
  EXPECT_EQ(thrown([&] { a.reject_unread(); }), "unknown argument 'tRDC'");
}

class Tiny : public TargetModel {
 public:
  Tiny(sc_core::sc_module_name name, const Args& args) : TargetModel(name), socket_("socket") {
    if (args.get_uint("ok", 1) == 0) throw std::invalid_argument("not ok");
  }
  TargetSocket& target_socket() override { return socket_; }
  Timing timing() const override { return Timing::LooselyTimed; }
  std::string description() const override { return "tiny"; }

 private:
  tlm::tlm_target_socket<32> socket_;
};

TEST(PluginApi, FactoryWrapperTurnsExceptionsIntoMessages) {
  par::testing::run_isolated([] {
    char error[64] = "";
    RawArgs ok{{{"ok", "1", PARSYS_PLUGIN_ARG_USER}}};
    par_plugin_args list = ok.list();
    std::unique_ptr<TargetModel> m(detail::create<Tiny>("tiny", &list, error, sizeof error));
    ASSERT_NE(m, nullptr);
    EXPECT_STREQ(m->name(), "tiny");

    RawArgs refused{{{"ok", "0", PARSYS_PLUGIN_ARG_USER}}};
    list = refused.list();
    EXPECT_EQ(detail::create<Tiny>("tiny2", &list, error, sizeof error), nullptr);
    EXPECT_STREQ(error, "not ok");

    RawArgs unknown{{{"okay", "1", PARSYS_PLUGIN_ARG_USER}}};
    list = unknown.list();
    EXPECT_EQ(detail::create<Tiny>("tiny3", &list, error, 10), nullptr);
    EXPECT_STREQ(error, "unknown a");  // truncated to the buffer
  });
}

}  // namespace
}  // namespace par::plugin
