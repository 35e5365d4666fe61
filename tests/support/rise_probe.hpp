// Records when a bool signal rises (an interrupt or completion line), for SystemC tests:
//
//   sc_core::sc_signal<bool> line("line");
//   core.irq.bind(line);
//   RiseProbe probe("probe");
//   probe.in.bind(line);
//   ... sc_start ...  probe.rises  (times of every false -> true change)
#pragma once

#include <vector>

#include <systemc>

namespace par::testing {

class RiseProbe : public sc_core::sc_module {
 public:
  sc_core::sc_in<bool> in;
  std::vector<sc_core::sc_time> rises;

  explicit RiseProbe(sc_core::sc_module_name name) : sc_module(name), in("in") {
    SC_HAS_PROCESS(RiseProbe);
    SC_METHOD(record);
    sensitive << in.pos();
    dont_initialize();
  }

 private:
  void record() { rises.push_back(sc_core::sc_time_stamp()); }
};

}  // namespace par::testing
