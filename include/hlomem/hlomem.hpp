// hlomem/hlomem.hpp: the whole library, every layer from the core model to the parsers and graphs
// (docs/ARCHITECTURE.md). Each layer also has an umbrella header of its own:
//
//   <hlomem/core.hpp>       shapes, layouts, sizes, padding (no Boost)
//   <hlomem/dump.hpp>       models of XLA's text dumps
//   <hlomem/memory.hpp>     peaks, soundness, bounds, timelines of a buffer assignment
//   <hlomem/hlo.hpp>        HLO modules, dataflow, aliasing, live ranges derived from a module
//   <hlomem/placement.hpp>  allocation problems and algorithms, XLA's best-fit heap
//   <hlomem/graph.hpp>      Boost.Graph interference and dataflow graphs
//   <hlomem/parser.hpp>     the Spirit X3 grammars and every parser's entry point
//   <hlomem/load.hpp>       one call that reads any of XLA's texts, tells its kind, finds its
//                           sibling files and derives an assignment from a bare module
//   <hlomem/assign.hpp>     XLA's BufferAssigner on a scheduled module
//   <hlomem/diff.hpp>       two compilations compared
//   <hlomem/output.hpp>     every report, JSON document and page hlomem writes
//
//   #include <hlomem/hlomem.hpp>
//   hlomem::shape s = hlomem::parse_shape("bf16[4096,3584]{1,0:T(8,128)(2,1)}");
//   std::int64_t padded = hlomem::array_size(s);   // 29360128
#ifndef HLOMEM_HLOMEM_HPP
#define HLOMEM_HLOMEM_HPP

#include <hlomem/assign.hpp>
#include <hlomem/core.hpp>
#include <hlomem/diff.hpp>
#include <hlomem/dump.hpp>
#include <hlomem/graph.hpp>
#include <hlomem/hlo.hpp>
#include <hlomem/load.hpp>
#include <hlomem/memory.hpp>
#include <hlomem/output.hpp>
#include <hlomem/parser.hpp>
#include <hlomem/placement.hpp>
#include <hlomem/whatif.hpp>

#endif  // HLOMEM_HLOMEM_HPP
