# risec_add_kernel_library(NAME SPECS spec.yaml... [TARGETS c openmp opencl]
#                          [ISAS level...|native|none] [TESTS]
#                          [OUTPUT_DIR dir] [HEADER var] [MANIFEST var])
#
# Runs `risec generate` over SPECS at build time and makes a static library
# target NAME from the result: the C and OpenMP variants compiled as C11
# (OpenMP ones with OpenMP enabled), the OpenCL host wrappers (*_host.c) linked
# with the host runtime, and OUTPUT_DIR (default: <binary dir>/NAME) as its
# include directory, holding the umbrella header NAME.h and the manifest
# NAME.json. The generation reruns when a spec, a program or strategy it names
# (a depfile written by risec), or risec itself changes. TARGETS keeps only the
# variants of those targets. ISAS (`risec generate --isas`) gives the c and
# openmp variants whose spec names no `isas:` one function per x86-64 level
# (x86-64-v2 ... x86-64-v4, or `native`: the level of the building machine),
# plus the x86-64 fallback, behind a run-time dispatcher; by default `native`
# when the library targets x86-64 with GCC or Clang and is not cross-compiled,
# else `none` (one function per variant). TESTS adds a CTest test per c and
# openmp variant that checks it against risec's interpreter at the spec's
# `check:` sizes with this project's C compiler (`risec verify`; call
# enable_testing() first). HEADER and MANIFEST name variables
# that receive the paths of NAME.h and NAME.json. See docs/usage.md.
#
# Also defined here (used by risec's own build): risec_library_from_manifest()
# and risec_add_regeneration().

include_guard(GLOBAL)

# The risec executable: the imported Risec::risec of an installed package, or
# the `risec` target of risec's own build tree.
function(_risec_executable out_exe out_target)
  if(TARGET Risec::risec)
    set(${out_exe} "$<TARGET_FILE:Risec::risec>" PARENT_SCOPE)
    set(${out_target} Risec::risec PARENT_SCOPE)
  elseif(TARGET risec)
    set(${out_exe} "$<TARGET_FILE:risec>" PARENT_SCOPE)
    set(${out_target} risec PARENT_SCOPE)
  else()
    message(FATAL_ERROR "risec_add_kernel_library: no risec; call find_package(Risec) first")
  endif()
endfunction()

# The folder of this file: in an installed package, the one of its exports
# (a global property: the include guard skips this file in later directories).
set_property(GLOBAL PROPERTY RISEC_CMAKE_DIR ${CMAKE_CURRENT_LIST_DIR})

# Loads the installed OpenCL host runtime (Risec::risec_host_cl, the opencl
# component of the package) with OpenCL and Threads, once; sets `found` to
# TRUE, or to FALSE when OpenCL is missing. A macro: find_package's result
# variables must reach the caller.
macro(_risec_load_opencl_runtime found)
  if(TARGET Risec::risec_host_cl)
    set(${found} TRUE)
  else()
    get_property(_risec_dir GLOBAL PROPERTY RISEC_CMAKE_DIR)
    find_package(OpenCL QUIET)
    find_package(Threads QUIET)
    if(OpenCL_FOUND AND Threads_FOUND AND EXISTS "${_risec_dir}/RisecOpenCLTargets.cmake")
      include("${_risec_dir}/RisecOpenCLTargets.cmake")
      set(${found} TRUE)
    else()
      set(${found} FALSE)
    endif()
  endif()
endmacro()

# The OpenCL host runtime the host wrappers link: risec_host_cl of risec's
# own build tree, or the installed one, loaded on first use.
function(_risec_host_runtime out)
  if(TARGET risec_host_cl)
    set(${out} risec_host_cl PARENT_SCOPE)
    return()
  endif()
  _risec_load_opencl_runtime(found)
  if(NOT found)
    message(FATAL_ERROR "risec_add_kernel_library: the library has OpenCL variants, whose host "
                        "wrappers need OpenCL (find_package(OpenCL) failed); install an OpenCL "
                        "ICD loader and headers (Debian: ocl-icd-opencl-dev), or leave opencl out "
                        "of TARGETS")
  endif()
  set(${out} Risec::risec_host_cl PARENT_SCOPE)
endfunction()

# risec_library_from_manifest(TARGET DIR NAME [OUT_FILES var]): the static
# library TARGET from the files that DIR/NAME.json lists. Sources are read
# at configure time; NAME.json is a configure dependency, so that kernels
# added or removed by a regeneration are picked up by the next build.
#
# Each C source is compiled with the flags the manifest records for it
# (`compile_flags`: the spec's `cflags`, -O3 by default, and -march=LEVEL
# for the file of an ISA level of a variant with `isas:`) as its own
# COMPILE_OPTIONS, which come after the consumer's CMAKE_C_FLAGS, build-type
# flags and target options: the kernels are optimised whatever the build type
# (-O3 wins over the -O0 of an empty build type or the -O2 of
# RelWithDebInfo). No warning options are added: the consumer's own flags
# apply (risec's own build compiles its libkernels with -Wall -Wextra -Werror
# through its top-level add_compile_options).
function(risec_library_from_manifest target dir name)
  cmake_parse_arguments(ARG "" "OUT_FILES" "" ${ARGN})
  set(manifest ${dir}/${name}.json)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${manifest})
  file(READ ${manifest} json)
  string(JSON kernels GET "${json}" kernels)
  string(JSON nkernels LENGTH "${kernels}")
  set(sources "")
  set(openmp_sources "")
  set(all_files ${dir}/${name}.h ${manifest})
  set(has_host FALSE)
  if(nkernels GREATER 0)
    math(EXPR last "${nkernels} - 1")
    foreach(k RANGE ${last})
      string(JSON kname MEMBER "${kernels}" ${k})
      string(JSON kheader GET "${kernels}" ${kname} header)
      list(APPEND all_files ${dir}/${kheader})
      string(JSON variants GET "${kernels}" ${kname} variants)
      string(JSON nvariants LENGTH "${variants}")
      math(EXPR vlast "${nvariants} - 1")
      foreach(v RANGE ${vlast})
        string(JSON vname MEMBER "${variants}" ${v})
        string(JSON vtarget GET "${variants}" ${vname} target)
        string(JSON files GET "${variants}" ${vname} files)
        string(JSON nfiles LENGTH "${files}")
        math(EXPR flast "${nfiles} - 1")
        foreach(f RANGE ${flast})
          string(JSON file GET "${files}" ${f})
          list(APPEND all_files ${dir}/${file})
          if(NOT file MATCHES "\\.c$")
            continue()
          endif()
          list(APPEND sources ${dir}/${file})
          if(file MATCHES "_host\\.c$")
            set(has_host TRUE)
          elseif(vtarget STREQUAL "openmp")
            list(APPEND openmp_sources ${dir}/${file})
          endif()
          # The file's flags; -O3 for a manifest written before risec
          # recorded them.
          string(JSON flags ERROR_VARIABLE no_flags GET "${variants}" ${vname} compile_flags
                 ${file})
          set(options "")
          if(no_flags)
            set(options -O3)
          else()
            string(JSON nflags LENGTH "${flags}")
            if(nflags GREATER 0)
              math(EXPR glast "${nflags} - 1")
              foreach(g RANGE ${glast})
                string(JSON flag GET "${flags}" ${g})
                list(APPEND options "${flag}")
              endforeach()
            endif()
          endif()
          # Not targeting x86-64: the files of a variant's ISA levels (`isas:`)
          # are compiled for the compiler's default target; their dispatcher
          # calls only the baseline there (docs/usage.md, "ISA variants").
          if(NOT CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$")
            list(FILTER options EXCLUDE REGEX "^-march=x86-64")
          endif()
          set(_risec_options_${file} ${options})
        endforeach()
      endforeach()
    endforeach()
  endif()
  if(sources STREQUAL "")
    # An OpenCL-only library without host wrappers still needs one object.
    set(stub ${CMAKE_CURRENT_BINARY_DIR}/${target}_empty.c)
    file(WRITE ${stub} "typedef int risec_empty_library;\n")
    list(APPEND sources ${stub})
  endif()
  add_library(${target} STATIC ${sources})
  set_target_properties(${target} PROPERTIES C_STANDARD 11 C_STANDARD_REQUIRED ON C_EXTENSIONS OFF)
  if(openmp_sources)
    find_package(OpenMP REQUIRED COMPONENTS C)
    # Link only: the C variants are compiled without OpenMP.
    target_link_libraries(${target} PUBLIC "$<LINK_ONLY:OpenMP::OpenMP_C>")
  endif()
  foreach(source IN LISTS sources)
    get_filename_component(file ${source} NAME)
    set(options ${_risec_options_${file}})
    if(source IN_LIST openmp_sources)
      separate_arguments(openmp_flags NATIVE_COMMAND "${OpenMP_C_FLAGS}")
      list(APPEND options ${openmp_flags})
    endif()
    if(options)
      set_source_files_properties(${source} TARGET_DIRECTORY ${target}
                                  PROPERTIES COMPILE_OPTIONS "${options}")
    endif()
  endforeach()
  if(has_host)
    _risec_host_runtime(host)
    target_link_libraries(${target} PUBLIC ${host})
  endif()
  if(ARG_OUT_FILES)
    set(${ARG_OUT_FILES} ${all_files} PARENT_SCOPE)
  endif()
endfunction()

# risec_add_regeneration(TARGET SPECS spec... OUTPUT_DIR dir NAME name
#                        [STAMP_DIR dir]): a custom target that rewrites the
# files of DIR which changed, one custom command per spec (so that changing
# one strategy reruns risec for that kernel only) plus one for the umbrella
# header and manifest. Files whose contents are unchanged keep their time
# stamps, so only the affected objects are recompiled.
function(risec_add_regeneration target)
  cmake_parse_arguments(ARG "" "OUTPUT_DIR;NAME;STAMP_DIR" "SPECS" ${ARGN})
  _risec_executable(exe exe_target)
  if(NOT ARG_STAMP_DIR)
    set(ARG_STAMP_DIR ${CMAKE_CURRENT_BINARY_DIR}/${target})
  endif()
  file(MAKE_DIRECTORY ${ARG_STAMP_DIR})
  set(stamps "")
  foreach(spec IN LISTS ARG_SPECS)
    get_filename_component(base ${spec} NAME_WE)
    set(stamp ${ARG_STAMP_DIR}/${base}.stamp)
    # --jobs 1: the build tool already runs one such command per core.
    add_custom_command(
      OUTPUT ${stamp}
      COMMAND ${exe} generate ${spec} -o ${ARG_OUTPUT_DIR} --name ${ARG_NAME} --part kernels --jobs 1
              --depfile ${stamp}.d --depfile-target ${stamp}
      COMMAND ${CMAKE_COMMAND} -E touch ${stamp}
      DEPENDS ${spec} ${exe_target}
      DEPFILE ${stamp}.d
      COMMENT "risec: regenerating the kernel of ${base}.yaml"
      VERBATIM)
    list(APPEND stamps ${stamp})
  endforeach()
  set(index ${ARG_STAMP_DIR}/${ARG_NAME}.index.stamp)
  add_custom_command(
    OUTPUT ${index}
    COMMAND ${exe} generate ${ARG_SPECS} -o ${ARG_OUTPUT_DIR} --name ${ARG_NAME} --part index
    COMMAND ${CMAKE_COMMAND} -E touch ${index}
    DEPENDS ${stamps} ${exe_target}
    COMMENT "risec: regenerating ${ARG_NAME}.h and ${ARG_NAME}.json"
    VERBATIM)
  add_custom_target(${target} DEPENDS ${stamps} ${index})
endfunction()

function(risec_add_kernel_library name)
  cmake_parse_arguments(ARG "TESTS" "OUTPUT_DIR;HEADER;MANIFEST" "SPECS;TARGETS;ISAS" ${ARGN})
  if(NOT ARG_SPECS)
    message(FATAL_ERROR "risec_add_kernel_library(${name}): SPECS is required")
  endif()
  if("ISAS" IN_LIST ARG_KEYWORDS_MISSING_VALUES)
    message(FATAL_ERROR "risec_add_kernel_library(${name}): ISAS needs x86-64 levels, native "
                        "or none")
  endif()
  if(NOT ARG_OUTPUT_DIR)
    set(ARG_OUTPUT_DIR ${CMAKE_CURRENT_BINARY_DIR}/${name})
  endif()
  set(specs "")
  foreach(spec IN LISTS ARG_SPECS)
    get_filename_component(spec ${spec} ABSOLUTE)
    list(APPEND specs ${spec})
  endforeach()
  set(extra "")
  if(ARG_TARGETS)
    string(REPLACE ";" "," targets "${ARG_TARGETS}")
    set(extra --targets ${targets})
  endif()
  # The ISA levels (docs/usage.md, "ISA variants"): by default the building
  # machine's, where the library is built for it by a compiler with
  # __builtin_cpu_supports; the specs' own `isas:` win either way.
  if(NOT DEFINED ARG_ISAS)
    if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$"
       AND CMAKE_C_COMPILER_ID MATCHES "^(GNU|Clang|AppleClang)$"
       AND NOT CMAKE_CROSSCOMPILING)
      set(ARG_ISAS native)
    else()
      set(ARG_ISAS none)
    endif()
  endif()
  if(NOT ARG_ISAS STREQUAL "none")
    if("none" IN_LIST ARG_ISAS)
      message(FATAL_ERROR "risec_add_kernel_library(${name}): ISAS none cannot be combined "
                          "with levels")
    endif()
    string(REPLACE ";" "," isas "${ARG_ISAS}")
    list(APPEND extra --isas ${isas})
    set(verify_isas --isas ${isas})
  endif()
  _risec_executable(exe exe_target)

  # The file names are known only after a generation: generate at configure
  # time (risec must exist then: an installed package; --update keeps the
  # time stamps of unchanged files), and again at build time whenever an
  # input changes. The specs are configure dependencies, so a new variant is
  # picked up by the next build.
  if(RISEC_EXECUTABLE)
    execute_process(
      COMMAND ${RISEC_EXECUTABLE} generate ${specs} -o ${ARG_OUTPUT_DIR} --name ${name} ${extra}
              --update
      RESULT_VARIABLE status)
    if(NOT status EQUAL 0)
      message(FATAL_ERROR "risec_add_kernel_library(${name}): risec generate failed")
    endif()
  elseif(NOT EXISTS ${ARG_OUTPUT_DIR}/${name}.json)
    message(FATAL_ERROR "risec_add_kernel_library(${name}): risec is not built yet; use an "
                        "installed risec (find_package(Risec)) or a prefilled OUTPUT_DIR")
  endif()
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${specs})
  risec_library_from_manifest(${name} ${ARG_OUTPUT_DIR} ${name} OUT_FILES files)
  set(stamp ${CMAKE_CURRENT_BINARY_DIR}/${name}.risec.stamp)
  add_custom_command(
    OUTPUT ${stamp}
    BYPRODUCTS ${files}
    COMMAND ${exe} generate ${specs} -o ${ARG_OUTPUT_DIR} --name ${name} ${extra} --update
            --depfile ${stamp}.d --depfile-target ${stamp}
    COMMAND ${CMAKE_COMMAND} -E touch ${stamp}
    DEPENDS ${specs} ${exe_target}
    DEPFILE ${stamp}.d
    COMMENT "risec: generating the kernel library ${name}"
    VERBATIM)
  add_custom_target(${name}_generate DEPENDS ${stamp})
  add_dependencies(${name} ${name}_generate)
  target_include_directories(${name} PUBLIC ${ARG_OUTPUT_DIR})
  if(ARG_HEADER)
    set(${ARG_HEADER} ${ARG_OUTPUT_DIR}/${name}.h PARENT_SCOPE)
  endif()
  if(ARG_MANIFEST)
    set(${ARG_MANIFEST} ${ARG_OUTPUT_DIR}/${name}.json PARENT_SCOPE)
  endif()
  if(ARG_TESTS)
    _risec_add_verify_tests(${name} ${ARG_OUTPUT_DIR}/${name}.json "${exe}" "${specs}"
                            "${verify_isas}")
  endif()
endfunction()

# TESTS of risec_add_kernel_library: one CTest test NAME.SYMBOL per c and
# openmp variant of the manifest, `risec verify SPEC --variant SYMBOL` with
# the library's ISAS and this project's C compiler: each function of the
# variant that the CPU runs is built with the manifest's flags, run at the
# spec's `check:` sizes on random inputs and compared with the reference
# interpreter (docs/usage.md, "Testing the library"). Labelled `risec`.
function(_risec_add_verify_tests name manifest exe specs isas)
  file(READ ${manifest} json)
  string(JSON kernels GET "${json}" kernels)
  string(JSON nkernels LENGTH "${kernels}")
  if(nkernels EQUAL 0)
    return()
  endif()
  math(EXPR klast "${nkernels} - 1")
  foreach(k RANGE ${klast})
    string(JSON kname MEMBER "${kernels}" ${k})
    string(JSON specname GET "${kernels}" ${kname} spec)
    set(spec "")
    foreach(candidate IN LISTS specs)
      get_filename_component(base ${candidate} NAME)
      if(base STREQUAL specname)
        set(spec ${candidate})
      endif()
    endforeach()
    string(JSON variants GET "${kernels}" ${kname} variants)
    string(JSON nvariants LENGTH "${variants}")
    math(EXPR vlast "${nvariants} - 1")
    foreach(v RANGE ${vlast})
      string(JSON symbol MEMBER "${variants}" ${v})
      string(JSON target GET "${variants}" ${symbol} target)
      if(spec AND target MATCHES "^(c|openmp)$")
        add_test(NAME ${name}.${symbol}
                 COMMAND ${exe} verify ${spec} --variant ${symbol} ${isas}
                         --cc ${CMAKE_C_COMPILER})
        set_tests_properties(${name}.${symbol} PROPERTIES LABELS risec)
      endif()
    endforeach()
  endforeach()
endfunction()
