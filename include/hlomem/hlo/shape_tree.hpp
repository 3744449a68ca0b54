// hlomem/hlo/shape_tree.hpp: XLA's ShapeTree order for the subshapes of one shape — the nodes of a
// shape in pre-order ({} = 0, {0} = 1, {0,0}, ..., {1}, ...), each with its path. A subtree is
// contiguous, so a get-tuple-element's nodes are its operand's nodes from an offset on.
//
//   hlomem::subshape_tree const t(shape);          // (f32[2], (s32[], u8[3])): 5 nodes
//   t.find(std::vector<int>{1, 0});                 // 3, the node of {1,0}
//   t.index_of<hlomem::default_policy>(3);          // {1,0}
//
// The order is xla/shape_tree.h's (nodes in the pre-order ShapeUtil::ForEachSubshape walks).
#ifndef HLOMEM_HLO_SHAPE_TREE_HPP
#define HLOMEM_HLO_SHAPE_TREE_HPP

#include <cstddef>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include <hlomem/core/shape.hpp>

namespace hlomem {

/// A subshape of an instruction's result, numbered in pre-order (0 = `{}`).
using shape_node = std::uint32_t;
inline constexpr shape_node no_node = std::numeric_limits<shape_node>::max();

/// The subshapes of one shape in pre-order, with their paths: `(f32[2], (s32[], u8[3]))` has the
/// nodes {}, {0}, {1}, {1,0}, {1,1}. Buffers `b(...)`, tokens and opaques are leaves.
class subshape_tree {
public:
    struct node {
        std::uint32_t parent = no_node;
        std::uint32_t subtree_size = 1;  ///< nodes in the subtree, this one included
        std::uint32_t children_begin = 0;  ///< into children_
        std::uint32_t child_count = 0;
        std::uint32_t path_begin = 0;  ///< into paths_
        std::uint32_t depth = 0;
        bool is_tuple = false;
        bool is_array = false;
    };

    subshape_tree() { nodes_.push_back(node{}); }
    template <class P>
    explicit subshape_tree(basic_shape<P> const& s) {
        std::vector<std::int64_t> path;
        add(s, no_node, path);
    }

    std::uint32_t size() const noexcept { return static_cast<std::uint32_t>(nodes_.size()); }
    node const& operator[](shape_node n) const { return nodes_[n]; }
    /// Child `i` of `n`, or no_node.
    shape_node child(shape_node n, std::int64_t i) const {
        auto const& x = nodes_[n];
        if (i < 0 || static_cast<std::uint64_t>(i) >= x.child_count) return no_node;
        return children_[x.children_begin + static_cast<std::size_t>(i)];
    }
    /// The path of `n`: `{1,0}` as its elements.
    std::pair<std::int64_t const*, std::size_t> path(shape_node n) const {
        return {paths_.data() + nodes_[n].path_begin, nodes_[n].depth};
    }
    /// The first element of the path of `n` (the top-level tuple element it is in); -1 for `{}`.
    std::int64_t top_index(shape_node n) const { return nodes_[n].depth == 0 ? -1 : paths_[nodes_[n].path_begin]; }
    /// The node at `path` below `from`, or no_node when the path leaves the tuple structure.
    template <class Path>
    shape_node find(Path const& p, shape_node from = 0) const {
        shape_node n = from;
        for (auto i : p) {
            n = child(n, static_cast<std::int64_t>(i));
            if (n == no_node) return no_node;
        }
        return n;
    }
    template <class P>
    basic_shape_index<P> index_of(shape_node n) const {
        basic_shape_index<P> out;
        auto [p, count] = path(n);
        for (std::size_t k = 0; k < count; ++k) out.push_back(static_cast<typename P::int_type>(p[k]));
        return out;
    }

private:
    template <class P>
    void add(basic_shape<P> const& s, std::uint32_t parent, std::vector<std::int64_t>& path) {
        auto const self = static_cast<std::uint32_t>(nodes_.size());
        node x;
        x.parent = parent;
        x.path_begin = static_cast<std::uint32_t>(paths_.size());
        x.depth = static_cast<std::uint32_t>(path.size());
        x.is_tuple = s.is_tuple();
        x.is_array = s.is_array();
        paths_.insert(paths_.end(), path.begin(), path.end());
        nodes_.push_back(x);
        if (!s.is_tuple()) return;
        // Children are listed contiguously once known; reserve their slots first.
        auto const begin = static_cast<std::uint32_t>(children_.size());
        nodes_[self].children_begin = begin;
        nodes_[self].child_count = static_cast<std::uint32_t>(s.tuple_shapes_size());
        children_.resize(children_.size() + s.tuple_shapes_size());
        for (std::size_t i = 0; i < s.tuple_shapes_size(); ++i) {
            children_[begin + i] = static_cast<std::uint32_t>(nodes_.size());
            path.push_back(static_cast<std::int64_t>(i));
            add(s.tuple_shape(i), self, path);
            path.pop_back();
        }
        nodes_[self].subtree_size = static_cast<std::uint32_t>(nodes_.size()) - self;
    }

    std::vector<node> nodes_;
    std::vector<std::uint32_t> children_;
    std::vector<std::int64_t> paths_;
};

}  // namespace hlomem

#endif  // HLOMEM_HLO_SHAPE_TREE_HPP
