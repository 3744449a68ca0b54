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
# The translation units themselves are sources of the package (cmake/units/, installed beside this
# file), not files written into each build: two builds of one checkout compile the same files, so
# that a compiler cache (ccache) serves the second.
set(HLOMEM_UNITS_DIR ${CMAKE_CURRENT_LIST_DIR}/units)

function(hlomem_add_parsers_library name)
  set(sources)
  # The longest first: a parallel build starts them in this order.
  foreach(grammar DUMP HLO_MODULE SHAPE OOM_REPORT MINIMALLOC_CSV)
    string(TOLOWER ${grammar} file)
    list(APPEND sources ${HLOMEM_UNITS_DIR}/parsers_${file}.cpp)
  endforeach()
  add_library(${name} STATIC ${ARGN} ${sources})
  target_link_libraries(${name} PUBLIC hlomem::hlomem)
  target_compile_definitions(${name} PUBLIC HLOMEM_SEPARATE_COMPILATION)
endfunction()
