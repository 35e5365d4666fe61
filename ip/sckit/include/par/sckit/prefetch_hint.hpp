// A prefetch request on a TLM-2.0 base-protocol socket: a TLM_IGNORE_COMMAND payload that carries
// this ignorable extension. Address and length name the bytes to bring into a cache; no data moves
// in either direction. A target that does not know the extension treats the payload as any ignore
// command (the base protocol's rule: nothing is read or written), so a prefetch never changes what
// a program computes. The cores' packet prefetchers send it; the L2 acts on it (modules/l2 README,
// "Prefetch requests").
#pragma once

#include <tlm>

namespace par::sckit {

struct PrefetchHint : tlm::tlm_extension<PrefetchHint> {
  tlm::tlm_extension_base* clone() const override { return new PrefetchHint(*this); }
  void copy_from(const tlm::tlm_extension_base&) override {}
};

// Whether `tx` is a prefetch request.
inline bool is_prefetch(const tlm::tlm_generic_payload& tx) {
  return __builtin_expect(tx.get_command() == tlm::TLM_IGNORE_COMMAND, 0) && tx.get_extension<PrefetchHint>() != nullptr;
}

}  // namespace par::sckit
