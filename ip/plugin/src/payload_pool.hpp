// Payloads with a memory manager for the nb_transport calls the adapter makes to an
// approximately-timed model (the base protocol requires one there). A payload returns to the pool
// when the last acquire() is released, so a model may keep a reference past END_RESP.
#pragma once

#include <memory>
#include <vector>

#include <tlm>

namespace par::plugin {

class PayloadPool final : public tlm::tlm_mm_interface {
 public:
  PayloadPool() = default;
  PayloadPool(const PayloadPool&) = delete;
  PayloadPool& operator=(const PayloadPool&) = delete;
  ~PayloadPool() override = default;

  // A payload with reference count 0 (the caller acquire()s it).
  tlm::tlm_generic_payload* allocate() {
    if (free_.empty()) {
      all_.push_back(std::make_unique<tlm::tlm_generic_payload>(this));
      return all_.back().get();
    }
    tlm::tlm_generic_payload* p = free_.back();
    free_.pop_back();
    return p;
  }

  void free(tlm::tlm_generic_payload* p) override {
    p->reset();  // drops extensions
    p->set_data_ptr(nullptr);
    p->set_byte_enable_ptr(nullptr);
    p->set_byte_enable_length(0);
    free_.push_back(p);
  }

  std::size_t size() const { return all_.size(); }

 private:
  std::vector<std::unique_ptr<tlm::tlm_generic_payload>> all_;
  std::vector<tlm::tlm_generic_payload*> free_;
};

}  // namespace par::plugin
