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
# hlomem_write_instantiation_unit(PATH UNIT HEADER OUT): writes ${CMAKE_CURRENT_BINARY_DIR}/PATH, a
# translation unit that defines HLOMEM_INSTANTIATE_<UNIT> and includes HEADER, and sets OUT to it.
# Written through configure_file so that an unchanged file keeps its time stamp.
function(hlomem_write_instantiation_unit path unit header out)
  set(source ${CMAKE_CURRENT_BINARY_DIR}/${path})
  file(WRITE ${source}.in "#define HLOMEM_INSTANTIATE_${unit}\n#include <${header}>\n")
  configure_file(${source}.in ${source} COPYONLY)
  set(${out} ${source} PARENT_SCOPE)
endfunction()

function(hlomem_add_parsers_library name)
  set(sources)
  foreach(grammar SHAPE DUMP HLO_MODULE OOM_REPORT MINIMALLOC_CSV)
    string(TOLOWER ${grammar} file)
    hlomem_write_instantiation_unit(${name}/parsers_${file}.cpp ${grammar} hlomem/parser/instantiate.hpp source)
    list(APPEND sources ${source})
  endforeach()
  add_library(${name} STATIC ${ARGN} ${sources})
  target_link_libraries(${name} PUBLIC hlomem::hlomem)
  target_compile_definitions(${name} PUBLIC HLOMEM_SEPARATE_COMPILATION)
endfunction()
