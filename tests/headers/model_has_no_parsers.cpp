// The model headers must not pull in Spirit or Boost.Graph: users who only want shapes and sizes
// should not pay for the parsers' compile time.
#include <hlomem/model.hpp>

#if defined(BOOST_SPIRIT_X3_HPP) || defined(BOOST_SPIRIT_X3_CORE_PARSER_HPP)
#error "hlomem/model.hpp includes Spirit X3"
#endif
#if defined(BOOST_GRAPH_ADJACENCY_LIST_HPP) || defined(BOOST_GRAPH_GRAPH_TRAITS_HPP)
#error "hlomem/model.hpp includes Boost.Graph"
#endif
