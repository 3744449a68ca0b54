// hlomem/allocation.hpp: static memory allocation — the problem model, XLA's best-fit heap and
// other one-pass allocators, a local search, an exact search, the temp-arena problems of XLA
// dumps, and MiniMalloc CSV output. No Spirit and no Boost.Graph (the CSV parser is in
// <hlomem/parser/minimalloc_csv.hpp>, the graph helpers in <hlomem/graph/allocation.hpp>).
//
//   auto arenas = hlomem::temp_arenas(ba);                  // one problem per temp allocation
//   auto p = arenas[0].problem;
//   auto r = hlomem::plan(p, hlomem::allocation_algorithm::improve);
//   // r.bytes against arenas[0].xla_bytes and hlomem::lower_bound_bytes(p)
#ifndef HLOMEM_ALLOCATION_HPP
#define HLOMEM_ALLOCATION_HPP

#include <hlomem/allocation/best_fit.hpp>
#include <hlomem/allocation/exact.hpp>
#include <hlomem/allocation/greedy.hpp>
#include <hlomem/allocation/improve.hpp>
#include <hlomem/allocation/minimalloc_csv.hpp>
#include <hlomem/allocation/plan.hpp>
#include <hlomem/allocation/problem.hpp>
#include <hlomem/allocation/temp_arena.hpp>

#endif  // HLOMEM_ALLOCATION_HPP
