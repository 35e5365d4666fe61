// The timing of the HyperTransport link (docs/link-and-memory.md §1) without SystemC: packetisation,
// the six latency stages, the two channel calendars and the two outstanding limits. The SC_MODULE
// (ht_link.hpp) only converts times and performs the far-side accesses through a FarSide.
//
// One access (a TLM transaction arriving at one side) is split into packets of at most 64 bytes.
// Each packet, in order:
//   request:  [wait queue entry] [outstanding slot, non-posted only] TX stage of the origin ->
//             channel origin->target for 8 (+ write data) bytes -> RX stage of the target ->
//             the far-side access (FarSide::deliver)
//   response (non-posted only): target stages (host memory: sdram + build) -> TX stage of the
//             target -> channel target->origin for 4 (+ read data) bytes -> RX stage of the
//             origin; the slot frees here.
// The access completes with its last response; a posted write completes when its last packet has
// left the origin. README.md has the stage mapping and worked examples.
#pragma once

#include <cstdint>
#include <vector>

#include "par/simkit/interval_calendar.hpp"
#include "ht_config.hpp"
#include "ht_time.hpp"
#include "link_stats.hpp"
#include "link_trace.hpp"
#include "outstanding_limiter.hpp"

namespace par::ht {

enum class AccessKind { Read, PostedWrite, NonPostedWrite };

// One piece of an access, as carried by one request packet.
struct Packet {
  std::uint64_t offset = 0;  // from the start of the access
  unsigned length = 0;       // payload bytes (<= 64)
};

// The packets of an access of `length` bytes: 64-byte pieces from its start, the last one
// shorter; at least one packet (an access of 0 bytes still sends a request).
std::vector<Packet> packetise(std::uint64_t length);

// The far end of the link, as the model sees it.
class FarSide {
 public:
  virtual ~FarSide() = default;
  // Performs `packet` at the far side; it arrives there at `at`. Returns the time at which the
  // target has completed it and whether the target answered OK.
  struct Done {
    Ps at;
    bool ok;
  };
  virtual Done deliver(const Packet& packet, Ps at) = 0;
  // Called only when every outstanding slot of the origin belongs to an access whose far side has
  // not returned yet: a target that waits inside b_transport for its own access (an
  // approximately-timed model behind a simple socket) while other processes call the link. Blocks
  // until one returns; returns the current time.
  virtual Ps wait_for_slot() = 0;
};

struct Access {
  Side origin = Side::Device;
  AccessKind kind = AccessKind::Read;
  std::uint64_t length = 0;
  Ps arrival = 0;
};

struct AccessResult {
  Ps completion = 0;  // posted write: departure of the last packet
  bool ok = true;     // every packet answered OK
  unsigned packets = 0;
};

// The per-packet times (kept for tests and traces).
struct RequestTiming {
  Ps arrival = 0;   // at the origin's request interface
  Ps entry = 0;     // accepted by the interface (later than arrival when the wait queue is full)
  Ps start = 0;     // slot granted (non-posted) or = entry (posted)
  Ps ready = 0;     // TX stage done: handed to the channel
  Ps sent = 0;      // last byte on the link
  Ps delivered = 0; // RX stage at the target done: the far-side access starts
  std::size_t slot = 0;
  bool write = false;  // a write request (its response is a write response)
};
struct ResponseTiming {
  Ps ready = 0;       // target stages and TX stage done
  Ps sent = 0;
  Ps completion = 0;  // RX stage at the origin done
};

class LinkModel {
 public:
  // `cfg` must be valid (checked()); statistics go to `stats`.
  LinkModel(const HtConfig& cfg, LinkStats& stats);

  // The whole access, packet by packet.
  AccessResult transfer(const Access& access, FarSide& far);
  // An interrupt raised on the device side at `arrival`: HyperTransport carries it as a posted
  // write request of kInterruptDataBytes to the host. Returns when the host side receives it.
  Ps interrupt(Ps arrival);

  // The two halves of one packet's journey (used by transfer(); public for tests).
  // `kind` only names the packets in a trace; the four-argument form takes a request with data
  // for a write.
  RequestTiming send_request(Side origin, bool non_posted, unsigned data_bytes, Ps arrival,
                             PacketKind kind);
  RequestTiming send_request(Side origin, bool non_posted, unsigned data_bytes, Ps arrival) {
    return send_request(origin, non_posted, data_bytes, arrival, data_bytes > 0 ? PacketKind::Write : PacketKind::Read);
  }
  ResponseTiming send_response(Side origin, const RequestTiming& request, unsigned data_bytes,
                               Ps target_done);

  // Records every packet on `trace` from now on (null: tracing off). Not owned.
  void set_trace(LinkTrace* trace) { trace_ = trace; }

  // Forgets the channel and wait-queue history before `now` (call with the current time).
  void retire(Ps now);

  // Link time of one packet of `bytes` (serialisation + ht.packet_overhead_ns).
  Ps packet_ps(unsigned bytes) const;
  // Stage times of each side's block (README.md, "Latency stages").
  Ps tx_ps(Side s) const { return s == Side::Host ? host_tx_ : device_tx_; }
  Ps rx_ps(Side s) const { return s == Side::Host ? host_rx_ : device_rx_; }
  Ps target_ps(Side s) const { return s == Side::Host ? host_target_ : 0; }
  // `t` moved to the next device IP-core clock edge when ht.core_clock_align is on and the stage
  // belongs to the device; unchanged otherwise.
  Ps stage_end(Side s, Ps t) const;

  const HtConfig& config() const { return cfg_; }
  const simkit::IntervalCalendar& channel(Direction d) const { return channels_[index(d)]; }
  const OutstandingLimiter& limiter(Side s) const { return limiters_[index(s)]; }

 private:
  static std::size_t index(Direction d) { return d == Direction::HostToDevice ? 0 : 1; }
  static std::size_t index(Side s) { return s == Side::Host ? 0 : 1; }
  // Reserves the channel for a packet ready at `ready`; records it; returns its last-byte time.
  Ps send(Direction d, PacketKind kind, unsigned control, unsigned data, Ps ready);

  HtConfig cfg_;
  LinkStats& stats_;
  double ps_per_byte_;
  Ps overhead_ps_;
  Ps host_tx_, host_rx_, device_tx_, device_rx_, host_target_;
  Ps core_period_;
  simkit::IntervalCalendar channels_[2];       // h2d, d2h
  std::vector<OutstandingLimiter> limiters_;  // host, device
  LinkTrace* trace_ = nullptr;
};

}  // namespace par::ht
