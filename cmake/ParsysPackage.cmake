# The installed CMake package (README.md "Using parsys as a library"): `cmake --install <build>
# --prefix P` puts every library of ip/, modules/, sw/ and platform/ with its headers into P, as
# imported targets parsys::<name> (lib/cmake/parsys/parsysTargets.cmake, read by parsysConfig.cmake
# of ip/plugin/cmake), and the configurations, kernels, scripts and docs into P/share.
#
# Included after every add_subdirectory of the product: the targets are collected from the
# folders, so a new library (or a split of one) is exported without an edit here. A library's
# public include directories must name both trees:
#   target_include_directories(T PUBLIC $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}>
#                                       $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}/parsys/<folder>>)
# A directory named `include` (the par/... headers) goes to include/ whole; any other directory
# contributes the headers directly inside it (a module folder: its sources sit beside them).
include(CMakePackageConfigHelpers)

# Every library target defined in `dir` and below.
function(parsys_library_targets dir out)
  get_property(found DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
  set(libraries "")
  foreach(t IN LISTS found)
    get_target_property(type ${t} TYPE)
    if(type MATCHES "^(STATIC|SHARED|INTERFACE)_LIBRARY$")
      list(APPEND libraries ${t})
    endif()
  endforeach()
  get_property(subdirs DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
  foreach(sub IN LISTS subdirs)
    parsys_library_targets(${sub} below)
    list(APPEND libraries ${below})
  endforeach()
  set(${out} ${libraries} PARENT_SCOPE)
endfunction()

# Installs the public headers of `target` (its BUILD_INTERFACE/INSTALL_INTERFACE include pairs).
function(parsys_install_headers target)
  get_target_property(dirs ${target} INTERFACE_INCLUDE_DIRECTORIES)
  if(NOT dirs)
    return()
  endif()
  get_property(done GLOBAL PROPERTY PARSYS_INSTALLED_HEADER_DIRS)
  set(build_dir "")
  foreach(entry IN LISTS dirs)
    if(entry MATCHES "^\\$<BUILD_INTERFACE:(.*)>$")
      set(build_dir "${CMAKE_MATCH_1}")
    elseif(entry MATCHES "^\\$<INSTALL_INTERFACE:(.*)>$")
      set(destination "${CMAKE_MATCH_1}")
      if(build_dir STREQUAL "")
        message(FATAL_ERROR "${target}: INSTALL_INTERFACE include directory '${destination}' without a "
                            "BUILD_INTERFACE directory before it")
      endif()
      if(NOT build_dir IN_LIST done)
        list(APPEND done "${build_dir}")
        get_filename_component(leaf "${build_dir}" NAME)
        if(leaf STREQUAL "include")
          install(DIRECTORY ${build_dir}/ DESTINATION ${destination} COMPONENT library
                  FILES_MATCHING PATTERN "*.hpp" PATTERN "*.h")
        else()
          # Subfolders too (par_core's prefetch/), each header at its relative path; a published
          # include/ folder is installed by its own target above.
          file(GLOB_RECURSE headers RELATIVE ${build_dir} CONFIGURE_DEPENDS ${build_dir}/*.hpp ${build_dir}/*.h)
          foreach(header IN LISTS headers)
            if(header MATCHES "^include/")
              continue()
            endif()
            get_filename_component(subdir "${header}" DIRECTORY)
            install(FILES ${build_dir}/${header} DESTINATION ${destination}/${subdir} COMPONENT library)
          endforeach()
        endif()
      endif()
      set(build_dir "")
    elseif(NOT build_dir STREQUAL "")
      message(FATAL_ERROR "${target}: include directory '${build_dir}' has no INSTALL_INTERFACE twin")
    elseif(NOT entry MATCHES "^\\$<")
      message(FATAL_ERROR "${target}: include directory '${entry}' is not wrapped in $<BUILD_INTERFACE:...> "
                          "with an $<INSTALL_INTERFACE:...> twin (cmake/ParsysPackage.cmake)")
    endif()
  endforeach()
  set_property(GLOBAL PROPERTY PARSYS_INSTALLED_HEADER_DIRS "${done}")
endfunction()

set(parsys_exported "")
foreach(folder ip modules sw platform)
  parsys_library_targets(${PROJECT_SOURCE_DIR}/${folder} found)
  list(APPEND parsys_exported ${found})
endforeach()
foreach(t IN LISTS parsys_exported)
  parsys_install_headers(${t})
endforeach()
# Defined at the top: SystemC with its settings, and the build flags (exported for their link
# options only: a sanitizer tree's libraries need the sanitizer runtimes wherever they are linked).
list(APPEND parsys_exported parsys_systemc parsys_options)

foreach(t IN LISTS parsys_exported)
  # parsys_platform -> parsys::platform; module names stay (parsys::l2, parsys::par_core, ...).
  string(REGEX REPLACE "^parsys_" "" export_name ${t})
  set_target_properties(${t} PROPERTIES EXPORT_NAME ${export_name})
  # The standard parsys and Debian's SystemC are built with (sc_api_version_2_3_4_cxx201703L).
  set_property(TARGET ${t} APPEND PROPERTY INTERFACE_COMPILE_FEATURES cxx_std_17)
endforeach()

# lib/parsys: the archives keep their short names (libl2.a, libmemory.a) without meeting other
# software's in a shared prefix.
install(TARGETS ${parsys_exported} EXPORT parsysTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}/parsys COMPONENT library
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}/parsys COMPONENT library)
install(EXPORT parsysTargets NAMESPACE parsys:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/parsys
        COMPONENT library)

# share/parsys: what the parsys binary and a user's platform run; share/doc/parsys: the pages.
set(parsys_share ${CMAKE_INSTALL_DATADIR}/parsys)
install(DIRECTORY platform/configs/ DESTINATION ${parsys_share}/configs COMPONENT data)
install(DIRECTORY sw/kernels/ DESTINATION ${parsys_share}/kernels COMPONENT data
        FILES_MATCHING PATTERN "*.par" PATTERN "README.md" PATTERN "reference" EXCLUDE)
install(FILES sw/fullsystem/rb_gs.par sw/fullsystem/README.md DESTINATION ${parsys_share}/fullsystem COMPONENT data)
install(DIRECTORY scripts/ DESTINATION ${parsys_share}/scripts COMPONENT data USE_SOURCE_PERMISSIONS
        PATTERN "__pycache__" EXCLUDE)
install(DIRECTORY examples/ DESTINATION ${parsys_share}/examples COMPONENT data)
install(DIRECTORY docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs COMPONENT data)
install(FILES README.md DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT data)
# The READMEs of the folders (sockets, options and counters of each module), at their paths.
file(GLOB_RECURSE parsys_readmes RELATIVE ${PROJECT_SOURCE_DIR} CONFIGURE_DEPENDS
     ${PROJECT_SOURCE_DIR}/ip/*README.md ${PROJECT_SOURCE_DIR}/modules/*README.md
     ${PROJECT_SOURCE_DIR}/sw/*README.md ${PROJECT_SOURCE_DIR}/platform/*README.md)
foreach(readme IN LISTS parsys_readmes)
  get_filename_component(folder ${readme} DIRECTORY)
  install(FILES ${readme} DESTINATION ${CMAKE_INSTALL_DOCDIR}/${folder} COMPONENT data)
endforeach()
