// hlomem/hlo/phi_graph.hpp: XLA's PhiGraph (xla/service/hlo_phi_graph.cc) — the phi values the
// dataflow analysis creates where control flow merges values, and the optimization that finds
// which phis merge a single value only and so stand for it.
//
//   hlomem::phi_graph g;
//   g.register_phi(7, {3, 7});       // phi 7 (a while's state) merges value 3 and itself
//   g.optimize();
//   g.optimized_value(7);            // 3: the phi is value 3
//
// The graph's nodes are values; a phi's operands are the nodes of the values it merges. A phi
// whose operands are all one node (itself aside), or a closure of phis fed by a single non-phi
// node, is replaced by that node, as PhiGraph::Optimize does.
#ifndef HLOMEM_HLO_PHI_GRAPH_HPP
#define HLOMEM_HLO_PHI_GRAPH_HPP

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include <hlomem/hlo/value.hpp>

namespace hlomem {

class phi_graph {
public:
    /// Records that `phi` merges `inputs`, replacing what it merged before (PhiGraph::RegisterPhi).
    void register_phi(value_id phi, std::vector<value_id> const& inputs) {
        std::uint32_t const node = node_of(phi);
        nodes_[node].is_phi = true;
        std::vector<std::uint32_t> operands;
        for (value_id v : inputs) operands.push_back(node_of(v));
        nodes_[node].operands = std::move(operands);
    }
    /// The values `phi` was last registered to merge.
    std::vector<value_id> inputs(value_id phi) {
        std::vector<value_id> out;
        for (std::uint32_t o : nodes_[node_of(phi)].operands) out.push_back(nodes_[o].value);
        return out;
    }
    /// Whether no phi was ever registered.
    bool empty() const noexcept { return nodes_.empty(); }
    /// PhiGraph::Optimize: replaces every phi that stands for a single value by that value's node.
    void optimize();
    /// The value `v` stands for after optimize() (PhiGraph::FindOptimizedValue); `v` itself when
    /// it was never registered.
    value_id optimized_value(value_id v) const {
        if (v >= node_of_value_.size() || node_of_value_[v] == no_phi_node) return v;
        return nodes_[node_of_value_[v]].value;
    }

private:
    static constexpr std::uint32_t no_phi_node = std::numeric_limits<std::uint32_t>::max();
    struct node {
        value_id value;
        bool is_phi = false;
        bool dead = false;
        std::vector<std::uint32_t> operands;  // nodes
        std::vector<std::uint32_t> users;
        std::vector<value_id> values;         // the values that map to this node
    };

    std::uint32_t node_of(value_id v) {
        if (node_of_value_.size() <= v) node_of_value_.resize(v + 1, no_phi_node);
        if (node_of_value_[v] == no_phi_node) {
            node_of_value_[v] = static_cast<std::uint32_t>(nodes_.size());
            node n;
            n.value = v;
            n.values.push_back(v);
            nodes_.push_back(std::move(n));
        }
        return node_of_value_[v];
    }
    void replace(std::uint32_t n, std::uint32_t replacement) {
        for (std::size_t guard = 0; nodes_[replacement].dead && guard <= nodes_.size(); ++guard) {
            replacement = node_of_value_[nodes_[replacement].value];
        }
        if (nodes_[n].dead || n == replacement) return;
        for (std::uint32_t user : nodes_[n].users) {
            std::replace(nodes_[user].operands.begin(), nodes_[user].operands.end(), n, replacement);
        }
        for (std::uint32_t operand : nodes_[n].operands) {
            std::replace(nodes_[operand].users.begin(), nodes_[operand].users.end(), n, replacement);
        }
        for (value_id v : nodes_[n].values) node_of_value_[v] = replacement;
        auto& moved = nodes_[n].values;
        nodes_[replacement].values.insert(nodes_[replacement].values.end(), moved.begin(), moved.end());
        moved.clear();
        nodes_[n].dead = true;
    }

    std::vector<node> nodes_;
    std::vector<std::uint32_t> node_of_value_;
};

inline void phi_graph::optimize() {
    for (std::uint32_t k = 0; k < nodes_.size(); ++k) {
        for (std::uint32_t o : nodes_[k].operands) nodes_[o].users.push_back(k);
    }
    bool changed = true;
    while (changed) {
        changed = false;
        std::vector<bool> checked(nodes_.size(), false);
        for (std::uint32_t k = 0; k < nodes_.size(); ++k) {
            if (!nodes_[k].is_phi || nodes_[k].dead) continue;
            auto& ops = nodes_[k].operands;
            ops.erase(std::remove(ops.begin(), ops.end(), k), ops.end());
            auto& us = nodes_[k].users;
            us.erase(std::remove(us.begin(), us.end(), k), us.end());
            if (ops.empty()) continue;
            if (std::all_of(ops.begin(), ops.end(), [&](std::uint32_t o) { return o == ops[0]; })) {
                replace(k, ops[0]);
                changed = true;
                continue;
            }
            if (checked[k]) continue;
            std::vector<bool> in_set(nodes_.size(), false);
            std::vector<std::uint32_t> closure;
            std::vector<std::uint32_t> queue{k};
            std::uint32_t non_phi = no_phi_node;
            bool distinct = false;
            for (std::size_t q = 0; q < queue.size() && !distinct; ++q) {
                std::uint32_t const todo = queue[q];
                if (in_set[todo]) continue;
                checked[todo] = true;
                in_set[todo] = true;
                closure.push_back(todo);
                for (std::uint32_t o : nodes_[todo].operands) queue.push_back(o);
                if (!nodes_[todo].is_phi) {
                    if (non_phi != no_phi_node && non_phi != todo) {
                        distinct = true;
                    } else {
                        non_phi = todo;
                    }
                }
            }
            if (distinct || non_phi == no_phi_node) continue;
            for (std::uint32_t n : closure) {
                if (!nodes_[n].is_phi) continue;
                replace(n, non_phi);
                changed = true;
            }
        }
    }
}

}  // namespace hlomem

#endif  // HLOMEM_HLO_PHI_GRAPH_HPP
