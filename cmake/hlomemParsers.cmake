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
#   hlomem_add_parsers_library(my_parsers)                       # both policies
#   hlomem_add_parsers_library(my_view_parsers POLICY view_policy)  # or one
#   target_link_libraries(my_tool PRIVATE my_parsers)
# The translation units themselves are sources of the package (cmake/units/, installed beside this
# file), not files written into each build: two builds of one checkout compile the same files, so
# that a compiler cache (ccache) serves the second.
set(HLOMEM_UNITS_DIR ${CMAKE_CURRENT_LIST_DIR}/units)

# hlomem_policy_definition(POLICY OUT): the definition that makes a library's units compile one
# policy's templates (core/policy.hpp), or nothing for both; a POLICY other than view_policy and
# default_policy is an error.
function(hlomem_policy_definition policy out)
  if(NOT policy)
    set(${out} "" PARENT_SCOPE)
  elseif(policy STREQUAL "view_policy")
    set(${out} HLOMEM_INSTANTIATE_VIEW_POLICY PARENT_SCOPE)
  elseif(policy STREQUAL "default_policy")
    set(${out} HLOMEM_INSTANTIATE_DEFAULT_POLICY PARENT_SCOPE)
  else()
    message(FATAL_ERROR "hlomem: POLICY ${policy}: give view_policy or default_policy (or no POLICY for both)")
  endif()
endfunction()

# hlomem_add_parsers_library(NAME [POLICY view_policy|default_policy] [EXCLUDE_FROM_ALL]): with
# POLICY, the grammars for that policy alone (about half the time); the MiniMalloc CSV, which has
# no policy, is in every such library (a program that links two takes one copy from the first).
function(hlomem_add_parsers_library name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "POLICY" "")
  hlomem_policy_definition("${arg_POLICY}" definition)
  set(sources)
  # The longest first: a parallel build starts them in this order.
  foreach(grammar DUMP HLO_MODULE SHAPE OOM_REPORT MINIMALLOC_CSV)
    string(TOLOWER ${grammar} file)
    list(APPEND sources ${HLOMEM_UNITS_DIR}/parsers_${file}.cpp)
  endforeach()
  add_library(${name} STATIC ${arg_UNPARSED_ARGUMENTS} ${sources})
  target_link_libraries(${name} PUBLIC hlomem::hlomem)
  target_compile_definitions(${name} PUBLIC HLOMEM_SEPARATE_COMPILATION)
  if(definition)
    target_compile_definitions(${name} PRIVATE ${definition})
  endif()
endfunction()
