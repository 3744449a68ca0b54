// hlomem/hlo/module_reorder.hpp: a computation's instructions put in another order, in place,
// every reference to them following (operands, control predecessors, callers, the root, opcode
// texts); and the order XLA gives the get-tuple-elements that its newer printer leaves out.
//
// XLA of JAX 0.11 prints a use of a tuple's element as an operand `%custom-call.1#0` instead of a
// get-tuple-element instruction, which still exists and is scheduled: its live-range file lists
//   5:custom-call.1
//   6:get-tuple-element
//   7:wrapped_tanh
// and a multi-output fusion's elements one after the other behind it. The builder makes those
// instructions back (hlo/module_builder.hpp) and moves them there with these two functions.
#ifndef HLOMEM_HLO_MODULE_REORDER_HPP
#define HLOMEM_HLO_MODULE_REORDER_HPP

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include <hlomem/hlo/module.hpp>

namespace hlomem {

/// `x#1` -> (`x`, 1); `x#1#0` -> (`x#1`, 0); nullopt when no index of at most 9 digits follows the
/// last '#'.
inline std::optional<std::pair<std::string_view, std::int64_t>> split_element_name(std::string_view name) {
    std::size_t const hash = name.rfind('#');
    if (hash == std::string_view::npos || hash == 0 || hash + 1 == name.size() || name.size() - hash - 1 > 9) return std::nullopt;
    std::int64_t index = 0;
    for (char ch : name.substr(hash + 1)) {
        if (ch < '0' || ch > '9') return std::nullopt;
        index = index * 10 + (ch - '0');
    }
    return std::pair<std::string_view, std::int64_t>(name.substr(0, hash), index);
}

/// The instructions of computation `c` with each of `made` (get-tuple-elements of it) moved right
/// behind the instruction it reads, by tuple index; the others keep their order.
template <class P>
std::vector<instruction_id> elements_behind_tuples(basic_hlo_module<P> const& m, computation_id c,
                                                   std::vector<instruction_id> const& made) {
    auto const range = m.computation(c).instructions();
    instruction_id const first = range.front();
    std::vector<std::vector<instruction_id>> behind(range.size());
    std::vector<char> is_made(range.size(), 0);
    for (instruction_id g : made) {
        is_made[g - first] = 1;
        behind[m.operands(g)[0] - first].push_back(g);
    }
    for (auto& list : behind) {
        std::stable_sort(list.begin(), list.end(),
                         [&](instruction_id a, instruction_id b) { return m.instruction(a).tuple_index < m.instruction(b).tuple_index; });
    }
    std::vector<instruction_id> order, stack;
    order.reserve(range.size());
    for (instruction_id i : range) {
        if (is_made[i - first]) continue;
        stack.push_back(i);
        while (!stack.empty()) {
            instruction_id const at = stack.back();
            stack.pop_back();
            order.push_back(at);
            stack.insert(stack.end(), behind[at - first].rbegin(), behind[at - first].rend());
        }
    }
    return order;
}

/// Puts computation `c`'s instructions in `order` (each of its ids once).
template <class P>
struct hlo_module_reorder {
    /// Returns each old id's new one, indexed by old id minus the computation's first.
    static std::vector<instruction_id> apply(basic_hlo_module<P>& m, computation_id c, std::vector<instruction_id> const& order) {
        auto& comp = m.computations_[c];
        instruction_id const first = comp.first_instruction;
        std::uint32_t const n = comp.instruction_count;
        std::vector<instruction_id> new_id(n);
        for (std::uint32_t k = 0; k < n; ++k) new_id[order[k] - first] = first + k;
        auto renumber = [&](instruction_id& id) {
            if (id != no_instruction && id >= first && id < first + n) id = new_id[id - first];
        };
        std::vector<basic_hlo_instruction<P>> moved(std::make_move_iterator(m.instructions_.begin() + first),
                                                    std::make_move_iterator(m.instructions_.begin() + first + n));
        std::vector<typename basic_hlo_module<P>::instruction_lists> moved_lists(m.lists_.begin() + first, m.lists_.begin() + first + n);
        for (std::uint32_t k = 0; k < n; ++k) {
            m.instructions_[first + k] = std::move(moved[order[k] - first]);
            m.lists_[first + k] = moved_lists[order[k] - first];
        }
        for (instruction_id i = first; i < first + n; ++i) {
            auto const& l = m.lists_[i];
            for (std::uint32_t s = l.operands.first; s < l.operands.first + l.operands.count; ++s) renumber(m.operands_[s]);
            for (std::uint32_t s = l.control_predecessors.first; s < l.control_predecessors.first + l.control_predecessors.count; ++s) {
                renumber(m.control_predecessors_[s]);
            }
            for (std::uint32_t s = l.calls.first; s < l.calls.first + l.calls.count; ++s) m.calls_[s].caller = i;
        }
        renumber(comp.root);
        for (auto& entry : m.opcode_texts_) renumber(entry.first);
        return new_id;
    }
};

}  // namespace hlomem

#endif  // HLOMEM_HLO_MODULE_REORDER_HPP
