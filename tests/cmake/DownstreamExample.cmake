# ctest DownstreamExample: installs risec into a temporary prefix, then
# configures, builds and runs examples/downstream against it
# (find_package(Risec), Risec::kernels, risec_add_kernel_library). Run as
#   cmake -DBUILD_DIR=... -DSOURCE_DIR=... -DWORK_DIR=... [-DSANITIZE=ON] -P DownstreamExample.cmake
# It also checks, from the compile commands, the flags that the kernels of
# both libraries are compiled with, and the default ISAS (`native`) of
# risec_add_kernel_library: rowsum_c has the baseline function and the
# building machine's level, and runs correctly forced to the baseline
# (issue 14).
cmake_minimum_required(VERSION 3.25)
file(REMOVE_RECURSE ${WORK_DIR})

include(${CMAKE_CURRENT_LIST_DIR}/RunOrFail.cmake)

run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${WORK_DIR}/prefix)
# A copy, so that the test can change a strategy.
file(COPY ${SOURCE_DIR}/examples/downstream DESTINATION ${WORK_DIR})
set(src ${WORK_DIR}/downstream)
set(flags "")
# CMake's default build type (empty: no -O flag of its own), and a consumer
# that asks for -O0: the kernels must still be compiled with -O3 (below).
set(cflags "-O0")
if(SANITIZE)
  # libkernels of a sanitizer build is instrumented: link the example likewise.
  string(APPEND cflags " -fsanitize=address,undefined -fno-sanitize-recover=all"
         " -fno-omit-frame-pointer")
  set(flags "-DCMAKE_EXE_LINKER_FLAGS=-fsanitize=address,undefined")
endif()
run(${CMAKE_COMMAND} -S ${src} -B ${WORK_DIR}/build
    -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix -DCMAKE_BUILD_TYPE= "-DCMAKE_C_FLAGS=${cflags}"
    -DCMAKE_EXPORT_COMPILE_COMMANDS=ON ${flags})
run(${CMAKE_COMMAND} --build ${WORK_DIR}/build -j2)
run(${WORK_DIR}/build/downstream)
# TESTS: one test per variant, `risec verify` at the spec's check sizes.
get_filename_component(cmake_bin ${CMAKE_COMMAND} DIRECTORY)
run(${cmake_bin}/ctest --test-dir ${WORK_DIR}/build -L risec --output-on-failure)
foreach(t mykernels.rowsum_c mykernels.rowsum_openmp)
  if(NOT output MATCHES "${t} [.]+ *Passed")
    message(FATAL_ERROR "the TESTS of risec_add_kernel_library did not run ${t}:\n${output}")
  endif()
endforeach()

# The flags that travel with the kernels (docs/usage.md, "Compiler flags"):
# in COMPILE_COMMANDS, the command of every C file whose path matches REGEX
# (at least MIN of them) has EXPECTED as its last -O flag, after the flag BEFORE
# if given, and has -Werror if and only if WERROR.
function(check_flags compile_commands regex min expected before werror)
  file(READ ${compile_commands} json)
  string(JSON n LENGTH "${json}")
  math(EXPR last "${n} - 1")
  set(checked 0)
  foreach(i RANGE ${last})
    string(JSON file GET "${json}" ${i} file)
    if(NOT file MATCHES "${regex}")
      continue()
    endif()
    string(JSON command GET "${json}" ${i} command)
    separate_arguments(args UNIX_COMMAND "${command}")
    set(levels "")
    set(has_werror FALSE)
    foreach(arg IN LISTS args)
      if(arg MATCHES "^-O")
        list(APPEND levels ${arg})
      elseif(arg STREQUAL "-Werror")
        set(has_werror TRUE)
      endif()
    endforeach()
    list(POP_BACK levels level)
    if(NOT level STREQUAL expected)
      message(FATAL_ERROR "${file} is compiled with `${level}` last, not ${expected}:\n${command}")
    endif()
    if(before AND NOT before IN_LIST levels)
      message(FATAL_ERROR "${file}: no ${before} before the ${expected}:\n${command}")
    endif()
    if(NOT has_werror STREQUAL werror)
      message(FATAL_ERROR "${file}: -Werror expected: ${werror}:\n${command}")
    endif()
    math(EXPR checked "${checked} + 1")
  endforeach()
  if(checked LESS min)
    message(FATAL_ERROR "${compile_commands}: ${checked} files match ${regex}, expected ${min}")
  endif()
endfunction()
set(commands ${WORK_DIR}/build/compile_commands.json)
# The downstream library: rowsum_c.c and rowsum_openmp.c at -O3 after the
# consumer's -O0, without -Werror; the consumer's own main.c keeps its -Werror.
check_flags(${commands} "/mykernels/[^/]*\\.c$" 2 -O3 -O0 FALSE)
check_flags(${commands} "/main\\.c$" 1 -O0 "" TRUE)
# risec's own libkernels (installed as Risec::kernels): -O3 after the build
# type's flags, and -Werror, risec's quality gate for the generated code.
check_flags(${BUILD_DIR}/compile_commands.json "/generated/[^/]*\\.c$" 10 -O3 "" TRUE)

# The default ISAS of risec_add_kernel_library is `native` on x86-64 (GCC or
# Clang): rowsum_c (its spec names no `isas:`) is a dispatcher over
# rowsum_c_x86_64 and, when this machine is above the baseline, its level's
# function, and no level above it. The machine's level comes from the CPU
# flags of /proc/cpuinfo, independently of risec's detection.
cmake_host_system_information(RESULT host_processor QUERY OS_PLATFORM) # -P: no CMAKE_HOST_...
if(host_processor MATCHES "^(x86_64|AMD64|amd64)$" AND EXISTS /proc/cpuinfo)
  file(STRINGS /proc/cpuinfo cpu_flags REGEX "^flags" LIMIT_COUNT 1)
  string(REGEX REPLACE "^flags[ \t]*:" "" cpu_flags "${cpu_flags}")
  separate_arguments(cpu_flags UNIX_COMMAND "${cpu_flags}")
  set(level 1)
  # The features the dispatchers test (RISEC_ISA_LEVEL_FEATURES), as Linux
  # names them.
  foreach(l v2 v3 v4)
    if(l STREQUAL "v2")
      set(features pni ssse3 sse4_1 sse4_2 popcnt)
    elseif(l STREQUAL "v3")
      set(features avx avx2 bmi1 bmi2 fma)
    else()
      set(features avx512f avx512bw avx512cd avx512dq avx512vl)
    endif()
    set(has TRUE)
    foreach(f IN LISTS features)
      if(NOT f IN_LIST cpu_flags)
        set(has FALSE)
      endif()
    endforeach()
    if(NOT has)
      break()
    endif()
    string(SUBSTRING ${l} 1 1 level)
  endforeach()
  file(GLOB archive ${WORK_DIR}/build/*mykernels.a)
  find_program(NM nm)
  if(NM AND archive)
    run(${NM} -g --defined-only ${archive})
    # The baseline and the machine's level only.
    set(want rowsum_c rowsum_c_selected_isa rowsum_c_x86_64)
    set(unwanted "")
    foreach(l 2 3 4)
      if(l EQUAL level)
        list(APPEND want rowsum_c_x86_64_v${l})
      else()
        list(APPEND unwanted rowsum_c_x86_64_v${l})
      endif()
    endforeach()
    foreach(sym IN LISTS want)
      if(NOT output MATCHES " T ${sym}\n")
        message(FATAL_ERROR "${archive} does not define ${sym} (level ${level}):\n${output}")
      endif()
    endforeach()
    foreach(sym IN LISTS unwanted)
      if(output MATCHES " T ${sym}\n")
        message(FATAL_ERROR "${archive} defines ${sym}; this machine's level is ${level}")
      endif()
    endforeach()
    if(level GREATER 1)
      check_flags(${commands} "/mykernels/rowsum_c_x86_64_v${level}\\.c$" 1 -O3 -O0 FALSE)
      file(READ ${commands} json)
      if(NOT json MATCHES "-march=x86-64-v${level} [^\n]*rowsum_c_x86_64_v${level}\\.c")
        message(FATAL_ERROR "rowsum_c_x86_64_v${level}.c is not compiled with -march=x86-64-v${level}")
      endif()
    endif()
  else()
    message(STATUS "no nm or no libmykernels.a: the ISA functions are not checked")
  endif()
  # Forced to the baseline, the results are still right (main.c checks them).
  run(${CMAKE_COMMAND} -E env RISEC_ISA=x86-64 ${WORK_DIR}/build/downstream)
else()
  message(STATUS "not x86-64 (${host_processor}): the default ISAS is not checked")
endif()

# Changing a strategy of the downstream spec regenerates its library at build
# time (the depfile written by risec names the strategy files).
file(READ ${src}/rowsum.omp.elevate strategy)
string(REPLACE "parallel @ outermost(isMap) ;" "" strategy "${strategy}")
execute_process(COMMAND ${CMAKE_COMMAND} -E sleep 1.1)
file(WRITE ${src}/rowsum.omp.elevate "${strategy}")
run(${CMAKE_COMMAND} --build ${WORK_DIR}/build -j2)
if(NOT output MATCHES "generating the kernel library mykernels")
  message(FATAL_ERROR "changing rowsum.omp.elevate did not regenerate mykernels:\n${output}")
endif()
file(READ ${WORK_DIR}/build/mykernels/rowsum_openmp.c code)
if(code MATCHES "pragma omp")
  message(FATAL_ERROR "rowsum_openmp.c still has the parallel loop of the old strategy")
endif()
run(${WORK_DIR}/build/downstream)

# A consumer of C kernels only: find_package(Risec) with no component loads
# neither OpenCL nor OpenMP, and risec_add_kernel_library(TARGETS c) needs
# neither (issue 21, packaging). Its own spec and main, written here.
set(conly ${WORK_DIR}/conly)
file(COPY ${SOURCE_DIR}/examples/downstream/rowsum.rise DESTINATION ${conly})
file(WRITE ${conly}/rowsum.yaml
     "kernel: rowsum\nsource: rowsum.rise\nvariants:\n  - target: c\ncheck:\n  - {n: 7, m: 13}\n")
file(WRITE ${conly}/main.c [=[
#include "ckernels.h"
#include <stdio.h>
int main(void) {
  float M[3 * 2] = {1, 2, 3, 4, 5, 6}, sums[3];
  if (rowsum_c(sums, 3, 2, M) != 0 || sums[0] != 3 || sums[1] != 7 || sums[2] != 11) {
    fprintf(stderr, "rowsum_c: wrong result\n");
    return 1;
  }
  return 0;
}
]=])
file(WRITE ${conly}/CMakeLists.txt [=[
cmake_minimum_required(VERSION 3.25)
project(risec_conly LANGUAGES C)
find_package(Risec 0.1 REQUIRED)
foreach(t OpenCL::OpenCL OpenMP::OpenMP_C Risec::risec_host_cl Risec::kernels)
  if(TARGET ${t})
    message(FATAL_ERROR "find_package(Risec) without components defined ${t}")
  endif()
endforeach()
risec_add_kernel_library(ckernels SPECS rowsum.yaml TARGETS c ISAS none)
foreach(t OpenCL::OpenCL OpenMP::OpenMP_C Risec::risec_host_cl)
  if(TARGET ${t})
    message(FATAL_ERROR "a C-only kernel library loaded ${t}")
  endif()
endforeach()
add_executable(conly main.c)
target_link_libraries(conly PRIVATE ckernels)
]=])
run(${CMAKE_COMMAND} -S ${conly} -B ${WORK_DIR}/conly-build
    -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix "-DCMAKE_C_FLAGS=${cflags}" ${flags})
run(${CMAKE_COMMAND} --build ${WORK_DIR}/conly-build)
run(${WORK_DIR}/conly-build/conly)
# An unknown component is an error that names the components.
file(WRITE ${conly}/CMakeLists.txt [=[
cmake_minimum_required(VERSION 3.25)
project(risec_badcomponent LANGUAGES C)
find_package(Risec 0.1 REQUIRED COMPONENTS cuda)
]=])
execute_process(COMMAND ${CMAKE_COMMAND} -S ${conly} -B ${WORK_DIR}/bad-build
                        -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(status EQUAL 0 OR NOT out MATCHES "has no component `cuda`; the components are kernels, opencl and[ \n]+openmp")
  message(FATAL_ERROR "find_package(Risec COMPONENTS cuda) did not fail as expected:\n${out}")
endif()

# The installed risec has no debug information (RISEC_INSTALL_STRIP).
find_program(READELF readelf)
if(READELF)
  run(${READELF} -S ${WORK_DIR}/prefix/bin/risec)
  if(output MATCHES "\\.debug_info")
    message(FATAL_ERROR "the installed risec still has its debug information")
  endif()
endif()
