#include "vendor_dram.hpp"

#include <sstream>
#include <stdexcept>

namespace acme {

namespace {

unsigned in_range(const par::plugin::Args& args, const char* key, std::uint64_t fallback, std::uint64_t lo,
                  std::uint64_t hi) {
  const std::uint64_t v = args.get_uint(key, fallback);
  if (v < lo || v > hi)
    throw std::invalid_argument(std::string("argument '") + key + "': " + std::to_string(v) + " is out of range " +
                                std::to_string(lo) + ".." + std::to_string(hi));
  return static_cast<unsigned>(v);
}

DramTiming timing_from(const par::plugin::Args& args) {
  DramTiming t;
  t.banks = in_range(args, "banks", t.banks, 1, 1024);
  t.row_bytes = in_range(args, "row_bytes", t.row_bytes, 16, 1u << 20);
  t.bus_bytes = in_range(args, "bus_bytes", t.bus_bytes, 1, 1024);
  t.tRCD = in_range(args, "tRCD", t.tRCD, 0, 1000);
  t.tCL = in_range(args, "tCL", t.tCL, 0, 1000);
  t.tRP = in_range(args, "tRP", t.tRP, 0, 1000);
  return t;
}

double clock_from(const par::plugin::Args& args) {
  const double mhz = args.get_double("clock_mhz", 800);
  if (!(mhz > 0 && mhz <= 1e6)) throw std::invalid_argument("argument 'clock_mhz': must be in (0, 1e6]");
  return mhz;
}

}  // namespace

VendorDram::VendorDram(sc_core::sc_module_name name, const par::plugin::Args& args)
    : TargetModel(name),
      socket_("socket"),
      timing_(args.get_choice("mode", "lt", {"lt", "at"}) == "lt" ? par::plugin::Timing::LooselyTimed
                                                                   : par::plugin::Timing::ApproximatelyTimed),
      params_(timing_from(args)),
      size_(args.require_uint("size")),
      clock_mhz_(clock_from(args)),
      period_(1e3 / clock_mhz_, sc_core::SC_NS),
      timer_(params_),
      peq_(this, &VendorDram::phase_due) {
  if (size_ == 0) throw std::invalid_argument("argument 'size': must not be 0");
  if (period_ == sc_core::SC_ZERO_TIME)
    throw std::invalid_argument("argument 'clock_mhz': the clock period is below the time resolution");
  socket_.register_transport_dbg(this, &VendorDram::transport_dbg);
  if (timing_ == par::plugin::Timing::LooselyTimed) {
    socket_.register_b_transport(this, &VendorDram::b_transport);
  } else {
    socket_.register_nb_transport_fw(this, &VendorDram::nb_transport_fw);
    SC_HAS_PROCESS(VendorDram);
    SC_METHOD(send_response);
    sensitive << response_free_;
    dont_initialize();
  }
}

std::string VendorDram::description() const {
  std::ostringstream os;
  os << "Acme example DRAM, " << size_ << " bytes, " << params_.banks << " banks of " << params_.row_bytes
     << "-byte rows, " << params_.bus_bytes << " bytes/cycle at " << clock_mhz_ << " MHz, tRCD/tCL/tRP "
     << params_.tRCD << '/' << params_.tCL << '/' << params_.tRP;
  return os.str();
}

std::vector<par::plugin::Statistic> VendorDram::statistics() const {
  return {
      {"reads", "transactions", "Read transactions served", static_cast<double>(reads_)},
      {"writes", "transactions", "Write transactions served", static_cast<double>(writes_)},
      {"bytes", "bytes", "Bytes read and written", static_cast<double>(bytes_)},
      {"errors", "transactions", "Error responses", static_cast<double>(errors_)},
      {"row_hits", "accesses", "Accesses to the open row of their bank", static_cast<double>(hits_)},
      {"row_misses", "accesses", "Accesses to a bank with no open row (ACT)", static_cast<double>(misses_)},
      {"row_conflicts", "accesses", "Accesses to another row than the open one (PRE + ACT)",
       static_cast<double>(conflicts_)},
      {"latency_ns", "ns", "Sum of arrival-to-completion times", latency_ns_},
  };
}

sc_core::sc_time VendorDram::serve(tlm::tlm_generic_payload& tx, const sc_core::sc_time& arrival) {
  const std::uint64_t address = tx.get_address();
  const unsigned length = tx.get_data_length();
  if (tx.get_command() == tlm::TLM_IGNORE_COMMAND) {
    tx.set_response_status(tlm::TLM_OK_RESPONSE);
    return arrival;
  }
  if (tx.get_streaming_width() < length) {
    tx.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    ++errors_;
    return arrival;
  }
  if (address >= size_ || length > size_ - address) {
    tx.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    ++errors_;
    return arrival;
  }
  unsigned char* data = tx.get_data_ptr();
  const unsigned char* enables = tx.get_byte_enable_ptr();
  const unsigned enables_length = enables != nullptr ? tx.get_byte_enable_length() : 0;
  if (tx.is_write()) {
    memory_.write(address, data, length, enables, enables_length);
    ++writes_;
  } else {
    std::vector<unsigned char> bytes(length);
    memory_.read(address, bytes.data(), length);
    for (unsigned i = 0; i < length; ++i)
      if (enables_length == 0 || enables[i % enables_length] != 0) data[i] = bytes[i];
    ++reads_;
  }
  bytes_ += length;
  tx.set_response_status(tlm::TLM_OK_RESPONSE);

  const std::uint64_t p = period_.value();
  const std::uint64_t arrival_cycle = (arrival.value() + p - 1) / p;  // the next clock edge
  const Scheduled s = timer_.schedule(arrival_cycle, address, length);
  if (s.row == RowOutcome::Hit) ++hits_;
  else if (s.row == RowOutcome::Miss) ++misses_;
  else ++conflicts_;
  const sc_core::sc_time done = period_ * static_cast<double>(s.done);
  latency_ns_ += (done - arrival) / sc_core::sc_time(1, sc_core::SC_NS);
  return done;
}

void VendorDram::b_transport(tlm::tlm_generic_payload& tx, sc_core::sc_time& delay) {
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  delay = serve(tx, now + delay) - now;
}

unsigned int VendorDram::transport_dbg(tlm::tlm_generic_payload& tx) {
  const std::uint64_t address = tx.get_address();
  const unsigned length = tx.get_data_length();
  if (address >= size_ || length > size_ - address) return 0;
  if (tx.is_read()) memory_.read(address, tx.get_data_ptr(), length);
  else if (tx.is_write()) memory_.write(address, tx.get_data_ptr(), length);
  else return 0;
  tx.set_response_status(tlm::TLM_OK_RESPONSE);
  return length;
}

// --- approximately timed ---------------------------------------------------------------------------

tlm::tlm_sync_enum VendorDram::nb_transport_fw(tlm::tlm_generic_payload& tx, tlm::tlm_phase& phase,
                                               sc_core::sc_time& delay) {
  if (phase == tlm::BEGIN_REQ) {
    if (tx.has_mm()) tx.acquire();
    peq_.notify(tx, phase, delay);  // taken at its annotated time
    return tlm::TLM_ACCEPTED;
  }
  if (phase == tlm::END_RESP) {
    if (responding_ != &tx) {
      SC_REPORT_ERROR(name(), "END_RESP for a transaction without an outstanding response");
      return tlm::TLM_COMPLETED;
    }
    responding_ = nullptr;
    if (tx.has_mm()) tx.release();
    response_free_.notify(sc_core::SC_ZERO_TIME);
    return tlm::TLM_COMPLETED;
  }
  SC_REPORT_ERROR(name(), "nb_transport_fw: unexpected phase");
  return tlm::TLM_COMPLETED;
}

void VendorDram::phase_due(tlm::tlm_generic_payload& tx, const tlm::tlm_phase& phase) {
  if (phase == tlm::BEGIN_REQ) {
    const sc_core::sc_time now = sc_core::sc_time_stamp();
    const sc_core::sc_time done = serve(tx, now);
    // The request port takes one request per clock. END_REQ is queued before BEGIN_RESP, so it
    // goes first when both fall on the same time.
    peq_.notify(tx, tlm::END_REQ, period_);
    peq_.notify(tx, tlm::BEGIN_RESP, done > now + period_ ? done - now : period_);
    return;
  }
  if (phase == tlm::END_REQ) {
    tlm::tlm_phase end_req = tlm::END_REQ;
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    socket_->nb_transport_bw(tx, end_req, delay);
    return;
  }
  // BEGIN_RESP is due.
  responses_.push_back(&tx);
  send_response();
}

void VendorDram::send_response() {
  if (responding_ != nullptr || responses_.empty()) return;
  tlm::tlm_generic_payload* tx = responses_.front();
  responses_.pop_front();
  responding_ = tx;
  tlm::tlm_phase phase = tlm::BEGIN_RESP;
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  const tlm::tlm_sync_enum s = socket_->nb_transport_bw(*tx, phase, delay);
  if (s == tlm::TLM_COMPLETED || (s == tlm::TLM_UPDATED && phase == tlm::END_RESP)) {
    responding_ = nullptr;
    if (tx->has_mm()) tx->release();
    response_free_.notify(sc_core::SC_ZERO_TIME);
  }
}

}  // namespace acme

PARSYS_DEFINE_PLUGIN(acme::VendorDram, "vendor_dram", "Acme Memories (parsys example)",
                     PARSYS_PLUGIN_LT | PARSYS_PLUGIN_AT)
