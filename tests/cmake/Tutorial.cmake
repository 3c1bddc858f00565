# ctest Tutorial: installs risec into a temporary prefix, then configures,
# builds and runs examples/tutorial (docs/tutorial.md) against it: its
# program, its benchmark at a small size, and the tests that
# risec_add_kernel_library(... TESTS) generates from the spec's `check:`
# sizes, with ctest. It also checks that every file the tutorial shows is
# what the text shows, and that the outputs of risec it shows are those of
# the installed risec. Run as
#   cmake -DBUILD_DIR=... -DSOURCE_DIR=... -DWORK_DIR=... [-DSANITIZE=ON] -P Tutorial.cmake
cmake_minimum_required(VERSION 3.25)
file(REMOVE_RECURSE ${WORK_DIR})

include(${CMAKE_CURRENT_LIST_DIR}/RunOrFail.cmake)

# No drift between the text and the files: every fenced block that follows a
# line `<!-- examples/tutorial/FILE -->` in docs/tutorial.md is part of FILE
# (the whole file or an excerpt). String operations only: the files hold
# semicolons and brackets, which CMake lists would split.
set(tutorial ${SOURCE_DIR}/examples/tutorial)
file(READ ${SOURCE_DIR}/docs/tutorial.md text)
set(marker "<!-- examples/tutorial/")
string(LENGTH "${marker}" marker_length)
set(shown "")
while(TRUE)
  string(FIND "${text}" "${marker}" at)
  if(at EQUAL -1)
    break()
  endif()
  math(EXPR at "${at} + ${marker_length}")
  string(SUBSTRING "${text}" ${at} -1 text)
  string(FIND "${text}" " -->\n```" end)
  if(end EQUAL -1)
    message(FATAL_ERROR "docs/tutorial.md: a marker `${marker}...` not followed by a code block")
  endif()
  string(SUBSTRING "${text}" 0 ${end} file)
  math(EXPR end "${end} + 8")
  string(SUBSTRING "${text}" ${end} -1 text)
  # The rest of the fence's line (its language), then the block.
  string(FIND "${text}" "\n" eol)
  math(EXPR eol "${eol} + 1")
  string(SUBSTRING "${text}" ${eol} -1 text)
  string(FIND "${text}" "\n```\n" close)
  if(close EQUAL -1)
    message(FATAL_ERROR "docs/tutorial.md: the code block of ${file} is not closed")
  endif()
  math(EXPR close "${close} + 1")
  string(SUBSTRING "${text}" 0 ${close} block)
  string(SUBSTRING "${text}" ${close} -1 text)
  if(NOT EXISTS ${tutorial}/${file})
    message(FATAL_ERROR "docs/tutorial.md shows examples/tutorial/${file}, which does not exist")
  endif()
  file(READ ${tutorial}/${file} contents)
  string(FIND "${contents}" "${block}" found)
  if(found EQUAL -1)
    message(FATAL_ERROR "docs/tutorial.md shows a block of examples/tutorial/${file} that differs "
                        "from the file:\n${block}")
  endif()
  list(APPEND shown ${file})
endwhile()
foreach(f CMakeLists.txt main.c bench.c rowsum_relu.rise rowsum_relu.yaml
          rowsum_relu.vec.elevate rowsum_relu.omp.elevate rowsum_relu.ocl.elevate)
  if(NOT f IN_LIST shown)
    message(FATAL_ERROR "docs/tutorial.md does not show examples/tutorial/${f}")
  endif()
endforeach()

run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${WORK_DIR}/prefix)
file(COPY ${tutorial} DESTINATION ${WORK_DIR})
set(src ${WORK_DIR}/tutorial)

# The outputs of risec that the tutorial shows, from the installed risec.
set(risec ${WORK_DIR}/prefix/bin/risec)
file(WRITE ${WORK_DIR}/args.json "[0.5, [[1, 2, 3, 4], [-1, -2, -3, -4], [10, 0, 0, -2]]]\n")
set(commands "check rowsum_relu.rise"
             "eval rowsum_relu.rise --sizes n=3,m=4 --inputs ${WORK_DIR}/args.json"
             "rewrite rowsum_relu.rise --strategy rowsum_relu.vec.elevate"
             "rewrite rowsum_relu.rise --strategy rowsum_relu.ocl.elevate")
file(READ ${SOURCE_DIR}/docs/tutorial.md text)
foreach(command IN LISTS commands)
  separate_arguments(args UNIX_COMMAND "${command}")
  execute_process(COMMAND ${risec} ${args} WORKING_DIRECTORY ${src} RESULT_VARIABLE status
                  OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "risec ${command} failed (${status}):\n${err}")
  endif()
  string(FIND "${text}" "${out}```" found)
  if(found EQUAL -1)
    message(FATAL_ERROR "docs/tutorial.md does not show the output of `risec ${command}`:\n${out}")
  endif()
endforeach()
set(flags "")
if(SANITIZE)
  # The installed OpenCL host runtime of a sanitizer build is instrumented:
  # build the tutorial likewise.
  set(flags "-DCMAKE_C_FLAGS=-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
            "-DCMAKE_EXE_LINKER_FLAGS=-fsanitize=address,undefined")
endif()
# As the tutorial says: configure, build, test.
run(${CMAKE_COMMAND} -S ${src} -B ${WORK_DIR}/build -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix ${flags})
run(${CMAKE_COMMAND} --build ${WORK_DIR}/build -j2)
# The OpenCL binary cache in the work directory, not in $HOME.
set(ENV{RISEC_CL_CACHE_DIR} ${WORK_DIR}/cl-cache)
run(${WORK_DIR}/build/tutorial)
if(NOT output MATCHES "tutorial: all results correct")
  message(FATAL_ERROR "the tutorial's program did not check its results:\n${output}")
endif()
get_filename_component(cmake_bin ${CMAKE_COMMAND} DIRECTORY)
run(${cmake_bin}/ctest --test-dir ${WORK_DIR}/build --output-on-failure)
foreach(t tutorial_kernels.rowsum_relu_c tutorial_kernels.rowsum_relu_vec_c
          tutorial_kernels.rowsum_relu_openmp tutorial bench)
  if(NOT output MATCHES " ${t} [.]+ *Passed")
    message(FATAL_ERROR "ctest did not run the tutorial's test ${t}:\n${output}")
  endif()
endforeach()
