# Compiler flags shared by every parsys target (applied through parsys_options). The compile
# options are this tree's only ($<BUILD_INTERFACE:>); the installed package keeps the sanitizer
# link options, which whatever links a sanitized library needs (docs/architecture.md).
add_library(parsys_options INTERFACE)
target_compile_options(parsys_options INTERFACE "$<BUILD_INTERFACE:-Wall;-Wextra;-Wpedantic;-Wshadow;-Wnon-virtual-dtor;-Wimplicit-fallthrough>")
if(PARSYS_WERROR)
  target_compile_options(parsys_options INTERFACE "$<BUILD_INTERFACE:-Werror>")
endif()
if(PARSYS_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "PARSYS_FUZZ needs clang (libFuzzer): configure with -DCMAKE_CXX_COMPILER=clang++")
  endif()
  # -Wunused-private-field: clang only (the gcc trees with -Werror do not have it), and it flags a
  # field kept for later use in the load/store unit.
  target_compile_options(parsys_options INTERFACE "$<BUILD_INTERFACE:-fsanitize=fuzzer-no-link,address,undefined;-fno-omit-frame-pointer;-fno-sanitize-recover=all;-Wno-unused-private-field>")
  target_link_options(parsys_options INTERFACE -fsanitize=address,undefined)
endif()
if(PARSYS_SANITIZE)
  target_compile_options(parsys_options INTERFACE "$<BUILD_INTERFACE:-fsanitize=address,undefined;-fno-omit-frame-pointer;-fno-sanitize-recover=all>")
  target_link_options(parsys_options INTERFACE -fsanitize=address,undefined)
endif()

# --- build time (README.md "Decisions": build time) ------------------------------------------
# Test code (GoogleTest assertions, fixtures, harness modules) is compiled at this level whatever
# the build type: most of a test file's compile time is optimising macro-expanded assertions,
# while the code under test keeps the build type's level (release: -O3). Empty: the build type's.
set(PARSYS_TEST_OPTIMIZATION "-O1" CACHE STRING "Optimisation flag of test sources (empty: the build type's)")
# Each test executable compiles as one translation unit per PARSYS_UNITY_BATCH_SIZE sources:
# SystemC, GoogleTest and nlohmann-json are parsed, and their templates instantiated, once per
# executable instead of once per file. Sources in one executable therefore share one scope:
# helpers in anonymous namespaces need distinct names (the build fails on a clash).
option(PARSYS_UNITY_TESTS "Compile the sources of each test executable together (unity build)" ON)
set(PARSYS_UNITY_BATCH_SIZE 8 CACHE STRING "Sources per unity translation unit")
# SystemC/TLM, GoogleTest and nlohmann-json precompiled once and reused by every test executable.
option(PARSYS_PRECOMPILED_HEADERS "Precompile the third-party headers of the tests" ON)
