# check_layer.cmake: compiles every header of one layer (one folder of include/hlomem) against an
# include tree that holds only the folders that layer may include, so that a header that reaches
# a higher layer, directly or through another header, fails with "No such file". The #include
# lines are also read, so that an include hidden behind a preprocessor condition is caught too.
#
#   cmake -DLAYER=core -DALLOWED="detail;core" -DINCLUDE_DIR=.../include -DWORK_DIR=...
#         -DCXX=g++ [-DNO_BOOST=ON] [-DSEPARATE=ON] [-DCOMPILED=ON] [-DEXTRA_INCLUDE_DIRS=...] -P check_layer.cmake
#
# SEPARATE: compile with HLOMEM_SEPARATE_COMPILATION (the parsers declared, not instantiated).
# COMPILED: compile with HLOMEM_COMPILED_LIBRARY (the templates of output/instantiate.hpp declared
# `extern`, not instantiated).
# NO_BOOST: the layer must not include Boost at all (core/: users who only want shapes and sizes
# need no Boost). The headers are compiled with -Werror, each included twice (include guards).
foreach(var LAYER ALLOWED INCLUDE_DIR WORK_DIR CXX)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "check_layer.cmake: ${var} is not set")
  endif()
endforeach()

# The include tree this layer sees: a symbolic link per allowed folder and its umbrella header.
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR}/include/hlomem)
foreach(folder IN LISTS ALLOWED)
  if(EXISTS ${INCLUDE_DIR}/hlomem/${folder})
    file(CREATE_LINK ${INCLUDE_DIR}/hlomem/${folder} ${WORK_DIR}/include/hlomem/${folder} SYMBOLIC)
  endif()
  if(EXISTS ${INCLUDE_DIR}/hlomem/${folder}.hpp)
    file(CREATE_LINK ${INCLUDE_DIR}/hlomem/${folder}.hpp ${WORK_DIR}/include/hlomem/${folder}.hpp SYMBOLIC)
  endif()
endforeach()
set(headers)
file(GLOB headers RELATIVE ${INCLUDE_DIR} ${INCLUDE_DIR}/hlomem/${LAYER}/*.hpp)
if(EXISTS ${INCLUDE_DIR}/hlomem/${LAYER}.hpp)
  list(APPEND headers hlomem/${LAYER}.hpp)
endif()
list(SORT headers)
if(NOT headers)
  message(FATAL_ERROR "layer ${LAYER}: no headers under ${INCLUDE_DIR}/hlomem/${LAYER}")
endif()

set(include_flags -I${WORK_DIR}/include)
foreach(dir IN LISTS EXTRA_INCLUDE_DIRS)
  # The compiler's own directories stay out: -isystem /usr/include breaks the C++ headers'
  # #include_next.
  if(NOT dir MATCHES "^/usr(/local)?/include/?$")
    list(APPEND include_flags -isystem ${dir})
  endif()
endforeach()

set(definitions)
if(SEPARATE)
  list(APPEND definitions -DHLOMEM_SEPARATE_COMPILATION)
endif()
if(COMPILED)
  list(APPEND definitions -DHLOMEM_COMPILED_LIBRARY)
endif()
set(failures 0)
foreach(header IN LISTS headers)
  # What the text asks for.
  file(STRINGS ${INCLUDE_DIR}/${header} includes REGEX "^[ \t]*#[ \t]*include[ \t]*<hlomem/")
  foreach(line IN LISTS includes)
    string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*<hlomem/([^/>]+)(/?).*" "\\1\\2" target "${line}")
    if(target MATCHES "/$")
      string(REGEX REPLACE "/$" "" folder "${target}")
      list(FIND ALLOWED ${folder} found)
    else()
      # An umbrella header, <hlomem/FOLDER.hpp>: allowed when its folder is.
      string(REGEX REPLACE "[.]hpp.*$" "" folder "${target}")
      list(FIND ALLOWED ${folder} found)
    endif()
    if(found EQUAL -1)
      string(STRIP "${line}" line)
      message("error: ${header} includes a higher layer: ${line} (${LAYER}/ may include: ${ALLOWED})")
      math(EXPR failures "${failures} + 1")
    endif()
  endforeach()
  if(includes MATCHES "boost/" OR NO_BOOST)
    file(STRINGS ${INCLUDE_DIR}/${header} boost_includes REGEX "^[ \t]*#[ \t]*include[ \t]*<boost/")
    if(NO_BOOST AND boost_includes)
      message("error: ${header} includes Boost: ${boost_includes} (${LAYER}/ includes no Boost)")
      math(EXPR failures "${failures} + 1")
    endif()
  endif()

  # What the compiler finds: the header alone, twice, against the allowed folders only.
  set(source "#include <${header}>\n#include <${header}>\n")
  if(NO_BOOST)
    string(APPEND source "#if defined(BOOST_CONFIG_HPP) || defined(BOOST_VERSION)\n#error \"${header} pulls in Boost\"\n#endif\n")
  endif()
  string(MAKE_C_IDENTIFIER ${header} id)
  file(WRITE ${WORK_DIR}/${id}.cpp "${source}")
  execute_process(COMMAND ${CXX} -std=c++17 -fsyntax-only -Wall -Wextra -Wpedantic -Werror ${definitions} ${include_flags}
                          ${WORK_DIR}/${id}.cpp
                  RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE output)
  if(NOT status EQUAL 0)
    message("error: ${header} does not compile against ${LAYER}/ and the layers below it (${ALLOWED}):\n${output}")
    math(EXPR failures "${failures} + 1")
  endif()
endforeach()

list(LENGTH headers count)
if(failures GREATER 0)
  message(FATAL_ERROR "layer ${LAYER}: ${failures} problem(s) in ${count} headers")
endif()
message(STATUS "layer ${LAYER}: ${count} headers compile against ${ALLOWED} only")
