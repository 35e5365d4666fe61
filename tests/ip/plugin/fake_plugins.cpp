// Libraries that are not (quite) parsys plug-ins, one per compile definition, for the loader's
// error messages:
//   FAKE_NOT_A_PLUGIN     exports neither entry point
//   FAKE_API_VERSION=n    plug-in API version n
//   FAKE_SYSTEMC_ABI="s"  another SystemC/TLM/C++ ABI string
//   FAKE_NO_CREATE        parsys_plugin_info() only
//   FAKE_TIMING=n         timing mask n
//   FAKE_UNRESOLVED       needs a SystemC version check symbol no installed SystemC has, as a
//                         plug-in built against another SystemC release does
#include "par/plugin/plugin_api.hpp"

#ifdef FAKE_NOT_A_PLUGIN
extern "C" PARSYS_PLUGIN_EXPORT int some_other_library_function(void) { return 42; }
#else

#ifndef FAKE_API_VERSION
#define FAKE_API_VERSION PARSYS_PLUGIN_API_VERSION
#endif
#ifndef FAKE_SYSTEMC_ABI
#define FAKE_SYSTEMC_ABI PARSYS_PLUGIN_SYSTEMC_ABI
#endif
#ifndef FAKE_TIMING
#define FAKE_TIMING PARSYS_PLUGIN_LT
#endif

#ifdef FAKE_UNRESOLVED
extern "C" void sc_api_version_2_2_0_cxx199711L(void);
extern "C" PARSYS_PLUGIN_EXPORT void fake_needs_old_systemc(void) { sc_api_version_2_2_0_cxx199711L(); }
#endif

extern "C" PARSYS_PLUGIN_EXPORT const par_plugin_info* parsys_plugin_info(void) {
  static const par_plugin_info info = {FAKE_API_VERSION, FAKE_SYSTEMC_ABI, "fake", "parsys tests", FAKE_TIMING};
  return &info;
}

#ifndef FAKE_NO_CREATE
extern "C" PARSYS_PLUGIN_EXPORT par::plugin::TargetModel* parsys_plugin_create(const char*, const par_plugin_args*,
                                                                               char* error, std::size_t error_len) {
  par::plugin::detail::write_error(error, error_len, "the fake plug-in creates nothing");
  return nullptr;
}
#endif

#endif
