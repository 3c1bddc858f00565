# ctest RegenerationIsPerKernel: the regeneration rules of the top-level build
# (risec_add_regeneration, cmake/RisecAddKernelLibrary.cmake) rerun risec only
# for the kernel whose strategy changed, and rewrite only that kernel's files.
# A copy of two specs is used, in a small CMake project under WORK_DIR. Run as
#   cmake -DRISEC=... -DSOURCE_DIR=... -DWORK_DIR=... -P RegenerationIsPerKernel.cmake
file(REMOVE_RECURSE ${WORK_DIR})
set(specs ${WORK_DIR}/specs)
file(MAKE_DIRECTORY ${specs})
foreach(f mv.rise mv.ocl.elevate mm.rise mm.blocking.elevate)
  file(COPY ${SOURCE_DIR}/specs/${f} DESTINATION ${specs})
endforeach()
file(WRITE ${specs}/mv.yaml "kernel: mv\nsource: mv.rise\nvariants:\n  - target: c\n"
                            "  - target: opencl\n    strategy: mv.ocl.elevate\n"
                            "    launch: {global: [n], local: [32]}\n")
file(WRITE ${specs}/mm.yaml "kernel: mm\nsource: mm.rise\nvariants:\n  - target: c\n"
                            "    strategy: mm.blocking.elevate\n")
file(WRITE ${WORK_DIR}/project/CMakeLists.txt "
cmake_minimum_required(VERSION 3.25)
project(regen LANGUAGES NONE)
add_executable(risec IMPORTED)
set_target_properties(risec PROPERTIES IMPORTED_LOCATION ${RISEC})
include(${SOURCE_DIR}/cmake/RisecAddKernelLibrary.cmake)
file(GLOB specs ${specs}/*.yaml)
risec_add_regeneration(regenerate SPECS \${specs} OUTPUT_DIR ${WORK_DIR}/generated NAME kernels)
set_property(TARGET regenerate PROPERTY EXCLUDE_FROM_ALL FALSE)
")

function(run out_var)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "failed (${status}): ${ARGN}\n${out}")
  endif()
  set(${out_var} "${out}" PARENT_SCOPE)
endfunction()

function(stamps out_var)
  file(GLOB files ${WORK_DIR}/generated/*)
  set(result "")
  foreach(f IN LISTS files)
    file(TIMESTAMP ${f} t "%s")
    file(READ ${f} text)
    string(MD5 h "${text}")
    get_filename_component(n ${f} NAME)
    list(APPEND result "${n}=${t}:${h}")
  endforeach()
  set(${out_var} "${result}" PARENT_SCOPE)
endfunction()

run(out ${CMAKE_COMMAND} -S ${WORK_DIR}/project -B ${WORK_DIR}/build)
run(out ${CMAKE_COMMAND} --build ${WORK_DIR}/build --target regenerate)
stamps(before)
run(out ${CMAKE_COMMAND} --build ${WORK_DIR}/build --target regenerate)
if(out MATCHES "regenerating the kernel")
  message(FATAL_ERROR "a build without changes reran risec:\n${out}")
endif()

# Change mv's OpenCL strategy so that its code changes; wait so that time
# stamps can tell files apart.
execute_process(COMMAND ${CMAKE_COMMAND} -E sleep 1.1)
file(READ ${specs}/mv.ocl.elevate strategy)
string(REPLACE "param local = 32" "param local = 16" strategy "${strategy}")
file(WRITE ${specs}/mv.ocl.elevate "${strategy}")
run(out ${CMAKE_COMMAND} --build ${WORK_DIR}/build --target regenerate)
if(NOT out MATCHES "regenerating the kernel of mv.yaml" OR out MATCHES "kernel of mm.yaml")
  message(FATAL_ERROR "changing mv.ocl.elevate should rerun risec for mv only:\n${out}")
endif()
stamps(after)
set(changed "")
foreach(entry IN LISTS after)
  list(FIND before "${entry}" found)
  if(found EQUAL -1)
    string(REGEX REPLACE "=.*" "" n "${entry}")
    list(APPEND changed ${n})
  endif()
endforeach()
list(SORT changed)
set(expected mv_opencl.cl mv_opencl_host.c)
if(NOT changed STREQUAL expected)
  message(FATAL_ERROR "files rewritten: '${changed}'; expected only '${expected}'")
endif()

# And the result is what a full generation gives.
file(GLOB all ${specs}/*.yaml)
run(out ${RISEC} generate ${all} -o ${WORK_DIR}/fresh)
execute_process(COMMAND diff -r ${WORK_DIR}/fresh ${WORK_DIR}/generated RESULT_VARIABLE status
                OUTPUT_VARIABLE out)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "the regenerated files differ from a fresh generation:\n${out}")
endif()
message(STATUS "only mv_opencl.{cl,h} and mv_opencl_host.c and kernels.json were rewritten")
