# hlomem_add_compiled_library(NAME PARSERS [POLICY view_policy|default_policy] [EXCLUDE_FROM_ALL]):
# a static library NAME that compiles hlomem's heavy templates once, for default_policy and
# view_policy (include/hlomem/output/instantiate.hpp): the loader, a module's buffer assignment and
# its prediction, the analyses (dataflow, liveness, peaks, soundness, timelines, attribution,
# diffs), the what-if and the writers of output/. The
# programs that link it see `extern template` at the end of each header (HLOMEM_COMPILED_LIBRARY)
# and call this code instead of instantiating it in each of their translation units. PARSERS is a
# library made by hlomem_add_parsers_library (cmake/hlomemParsers.cmake), which NAME links: the
# analyses read dumps with the parsers compiled once too.
#
# One translation unit: every part of it reads the whole library first (about 12 s with GCC 12),
# and split in four (HLOMEM_INSTANTIATE_LOAD, _ANALYSES, _WRITERS, _WHATIF) the parts took 166 s
# of compilation at -O3 against 116 s for the one unit. On two cores the one unit runs beside the
# parsers' five and the program's own, and ends with them.
#
# POLICY view_policy or default_policy compiles that policy's templates alone (core/policy.hpp:
# HLOMEM_FOR_EACH_INSTANTIATED_POLICY), with PARSERS of the same policy: a program that reads with
# one policy builds in about half the time (hlomem's own tool reads everything with view_policy and
# links hlomem::compiled_view; the unit took 98 s at -O3 against 140 s for both). A template of the
# other policy that such a program uses is an undefined reference at its link. The advice reads
# the module it edits with view_policy whatever the what-if's policy: a default_policy library
# needs a view_policy one beside it (hlomem's own build links them so).
#
#   find_package(hlomem CONFIG REQUIRED)
#   hlomem_add_parsers_library(my_parsers)
#   hlomem_add_compiled_library(my_hlomem my_parsers)
#   target_link_libraries(my_tool PRIVATE my_hlomem)
#
#   hlomem_add_parsers_library(my_view_parsers POLICY view_policy)
#   hlomem_add_compiled_library(my_view_hlomem my_view_parsers POLICY view_policy)
function(hlomem_add_compiled_library name parsers)
  cmake_parse_arguments(PARSE_ARGV 2 arg "" "POLICY" "")
  hlomem_policy_definition("${arg_POLICY}" definition)
  add_library(${name} STATIC ${arg_UNPARSED_ARGUMENTS} ${HLOMEM_UNITS_DIR}/compiled.cpp)
  target_link_libraries(${name} PUBLIC ${parsers})
  target_compile_definitions(${name} PUBLIC HLOMEM_COMPILED_LIBRARY)
  if(definition)
    target_compile_definitions(${name} PRIVATE ${definition})
  endif()
endfunction()
