#include "link_trace.hpp"

#include <algorithm>
#include <string>

namespace par::ht {

const char* name_of(PacketKind k) {
  switch (k) {
    case PacketKind::Read: return "read";
    case PacketKind::Write: return "write";
    case PacketKind::ReadResponse: return "read_resp";
    case PacketKind::WriteResponse: return "write_resp";
    case PacketKind::Interrupt: return "interrupt";
  }
  return "?";
}

LinkTrace::LinkTrace(trace::Timeline* timeline, trace::VcdWriter* vcd) {
  for (Direction d : {Direction::HostToDevice, Direction::DeviceToHost}) {
    Channel& c = channels_[index(d)];
    const std::string dir = name_of(d);
    c.track = trace::TrackRef(timeline, "link", dir);
    c.busy = trace::SignalRef(vcd, "link." + dir + ".busy", 1);
    c.queue = trace::SignalRef(vcd, "link." + dir + ".queue", 8);
  }
  if (timeline != nullptr) {
    category_ = timeline->category("link");
    for (PacketKind k : {PacketKind::Read, PacketKind::Write, PacketKind::ReadResponse,
                         PacketKind::WriteResponse, PacketKind::Interrupt})
      names_[static_cast<std::size_t>(k)] = timeline->name(name_of(k));
    queue_name_ = timeline->name("queue");
  }
}

void LinkTrace::sample(Channel& c, Ps t) {
  if (!c.track.enabled() && !c.queue.enabled()) return;
  std::uint64_t count = 0;  // packets waiting for the channel or on it at t
  for (const InFlight& p : c.in_flight) count += (p.ready <= t && t < p.end) ? 1 : 0;
  c.track.counter(queue_name_, t, static_cast<double>(count));
  c.queue.set(t, count);
}

void LinkTrace::busy_edge(Channel& c, Ps t) {
  if (!c.busy.enabled()) return;
  bool busy = false;  // some packet on the wire at t
  for (const InFlight& p : c.in_flight) busy = busy || (p.start <= t && t < p.end);
  c.busy.set(t, busy ? 1 : 0);
}

void LinkTrace::packet(Direction d, PacketKind kind, unsigned bytes, unsigned data, Ps ready,
                       Ps start, Ps end) {
  Channel& c = channels_[index(d)];
  c.track.interval(names_[static_cast<std::size_t>(kind)], category_, start, end,
                   {{"bytes", bytes}, {"data", data}, {"queued_ps", start - ready}});
  c.in_flight.push_back({ready, start, end});
  busy_edge(c, start);
  busy_edge(c, end);
  // Depth samples at this packet's two edges, and again at the edges of earlier-recorded packets
  // that fall inside its stay (their samples did not count it). Of several samples at one time
  // the last one recorded wins, so the curve is exact whatever order the packets come in.
  sample(c, ready);
  sample(c, end);
  for (std::size_t i = 0; i + 1 < c.in_flight.size(); ++i) {
    const InFlight p = c.in_flight[i];
    if (ready <= p.ready && p.ready < end) sample(c, p.ready);
    if (ready <= p.end && p.end < end) sample(c, p.end);
    if (start <= p.end && p.end <= end) busy_edge(c, p.end);
    if (start <= p.start && p.start <= end) busy_edge(c, p.start);
  }
}

void LinkTrace::retire(Ps now) {
  for (Channel& c : channels_) {
    c.in_flight.erase(std::remove_if(c.in_flight.begin(), c.in_flight.end(),
                                     [now](const InFlight& p) { return p.end < now; }),
                      c.in_flight.end());
  }
}

}  // namespace par::ht
