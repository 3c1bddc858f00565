# ctest GeneratedIsUpToDate: generated/ is exactly `risec generate specs/*.yaml`,
# and two generations (--jobs 1 in order, --jobs 2 in reverse order) are
# byte-identical. Run as
#   cmake -DRISEC=... -DSOURCE_DIR=... -DWORK_DIR=... -P GeneratedIsUpToDate.cmake
file(GLOB specs ${SOURCE_DIR}/specs/*.yaml)
list(SORT specs)
set(reversed ${specs})
list(REVERSE reversed)
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "failed (${status}): ${ARGN}\n${out}")
  endif()
endfunction()

run(${RISEC} generate ${specs} -o ${WORK_DIR}/forward --jobs 1)
run(${RISEC} generate ${reversed} -o ${WORK_DIR}/reversed --jobs 2)

execute_process(COMMAND diff -r ${WORK_DIR}/forward ${WORK_DIR}/reversed RESULT_VARIABLE status
                OUTPUT_VARIABLE out)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "two generations differ (--jobs 1 vs --jobs 2, reversed spec order):\n"
                      "${out}")
endif()

execute_process(COMMAND diff -ru ${SOURCE_DIR}/generated ${WORK_DIR}/forward
                RESULT_VARIABLE status OUTPUT_VARIABLE out)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "generated/ is not the output of risec over specs/; regenerate it with\n"
                      "  build/generator/risec generate specs/*.yaml -o generated\n"
                      "and commit the result. The difference:\n${out}")
endif()
message(STATUS "generated/ is up to date and generation is deterministic")
