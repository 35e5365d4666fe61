// The checker's fast path does not allocate: after a warm-up, b_transport through a checker
// performs no heap allocation at all. Counted with a replacement of the global operator new,
// which must live at namespace scope (it replaces the library's for the whole test binary and
// only counts while a test switches counting on). Under AddressSanitizer the sanitizer owns
// operator new, so the test is skipped in the sanitizer tree.
#include <gtest/gtest.h>

#include <cstdlib>
#include <new>

#include "support/sc_isolation.hpp"
#include "par/tlmcheck/protocol_checker.hpp"
#include "tlm_check_test_support.hpp"

#if defined(__SANITIZE_ADDRESS__)
#define PARSYS_COUNT_ALLOCATIONS 0
#else
#define PARSYS_COUNT_ALLOCATIONS 1
#endif

#if PARSYS_COUNT_ALLOCATIONS
namespace {
struct AllocationCounter {
  bool counting = false;
  long count = 0;
};
AllocationCounter& allocations() {
  static AllocationCounter counter;
  return counter;
}
void* counted_malloc(std::size_t size) {
  if (allocations().counting) ++allocations().count;
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
}  // namespace

void* operator new(std::size_t size) { return counted_malloc(size); }
void* operator new[](std::size_t size) { return counted_malloc(size); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
#endif

namespace par::tlmcheck {
namespace {

using sc_core::SC_NS;
using sc_core::sc_time;
using sc_core::SC_ZERO_TIME;
using testing::prepare;
using testing::ScriptedInitiator;
using testing::ScriptedTarget;

TEST(CheckerCost, BlockingTransportThroughTheCheckerDoesNotAllocate) {
#if !PARSYS_COUNT_ALLOCATIONS
  GTEST_SKIP() << "operator new belongs to AddressSanitizer in this build";
#else
  par::testing::run_isolated([] {
    long during = -1;
    ScriptedTarget target("target");
    ScriptedInitiator init("init", [&](ScriptedInitiator& self) {
      unsigned char data[64] = {};
      unsigned char enables[64];
      for (unsigned i = 0; i < 64; ++i) enables[i] = i % 2 == 0 ? 0xff : 0;
      // One payload for all: constructing a payload allocates its extension array.
      tlm::tlm_generic_payload tx;
      auto transport = [&](int i) {
        prepare(tx, i % 2 == 0 ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND,
                static_cast<std::uint64_t>(i % 4) * 64, data, 64);
        tx.set_byte_enable_ptr(enables);
        tx.set_byte_enable_length(64);
        sc_time delay(static_cast<double>(i % 7), SC_NS);
        self.out->b_transport(tx, delay);
      };
      for (int i = 0; i < 10; ++i) transport(i);  // warm-up
      allocations().count = 0;
      allocations().counting = true;
      for (int i = 0; i < 10000; ++i) transport(i);
      allocations().counting = false;
      during = allocations().count;
    });
    ProtocolChecker<> checker("checker", "init.out", "target.in");
    checker.connect(init.out, target.in);
    sc_core::sc_start(sc_time(1, SC_NS));
    EXPECT_EQ(during, 0);
    EXPECT_EQ(static_cast<const simkit::Counter*>(checker.stats().find("b_transport"))->value(),
              10010u);
    EXPECT_EQ(checker.violation_count(), 0u);
  });
#endif
}

}  // namespace
}  // namespace par::tlmcheck
