#include "link_model.hpp"

#include <algorithm>
#include <cmath>

namespace par::ht {

std::vector<Packet> packetise(std::uint64_t length) {
  std::vector<Packet> packets;
  std::uint64_t offset = 0;
  do {
    const auto n = static_cast<unsigned>(
        std::min<std::uint64_t>(HtConfig::kMaxPayloadBytes, length - offset));
    packets.push_back({offset, n});
    offset += n;
  } while (offset < length);
  return packets;
}

LinkModel::LinkModel(const HtConfig& cfg, LinkStats& stats)
    : cfg_(checked(cfg)),
      stats_(stats),
      ps_per_byte_(1000.0 * cfg_.ns_per_byte()),
      overhead_ps_(ns_to_ps(cfg_.packet_overhead_ns)),
      // Each block has one TX and one RX path; the published stages name them for a device read
      // of host memory (README.md, "Latency stages").
      host_tx_(ns_to_ps(cfg_.lat.resp_host_ns)),
      host_rx_(ns_to_ps(cfg_.lat.req_host_ns)),
      device_tx_(ns_to_ps(cfg_.lat.req_device_ns)),
      device_rx_(ns_to_ps(cfg_.lat.resp_device_ns)),
      host_target_(ns_to_ps(cfg_.lat.sdram_ns) + ns_to_ps(cfg_.lat.resp_build_ns)),
      core_period_(std::max<Ps>(1, ns_to_ps(cfg_.core_cycle_ns()))),
      limiters_{OutstandingLimiter(cfg_.max_outstanding, cfg_.wait_queue),
                OutstandingLimiter(cfg_.max_outstanding, cfg_.wait_queue)} {}

Ps LinkModel::packet_ps(unsigned bytes) const {
  return static_cast<Ps>(std::llround(bytes * ps_per_byte_)) + overhead_ps_;
}

Ps LinkModel::stage_end(Side s, Ps t) const {
  if (!cfg_.core_clock_align || s != Side::Device) return t;
  return (t + core_period_ - 1) / core_period_ * core_period_;
}

void LinkModel::retire(Ps now) {
  for (simkit::IntervalCalendar& c : channels_) c.retire(now);
  for (OutstandingLimiter& l : limiters_) l.retire(now);
  if (trace_ != nullptr) trace_->retire(now);
}

Ps LinkModel::send(Direction d, PacketKind kind, unsigned control, unsigned data, Ps ready) {
  const Ps duration = packet_ps(control + data);
  const Ps start = channels_[index(d)].reserve(ready, duration);
  DirectionStats& st = stats_.of(d);
  ++st.packets;
  st.control_bytes += control;
  st.data_bytes += data;
  st.busy_ns += ps_to_ns(duration);
  if (start > ready) {
    ++st.queued_packets;
    st.queue_ns += ps_to_ns(start - ready);
  }
  stats_.reach(start + duration);
  if (trace_ != nullptr) trace_->packet(d, kind, control + data, data, ready, start, start + duration);
  return start + duration;
}

RequestTiming LinkModel::send_request(Side origin, bool non_posted, unsigned data_bytes,
                                      Ps arrival, PacketKind kind) {
  OutstandingLimiter& limiter = limiters_[index(origin)];
  DirectionStats& st = stats_.of(sent_by(origin));
  RequestTiming t;
  t.arrival = arrival;
  t.write = kind != PacketKind::Read;
  t.entry = limiter.admit(arrival);
  if (t.entry > arrival) ++st.wait_queue_stalls;
  t.start = t.entry;
  if (non_posted) {
    const OutstandingLimiter::Grant grant = limiter.acquire(t.entry);
    t.slot = grant.slot;
    t.start = grant.start;
    if (t.start > t.entry) ++st.outstanding_stalls;
  }
  if (t.start > arrival) st.wait_ns += ps_to_ns(t.start - arrival);
  const Side target = other(origin);
  t.ready = stage_end(origin, t.start + tx_ps(origin));
  t.sent = send(sent_by(origin), kind, HtConfig::kRequestControlBytes, data_bytes, t.ready);
  t.delivered = stage_end(target, t.sent + rx_ps(target));
  return t;
}

ResponseTiming LinkModel::send_response(Side origin, const RequestTiming& request,
                                        unsigned data_bytes, Ps target_done) {
  const Side target = other(origin);
  ResponseTiming t;
  t.ready = stage_end(target, target_done + target_ps(target) + tx_ps(target));
  t.sent = send(sent_by(target), request.write ? PacketKind::WriteResponse : PacketKind::ReadResponse,
                HtConfig::kResponseControlBytes, data_bytes, t.ready);
  t.completion = stage_end(origin, t.sent + rx_ps(origin));
  limiters_[index(origin)].release(request.slot, t.completion);
  stats_.reach(t.completion);
  return t;
}

Ps LinkModel::interrupt(Ps arrival) {
  const RequestTiming r =
      send_request(Side::Device, false, HtConfig::kInterruptDataBytes, arrival, PacketKind::Interrupt);
  ++stats_.of(Direction::DeviceToHost).interrupts;
  stats_.reach(r.delivered);
  return r.delivered;
}

AccessResult LinkModel::transfer(const Access& access, FarSide& far) {
  const bool non_posted = access.kind != AccessKind::PostedWrite;
  const bool write = access.kind != AccessKind::Read;
  AccessResult result;
  result.completion = access.arrival;
  Ps arrival = access.arrival;
  for (const Packet& packet : packetise(access.length)) {
    if (non_posted) {
      while (!limiters_[index(access.origin)].has_free_slot())
        arrival = std::max(arrival, far.wait_for_slot());
    }
    const RequestTiming request = send_request(access.origin, non_posted, write ? packet.length : 0, arrival,
                                               write ? PacketKind::Write : PacketKind::Read);
    const FarSide::Done done = far.deliver(packet, request.delivered);
    result.ok = result.ok && done.ok;
    const Ps target_done = std::max(done.at, request.delivered);
    stats_.reach(target_done);
    if (non_posted) {
      const ResponseTiming response =
          send_response(access.origin, request, write ? 0 : packet.length, target_done);
      result.completion = std::max(result.completion, response.completion);
    } else {
      result.completion = std::max(result.completion, request.sent);
    }
    ++result.packets;
  }
  DirectionStats& st = stats_.of(sent_by(access.origin));
  switch (access.kind) {
    case AccessKind::Read:
      ++st.reads;
      break;
    case AccessKind::PostedWrite:
      ++st.posted_writes;
      break;
    case AccessKind::NonPostedWrite:
      ++st.nonposted_writes;
      break;
  }
  if (!result.ok) ++st.errors;
  st.latency.sample(ps_to_ns(result.completion - access.arrival));
  return result;
}

}  // namespace par::ht
