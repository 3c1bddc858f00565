# run(COMMAND...): runs a command of a CTest script (DownstreamExample.cmake,
# Tutorial.cmake); a non-zero exit status fails the script with the
# command's output. Its output is printed and left in `output`.
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "failed (${status}): ${ARGN}\n${out}")
  endif()
  message(STATUS "${out}")
  set(output "${out}" PARENT_SCOPE)
endfunction()
