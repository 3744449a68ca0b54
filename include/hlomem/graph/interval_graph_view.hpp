// hlomem/graph/interval_graph_view.hpp: an interval graph that stores no edges.
//
// When nearly every value is live at once, an interference graph has close to n² edges. This view
// keeps only the vertices' live ranges (and colors) and answers Boost.Graph's questions from them,
// in the manner of Boost.Graph's example/implicit_graph.cpp. It models:
//
//   VertexListGraph   vertices(g), num_vertices(g)
//   AdjacencyGraph    adjacent_vertices(u, g)
//   IncidenceGraph    out_edges(u, g), out_degree(u, g), source(e, g), target(e, g)
//   AdjacencyMatrix   edge(u, v, g) in O(1): do the two ranges overlap, in the same color?
//
//   interval_graph_view g({{0, 2}, {1, 4}, {3, 5}});    // three inclusive ranges
//   edge(0, 1, g).second == true; out_degree(1, g) == 2;
//
// out_degree is O(log n) (a count of ranges starting by u's end minus those ending before u's
// start); out_edges walks the ranges that start within the longest range's length of u, so its
// cost grows with that window rather than with u's degree alone.
#ifndef HLOMEM_GRAPH_INTERVAL_GRAPH_VIEW_HPP
#define HLOMEM_GRAPH_INTERVAL_GRAPH_VIEW_HPP

#include <algorithm>
#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include <boost/graph/adjacency_iterator.hpp>
#include <boost/graph/graph_traits.hpp>
#include <boost/graph/properties.hpp>
#include <boost/iterator/counting_iterator.hpp>
#include <boost/iterator/iterator_facade.hpp>
#include <boost/property_map/property_map.hpp>

#include <hlomem/dump/buffer_assignment.hpp>
#include <hlomem/dump/live_range.hpp>
#include <hlomem/graph/interference_graph.hpp>

namespace hlomem {

class interval_graph_view {
public:
    // -- Graph -----------------------------------------------------------------------------------
    using vertex_descriptor = std::size_t;
    struct edge_descriptor {
        std::size_t source = 0;
        std::size_t target = 0;
        friend bool operator==(edge_descriptor const& a, edge_descriptor const& b) {
            return a.source == b.source && a.target == b.target;
        }
        friend bool operator!=(edge_descriptor const& a, edge_descriptor const& b) { return !(a == b); }
    };
    using directed_category = boost::undirected_tag;
    using edge_parallel_category = boost::disallow_parallel_edge_tag;
    struct traversal_category : virtual boost::vertex_list_graph_tag,
                                virtual boost::adjacency_graph_tag,
                                virtual boost::incidence_graph_tag,
                                virtual boost::adjacency_matrix_tag {};
    using vertices_size_type = std::size_t;
    using edges_size_type = std::size_t;
    using degree_size_type = std::size_t;
    using vertex_iterator = boost::counting_iterator<std::size_t>;

    /// Walks u's neighbours: the ranges of u's color that start in [u.start - longest, u.end] and
    /// end at or after u.start.
    class out_edge_iterator
        : public boost::iterator_facade<out_edge_iterator, edge_descriptor, boost::forward_traversal_tag, edge_descriptor> {
    public:
        out_edge_iterator() = default;
        out_edge_iterator(interval_graph_view const* g, std::size_t u, std::size_t pos, std::size_t end)
            : g_(g), u_(u), pos_(pos), end_(end) {
            settle();
        }

    private:
        friend class boost::iterator_core_access;
        edge_descriptor dereference() const { return {u_, g_->order_[pos_]}; }
        bool equal(out_edge_iterator const& other) const { return pos_ == other.pos_ && u_ == other.u_; }
        void increment() {
            ++pos_;
            settle();
        }
        void settle() {
            while (pos_ < end_) {
                std::size_t const v = g_->order_[pos_];
                if (v != u_ && g_->ranges_[v].end >= g_->ranges_[u_].start) return;
                ++pos_;
            }
        }

        interval_graph_view const* g_ = nullptr;
        std::size_t u_ = 0, pos_ = 0, end_ = 0;
    };
    using adjacency_iterator =
        boost::adjacency_iterator_generator<interval_graph_view, vertex_descriptor, out_edge_iterator>::type;

    static vertex_descriptor null_vertex() { return npos; }

    // -- Construction ----------------------------------------------------------------------------
    /// One vertex per range; `colors` (same length, or empty for one color) separates memory
    /// spaces: ranges of different colors never interfere.
    explicit interval_graph_view(std::vector<live_interval> ranges, std::vector<std::int64_t> colors = {})
        : ranges_(std::move(ranges)), colors_(std::move(colors)) {
        if (colors_.empty()) colors_.assign(ranges_.size(), 0);
        order_.resize(ranges_.size());
        for (std::size_t i = 0; i < order_.size(); ++i) order_[i] = i;
        std::sort(order_.begin(), order_.end(), [&](std::size_t a, std::size_t b) {
            if (colors_[a] != colors_[b]) return colors_[a] < colors_[b];
            return ranges_[a].start != ranges_[b].start ? ranges_[a].start < ranges_[b].start : a < b;
        });
        // Each color is a contiguous run of order_; remember its bounds, longest range and ends.
        group_.resize(ranges_.size());
        for (std::size_t begin = 0; begin < order_.size();) {
            std::size_t end = begin;
            group g{begin, 0, 0, {}, {}};
            while (end < order_.size() && colors_[order_[end]] == colors_[order_[begin]]) {
                live_interval const r = ranges_[order_[end]];
                g.longest = std::max(g.longest, r.end - r.start);
                g.starts.push_back(r.start);
                g.ends.push_back(r.end);
                group_[order_[end]] = groups_.size();
                ++end;
            }
            g.end = end;
            std::sort(g.ends.begin(), g.ends.end());
            groups_.push_back(std::move(g));
            begin = end;
        }
    }

    live_interval const& range(vertex_descriptor v) const { return ranges_[v]; }
    std::int64_t color(vertex_descriptor v) const { return colors_[v]; }
    std::vector<live_interval> const& ranges() const noexcept { return ranges_; }

    /// True when u and v interfere.
    bool interferes(vertex_descriptor u, vertex_descriptor v) const {
        return u != v && colors_[u] == colors_[v] && ranges_[u].overlaps(ranges_[v]);
    }

    // -- Used by the free functions below --------------------------------------------------------
    std::pair<out_edge_iterator, out_edge_iterator> out_edges_of(vertex_descriptor u) const {
        group const& g = groups_[group_[u]];
        live_interval const r = ranges_[u];
        auto const first_start = std::lower_bound(g.starts.begin(), g.starts.end(), r.start - g.longest);
        auto const last_start = std::upper_bound(g.starts.begin(), g.starts.end(), r.end);
        std::size_t const lo = g.begin + static_cast<std::size_t>(first_start - g.starts.begin());
        std::size_t const hi = g.begin + static_cast<std::size_t>(last_start - g.starts.begin());
        return {out_edge_iterator(this, u, lo, hi), out_edge_iterator(this, u, hi, hi)};
    }
    std::size_t degree_of(vertex_descriptor u) const {
        group const& g = groups_[group_[u]];
        live_interval const r = ranges_[u];
        auto const started = std::upper_bound(g.starts.begin(), g.starts.end(), r.end) - g.starts.begin();
        auto const ended_before = std::lower_bound(g.ends.begin(), g.ends.end(), r.start) - g.ends.begin();
        return static_cast<std::size_t>(started - ended_before) - 1;
    }

private:
    struct group {
        std::size_t begin, end;            // the color's run in order_
        logical_time longest;              // the longest range's end - start
        std::vector<logical_time> starts;  // of the run, in order
        std::vector<logical_time> ends;    // sorted
    };

    std::vector<live_interval> ranges_;
    std::vector<std::int64_t> colors_;
    std::vector<std::size_t> order_;   // by (color, start)
    std::vector<std::size_t> group_;   // vertex -> index into groups_
    std::vector<group> groups_;
};

// -- Valid expressions, found by ADL --------------------------------------------------------------

inline std::pair<interval_graph_view::vertex_iterator, interval_graph_view::vertex_iterator> vertices(
    interval_graph_view const& g) {
    return {interval_graph_view::vertex_iterator(0), interval_graph_view::vertex_iterator(g.ranges().size())};
}
inline std::size_t num_vertices(interval_graph_view const& g) { return g.ranges().size(); }
inline std::pair<interval_graph_view::out_edge_iterator, interval_graph_view::out_edge_iterator> out_edges(
    std::size_t u, interval_graph_view const& g) {
    return g.out_edges_of(u);
}
inline std::size_t out_degree(std::size_t u, interval_graph_view const& g) { return g.degree_of(u); }
inline std::size_t degree(std::size_t u, interval_graph_view const& g) { return g.degree_of(u); }
inline std::size_t source(interval_graph_view::edge_descriptor e, interval_graph_view const&) { return e.source; }
inline std::size_t target(interval_graph_view::edge_descriptor e, interval_graph_view const&) { return e.target; }
inline std::pair<interval_graph_view::adjacency_iterator, interval_graph_view::adjacency_iterator> adjacent_vertices(
    std::size_t u, interval_graph_view const& g) {
    auto const [first, last] = g.out_edges_of(u);
    return {interval_graph_view::adjacency_iterator(first, &g), interval_graph_view::adjacency_iterator(last, &g)};
}
inline std::pair<interval_graph_view::edge_descriptor, bool> edge(std::size_t u, std::size_t v, interval_graph_view const& g) {
    return {interval_graph_view::edge_descriptor{u, v}, g.interferes(u, v)};
}
/// Vertices are their own indices.
inline boost::typed_identity_property_map<std::size_t> get(boost::vertex_index_t, interval_graph_view const&) { return {}; }

/// A buffer assignment's values as an interval_graph_view, with the value behind each vertex.
struct value_interval_view {
    interval_graph_view graph;
    std::vector<std::size_t> values;  ///< vertex k is ba.values[values[k]]
};

template <class P>
value_interval_view make_interval_graph_view(basic_buffer_assignment<P> const& ba, interference_options const& options = {}) {
    auto selected = interference_values(ba, options);
    std::vector<live_interval> ranges;
    std::vector<std::int64_t> colors;
    for (std::size_t i : selected) {
        ranges.push_back(*ba.values[i].live_range);
        colors.push_back(ba.allocations[ba.values[i].allocation].color);
    }
    return {interval_graph_view(std::move(ranges), std::move(colors)), std::move(selected)};
}

}  // namespace hlomem

namespace boost {
template <>
struct property_map<hlomem::interval_graph_view, vertex_index_t> {
    using type = typed_identity_property_map<std::size_t>;
    using const_type = type;
};
}  // namespace boost

#endif  // HLOMEM_GRAPH_INTERVAL_GRAPH_VIEW_HPP
