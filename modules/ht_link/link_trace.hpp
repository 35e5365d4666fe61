// What the link records when tracing is on (README.md "Tracing"): one interval per packet on the
// channel that carries it (track link/h2d or link/d2h, category "link", from its first to its last
// byte on the wire), the counter `queue` on the same track (packets of that channel waiting for
// it or on it, sampled at every packet's ready and end time), and the VCD signals link.<dir>.busy (1 bit) and link.<dir>.queue (8 bits).
//
// Plain C++ (no SystemC), called by LinkModel::send(); LinkModel holds a pointer that is null
// when tracing is off, so the untraced link pays one branch per packet.
#pragma once

#include <array>
#include <vector>

#include "ht_time.hpp"
#include "par/trace/timeline.hpp"
#include "par/trace/vcd_writer.hpp"

namespace par::ht {

// What a packet carries (the event name).
enum class PacketKind { Read, Write, ReadResponse, WriteResponse, Interrupt };
const char* name_of(PacketKind k);

class LinkTrace {
 public:
  // Either pointer may be null (nothing recorded there).
  LinkTrace(trace::Timeline* timeline, trace::VcdWriter* vcd);

  // A packet of `bytes` (control + `data`) ready for the channel at `ready`, on the wire [start, end].
  void packet(Direction d, PacketKind kind, unsigned bytes, unsigned data, Ps ready, Ps start, Ps end);
  // Packets that ended before `now` can no longer overlap a later packet (arrivals are >= now).
  void retire(Ps now);

 private:
  struct InFlight {
    Ps ready, start, end;
  };
  struct Channel {
    trace::TrackRef track;
    trace::SignalRef busy, queue;
    std::vector<InFlight> in_flight;  // recorded packets not yet retired
  };
  static std::size_t index(Direction d) { return d == Direction::HostToDevice ? 0 : 1; }
  void sample(Channel& c, Ps t);     // queue depth at t
  void busy_edge(Channel& c, Ps t);  // busy at t

  std::array<Channel, 2> channels_;
  trace::CategoryId category_;
  std::array<trace::NameId, 5> names_;
  trace::NameId queue_name_;
};

}  // namespace par::ht
