// hlomem/placement.hpp: static memory allocation — the problem model, XLA's best-fit heap and
// other one-pass allocators, a local search, an exact search and the smallest arena with it, the
// temp-arena problems of XLA dumps, and MiniMalloc CSV output. No Spirit and no Boost.Graph (the
// CSV parser is in <hlomem/parser/minimalloc_csv.hpp>, the graph helpers in
// <hlomem/graph/allocation.hpp>).
//
//   auto arenas = hlomem::temp_arenas(ba);                  // one problem per temp allocation
//   auto p = arenas[0].problem;
//   auto r = hlomem::plan(p, hlomem::allocation_algorithm::improve);
//   // r.bytes against arenas[0].xla_bytes and hlomem::lower_bound_bytes(p)
#ifndef HLOMEM_PLACEMENT_HPP
#define HLOMEM_PLACEMENT_HPP

#include <hlomem/placement/arena_bound.hpp>
#include <hlomem/placement/best_fit.hpp>
#include <hlomem/placement/exact.hpp>
#include <hlomem/placement/free_space.hpp>
#include <hlomem/placement/greedy.hpp>
#include <hlomem/placement/improve.hpp>
#include <hlomem/placement/minimalloc_csv.hpp>
#include <hlomem/placement/minimize.hpp>
#include <hlomem/placement/plan.hpp>
#include <hlomem/placement/problem.hpp>
#include <hlomem/placement/repack.hpp>
#include <hlomem/placement/temp_arena.hpp>

#endif  // HLOMEM_PLACEMENT_HPP
