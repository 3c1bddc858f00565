# libkernels: the checked-in generated/ (risec generate specs/*.yaml -o
# generated) built into the static library `kernels` (libkernels.a), with
# generated/ as its include directory (umbrella header kernels.h).
#
# With RISEC_REGENERATE (ON by default), building `kernels` first reruns risec
# over specs/ into generated/, per kernel: changing one strategy reruns risec
# for that kernel only, and only files whose contents changed are rewritten.
# Files of kernels that no longer exist are not deleted; the test
# GeneratedIsUpToDate reports them.

include(${PROJECT_SOURCE_DIR}/cmake/RisecAddKernelLibrary.cmake)

option(RISEC_REGENERATE "Regenerate generated/ from specs/ when an input or risec changes" ON)

set(RISEC_GENERATED_DIR ${PROJECT_SOURCE_DIR}/generated)
file(GLOB RISEC_SPECS CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/specs/*.yaml)
list(SORT RISEC_SPECS)

# Each kernel source gets the flags generated/kernels.json records for it
# (-O3 unless its spec sets `cflags`), after the build type's. The warnings
# are risec's quality gate for the generated code: -Wall -Wextra -Werror come
# from the top-level add_compile_options, so only risec's own build applies
# them, never a project that consumes the library.
risec_library_from_manifest(kernels ${RISEC_GENERATED_DIR} kernels OUT_FILES RISEC_GENERATED_FILES)
target_include_directories(kernels PUBLIC $<BUILD_INTERFACE:${RISEC_GENERATED_DIR}>
                                          $<INSTALL_INTERFACE:include/risec/kernels>)
target_link_libraries(kernels PUBLIC risec_host_cl)

if(RISEC_REGENERATE)
  risec_add_regeneration(regenerate_kernels SPECS ${RISEC_SPECS} OUTPUT_DIR ${RISEC_GENERATED_DIR}
                         NAME kernels)
  add_dependencies(kernels regenerate_kernels)
endif()

# ---- install and the exported package (find_package(Risec)) ------------------
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# Three export sets, loaded by the package's components (RisecConfig.cmake.in):
# the compiler alone needs nothing; the host runtime needs OpenCL; the
# catalogue's libkernels links the host runtime and OpenMP.
install(TARGETS risec EXPORT RisecTargets RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS risec_host_cl EXPORT RisecOpenCLTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(TARGETS kernels EXPORT RisecKernelsTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
# The installed risec is the optimised build without its debug information
# (RelWithDebInfo's -g makes it ~90 MB); the build tree keeps it for debugging.
option(RISEC_INSTALL_STRIP "Strip the risec executable when installing it" ON)
if(RISEC_INSTALL_STRIP AND CMAKE_STRIP)
  install(CODE "execute_process(COMMAND \"${CMAKE_STRIP}\" --strip-debug
                \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_BINDIR}/risec\"
                COMMAND_ERROR_IS_FATAL ANY)")
endif()
set(_headers ${RISEC_GENERATED_FILES})
list(FILTER _headers INCLUDE REGEX "\\.h$")
set(_cl ${RISEC_GENERATED_FILES})
list(FILTER _cl INCLUDE REGEX "\\.cl$")
install(FILES ${_headers} ${RISEC_GENERATED_DIR}/kernels.json
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/risec/kernels)
install(FILES ${_cl} DESTINATION ${CMAKE_INSTALL_DATADIR}/risec/kernels)
install(FILES ${PROJECT_SOURCE_DIR}/host/risec_cl.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/risec)
foreach(export RisecTargets RisecOpenCLTargets RisecKernelsTargets)
  install(EXPORT ${export} NAMESPACE Risec:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/Risec)
endforeach()

configure_package_config_file(
  ${PROJECT_SOURCE_DIR}/cmake/RisecConfig.cmake.in ${PROJECT_BINARY_DIR}/RisecConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/Risec PATH_VARS CMAKE_INSTALL_BINDIR)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/RisecConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/RisecConfig.cmake ${PROJECT_BINARY_DIR}/RisecConfigVersion.cmake
              ${PROJECT_SOURCE_DIR}/cmake/RisecAddKernelLibrary.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/Risec)
