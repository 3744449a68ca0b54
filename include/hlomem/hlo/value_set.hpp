// hlomem/hlo/value_set.hpp: XLA's InstructionValueSet for every instruction of a module — at each
// node of an instruction's result (hlo/shape_tree.hpp), the ids of the values that may be there
// (xla/hlo/analysis/hlo_value.h: HloValueSet, InstructionValueSet), and the set operations the
// dataflow analysis (hlo/dataflow.hpp) updates them with.
//
//   hlomem::instruction_value_sets sets(m);     // every set empty; one tree per distinct shape
//   sets.set(i, sets.tree(i).find(std::vector<int>{1}));          // the ids at {1} of i
//   sets.copy_subtree(gte, 0, tuple, sets.tree(tuple).child(0, 1)); // gte := tuple{1}
//
// Instructions of one shape share its subshape tree; the sets of all instructions sit in one
// vector, those of instruction i from its first node on. A set holds one id in place (in SSA form
// every set but a few holds exactly one): the module's sets cost no allocation of their own.
#ifndef HLOMEM_HLO_VALUE_SET_HPP
#define HLOMEM_HLO_VALUE_SET_HPP

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <vector>

#include <hlomem/hlo/module.hpp>
#include <hlomem/hlo/shape_tree.hpp>
#include <hlomem/hlo/value.hpp>

namespace hlomem {

/// The ids of the values at one node, sorted: one in place, more in a block of their own.
class value_id_set {
public:
    value_id_set() noexcept = default;
    value_id_set(value_id_set const& o) { assign(o.begin(), o.end()); }
    value_id_set& operator=(value_id_set const& o) {
        if (this != &o) assign(o.begin(), o.end());
        return *this;
    }
    value_id_set(value_id_set&& o) noexcept
        : many_(std::move(o.many_)), size_(o.size_), capacity_(o.capacity_), one_(o.one_) {
        o.size_ = 0;
        o.capacity_ = 0;
    }
    value_id_set& operator=(value_id_set&& o) noexcept {
        many_ = std::move(o.many_);
        size_ = o.size_;
        capacity_ = o.capacity_;
        one_ = o.one_;
        o.size_ = 0;
        o.capacity_ = 0;
        return *this;
    }

    std::size_t size() const noexcept { return size_; }
    bool empty() const noexcept { return size_ == 0; }
    value_id const* data() const noexcept { return size_ > 1 ? many_.get() : &one_; }
    value_id const* begin() const noexcept { return data(); }
    value_id const* end() const noexcept { return data() + size_; }
    value_id operator[](std::size_t k) const noexcept { return data()[k]; }

    /// The set {id}.
    void assign_one(value_id id) noexcept {
        size_ = 1;
        one_ = id;
    }
    /// The ids [first, last), sorted and distinct.
    void assign(value_id const* first, value_id const* last) {
        auto const n = static_cast<std::uint32_t>(last - first);
        if (n > 1) {
            if (n > capacity_) {
                std::unique_ptr<value_id[]> block(new value_id[n]);
                std::copy(first, last, block.get());
                many_ = std::move(block);
                capacity_ = n;
            } else {
                std::copy(first, last, many_.get());
            }
        } else if (n == 1) {
            one_ = *first;
        }
        size_ = n;
    }

    friend bool operator==(value_id_set const& a, value_id_set const& b) noexcept {
        return a.size_ == b.size_ && std::equal(a.begin(), a.end(), b.begin());
    }
    friend bool operator!=(value_id_set const& a, value_id_set const& b) noexcept { return !(a == b); }

private:
    std::unique_ptr<value_id[]> many_;  // when size_ > 1
    std::uint32_t size_ = 0;
    std::uint32_t capacity_ = 0;        // of many_
    value_id one_ = no_value;           // when size_ == 1
};

class instruction_value_sets {
public:
    /// The ids of the values at one node, sorted.
    using id_set = value_id_set;

    template <class P>
    explicit instruction_value_sets(basic_hlo_module<P> const& m) : instruction_value_sets(m, std::vector<std::uint8_t>()) {}
    /// Sets only for the instructions of computations whose `without_sets[c]` is 0 (a shorter
    /// vector counts as zeros): the others keep their trees, and each of their nodes reads as one
    /// shared empty set that must never be written. The dataflow analysis leaves fusion bodies
    /// out this way, which most of a large module's instructions belong to.
    template <class P>
    instruction_value_sets(basic_hlo_module<P> const& m, std::vector<std::uint8_t> const& without_sets) {
        std::vector<std::uint32_t> tree_of_shape(m.shapes().size(), no_node);
        tree_of_.resize(m.instruction_count());
        node_base_.resize(m.instruction_count() + 1);
        std::vector<bool> has_sets(m.instruction_count(), true);
        std::uint32_t widest = 0;  // the most nodes of a tree left without sets: the shared empty ones
        for (instruction_id i = 0; i < m.instruction_count(); ++i) {
            shape_id const s = m.instruction(i).shape;
            std::uint32_t t = 0;
            if (s == no_shape || s >= tree_of_shape.size()) {
                t = static_cast<std::uint32_t>(trees_.size());
                trees_.push_back(std::make_unique<subshape_tree>());
            } else {
                if (tree_of_shape[s] == no_node) {
                    tree_of_shape[s] = static_cast<std::uint32_t>(trees_.size());
                    trees_.push_back(std::make_unique<subshape_tree>(m.shape(s)));
                }
                t = tree_of_shape[s];
            }
            tree_of_[i] = t;
            computation_id const c = m.instruction(i).computation;
            if (c < without_sets.size() && without_sets[c]) {
                has_sets[i] = false;
                widest = std::max<std::uint32_t>(widest, trees_[t]->size());
            }
        }
        std::uint32_t total = widest;
        for (instruction_id i = 0; i < m.instruction_count(); ++i) {
            node_base_[i] = has_sets[i] ? total : 0;
            if (has_sets[i]) total += trees_[tree_of_[i]]->size();
        }
        node_base_[m.instruction_count()] = total;
        sets_.assign(total, id_set{});
    }

    /// The subshapes of an instruction's result.
    subshape_tree const& tree(instruction_id i) const { return *trees_[tree_of_[i]]; }
    id_set& set(instruction_id i, shape_node n) { return sets_[node_base_[i] + n]; }
    id_set const& set(instruction_id i, shape_node n) const { return sets_[node_base_[i] + n]; }
    /// Whether `a` and `b` are instructions whose results have as many nodes.
    bool same_tree(instruction_id a, instruction_id b) const {
        return a != no_instruction && b != no_instruction && tree(a).size() == tree(b).size();
    }

    /// dst := src; whether dst changed.
    static bool assign(id_set& dst, id_set const& src) {
        if (dst == src) return false;
        dst = src;
        return true;
    }
    /// dst := union of the sets (XLA's HloValueSet::AssignUnionOf); whether dst changed.
    static bool assign_union(id_set& dst, std::initializer_list<id_set const*> sources) {
        std::vector<value_id> u;
        for (auto const* s : sources) u.insert(u.end(), s->begin(), s->end());
        return assign_sorted(dst, u);
    }
    /// dst := the ids of `u` (any order, repeats allowed); whether dst changed.
    static bool assign_sorted(id_set& dst, std::vector<value_id>& u) {
        std::sort(u.begin(), u.end());
        u.erase(std::unique(u.begin(), u.end()), u.end());
        if (dst.size() == u.size() && std::equal(u.begin(), u.end(), dst.begin())) return false;
        dst.assign(u.data(), u.data() + u.size());
        return true;
    }
    /// Copies the subtree of `src` at `src_node` onto the subtree of `dst` at `dst_node`, node for
    /// node; nothing when their shapes differ (bad input). Whether anything changed.
    bool copy_subtree(instruction_id dst, shape_node dst_node, instruction_id src, shape_node src_node) {
        if (src == no_instruction || dst_node == no_node || src_node == no_node) return false;
        auto const n = tree(dst)[dst_node].subtree_size;
        if (tree(src)[src_node].subtree_size != n) return false;
        bool changed = false;
        for (std::uint32_t k = 0; k < n; ++k) changed |= assign(set(dst, dst_node + k), set(src, src_node + k));
        return changed;
    }

private:
    std::vector<std::unique_ptr<subshape_tree>> trees_;
    std::vector<std::uint32_t> tree_of_;    // per instruction: index into trees_
    std::vector<std::uint32_t> node_base_;  // per instruction: its first set in sets_
    std::vector<id_set> sets_;
};

}  // namespace hlomem

#endif  // HLOMEM_HLO_VALUE_SET_HPP
