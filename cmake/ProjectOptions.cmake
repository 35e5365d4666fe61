# Compiler flags shared by every parsys target (applied through parsys_options).
add_library(parsys_options INTERFACE)
target_compile_options(parsys_options INTERFACE -Wall -Wextra -Wpedantic -Wshadow
                                                 -Wnon-virtual-dtor -Wimplicit-fallthrough)
if(PARSYS_WERROR)
  target_compile_options(parsys_options INTERFACE -Werror)
endif()
if(PARSYS_SANITIZE)
  target_compile_options(parsys_options INTERFACE -fsanitize=address,undefined
                                                   -fno-omit-frame-pointer -fno-sanitize-recover=all)
  target_link_options(parsys_options INTERFACE -fsanitize=address,undefined)
endif()
