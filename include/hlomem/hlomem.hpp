// hlomem/hlomem.hpp: the whole library — the model, the parsers and the graphs.
//
//   #include <hlomem/hlomem.hpp>
//   hlomem::shape s = hlomem::parse_shape("bf16[4096,3584]{1,0:T(8,128)(2,1)}");
//   std::int64_t padded = hlomem::array_size(s);   // 29360128
#ifndef HLOMEM_HLOMEM_HPP
#define HLOMEM_HLOMEM_HPP

#include <hlomem/graph.hpp>
#include <hlomem/model.hpp>
#include <hlomem/parse.hpp>

#endif  // HLOMEM_HLOMEM_HPP
