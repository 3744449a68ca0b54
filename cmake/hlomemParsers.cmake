# hlomem_add_parsers_library(NAME): a static library NAME that compiles every parser entry point
# of hlomem once (for default_policy and view_policy), and makes the programs that link it see
# only their declarations (HLOMEM_SEPARATE_COMPILATION; include/hlomem/parser/api.hpp). Spirit X3
# grammars take tens of seconds to instantiate: a program with many translation units that read
# dumps builds much faster this way. The grammars are spread over five translation units so that
# a parallel build compiles them side by side: shapes; the buffer-assignment texts (buffer
# assignment, live range, memory-usage report: parser/instantiate.hpp); HLO modules; OOM reports;
# MiniMalloc CSV.
#
#   find_package(hlomem CONFIG REQUIRED)
#   hlomem_add_parsers_library(my_parsers)
#   target_link_libraries(my_tool PRIVATE my_parsers)
# hlomem_write_source(PATH TEXT OUT): writes TEXT to ${CMAKE_CURRENT_BINARY_DIR}/PATH, a generated
# translation unit, and sets OUT to its path. Written through configure_file so that an unchanged
# file keeps its time stamp.
function(hlomem_write_source path text out)
  set(source ${CMAKE_CURRENT_BINARY_DIR}/${path})
  file(WRITE ${source}.in "${text}")
  configure_file(${source}.in ${source} COPYONLY)
  set(${out} ${source} PARENT_SCOPE)
endfunction()

function(hlomem_add_parsers_library name)
  set(sources)
  # The longest first: a parallel build starts them in this order.
  foreach(grammar DUMP HLO_MODULE SHAPE OOM_REPORT MINIMALLOC_CSV)
    string(TOLOWER ${grammar} file)
    hlomem_write_source(${name}/parsers_${file}.cpp
                        "#define HLOMEM_INSTANTIATE_${grammar}\n#include <hlomem/parser/instantiate.hpp>\n" source)
    list(APPEND sources ${source})
  endforeach()
  add_library(${name} STATIC ${ARGN} ${sources})
  target_link_libraries(${name} PUBLIC hlomem::hlomem)
  target_compile_definitions(${name} PUBLIC HLOMEM_SEPARATE_COMPILATION)
endfunction()
