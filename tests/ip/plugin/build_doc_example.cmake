# Builds the example of docs/plugging-in-ip.md from the page itself, as a reader would: its
# ```cpp block (my_ram.cpp) and its ```cmake block (CMakeLists.txt) are written to OUT/src and
# built as a separate CMake project against the INSTALLED plug-in SDK only.
#
#   cmake -DDOC=docs/plugging-in-ip.md -DSDK=<prefix> -DOUT=<dir> [-DCXX=c++] [-DFLAGS=...]
#         -P build_doc_example.cmake
#
# Result: OUT/build/libmy_ram.so. Fails, naming the page, when a block is missing or the code
# does not build.
foreach(var DOC SDK OUT)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "build_doc_example.cmake: -D${var}=... is required")
  endif()
endforeach()

file(READ "${DOC}" page)

# The text of the first fenced block of `language`, into `out`.
function(fenced_block language out)
  set(open "```${language}\n")
  string(FIND "${page}" "${open}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "${DOC}: no ```${language} block")
  endif()
  string(LENGTH "${open}" open_length)
  math(EXPR at "${at} + ${open_length}")
  string(SUBSTRING "${page}" ${at} -1 rest)
  string(FIND "${rest}" "```\n" end)
  if(end EQUAL -1)
    message(FATAL_ERROR "${DOC}: the ```${language} block is not closed")
  endif()
  string(SUBSTRING "${rest}" 0 ${end} text)
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

fenced_block(cpp source)
fenced_block(cmake project)
if(NOT source MATCHES "^// my_ram.cpp:")
  message(FATAL_ERROR "${DOC}: the first ```cpp block is no longer my_ram.cpp")
endif()

file(MAKE_DIRECTORY "${OUT}/src")
# file(WRITE) would touch unchanged files and rebuild them every time.
file(CONFIGURE OUTPUT "${OUT}/src/my_ram.cpp" CONTENT "${source}" @ONLY)
file(CONFIGURE OUTPUT "${OUT}/src/CMakeLists.txt" CONTENT "${project}" @ONLY)

# Run from a make-driven build: the nested build runs on its own, not in the outer job server.
unset(ENV{MAKEFLAGS})
unset(ENV{MFLAGS})
unset(ENV{MAKELEVEL})
set(configure_args -S "${OUT}/src" -B "${OUT}/build" -DCMAKE_BUILD_TYPE=Release
    "-DCMAKE_PREFIX_PATH=${SDK}" -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF "-DCMAKE_CXX_FLAGS=${FLAGS}")
if(CXX)
  list(APPEND configure_args "-DCMAKE_CXX_COMPILER=${CXX}")
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" ${configure_args} RESULT_VARIABLE rc OUTPUT_QUIET)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${DOC}: the example's CMakeLists.txt does not configure against ${SDK}")
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" --build "${OUT}/build" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${DOC}: the example my_ram.cpp does not build against ${SDK}")
endif()
