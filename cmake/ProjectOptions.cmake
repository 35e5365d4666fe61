# Compiler flags shared by every parsys target (applied through parsys_options).
add_library(parsys_options INTERFACE)
target_compile_options(parsys_options INTERFACE -Wall -Wextra -Wpedantic -Wshadow
                                                 -Wnon-virtual-dtor -Wimplicit-fallthrough)
if(PARSYS_WERROR)
  target_compile_options(parsys_options INTERFACE -Werror)
endif()
if(PARSYS_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "PARSYS_FUZZ needs clang (libFuzzer): configure with -DCMAKE_CXX_COMPILER=clang++")
  endif()
  # -Wunused-private-field: clang only (the gcc trees with -Werror do not have it), and it flags a
  # field kept for later use in the load/store unit.
  target_compile_options(parsys_options INTERFACE -fsanitize=fuzzer-no-link,address,undefined
                                                   -fno-omit-frame-pointer -fno-sanitize-recover=all
                                                   -Wno-unused-private-field)
  target_link_options(parsys_options INTERFACE -fsanitize=address,undefined)
endif()
if(PARSYS_SANITIZE)
  target_compile_options(parsys_options INTERFACE -fsanitize=address,undefined
                                                   -fno-omit-frame-pointer -fno-sanitize-recover=all)
  target_link_options(parsys_options INTERFACE -fsanitize=address,undefined)
endif()
