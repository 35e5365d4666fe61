// Message-signalled interrupts without TLM. A source raises an interrupt that carries 32 bits of
// data and arrives at a time (loosely timed: sc_time_stamp() + delay), as HyperTransport and PCI
// devices interrupt a host: with a posted write of a data word to its interrupt controller, one
// message per event, so none is lost and none needs an acknowledgement.
//
//   source:    sckit::InterruptOut irq{"irq"};      if (irq.size() > 0) irq->interrupt(data, delay);
//   receiver:  sckit::InterruptIn irq{"irq"};       const sckit::Interrupt m = irq.wait();  // thread process
//   platform:  source.irq.bind(receiver.irq);
//
// A model that forwards interrupts (the HT link) implements InterruptIf itself behind an
// sc_export<InterruptIf>.
#pragma once

#include <cstdint>
#include <deque>

#include <systemc>

namespace par::sckit {

class InterruptIf : public virtual sc_core::sc_interface {
 public:
  // One interrupt message with `data`, arriving at sc_time_stamp() + delay. Never waits.
  virtual void interrupt(std::uint32_t data, const sc_core::sc_time& delay) = 0;
};

// Binding it is optional: a source checks size() before raising.
using InterruptOut = sc_core::sc_port<InterruptIf, 1, sc_core::SC_ZERO_OR_MORE_BOUND>;

struct Interrupt {
  std::uint32_t data = 0;
  sc_core::sc_time at;  // arrival
};

// The receiving end: keeps the messages in arrival order.
class InterruptIn : public sc_core::sc_export<InterruptIf> {
 public:
  explicit InterruptIn(const char* name) : sc_core::sc_export<InterruptIf>(name) { bind(receiver_); }

  // A message has arrived by now.
  bool pending() const { return !queue_.empty() && queue_.front().at <= sc_core::sc_time_stamp(); }
  // Messages received so far, arrived or still on their way.
  std::uint64_t received() const { return received_; }

  // Called from a thread process: returns the oldest message, waiting until one has arrived.
  Interrupt wait() {
    for (;;) {
      const sc_core::sc_time now = sc_core::sc_time_stamp();
      if (!queue_.empty() && queue_.front().at <= now) {
        const Interrupt m = queue_.front();
        queue_.pop_front();
        return m;
      }
      // A message raised later may arrive before the oldest one queued: wake on every arrival.
      if (queue_.empty()) sc_core::wait(arrived_);
      else sc_core::wait(queue_.front().at - now, arrived_);
    }
  }

 private:
  // The interface behind the export (a member, not a base: a port binds to the export itself).
  struct Receiver final : InterruptIf {
    explicit Receiver(InterruptIn& in) : in_(in) {}
    void interrupt(std::uint32_t data, const sc_core::sc_time& delay) override { in_.receive(data, delay); }
    InterruptIn& in_;
  };

  void receive(std::uint32_t data, const sc_core::sc_time& delay) {
    const Interrupt m{data, sc_core::sc_time_stamp() + delay};
    auto it = queue_.end();
    while (it != queue_.begin() && std::prev(it)->at > m.at) --it;
    queue_.insert(it, m);
    ++received_;
    arrived_.notify(sc_core::SC_ZERO_TIME);
  }

  Receiver receiver_{*this};
  std::deque<Interrupt> queue_;
  std::uint64_t received_ = 0;
  sc_core::sc_event arrived_;
};

}  // namespace par::sckit
