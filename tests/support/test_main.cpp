// The main() of every test executable (tests/CMakeLists.txt, parsys_test_main). Every test
// executable links SystemC (its headers are in the tests' precompiled header, and they reference
// the library), and libsystemc needs an sc_main symbol even when main() comes from GoogleTest.
#include <gtest/gtest.h>

#include <cstdlib>
#include <systemc>  // declares sc_main with C linkage

int sc_main(int, char*[]) { return 0; }

int main(int argc, char** argv) {
  // Keeps SystemC's copyright banner out of the test output (a value set by the caller wins).
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
