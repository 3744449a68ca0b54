// One of the translation units of hlomem_add_parsers_library (cmake/hlomemParsers.cmake): the
// parsers of HLOMEM_INSTANTIATE_MINIMALLOC_CSV, compiled once (include/hlomem/parser/instantiate.hpp).
#define HLOMEM_INSTANTIATE_MINIMALLOC_CSV
#include <hlomem/parser/instantiate.hpp>
