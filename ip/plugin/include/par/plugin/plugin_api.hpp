// The parsys plug-in interface: the only parsys header a vendor model needs (besides SystemC and
// TLM). A plug-in is a shared library that parsys loads at run time in place of a built-in block
// behind a TLM target socket (--dram.model plugin:/path/libvendor.so). See docs/plugging-in-ip.md.
//
// A vendor writes an SC_MODULE derived from par::plugin::TargetModel and one line:
//
//   class MyDram : public par::plugin::TargetModel {
//    public:
//     MyDram(sc_core::sc_module_name name, const par::plugin::Args& args);
//     par::plugin::TargetSocket& target_socket() override { return socket_; }
//     par::plugin::Timing timing() const override { return par::plugin::Timing::LooselyTimed; }
//     std::string description() const override { return "my DRAM"; }
//     ...
//   };
//   PARSYS_DEFINE_PLUGIN(MyDram, "my_dram", "My Company", PARSYS_PLUGIN_LT)
//
// The macro exports the two C entry points parsys looks for (parsys_plugin_info and
// parsys_plugin_create). parsys checks the plug-in API version and the SystemC/TLM/C++ ABI string
// before it calls anything else in the library, so a plug-in built for another version is refused
// with a message naming both versions instead of crashing.
#pragma once

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <initializer_list>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>

// ---- versions ----------------------------------------------------------------------------------

// Bumped whenever anything in this header changes incompatibly (the C structs below, the
// TargetModel class, the meaning of an argument). parsys refuses a plug-in whose version differs.
#define PARSYS_PLUGIN_API_VERSION 1

#define PARSYS_PLUGIN_STR_(x) #x
#define PARSYS_PLUGIN_STR(x) PARSYS_PLUGIN_STR_(x)

#if defined(_LIBCPP_VERSION)
#define PARSYS_PLUGIN_STDLIB_ABI "libc++"
#elif defined(_GLIBCXX_USE_CXX11_ABI) && _GLIBCXX_USE_CXX11_ABI
#define PARSYS_PLUGIN_STDLIB_ABI "libstdc++ cxx11 ABI"
#elif defined(_GLIBCXX_USE_CXX11_ABI)
#define PARSYS_PLUGIN_STDLIB_ABI "libstdc++ old ABI"
#else
#define PARSYS_PLUGIN_STDLIB_ABI "unknown C++ library"
#endif

// Everything that must be identical between parsys and a plug-in for C++ objects (sc_module,
// sockets, payloads, std::string) to be shared: the SystemC release, the TLM release, the C++
// standard SystemC was compiled for (part of SystemC's own link check) and the standard library
// ABI. Compared as a whole string at load time.
#define PARSYS_PLUGIN_SYSTEMC_ABI                                                     \
  "SystemC " SC_VERSION ", TLM " TLM_VERSION ", C++ " PARSYS_PLUGIN_STR(SC_CPLUSPLUS) \
  ", " PARSYS_PLUGIN_STDLIB_ABI

// ---- the C entry points --------------------------------------------------------------------------

#define PARSYS_PLUGIN_INFO_SYMBOL "parsys_plugin_info"
#define PARSYS_PLUGIN_CREATE_SYMBOL "parsys_plugin_create"

#if defined(__GNUC__)
#define PARSYS_PLUGIN_EXPORT __attribute__((visibility("default")))
#else
#define PARSYS_PLUGIN_EXPORT
#endif

namespace par::plugin {
class TargetModel;
}

extern "C" {

// Timing styles (par_plugin_info::timing is a mask of them).
enum { PARSYS_PLUGIN_LT = 1, PARSYS_PLUGIN_AT = 2 };

// Where an argument came from (par_plugin_arg::source).
enum { PARSYS_PLUGIN_ARG_USER = 0, PARSYS_PLUGIN_ARG_PLATFORM = 1 };

// What a plug-in is. The first two fields keep their place in every API version, so parsys can
// always read them and refuse a mismatching plug-in before it touches anything else.
typedef struct par_plugin_info {
  int api_version;          // PARSYS_PLUGIN_API_VERSION the plug-in was built with
  const char* systemc_abi;  // PARSYS_PLUGIN_SYSTEMC_ABI the plug-in was built with
  const char* name;         // model name, e.g. "vendor_dram"
  const char* vendor;       // who made it
  unsigned timing;          // PARSYS_PLUGIN_LT and/or PARSYS_PLUGIN_AT: what instances can be
} par_plugin_info;

// One key=value argument. Strings are owned by parsys and valid during parsys_plugin_create.
typedef struct par_plugin_arg {
  const char* key;
  const char* value;
  int source;  // PARSYS_PLUGIN_ARG_USER (--X.plugin_args) or PARSYS_PLUGIN_ARG_PLATFORM
} par_plugin_arg;

typedef struct par_plugin_args {
  std::size_t count;
  const par_plugin_arg* items;
} par_plugin_args;

// Returns static data; must not fail.
typedef const par_plugin_info* (*par_plugin_info_fn)(void);
// Creates one model named `instance_name` (its SystemC basename; parsys creates it as a child of
// its adapter module, during elaboration). On failure returns null and writes a one-line reason
// into `error` (NUL-terminated, at most error_len bytes). parsys deletes the model (virtual
// destructor) before it unloads the library.
typedef par::plugin::TargetModel* (*par_plugin_create_fn)(const char* instance_name,
                                                          const par_plugin_args* args, char* error,
                                                          std::size_t error_len);

}  // extern "C"

namespace par::plugin {

// The socket a model exposes: any TLM-2.0 target socket with BUSWIDTH 32 and the base protocol
// (tlm_utils::simple_target_socket<M>, tlm::tlm_target_socket<32>, a passthrough socket...).
// BUSWIDTH is only the type tag that must match the parsys side; it limits neither the length of
// a transaction nor the address (64 bits).
using TargetSocket = tlm::tlm_base_target_socket_b<32, tlm::tlm_fw_transport_if<>,
                                                   tlm::tlm_bw_transport_if<>>;

enum class Timing {
  // parsys calls b_transport only (with a delay annotation); the model returns the access's
  // completion in the annotated delay and should not call wait().
  LooselyTimed,
  // parsys calls nb_transport_fw only, with the full base-protocol phase sequence BEGIN_REQ,
  // END_REQ, BEGIN_RESP, END_RESP, payloads with a memory manager, one request phase open at a
  // time (request exclusion), END_RESP sent at the BEGIN_RESP time.
  ApproximatelyTimed,
};

// One number for the run report. Names: letters, digits, '_' and '-'; the same set of names every
// call. Report sums (counts, bytes, nanoseconds); the report cannot subtract levels or ratios.
struct Statistic {
  std::string name;
  std::string unit;
  std::string description;
  double value = 0;
};

// What a plug-in's factory returns: an sc_module with a base-protocol target socket.
//
// In both timing styles the model also serves transport_dbg (parsys loads programs and reads
// results through it: data only, no timing, no statistics). DMI is never requested. Addresses
// are offsets into the model's own range [0, size) (argument `size`): parsys translates them.
class TargetModel : public sc_core::sc_module {
 public:
  virtual TargetSocket& target_socket() = 0;
  virtual Timing timing() const = 0;
  // One line for the run report and messages ("vendor DRAM, 8 banks, tRCD/tCL/tRP 14/14/14").
  virtual std::string description() const = 0;
  virtual std::vector<Statistic> statistics() const { return {}; }

 protected:
  explicit TargetModel(const sc_core::sc_module_name& name) : sc_core::sc_module(name) {}
};

// Read access to the arguments, for a model's constructor. Every getter marks its key as read;
// PARSYS_DEFINE_PLUGIN refuses the instance if a user argument (--X.plugin_args) was never read,
// so a misspelt key is an error, not silently ignored. Bad values throw std::invalid_argument
// with a message naming the key, which parsys shows to the user.
//
// Platform-supplied keys (source PARSYS_PLUGIN_ARG_PLATFORM) are documented in
// docs/plugging-in-ip.md: `size` (bytes the model serves, always), `base` (where the range sits
// in the platform's address map, information only), `clock_mhz` (the clock of the block replaced,
// when it has one).
class Args {
 public:
  explicit Args(const par_plugin_args* raw) {
    if (raw == nullptr) return;
    for (std::size_t i = 0; i < raw->count; ++i) {
      const par_plugin_arg& a = raw->items[i];
      items_.push_back({a.key != nullptr ? a.key : "", a.value != nullptr ? a.value : "", a.source});
    }
  }

  bool has(const std::string& key) const { return find(key) != nullptr; }

  std::string get_string(const std::string& key, const std::string& fallback) const {
    const Item* it = find(key);
    return it != nullptr ? it->value : fallback;
  }
  std::uint64_t get_uint(const std::string& key, std::uint64_t fallback) const {
    const Item* it = find(key);
    return it != nullptr ? parse_uint(*it) : fallback;
  }
  double get_double(const std::string& key, double fallback) const {
    const Item* it = find(key);
    return it != nullptr ? parse_double(*it) : fallback;
  }
  // `fallback` or one of `choices`.
  std::string get_choice(const std::string& key, const std::string& fallback,
                         std::initializer_list<const char*> choices) const {
    const std::string v = get_string(key, fallback);
    std::string list;
    for (const char* c : choices) {
      if (v == c) return v;
      list += std::string(list.empty() ? "" : ", ") + c;
    }
    throw std::invalid_argument("argument '" + key + "': '" + v + "' is not one of " + list);
  }
  // Like get_uint, but the key must be present.
  std::uint64_t require_uint(const std::string& key) const {
    const Item* it = find(key);
    if (it == nullptr) throw std::invalid_argument("argument '" + key + "' is required");
    return parse_uint(*it);
  }

  // User keys no getter has asked for, in the order given.
  std::vector<std::string> unread() const {
    std::vector<std::string> keys;
    for (const Item& it : items_)
      if (it.source == PARSYS_PLUGIN_ARG_USER && read_.count(it.key) == 0) keys.push_back(it.key);
    return keys;
  }
  // Throws std::invalid_argument naming the first unread user key.
  void reject_unread() const {
    const std::vector<std::string> keys = unread();
    if (!keys.empty()) throw std::invalid_argument("unknown argument '" + keys.front() + "'");
  }

 private:
  struct Item {
    std::string key;
    std::string value;
    int source;
  };
  const Item* find(const std::string& key) const {
    read_.insert(key);
    for (const Item& it : items_)
      if (it.key == key) return &it;
    return nullptr;
  }
  static std::uint64_t parse_uint(const Item& it) {
    const std::string& v = it.value;
    char* end = nullptr;
    errno = 0;
    const unsigned long long n = std::strtoull(v.c_str(), &end, 0);
    if (v.empty() || v[0] == '-' || v[0] == '+' || end == nullptr || *end != '\0' || errno != 0)
      throw std::invalid_argument("argument '" + it.key + "': '" + v +
                                  "' is not an unsigned integer");
    return static_cast<std::uint64_t>(n);
  }
  static double parse_double(const Item& it) {
    const std::string& v = it.value;
    char* end = nullptr;
    errno = 0;
    const double d = std::strtod(v.c_str(), &end);
    if (v.empty() || end == nullptr || *end != '\0' || errno != 0 || !(d == d))
      throw std::invalid_argument("argument '" + it.key + "': '" + v + "' is not a number");
    return d;
  }

  std::vector<Item> items_;
  mutable std::set<std::string> read_;
};

namespace detail {

inline void write_error(char* error, std::size_t error_len, const char* text) {
  if (error != nullptr && error_len > 0) std::snprintf(error, error_len, "%s", text);
}

// The body of parsys_plugin_create: no exception crosses the C boundary.
template <class Model>
TargetModel* create(const char* instance_name, const par_plugin_args* args, char* error,
                    std::size_t error_len) {
  Model* model = nullptr;
  try {
    const Args a(args);
    model = new Model(sc_core::sc_module_name(instance_name), a);
    a.reject_unread();
    return model;
  } catch (const std::exception& e) {
    delete model;
    write_error(error, error_len, e.what());
  } catch (...) {
    delete model;
    write_error(error, error_len, "unknown exception");
  }
  return nullptr;
}

}  // namespace detail
}  // namespace par::plugin

// Defines the plug-in's two entry points for `ModelClass`, which must be derived from
// par::plugin::TargetModel and constructible from (sc_core::sc_module_name, const
// par::plugin::Args&). `timing_styles` is PARSYS_PLUGIN_LT, PARSYS_PLUGIN_AT or both (what
// timing() may return). Use once, at namespace scope, in one source file of the library.
#define PARSYS_DEFINE_PLUGIN(ModelClass, model_name, vendor_name, timing_styles)             \
  extern "C" PARSYS_PLUGIN_EXPORT const par_plugin_info* parsys_plugin_info(void) {          \
    static const par_plugin_info info = {PARSYS_PLUGIN_API_VERSION, PARSYS_PLUGIN_SYSTEMC_ABI, \
                                         model_name, vendor_name, timing_styles};            \
    return &info;                                                                            \
  }                                                                                          \
  extern "C" PARSYS_PLUGIN_EXPORT par::plugin::TargetModel* parsys_plugin_create(            \
      const char* instance_name, const par_plugin_args* args, char* error,                   \
      std::size_t error_len) {                                                               \
    return par::plugin::detail::create<ModelClass>(instance_name, args, error, error_len);   \
  }
