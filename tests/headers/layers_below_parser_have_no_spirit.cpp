// The layers below the parsers and graphs must not pull in Spirit or Boost.Graph: users who only
// want shapes, dumps, analyses or placements should not pay for the parsers' compile time
// (docs/ARCHITECTURE.md; tests/layers checks each folder on its own).
#include <hlomem/core.hpp>
#include <hlomem/dump.hpp>
#include <hlomem/hlo.hpp>
#include <hlomem/memory.hpp>
#include <hlomem/placement.hpp>

#if defined(BOOST_SPIRIT_X3_HPP) || defined(BOOST_SPIRIT_X3_CORE_PARSER_HPP)
#error "a layer below parser/ includes Spirit X3"
#endif
#if defined(BOOST_GRAPH_ADJACENCY_LIST_HPP) || defined(BOOST_GRAPH_GRAPH_TRAITS_HPP)
#error "a layer below graph/ includes Boost.Graph"
#endif
