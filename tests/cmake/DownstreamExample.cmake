# ctest DownstreamExample: installs risec into a temporary prefix, then
# configures, builds and runs examples/downstream against it
# (find_package(Risec), Risec::kernels, risec_add_kernel_library). Run as
#   cmake -DBUILD_DIR=... -DSOURCE_DIR=... -DWORK_DIR=... [-DSANITIZE=ON] -P DownstreamExample.cmake
# It also checks, from the compile commands, the flags that the kernels of
# both libraries are compiled with (issue 14).
cmake_minimum_required(VERSION 3.25)
file(REMOVE_RECURSE ${WORK_DIR})

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "failed (${status}): ${ARGN}\n${out}")
  endif()
  message(STATUS "${out}")
  set(output "${out}" PARENT_SCOPE)
endfunction()

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
