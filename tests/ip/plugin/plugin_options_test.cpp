// The model / plugin_args options: parsing and validation messages (plain C++).
#include <gtest/gtest.h>

#include "par/plugin/plugin_options.hpp"
#include "par/simkit/options.hpp"

namespace par::plugin {
namespace {

std::string model_error(const std::string& text) {
  ModelOption m;
  std::string error;
  EXPECT_FALSE(parse_model_option(text, m, error)) << text;
  return error;
}

std::string args_error(const std::string& text) {
  std::vector<PluginArg> args;
  std::string error;
  EXPECT_FALSE(parse_plugin_args(text, args, error)) << text;
  return error;
}

TEST(PluginModelOption, BuiltinAndPluginPaths) {
  ModelOption m;
  std::string error;
  ASSERT_TRUE(parse_model_option("builtin", m, error));
  EXPECT_TRUE(m.builtin);
  ASSERT_TRUE(parse_model_option("plugin:/opt/acme/libdram.so", m, error));
  EXPECT_FALSE(m.builtin);
  EXPECT_EQ(m.path, "/opt/acme/libdram.so");
  ASSERT_TRUE(parse_model_option(" plugin: relative/lib.so ", m, error));
  EXPECT_EQ(m.path, "relative/lib.so");
  EXPECT_TRUE(error.empty());
}

TEST(PluginModelOption, Errors) {
  EXPECT_EQ(model_error("vendor.so"), "'vendor.so' is neither 'builtin' nor 'plugin:/path/to/model.so'");
  EXPECT_EQ(model_error(""), "'' is neither 'builtin' nor 'plugin:/path/to/model.so'");
  EXPECT_EQ(model_error("Builtin"), "'Builtin' is neither 'builtin' nor 'plugin:/path/to/model.so'");
  EXPECT_EQ(model_error("plugin:"), "'plugin:' names no shared library (write plugin:/path/to/model.so)");
  EXPECT_EQ(model_error("plugin:  "), "'plugin:  ' names no shared library (write plugin:/path/to/model.so)");
}

TEST(PluginArgs, ParsesPairsInOrder) {
  std::vector<PluginArg> args;
  std::string error;
  ASSERT_TRUE(parse_plugin_args("tCL=14, tRCD = 15 ,mode=at,file=/a/b=c.txt,x.y-z_1=0x10", args, error));
  ASSERT_EQ(args.size(), 5u);
  EXPECT_EQ(args[0], (PluginArg{"tCL", "14", false}));
  EXPECT_EQ(args[1], (PluginArg{"tRCD", "15", false}));
  EXPECT_EQ(args[2], (PluginArg{"mode", "at", false}));
  EXPECT_EQ(args[3], (PluginArg{"file", "/a/b=c.txt", false}));  // the first '=' splits
  EXPECT_EQ(args[4], (PluginArg{"x.y-z_1", "0x10", false}));
  ASSERT_TRUE(parse_plugin_args("  ", args, error));
  EXPECT_TRUE(args.empty());
}

TEST(PluginArgs, Errors) {
  EXPECT_EQ(args_error("a=1,,b=2"), "argument 2 is empty (two commas in a row, or a comma at an end)");
  EXPECT_EQ(args_error("a=1,"), "argument 2 is empty (two commas in a row, or a comma at an end)");
  EXPECT_EQ(args_error(",a=1"), "argument 1 is empty (two commas in a row, or a comma at an end)");
  EXPECT_EQ(args_error("a=1,tCL"), "'tCL' is not key=value");
  EXPECT_EQ(args_error("=5"), "'=5' has no key before '='");
  EXPECT_EQ(args_error("tCL="), "'tCL=' has no value after '='");
  EXPECT_EQ(args_error("t CL=5"), "key 't CL' may only hold letters, digits, '_', '-' and '.'");
  EXPECT_EQ(args_error("a=1,b=2,a=3"), "key 'a' is given twice");
}

TEST(PluginConfig, ValidateNamesTheOptions) {
  PluginConfig c;
  EXPECT_TRUE(c.validate("dram").empty());
  EXPECT_FALSE(c.is_plugin());
  c.model = "plugin:/x.so";
  c.plugin_args = "a=1";
  EXPECT_TRUE(c.validate("dram").empty());
  EXPECT_TRUE(c.is_plugin());

  c.model = "vendor";
  c.plugin_args = "a";
  const std::vector<std::string> e = c.validate("dram");
  ASSERT_EQ(e.size(), 2u);
  EXPECT_EQ(e[0], "dram.model: 'vendor' is neither 'builtin' nor 'plugin:/path/to/model.so'");
  EXPECT_EQ(e[1], "dram.plugin_args: 'a' is not key=value");

  c.model = "builtin";
  c.plugin_args = "tCL=3";
  EXPECT_EQ(c.validate("l2"),
            std::vector<std::string>{"l2.plugin_args: given, but l2.model is 'builtin' (the arguments are for a "
                                     "plug-in: set l2.model to plugin:/path/to/model.so)"});
}

TEST(PluginConfig, RegistersBothOptionsUnderThePrefix) {
  simkit::OptionRegistry reg;
  PluginConfig c;
  register_options(reg, c, "dram");
  ASSERT_NE(reg.find("dram.model"), nullptr);
  ASSERT_NE(reg.find("dram.plugin_args"), nullptr);
  EXPECT_EQ(reg.find("dram.model")->default_text(), "builtin");
  const simkit::ParseResult r =
      reg.parse(std::vector<std::string>{"--dram.model", "plugin:/opt/v.so", "--dram.plugin_args", "tCL=3,mode=at"});
  ASSERT_TRUE(r.ok()) << r.errors.front();
  EXPECT_EQ(c.model, "plugin:/opt/v.so");
  EXPECT_EQ(c.plugin_args, "tCL=3,mode=at");
}

}  // namespace
}  // namespace par::plugin
