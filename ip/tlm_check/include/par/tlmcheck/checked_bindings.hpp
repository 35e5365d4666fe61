// The platform's socket bindings, each through a ProtocolChecker when checking is enabled
// (CheckerConfig::enable, the --check-protocol flag) and direct otherwise: one line per binding.
//
//   CheckedBindings<> links(cfg.protocol_check);              // a Platform member
//   links.bind(core.mem, "core0.mem", bus.in, "bus.in");       // was: core.mem.bind(bus.in)
//   links.bind(bus.out, "bus.out", dram.in, "dram.in");        // multi sockets: one binding each
//   root.attach(links.stats());                                // "protocol_check.<checker>..."
//   ... after the run: links.violation_count(), links.violations()
//
// The checkers are top-level modules named "check_<initiator>__<target>" (dots become '_').
// Keep the object alive as long as the modules it binds.
#pragma once

#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "par/simkit/stats.hpp"
#include "par/tlmcheck/checker_config.hpp"
#include "par/tlmcheck/protocol_checker.hpp"

namespace par::tlmcheck {

template <unsigned int BUSWIDTH = 32>
class CheckedBindings {
 public:
  // Throws std::invalid_argument for an invalid `cfg`.
  explicit CheckedBindings(const CheckerConfig& cfg,
                           const std::string& stats_name = "protocol_check")
      : cfg_(checked(cfg)), stats_(stats_name) {}

  bool enabled() const { return cfg_.enable; }

  // Binds `initiator` to `target`, through a new checker when enabled. The names are those of the
  // two sockets as the user knows them; they appear in every violation message.
  template <class InitiatorSocket, class TargetSocket>
  void bind(InitiatorSocket& initiator, const std::string& initiator_name, TargetSocket& target,
            const std::string& target_name) {
    if (!cfg_.enable) {
      initiator.bind(target);
      return;
    }
    checkers_.push_back(std::make_unique<ProtocolChecker<BUSWIDTH>>(
        unique_name(initiator_name, target_name).c_str(), initiator_name, target_name, cfg_,
        &stats_));
    checkers_.back()->connect(initiator, target);
  }

  const std::vector<std::unique_ptr<ProtocolChecker<BUSWIDTH>>>& checkers() const {
    return checkers_;
  }
  // Counters of every checker, one child group each.
  simkit::StatGroup& stats() { return stats_; }

  std::uint64_t violation_count() const {
    std::uint64_t n = 0;
    for (const auto& c : checkers_) n += c->violation_count();
    return n;
  }
  // The recorded violations of every checker, checker by checker (each in order of detection).
  std::vector<Violation> violations() const {
    std::vector<Violation> all;
    for (const auto& c : checkers_)
      all.insert(all.end(), c->violations().begin(), c->violations().end());
    return all;
  }

 private:
  std::string unique_name(const std::string& initiator, const std::string& target) {
    auto clean = [](std::string s) {
      for (char& ch : s) {
        const bool word = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                          (ch >= '0' && ch <= '9') || ch == '_' || ch == '-';
        if (!word) ch = '_';
      }
      return s;
    };
    const std::string base = "check_" + clean(initiator) + "__" + clean(target);
    std::string name = base;
    for (int i = 2; !names_.insert(name).second; ++i) name = base + "_" + std::to_string(i);
    return name;
  }

  CheckerConfig cfg_;
  simkit::StatGroup stats_;  // before the checkers: they detach from it when destroyed
  std::set<std::string> names_;
  std::vector<std::unique_ptr<ProtocolChecker<BUSWIDTH>>> checkers_;
};

}  // namespace par::tlmcheck
