# ctest DownstreamExample: installs risec into a temporary prefix, then
# configures, builds and runs examples/downstream against it
# (find_package(Risec), Risec::kernels, risec_add_kernel_library). Run as
#   cmake -DBUILD_DIR=... -DSOURCE_DIR=... -DWORK_DIR=... [-DSANITIZE=ON] -P DownstreamExample.cmake
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
if(SANITIZE)
  # libkernels of a sanitizer build is instrumented: link the example likewise.
  set(san "-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer")
  set(flags "-DCMAKE_C_FLAGS=${san}" "-DCMAKE_EXE_LINKER_FLAGS=-fsanitize=address,undefined")
endif()
run(${CMAKE_COMMAND} -S ${src} -B ${WORK_DIR}/build
    -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix -DCMAKE_BUILD_TYPE=RelWithDebInfo ${flags})
run(${CMAKE_COMMAND} --build ${WORK_DIR}/build -j2)
run(${WORK_DIR}/build/downstream)

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
