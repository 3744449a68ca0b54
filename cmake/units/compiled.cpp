// The one translation unit of hlomem_add_compiled_library (cmake/hlomemCompiled.cmake): the
// library's heavy templates, compiled once (include/hlomem/output/instantiate.hpp). A source of
// the repository rather than a file generated in each build, so that two builds of one checkout
// (the README's and `pip install .`) compile the same file and a compiler cache serves the second.
#include <hlomem/output/instantiate.hpp>
