# hlomem_add_compiled_library(NAME PARSERS): a static library NAME that compiles hlomem's heavy
# templates once, for default_policy and view_policy (include/hlomem/output/instantiate.hpp): the
# loader, a module's buffer assignment and its prediction, the analyses (dataflow, liveness,
# peaks, soundness, timelines, attribution, diffs), the what-if and the writers of output/. The
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
#   find_package(hlomem CONFIG REQUIRED)
#   hlomem_add_parsers_library(my_parsers)
#   hlomem_add_compiled_library(my_hlomem my_parsers)
#   target_link_libraries(my_tool PRIVATE my_hlomem)
function(hlomem_add_compiled_library name parsers)
  add_library(${name} STATIC ${ARGN} ${HLOMEM_UNITS_DIR}/compiled.cpp)
  target_link_libraries(${name} PUBLIC ${parsers})
  target_compile_definitions(${name} PUBLIC HLOMEM_COMPILED_LIBRARY)
endfunction()
