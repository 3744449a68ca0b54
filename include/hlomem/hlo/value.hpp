// hlomem/hlo/value.hpp: XLA's HloValue and where it sits (xla/hlo/analysis/hlo_value.h) — a logical
// value's id, its defining instruction and index, its positions (HloPosition: where it appears)
// and its uses (HloUse: which operand of which instruction reads it) — and where an instruction
// defines one (define_values). hlo/dataflow.hpp computes them all; a value's index is a node of its
// instruction's subshape tree (hlo/shape_tree.hpp).
#ifndef HLOMEM_HLO_VALUE_HPP
#define HLOMEM_HLO_VALUE_HPP

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <limits>

#include <hlomem/hlo/call_graph.hpp>
#include <hlomem/hlo/module.hpp>
#include <hlomem/hlo/opcode.hpp>
#include <hlomem/hlo/shape_tree.hpp>

namespace hlomem {

/// XLA's HloValue::Id: creation order in the dataflow analysis.
using value_id = std::uint32_t;
inline constexpr value_id no_value = std::numeric_limits<value_id>::max();
/// "No such value" for positions in basic_hlo_dataflow::values().
inline constexpr std::size_t no_value_index = std::numeric_limits<std::size_t>::max();

/// One logical value (XLA's HloValue).
struct hlo_value {
    value_id id = no_value;
    instruction_id instruction = no_instruction;  ///< the defining instruction
    shape_node node = 0;                          ///< the defining index, as a node of its shape
    bool is_phi = false;
    bool live_out = false;  ///< appears at the entry computation's root
    std::uint32_t positions_begin = 0, positions_count = 0;
    std::uint32_t uses_begin = 0, uses_count = 0;
};

/// An HloPosition: the value appears at `node` of `instruction`'s result.
struct hlo_value_position {
    instruction_id instruction = no_instruction;
    shape_node node = 0;
};

/// An HloUse: `instruction` reads the value as (part of) operand `operand_number`, at `node` of
/// that operand's shape.
struct hlo_value_use {
    instruction_id instruction = no_instruction;
    std::uint32_t operand_number = 0;
    shape_node node = 0;
};

/// XLA's HloDataflowAnalysis::InitializeInstructionValueSets for one instruction: calls `define(n)`
/// for every node `n` of `i`'s result at which `i` defines a new value, in the order XLA creates
/// them. `tree_of(k)` is the subshape tree of instruction `k`'s result; `bitcast_defines_value` is
/// the option of hlo/dataflow.hpp. The rules (hlo/dataflow.hpp's header lists them all):
///   `f32[8] add(...)` defines {}; `(f32[8], s32[]) tuple(...)` defines {} only;
///   `get-tuple-element`, `while`, `call`, `conditional` define nothing (defines_no_value);
///   a `parameter` defines everything unless its computation is called as control flow.
template <class P, class TreeOf, class Define>
void define_values(basic_hlo_module<P> const& m, basic_call_graph<P> const& graph, instruction_id i, TreeOf const& tree_of,
                   bool bitcast_defines_value, Define&& define) {
    computation_id const c = m.instruction(i).computation;
    call_context const context = graph.context(c);
    bool const has_callers = !m.callers(c).empty();
    auto const& t = tree_of(i);
    auto define_where = [&](auto pred) {
        for (shape_node n = 0; n < t.size(); ++n) {
            if (pred(n)) define(n);
        }
    };
    auto define_all = [&] { define_where([](shape_node) { return true; }); };
    auto define_tuples = [&] { define_where([&](shape_node n) { return t[n].is_tuple; }); };
    auto define_at = [&](std::initializer_list<std::int64_t> index) {
        shape_node const n = t.find(index);
        if (n != no_node) define(n);
    };
    hlo_opcode const op = m.instruction(i).opcode;
    if (defines_no_value(op, bitcast_defines_value)) return;  // memory/opcode_classes.hpp
    switch (op) {
        case hlo_opcode::parameter:
            if (!has_callers || context == call_context::embedded || context == call_context::both) define_all();
            break;
        case hlo_opcode::copy:
        case hlo_opcode::tuple:
            define_at({});
            break;
        case hlo_opcode::async_start: {
            // {{operands}, result, contexts...}: the tuples and the contexts are new; the
            // result is the wrapped computation's, unless that computation is not known.
            bool const wrapped = graph.async_wrapped_computation(i) != no_computation;
            define_where([&](shape_node n) {
                std::int64_t const top = t.top_index(n);
                return t[n].is_tuple || (!wrapped && top == 1) || top > 1;
            });
            break;
        }
        case hlo_opcode::async_update:
        case hlo_opcode::async_done:
            define_tuples();
            break;
        case hlo_opcode::copy_start:
            define_at({});
            define_at({0});
            define_at({2});
            break;
        case hlo_opcode::all_gather_start:
            define_where([&](shape_node n) { return t[n].is_tuple || t.top_index(n) == 1; });
            break;
        case hlo_opcode::all_gather_done:
        case hlo_opcode::collective_permute_done:
            if (t[0].is_tuple) define_at({});
            break;
        case hlo_opcode::collective_permute_start: {
            define_at({});
            define_at({1});
            for (std::uint32_t k = 2; k < t[0].child_count; ++k) define(t.child(0, k));
            auto const ops = m.operands(i);
            if (ops.size() == 4) {  // in place: the destination is operand 1
                auto const& dst = tree_of(ops[1]);
                if (dst[0].is_tuple) {
                    for (std::uint32_t k = 0; k < dst[0].child_count; ++k) {
                        define_at({1, static_cast<std::int64_t>(k)});
                    }
                }
            } else if (ops.size() > 1) {
                for (std::size_t k = 0; k < ops.size(); ++k) define_at({1, static_cast<std::int64_t>(k)});
            }
            break;
        }
        case hlo_opcode::recv_done:
            define_at({});
            define_at({1});
            break;
        case hlo_opcode::send:
            define_at({});
            define_at({1});
            define_at({2});
            break;
        default:
            define_all();
            break;
    }
}

}  // namespace hlomem

#endif  // HLOMEM_HLO_VALUE_HPP
